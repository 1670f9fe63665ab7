"""Kafka 0.7 requests and responses (seed 002): Produce, Multi-Produce, Fetch, Multi-Fetch, Offsets.

The layouts are generated from ``schemas/legacy/``; this module dispatches a
request on its REQUEST_TYPE, encodes any request or response tuple, and
splits fetch responses into their messages (:mod:`kafkaspec.wire`), which may
end mid-message.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from kafkaspec.generated import (
    fetch_request_v0,
    fetch_response_v0,
    multi_fetch_request_v0,
    multi_fetch_response_v0,
    multi_produce_request_v0,
    offsets_request_v0,
    offsets_response_v0,
    produce_request_v0,
)
from kafkaspec.generated.enums import ErrorCode, OffsetsTime, RequestType

from .codec.compression import DEFAULT_MAX_DECOMPRESSED
from .entry import Buffer, Partial
from .errors import InvalidLengthError, InvalidMagicError, KafkaFormatError, TruncatedError
from .wire import WireBatch, iter_wire_messages

LATEST = OffsetsTime.LATEST  # -1
EARLIEST = OffsetsTime.EARLIEST  # -2


class _Structure(NamedTuple):
    """One 0.7 request or response: its tuple class, its generated codec, and its REQUEST_TYPE (requests)."""

    cls: type
    decode: Callable[..., tuple[Any, int]]
    encode: Callable[[Any], bytes]
    request_type: RequestType | None


#: every 0.7 request and response, once
STRUCTURES = (
    _Structure(
        produce_request_v0.ProduceRequest,
        produce_request_v0.decode_produce_request,
        produce_request_v0.encode_produce_request,
        RequestType.PRODUCE,
    ),
    _Structure(
        fetch_request_v0.FetchRequest,
        fetch_request_v0.decode_fetch_request,
        fetch_request_v0.encode_fetch_request,
        RequestType.FETCH,
    ),
    _Structure(
        multi_fetch_request_v0.MultiFetchRequest,
        multi_fetch_request_v0.decode_multi_fetch_request,
        multi_fetch_request_v0.encode_multi_fetch_request,
        RequestType.MULTIFETCH,
    ),
    _Structure(
        multi_produce_request_v0.MultiProduceRequest,
        multi_produce_request_v0.decode_multi_produce_request,
        multi_produce_request_v0.encode_multi_produce_request,
        RequestType.MULTIPRODUCE,
    ),
    _Structure(
        offsets_request_v0.OffsetsRequest,
        offsets_request_v0.decode_offsets_request,
        offsets_request_v0.encode_offsets_request,
        RequestType.OFFSETS,
    ),
    _Structure(
        offsets_response_v0.OffsetsResponse,
        offsets_response_v0.decode_offsets_response,
        offsets_response_v0.encode_offsets_response,
        None,
    ),
    _Structure(
        fetch_response_v0.FetchResponse,
        fetch_response_v0.decode_fetch_response,
        fetch_response_v0.encode_fetch_response,
        None,
    ),
    _Structure(
        multi_fetch_response_v0.MultiFetchResponse,
        multi_fetch_response_v0.decode_multi_fetch_response,
        multi_fetch_response_v0.encode_multi_fetch_response,
        None,
    ),
)
_BY_REQUEST_TYPE = {s.request_type: s for s in STRUCTURES if s.request_type is not None}
_BY_CLASS = {s.cls: s for s in STRUCTURES}


def _need(buf: bytes, pos: int, what: str) -> None:
    if len(buf) - pos < 6:
        raise TruncatedError(f"0.7 {what} needs at least 6 bytes, {len(buf) - pos} present", pos)
    (length,) = struct.unpack_from(">i", buf, pos)
    if length < 2:
        raise InvalidLengthError(f"0.7 {what} length is {length}, at least 2 expected", pos)
    if pos + 4 + length > len(buf):
        raise TruncatedError(f"0.7 {what} needs {4 + length} bytes, {len(buf) - pos} present", pos)


def decode_request(buf: Buffer, pos: int = 0) -> tuple[Any, int]:
    """Decode the 0.7 request at ``pos`` by its REQUEST_TYPE; return (request, end position)."""
    buf = bytes(buf)
    _need(buf, pos, "request")
    (rtype,) = struct.unpack_from(">h", buf, pos + 4)
    try:
        structure = _BY_REQUEST_TYPE[RequestType(rtype)]
    except (ValueError, KeyError):
        raise InvalidMagicError(f"0.7 REQUEST_TYPE is {rtype}, expected 0-4", pos + 4) from None
    return structure.decode(buf, pos)


def encode(message: tuple[Any, ...]) -> bytes:
    """Encode a 0.7 request or response tuple (FetchRequest, OffsetsResponse, ...); lengths are computed."""
    try:
        structure = _BY_CLASS[type(message)]
    except KeyError:
        raise TypeError(f"not a 0.7 request or response: {type(message).__name__}") from None
    try:
        return structure.encode(message)
    except (struct.error, OverflowError, TypeError, AttributeError, ValueError) as exc:
        raise _misuse(structure, message, exc) from None


def _misuse(structure: _Structure, message: Any, exc: Exception) -> Exception:
    """TypeError/ValueError naming the field of ``message`` that the encoder refused: the first
    field whose value, replaced by an empty one of its kind, lets the message encode."""
    name = type(message).__name__
    kind = TypeError if isinstance(exc, (TypeError, AttributeError)) else ValueError
    for field, value in zip(message._fields, message, strict=True):
        if field == "request_type":
            continue
        for empty in (0, "", b""):
            try:
                structure.encode(message._replace(**{field: empty}))
            except Exception:  # still refused: not this field, or not this kind of value
                continue
            return kind(f"{name}.{field}={value!r:.60}: {exc}")
    return kind(f"{name}: {exc}")


class FetchResult(NamedTuple):
    """A decoded 0.7 fetch response: its error code, complete messages and any partial tail."""

    error_code: int
    messages: list[WireBatch]
    partial: Partial | None
    end: int

    @property
    def error(self) -> ErrorCode:
        """The error code as an :class:`ErrorCode`; a code 0.7 does not define reads as ``UNKNOWN``
        (as Kafka's ErrorMapping maps it), the number itself stays in ``error_code``."""
        try:
            return ErrorCode(self.error_code)
        except ValueError:
            return ErrorCode.UNKNOWN


def decode_fetch_response(
    buf: Buffer,
    pos: int = 0,
    *,
    base_offset: int = 0,
    verify: bool = True,
    max_decompressed: int = DEFAULT_MAX_DECOMPRESSED,
) -> FetchResult:
    """Decode a 0.7 FETCH response; ``base_offset`` is the request's OFFSET.

    The response's MESSAGES may end mid-message (the broker cuts at MAX_SIZE):
    the complete messages are returned and the leftover is in ``partial``.
    """
    buf = bytes(buf)
    _need(buf, pos, "fetch response")
    response, end = fetch_response_v0.decode_fetch_response(buf, pos)
    it = iter_wire_messages(
        response.messages, base_offset=base_offset, verify=verify, max_decompressed=max_decompressed
    )
    try:
        messages = list(it)
    except KafkaFormatError as exc:
        raise exc.at(pos + 6) from None
    partial = it.partial._replace(position=it.partial.position + pos + 6) if it.partial else None
    return FetchResult(response.error_code, messages, partial, end)


def decode_multi_fetch_response(
    buf: Buffer,
    base_offsets: Sequence[int] = (),
    *,
    verify: bool = True,
    max_decompressed: int = DEFAULT_MAX_DECOMPRESSED,
) -> tuple[int, list[FetchResult]]:
    """Decode a 0.7 MULTIFETCH response: (error code, one FetchResult per topic-partition, in request order)."""
    buf = bytes(buf)
    _need(buf, 0, "multi-fetch response")
    response, end = multi_fetch_response_v0.decode_multi_fetch_response(buf, 0)
    results: list[FetchResult] = []
    pos = 6
    while pos < end:
        base = base_offsets[len(results)] if len(results) < len(base_offsets) else 0
        result = decode_fetch_response(
            buf[:end], pos, base_offset=base, verify=verify, max_decompressed=max_decompressed
        )
        results.append(result)
        pos = result.end
    return response.error_code, results
