"""MultiFetchResponse v0: Response to a MULTIFETCH request: a response header, then one FetchResponse
per requested topic-partition, in request order.

Since Kafka 0.6.0.

Generated from schemas/legacy/multi_fetch_response_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from typing import NamedTuple

from kafkaspec.codec.columns import fill_sparse
from kafkaspec.errors import InvalidLengthError, TruncatedError

SCHEMA = "schemas/legacy/multi_fetch_response_v0.yaml"
NAME = "MultiFetchResponse"
VERSION = 0
SINCE = "0.6.0"

# -- layout ------------------------------------------------------------------

RESPONSE_LENGTH_OFFSET = 0
RESPONSE_LENGTH_LENGTH = 4
ERROR_CODE_OFFSET = RESPONSE_LENGTH_OFFSET + RESPONSE_LENGTH_LENGTH
ERROR_CODE_LENGTH = 2
RESPONSES_OFFSET = ERROR_CODE_OFFSET + ERROR_CODE_LENGTH
MULTI_FETCH_RESPONSE_OVERHEAD = RESPONSES_OFFSET  # bytes before the first variable-size field
MIN_MULTI_FETCH_RESPONSE_SIZE = 6  # smallest encoded size
RESPONSE_LENGTH_END = RESPONSE_LENGTH_OFFSET + RESPONSE_LENGTH_LENGTH  # response_length counts from here
MIN_RESPONSE_LENGTH = (
    MULTI_FETCH_RESPONSE_OVERHEAD - RESPONSE_LENGTH_END
)  # the fixed-width fields response_length covers


_S0 = struct.Struct(">ih")
_S1 = struct.Struct(">i")
_S2 = struct.Struct(">h")
_new = tuple.__new__


# -- typed values ---------------------------------------------------------------


class MultiFetchResponse(NamedTuple):
    """Response to a MULTIFETCH request: a response header, then one FetchResponse per
    requested topic-partition, in request order.

    Fields:
        error_code: ERROR_CODE of the request as a whole (see the ErrorCode enum).
        responses: The per-partition FetchResponses back to back
            (kafkaspec.legacy.decode_multi_fetch_response splits them).
    """

    error_code: int = 0
    responses: bytes | None = None


# -- fast codec -----------------------------------------------------------------


def decode_multi_fetch_response_array(
    buf, pos: int, count: int, stop: int | None = None
) -> tuple[list[MultiFetchResponse], int]:
    """Decode ``count`` consecutive MultiFetchResponses from ``buf`` (bytes) at ``pos``, inside ``buf[:stop]``.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends: ``count`` is checked
    against the bytes before it ahead of any decoding, and so is each item's length.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // MIN_MULTI_FETCH_RESPONSE_SIZE:
        raise InvalidLengthError(
            f"{count} MultiFetchResponses cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    items = []
    append = items.append
    start = pos
    new, cls = _new, MultiFetchResponse
    try:
        for _ in range(count):
            start = pos

            (response_length, error_code) = _S0.unpack_from(buf, pos)
            pos += MULTI_FETCH_RESPONSE_OVERHEAD
            end = start + RESPONSE_LENGTH_END + response_length
            # shorter than the fixed fields it covers: they would be read past the end
            if response_length < MIN_RESPONSE_LENGTH:
                raise InvalidLengthError(
                    f"MultiFetchResponse response_length is {response_length}, less than the {MIN_RESPONSE_LENGTH} bytes of fixed fields it covers",
                    start,
                )
            if end > len(buf):
                raise TruncatedError(
                    f"MultiFetchResponse needs {end - start} bytes, {len(buf) - start} present", start
                )

            n = end - pos
            if n >= 0:
                responses = buf[pos : pos + n]
                pos += n
            else:
                raise InvalidLengthError(
                    f"MultiFetchResponse responses length {n} is negative", pos - 1
                )  # its length's last byte
            if pos != end:
                raise InvalidLengthError(
                    f"MultiFetchResponse fields end at byte {pos}, its length says {end}", start
                )
            append(new(cls, (error_code, responses)))
    except (IndexError, struct.error):
        raise TruncatedError("MultiFetchResponse ends before its fields do", start) from None
    if pos > stop:
        raise TruncatedError(f"MultiFetchResponse runs past byte {stop}, the end of what holds it", start)
    return items, pos


def decode_multi_fetch_response(buf, pos: int = 0) -> tuple[MultiFetchResponse, int]:
    """Decode one MultiFetchResponse at ``pos``; return it and the position after it."""
    items, pos = decode_multi_fetch_response_array(bytes(buf), pos, 1)
    return items[0], pos


def encode_multi_fetch_response_array(items) -> bytes:
    """Encode a sequence of MultiFetchResponses back to back."""
    out = bytearray()
    for item in items:
        (error_code, responses) = item

        d2 = responses
        if d2 is None:
            raise ValueError("MultiFetchResponse responses cannot be null")
            d2 = b""

        p1 = _S2.pack(error_code)

        s0 = b"".join((p1, d2))
        p0 = _S1.pack(len(s0))
        out += p0
        out += s0
    return bytes(out)


def encode_multi_fetch_response(item) -> bytes:
    """Encode one MultiFetchResponse."""
    return encode_multi_fetch_response_array((item,))


# -- columnar decoding ------------------------------------------------------------


class MultiFetchResponseColumns:
    """Decoded MultiFetchResponses as one list per field (columns, ready for Arrow)."""

    __slots__ = (
        "error_code",
        "responses",
    )

    def __init__(self) -> None:
        self.error_code: list = []
        self.responses: list = []

    def __len__(self) -> int:
        return len(self.error_code)

    def truncate(self, n: int) -> None:
        """Keep the first ``n`` items: drop what a failed decode appended."""
        del self.error_code[n:]
        del self.responses[n:]


def decode_multi_fetch_response_columns(
    buf, pos: int, count: int, columns: MultiFetchResponseColumns, stop: int | None = None
) -> int:
    """Decode ``count`` consecutive MultiFetchResponses at ``pos`` into ``columns``; return the position after them.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends, as in
    :func:`decode_multi_fetch_response_array`.

    Each item's values are appended once the whole item has decoded; on an
    error, ``columns.truncate(len_before)`` restores the columns.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // MIN_MULTI_FETCH_RESPONSE_SIZE:
        raise InvalidLengthError(
            f"{count} MultiFetchResponses cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    error_code_odd: list[tuple[int, int]] = []  # (index, value) of the items whose error_code is not 0
    append_responses = columns.responses.append
    start = pos
    try:
        for i in range(count):
            start = pos

            (response_length, error_code) = _S0.unpack_from(buf, pos)
            pos += MULTI_FETCH_RESPONSE_OVERHEAD
            end = start + RESPONSE_LENGTH_END + response_length
            # shorter than the fixed fields it covers: they would be read past the end
            if response_length < MIN_RESPONSE_LENGTH:
                raise InvalidLengthError(
                    f"MultiFetchResponse response_length is {response_length}, less than the {MIN_RESPONSE_LENGTH} bytes of fixed fields it covers",
                    start,
                )
            if end > len(buf):
                raise TruncatedError(
                    f"MultiFetchResponse needs {end - start} bytes, {len(buf) - start} present", start
                )

            n = end - pos
            if n >= 0:
                responses = buf[pos : pos + n]
                pos += n
            else:
                raise InvalidLengthError(
                    f"MultiFetchResponse responses length {n} is negative", pos - 1
                )  # its length's last byte
            if pos != end:
                raise InvalidLengthError(
                    f"MultiFetchResponse fields end at byte {pos}, its length says {end}", start
                )
            if error_code != 0:
                error_code_odd.append((i, error_code))
            append_responses(responses)
    except (IndexError, struct.error):
        raise TruncatedError("MultiFetchResponse ends before its fields do", start) from None
    if pos > stop:
        raise TruncatedError(f"MultiFetchResponse runs past byte {stop}, the end of what holds it", start)
    fill_sparse(columns.error_code, count, 0, error_code_odd)
    return pos
