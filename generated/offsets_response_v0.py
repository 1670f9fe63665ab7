"""OffsetsResponse v0: Response to an OFFSETS request: a response header and a list of byte
offsets.

Since Kafka 0.6.0.

Generated from schemas/legacy/offsets_response_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple

from kafkaspec.codec.columns import fill_sparse
from kafkaspec.errors import InvalidLengthError, TruncatedError

from .offset_entry_v0 import (
    OffsetEntryColumns,
    decode_offset_entry_array,
    decode_offset_entry_columns,
    encode_offset_entry_array,
)

SCHEMA = "schemas/legacy/offsets_response_v0.yaml"
NAME = "OffsetsResponse"
VERSION = 0
SINCE = "0.6.0"

# -- layout ------------------------------------------------------------------

RESPONSE_LENGTH_OFFSET = 0
RESPONSE_LENGTH_LENGTH = 4
ERROR_CODE_OFFSET = RESPONSE_LENGTH_OFFSET + RESPONSE_LENGTH_LENGTH
ERROR_CODE_LENGTH = 2
NUMBER_OFFSETS_OFFSET = ERROR_CODE_OFFSET + ERROR_CODE_LENGTH
NUMBER_OFFSETS_LENGTH = 4
OFFSETS_OFFSET = NUMBER_OFFSETS_OFFSET + NUMBER_OFFSETS_LENGTH
OFFSETS_RESPONSE_OVERHEAD = OFFSETS_OFFSET  # bytes before the first variable-size field
MIN_OFFSETS_RESPONSE_SIZE = 10  # smallest encoded size
RESPONSE_LENGTH_END = RESPONSE_LENGTH_OFFSET + RESPONSE_LENGTH_LENGTH  # response_length counts from here
MIN_RESPONSE_LENGTH = (
    OFFSETS_RESPONSE_OVERHEAD - RESPONSE_LENGTH_END
)  # the fixed-width fields response_length covers


_S0 = struct.Struct(">ihi")
_S1 = struct.Struct(">i")
_S2 = struct.Struct(">hi")
_new = tuple.__new__


# -- typed values ---------------------------------------------------------------


class OffsetsResponse(NamedTuple):
    """Response to an OFFSETS request: a response header and a list of byte offsets.

    Fields:
        error_code: ERROR_CODE (see the ErrorCode enum).
        offsets: The offsets, newest first.
    """

    error_code: int = 0
    offsets: Sequence = ()


# -- fast codec -----------------------------------------------------------------


def decode_offsets_response_array(
    buf, pos: int, count: int, stop: int | None = None
) -> tuple[list[OffsetsResponse], int]:
    """Decode ``count`` consecutive OffsetsResponses from ``buf`` (bytes) at ``pos``, inside ``buf[:stop]``.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends: ``count`` is checked
    against the bytes before it ahead of any decoding, and so is each item's length.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // MIN_OFFSETS_RESPONSE_SIZE:
        raise InvalidLengthError(
            f"{count} OffsetsResponses cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    items = []
    append = items.append
    start = pos
    new, cls = _new, OffsetsResponse
    try:
        for _ in range(count):
            start = pos

            (response_length, error_code, number_offsets) = _S0.unpack_from(buf, pos)
            pos += OFFSETS_RESPONSE_OVERHEAD
            end = start + RESPONSE_LENGTH_END + response_length
            # shorter than the fixed fields it covers: they would be read past the end
            if response_length < MIN_RESPONSE_LENGTH:
                raise InvalidLengthError(
                    f"OffsetsResponse response_length is {response_length}, less than the {MIN_RESPONSE_LENGTH} bytes of fixed fields it covers",
                    start,
                )
            if end > len(buf):
                raise TruncatedError(
                    f"OffsetsResponse needs {end - start} bytes, {len(buf) - start} present", start
                )
            if number_offsets < 0:
                raise InvalidLengthError(
                    f"OffsetsResponse number_offsets {number_offsets} is negative",
                    start + NUMBER_OFFSETS_OFFSET,
                )

            n = number_offsets
            if n == 0:
                offsets = []
            else:
                offsets, pos = decode_offset_entry_array(buf, pos, n, end)
            if pos != end:
                raise InvalidLengthError(
                    f"OffsetsResponse fields end at byte {pos}, its length says {end}", start
                )
            append(new(cls, (error_code, offsets)))
    except (IndexError, struct.error):
        raise TruncatedError("OffsetsResponse ends before its fields do", start) from None
    return items, pos


def decode_offsets_response(buf, pos: int = 0) -> tuple[OffsetsResponse, int]:
    """Decode one OffsetsResponse at ``pos``; return it and the position after it."""
    items, pos = decode_offsets_response_array(bytes(buf), pos, 1)
    return items[0], pos


def encode_offsets_response_array(items) -> bytes:
    """Encode a sequence of OffsetsResponses back to back."""
    out = bytearray()
    for item in items:
        (error_code, offsets) = item

        if offsets:
            d2 = encode_offset_entry_array(offsets)
        else:
            d2 = b""

        p1 = _S2.pack(error_code, len(offsets))

        s0 = b"".join((p1, d2))
        p0 = _S1.pack(len(s0))
        out += p0
        out += s0
    return bytes(out)


def encode_offsets_response(item) -> bytes:
    """Encode one OffsetsResponse."""
    return encode_offsets_response_array((item,))


# -- columnar decoding ------------------------------------------------------------


class OffsetsResponseColumns:
    """Decoded OffsetsResponses as one list per field (columns, ready for Arrow).

    ``offsets_offsets`` holds the boundaries of each item's offsets in
    ``offsets`` (a :class:`OffsetEntryColumns`), starting at 0 as in an Arrow list array.
    """

    __slots__ = (
        "error_code",
        "offsets_offsets",
        "offsets",
    )

    def __init__(self) -> None:
        self.error_code: list = []
        self.offsets_offsets: list[int] = [0]
        self.offsets = OffsetEntryColumns()

    def __len__(self) -> int:
        return len(self.error_code)

    def truncate(self, n: int) -> None:
        """Keep the first ``n`` items: drop what a failed decode appended."""
        del self.error_code[n:]
        del self.offsets_offsets[n + 1 :]
        self.offsets.truncate(self.offsets_offsets[-1])


def decode_offsets_response_columns(
    buf, pos: int, count: int, columns: OffsetsResponseColumns, stop: int | None = None
) -> int:
    """Decode ``count`` consecutive OffsetsResponses at ``pos`` into ``columns``; return the position after them.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends, as in
    :func:`decode_offsets_response_array`.

    Each item's values are appended once the whole item has decoded; on an
    error, ``columns.truncate(len_before)`` restores the columns.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // MIN_OFFSETS_RESPONSE_SIZE:
        raise InvalidLengthError(
            f"{count} OffsetsResponses cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    error_code_odd: list[tuple[int, int]] = []  # (index, value) of the items whose error_code is not 0
    offsets_columns = columns.offsets
    append_offsets_offset = columns.offsets_offsets.append
    offsets_total = columns.offsets_offsets[-1]
    start = pos
    try:
        for i in range(count):
            start = pos

            (response_length, error_code, number_offsets) = _S0.unpack_from(buf, pos)
            pos += OFFSETS_RESPONSE_OVERHEAD
            end = start + RESPONSE_LENGTH_END + response_length
            # shorter than the fixed fields it covers: they would be read past the end
            if response_length < MIN_RESPONSE_LENGTH:
                raise InvalidLengthError(
                    f"OffsetsResponse response_length is {response_length}, less than the {MIN_RESPONSE_LENGTH} bytes of fixed fields it covers",
                    start,
                )
            if end > len(buf):
                raise TruncatedError(
                    f"OffsetsResponse needs {end - start} bytes, {len(buf) - start} present", start
                )
            if number_offsets < 0:
                raise InvalidLengthError(
                    f"OffsetsResponse number_offsets {number_offsets} is negative",
                    start + NUMBER_OFFSETS_OFFSET,
                )

            n = number_offsets
            if n:
                pos = decode_offset_entry_columns(buf, pos, n, offsets_columns, end)
                offsets_total += n
            if pos != end:
                raise InvalidLengthError(
                    f"OffsetsResponse fields end at byte {pos}, its length says {end}", start
                )
            if error_code != 0:
                error_code_odd.append((i, error_code))
            append_offsets_offset(offsets_total)
    except (IndexError, struct.error):
        raise TruncatedError("OffsetsResponse ends before its fields do", start) from None
    fill_sparse(columns.error_code, count, 0, error_code_odd)
    return pos
