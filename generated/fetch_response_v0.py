"""FetchResponse v0: Response to a FETCH request (and each part of a Multi-Fetch response): a
response header and a chunk of the log. The chunk may end in the middle of a
message; that is not an error.

Since Kafka 0.6.0.

Generated from schemas/legacy/fetch_response_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from typing import NamedTuple

from kafkaspec.codec.columns import fill_sparse
from kafkaspec.errors import InvalidLengthError, TruncatedError

SCHEMA = "schemas/legacy/fetch_response_v0.yaml"
NAME = "FetchResponse"
VERSION = 0
SINCE = "0.6.0"

# -- layout ------------------------------------------------------------------

RESPONSE_LENGTH_OFFSET = 0
RESPONSE_LENGTH_LENGTH = 4
ERROR_CODE_OFFSET = RESPONSE_LENGTH_OFFSET + RESPONSE_LENGTH_LENGTH
ERROR_CODE_LENGTH = 2
MESSAGES_OFFSET = ERROR_CODE_OFFSET + ERROR_CODE_LENGTH
FETCH_RESPONSE_OVERHEAD = MESSAGES_OFFSET  # bytes before the first variable-size field
MIN_FETCH_RESPONSE_SIZE = 6  # smallest encoded size
RESPONSE_LENGTH_END = RESPONSE_LENGTH_OFFSET + RESPONSE_LENGTH_LENGTH  # response_length counts from here
MIN_RESPONSE_LENGTH = (
    FETCH_RESPONSE_OVERHEAD - RESPONSE_LENGTH_END
)  # the fixed-width fields response_length covers


_S0 = struct.Struct(">ih")
_S1 = struct.Struct(">i")
_S2 = struct.Struct(">h")
_new = tuple.__new__


# -- typed values ---------------------------------------------------------------


class FetchResponse(NamedTuple):
    """Response to a FETCH request (and each part of a Multi-Fetch response): a
    response header and a chunk of the log. The chunk may end in the middle of a
    message; that is not an error.

    Fields:
        error_code: ERROR_CODE (see the ErrorCode enum).
        messages: MESSAGES: WireMessages back to back, possibly ending in a partial
            message.
    """

    error_code: int = 0
    messages: bytes | None = None


# -- fast codec -----------------------------------------------------------------


def decode_fetch_response_array(
    buf, pos: int, count: int, stop: int | None = None
) -> tuple[list[FetchResponse], int]:
    """Decode ``count`` consecutive FetchResponses from ``buf`` (bytes) at ``pos``, inside ``buf[:stop]``.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends: ``count`` is checked
    against the bytes before it ahead of any decoding, and so is each item's length.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // MIN_FETCH_RESPONSE_SIZE:
        raise InvalidLengthError(
            f"{count} FetchResponses cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    items = []
    append = items.append
    start = pos
    new, cls = _new, FetchResponse
    try:
        for _ in range(count):
            start = pos

            (response_length, error_code) = _S0.unpack_from(buf, pos)
            pos += FETCH_RESPONSE_OVERHEAD
            end = start + RESPONSE_LENGTH_END + response_length
            # shorter than the fixed fields it covers: they would be read past the end
            if response_length < MIN_RESPONSE_LENGTH:
                raise InvalidLengthError(
                    f"FetchResponse response_length is {response_length}, less than the {MIN_RESPONSE_LENGTH} bytes of fixed fields it covers",
                    start,
                )
            if end > len(buf):
                raise TruncatedError(
                    f"FetchResponse needs {end - start} bytes, {len(buf) - start} present", start
                )

            n = end - pos
            if n >= 0:
                messages = buf[pos : pos + n]
                pos += n
            else:
                raise InvalidLengthError(
                    f"FetchResponse messages length {n} is negative", pos - 1
                )  # its length's last byte
            if pos != end:
                raise InvalidLengthError(
                    f"FetchResponse fields end at byte {pos}, its length says {end}", start
                )
            append(new(cls, (error_code, messages)))
    except (IndexError, struct.error):
        raise TruncatedError("FetchResponse ends before its fields do", start) from None
    if pos > stop:
        raise TruncatedError(f"FetchResponse runs past byte {stop}, the end of what holds it", start)
    return items, pos


def decode_fetch_response(buf, pos: int = 0) -> tuple[FetchResponse, int]:
    """Decode one FetchResponse at ``pos``; return it and the position after it."""
    items, pos = decode_fetch_response_array(bytes(buf), pos, 1)
    return items[0], pos


def encode_fetch_response_array(items) -> bytes:
    """Encode a sequence of FetchResponses back to back."""
    out = bytearray()
    for item in items:
        (error_code, messages) = item

        d2 = messages
        if d2 is None:
            raise ValueError("FetchResponse messages cannot be null")
            d2 = b""

        p1 = _S2.pack(error_code)

        s0 = b"".join((p1, d2))
        p0 = _S1.pack(len(s0))
        out += p0
        out += s0
    return bytes(out)


def encode_fetch_response(item) -> bytes:
    """Encode one FetchResponse."""
    return encode_fetch_response_array((item,))


# -- columnar decoding ------------------------------------------------------------


class FetchResponseColumns:
    """Decoded FetchResponses as one list per field (columns, ready for Arrow)."""

    __slots__ = (
        "error_code",
        "messages",
    )

    def __init__(self) -> None:
        self.error_code: list = []
        self.messages: list = []

    def __len__(self) -> int:
        return len(self.error_code)

    def truncate(self, n: int) -> None:
        """Keep the first ``n`` items: drop what a failed decode appended."""
        del self.error_code[n:]
        del self.messages[n:]


def decode_fetch_response_columns(
    buf, pos: int, count: int, columns: FetchResponseColumns, stop: int | None = None
) -> int:
    """Decode ``count`` consecutive FetchResponses at ``pos`` into ``columns``; return the position after them.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends, as in
    :func:`decode_fetch_response_array`.

    Each item's values are appended once the whole item has decoded; on an
    error, ``columns.truncate(len_before)`` restores the columns.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // MIN_FETCH_RESPONSE_SIZE:
        raise InvalidLengthError(
            f"{count} FetchResponses cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    error_code_odd: list[tuple[int, int]] = []  # (index, value) of the items whose error_code is not 0
    append_messages = columns.messages.append
    start = pos
    try:
        for i in range(count):
            start = pos

            (response_length, error_code) = _S0.unpack_from(buf, pos)
            pos += FETCH_RESPONSE_OVERHEAD
            end = start + RESPONSE_LENGTH_END + response_length
            # shorter than the fixed fields it covers: they would be read past the end
            if response_length < MIN_RESPONSE_LENGTH:
                raise InvalidLengthError(
                    f"FetchResponse response_length is {response_length}, less than the {MIN_RESPONSE_LENGTH} bytes of fixed fields it covers",
                    start,
                )
            if end > len(buf):
                raise TruncatedError(
                    f"FetchResponse needs {end - start} bytes, {len(buf) - start} present", start
                )

            n = end - pos
            if n >= 0:
                messages = buf[pos : pos + n]
                pos += n
            else:
                raise InvalidLengthError(
                    f"FetchResponse messages length {n} is negative", pos - 1
                )  # its length's last byte
            if pos != end:
                raise InvalidLengthError(
                    f"FetchResponse fields end at byte {pos}, its length says {end}", start
                )
            if error_code != 0:
                error_code_odd.append((i, error_code))
            append_messages(messages)
    except (IndexError, struct.error):
        raise TruncatedError("FetchResponse ends before its fields do", start) from None
    if pos > stop:
        raise TruncatedError(f"FetchResponse runs past byte {stop}, the end of what holds it", start)
    fill_sparse(columns.error_code, count, 0, error_code_odd)
    return pos
