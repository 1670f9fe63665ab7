"""ControlRecordKey v0: The key of each record in a control batch (a transaction marker's batch
holds one; a KRaft control batch may hold several of different types, as a
snapshot's SNAPSHOT_HEADER, KRAFT_VERSION and KRAFT_VOTERS). The type says
how to read the value; consumers never hand control records to applications.

Since Kafka 0.11.0.

Generated from schemas/control_record_key_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from itertools import chain, repeat
from typing import NamedTuple

from kafkaspec.codec.columns import ColumnItems, fill_sparse, transpose
from kafkaspec.errors import InvalidLengthError, TruncatedError

SCHEMA = "schemas/control_record_key_v0.yaml"
NAME = "ControlRecordKey"
VERSION = 0
SINCE = "0.11.0"

# -- layout ------------------------------------------------------------------

VERSION_OFFSET = 0
VERSION_LENGTH = 2
TYPE_OFFSET = VERSION_OFFSET + VERSION_LENGTH
TYPE_LENGTH = 2
CONTROL_RECORD_KEY_SIZE = TYPE_OFFSET + TYPE_LENGTH


_S0 = struct.Struct(">hh")
_S1 = struct.Struct(">h")
_new = tuple.__new__
_COLUMNS_FROM = 16  # from this many items on, encoding a column at a time pays off


# -- typed values ---------------------------------------------------------------


class ControlRecordKey(NamedTuple):
    """The key of each record in a control batch (a transaction marker's batch holds
    one; a KRaft control batch may hold several of different types, as a snapshot's
    SNAPSHOT_HEADER, KRAFT_VERSION and KRAFT_VOTERS). The type says how to read the
    value; consumers never hand control records to applications.

    Fields:
        version: Key schema version; currently 0.
        type: 0 abort, 1 commit; 2-6 are KRaft control records (leader change,
            snapshot header/footer, kraft version, voters).
    """

    version: int = 0
    type: int | None = None


# -- fast codec -----------------------------------------------------------------


def decode_control_record_key_array(
    buf, pos: int, count: int, stop: int | None = None
) -> tuple[list[ControlRecordKey], int]:
    """Decode ``count`` consecutive ControlRecordKeys from ``buf`` (bytes) at ``pos``, inside ``buf[:stop]``.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends: ``count`` is checked
    against the bytes before it ahead of any decoding.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // CONTROL_RECORD_KEY_SIZE:
        raise InvalidLengthError(
            f"{count} ControlRecordKeys cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    items = []
    append = items.append
    start = pos
    new, cls = _new, ControlRecordKey
    try:
        for _ in range(count):
            start = pos

            (version, type_) = _S0.unpack_from(buf, pos)
            pos += CONTROL_RECORD_KEY_SIZE
            append(new(cls, (version, type_)))
    except (IndexError, struct.error):
        raise TruncatedError("ControlRecordKey ends before its fields do", start) from None
    return items, pos


def decode_control_record_key(buf, pos: int = 0) -> tuple[ControlRecordKey, int]:
    """Decode one ControlRecordKey at ``pos``; return it and the position after it."""
    items, pos = decode_control_record_key_array(bytes(buf), pos, 1)
    return items[0], pos


def control_record_key_column_parts(items) -> list:
    """:func:`control_record_key_parts_of_columns` of ``items``, a sequence of item tuples."""
    return control_record_key_parts_of_columns(transpose(items, 2))


def control_record_key_parts_of_columns(cols) -> list:
    """Encode items given as columns with C-level ``map`` calls: the common case, fast.

    ``cols[j]`` holds field ``j`` of every item; a column that is None holds the field's default
    for every item. Returns the parts: iterables that each yield one piece per item, in item order
    (an item's encoding is its pieces in part order). A value outside the common case (a null, a
    number beyond the varint tables) raises KeyError/TypeError/IndexError/AttributeError/ValueError,
    and the caller falls back to the general loop.
    """
    parts = []
    col = cols[0]
    parts.append(repeat(_S1.pack(0)) if col is None else map(_S1.pack, col))
    col = cols[1]
    parts.append(repeat(_S1.pack(None)) if col is None else map(_S1.pack, col))
    return parts


def _encode_control_record_key_columns(cols) -> bytes:
    """Encode column by column (:func:`control_record_key_parts_of_columns`) and join the pieces."""
    return b"".join(chain.from_iterable(zip(*control_record_key_parts_of_columns(cols))))


def encode_control_record_key_array(items) -> bytes:
    """Encode a sequence of ControlRecordKeys back to back (or a :class:`ColumnItems` of them)."""
    if type(items) is ColumnItems and len(items.columns) == 2:
        try:
            return _encode_control_record_key_columns(items.columns)
        except (KeyError, TypeError, IndexError, ValueError, AttributeError, struct.error):
            pass  # outside the common case: the general loop below encodes it or says what is wrong
    elif type(items) in (list, tuple) and len(items) >= _COLUMNS_FROM:
        try:
            return _encode_control_record_key_columns(transpose(items, 2))
        except (KeyError, TypeError, IndexError, ValueError, AttributeError, struct.error):
            pass  # outside the common case: the general loop below encodes it or says what is wrong
    out = bytearray()
    for item in items:
        (version, type_) = item

        p0 = _S0.pack(version, type_)
        out += p0
    return bytes(out)


def encode_control_record_key(item) -> bytes:
    """Encode one ControlRecordKey."""
    return encode_control_record_key_array((item,))


# -- columnar decoding ------------------------------------------------------------


class ControlRecordKeyColumns:
    """Decoded ControlRecordKeys as one list per field (columns, ready for Arrow)."""

    __slots__ = (
        "version",
        "type",
    )

    def __init__(self) -> None:
        self.version: list = []
        self.type: list = []

    def __len__(self) -> int:
        return len(self.version)

    def truncate(self, n: int) -> None:
        """Keep the first ``n`` items: drop what a failed decode appended."""
        del self.version[n:]
        del self.type[n:]


def decode_control_record_key_columns(
    buf, pos: int, count: int, columns: ControlRecordKeyColumns, stop: int | None = None
) -> int:
    """Decode ``count`` consecutive ControlRecordKeys at ``pos`` into ``columns``; return the position after them.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends, as in
    :func:`decode_control_record_key_array`.

    Each item's values are appended once the whole item has decoded; on an
    error, ``columns.truncate(len_before)`` restores the columns.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // CONTROL_RECORD_KEY_SIZE:
        raise InvalidLengthError(
            f"{count} ControlRecordKeys cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    version_odd: list[tuple[int, int]] = []  # (index, value) of the items whose version is not 0
    append_type = columns.type.append
    start = pos
    try:
        for i in range(count):
            start = pos

            (version, type_) = _S0.unpack_from(buf, pos)
            pos += CONTROL_RECORD_KEY_SIZE
            if version != 0:
                version_odd.append((i, version))
            append_type(type_)
    except (IndexError, struct.error):
        raise TruncatedError("ControlRecordKey ends before its fields do", start) from None
    fill_sparse(columns.version, count, 0, version_odd)
    return pos
