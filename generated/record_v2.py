"""Record v2: One record inside a RecordBatch. Offsets and timestamps are stored as deltas
from the batch's base_offset and base_timestamp; integers are zigzag varints
as in Protocol Buffers.

Since Kafka 0.11.0.

Generated from schemas/record_v2.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from itertools import chain, islice, repeat
from operator import sub
from typing import NamedTuple

from kafkaspec.codec.columns import (
    ColumnItems,
    fill_sparse,
    fill_sparse_index,
    fill_sparse_offsets,
    transpose,
)
from kafkaspec.codec.shape_encode import encode_shaped
from kafkaspec.codec.shapes import decode_run
from kafkaspec.codec.varint import (
    INDEX_VARINTS,
    INT8,
    VARINT_BYTES,
    ZIGZAG_1,
    ZIGZAG_2,
    encode_varint,
    encode_varlong,
    read_varint,
    read_varlong,
)
from kafkaspec.errors import InvalidLengthError, KafkaFormatError, TruncatedError

from .header_v2 import (
    MIN_HEADER_SIZE,
    Header,
    HeaderColumns,
    decode_header_columns,
    encode_header_array,
    header_pieces,
)

SCHEMA = "schemas/record_v2.yaml"
NAME = "Record"
VERSION = 2
SINCE = "0.11.0"

# -- layout ------------------------------------------------------------------

LENGTH_OFFSET = 0
MIN_RECORD_SIZE = 7  # smallest encoded size


_new = tuple.__new__
_COLUMNS_FROM = 16  # from this many items on, encoding a column at a time pays off
_BYTE = tuple(bytes((i,)) for i in range(256))  # one-byte encodings, without a pack call


# -- typed values ---------------------------------------------------------------


class Record(NamedTuple):
    """One record inside a RecordBatch. Offsets and timestamps are stored as deltas
    from the batch's base_offset and base_timestamp; integers are zigzag varints as
    in Protocol Buffers.

    Fields:
        attributes: Unused; bits 0-7 are zero.
        timestamp: The timestamp itself (absolute), base_timestamp + timestamp_delta;
            the stored timestamp_delta is the timestamp minus the batch
            base_timestamp. A varlong (64-bit zigzag), not a varint as some
            documents say: a batch spanning more than ~24.8 days needs it. When
            encoding, None means base_timestamp (a timestamp_delta of 0).
        offset: The offset itself (absolute), base_offset + offset_delta; the stored
            offset_delta is the offset minus the batch base_offset. When
            encoding, None means base_offset + the item's index.
        key: Record key; length -1 means null.
        value: Record value; length -1 means null (a tombstone on a compacted
            topic).
        headers: Ordered headers; duplicate keys and null values are legal and kept.
    """

    attributes: int = 0
    timestamp: int | None = None
    offset: int | None = None
    key: bytes | None = None
    value: bytes | None = None
    headers: Sequence = ()


# -- fast codec -----------------------------------------------------------------

#: the layout of an encoded Record, for decoding runs of one shape at C level (kafkaspec.codec.shapes)
_SHAPE = (
    ("length",),
    ("int8",),
    ("var", 1, "base"),
    ("var", 0, "index"),
    ("bytes", True, False),
    ("bytes", True, False),
    (
        "array",
        Header,
        (
            ("bytes", False, True),
            ("bytes", True, False),
        ),
    ),
)
_RETRY = 8  # after a guess that failed, items decoded one by one before the next guess


def decode_record_array(
    buf, pos: int, count: int, base_offset: int, base_timestamp: int, stop: int | None = None
) -> tuple[list[Record], int]:
    """Decode ``count`` consecutive Records from ``buf`` (bytes) at ``pos``, inside ``buf[:stop]``.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends: ``count`` is checked
    against the bytes before it ahead of any decoding, and so is each item's length.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // MIN_RECORD_SIZE:
        raise InvalidLengthError(
            f"{count} Records cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    items = []
    todo = iter(range(count))
    last, retry = count - 1, 0
    if count > 1:  # the first items may have a shape that decoded a run before (an earlier batch's)
        items, pos = decode_run(buf, pos, count, stop, _SHAPE, Record, None, (base_offset, base_timestamp))
        if items:
            next(islice(todo, len(items) - 1, None), None)  # those items are decoded
    append = items.append
    start = pos
    zigzag_1, zigzag_2, new, cls = ZIGZAG_1, ZIGZAG_2, _new, Record
    try:
        for i in todo:
            start = pos

            length = buf[pos]
            if length < 128:
                length = zigzag_1[length]
                pos += 1
            elif (b1 := buf[pos + 1]) < 128:
                length = zigzag_2[(length & 127) | (b1 << 7)]
                pos += 2
            else:
                length, pos = read_varint(buf, pos)
            end = pos + length
            if end > stop:
                raise InvalidLengthError(
                    f"Record length {length} runs past byte {stop}, the end of what holds it", start
                )

            attributes = INT8[buf[pos]]
            pos += 1

            timestamp_delta = buf[pos]
            if timestamp_delta < 128:
                timestamp_delta = zigzag_1[timestamp_delta]
                pos += 1
            elif (b1 := buf[pos + 1]) < 128:
                timestamp_delta = zigzag_2[(timestamp_delta & 127) | (b1 << 7)]
                pos += 2
            else:
                timestamp_delta, pos = read_varlong(buf, pos)

            offset_delta = buf[pos]
            if offset_delta < 128:
                offset_delta = zigzag_1[offset_delta]
                pos += 1
            elif (b1 := buf[pos + 1]) < 128:
                offset_delta = zigzag_2[(offset_delta & 127) | (b1 << 7)]
                pos += 2
            else:
                offset_delta, pos = read_varint(buf, pos)

            n = buf[pos]
            if n < 128:
                n = zigzag_1[n]
                pos += 1
            elif (b1 := buf[pos + 1]) < 128:
                n = zigzag_2[(n & 127) | (b1 << 7)]
                pos += 2
            else:
                n, pos = read_varint(buf, pos)
                if n > end - pos:
                    raise InvalidLengthError(
                        f"Record key length {n} runs past byte {end}, the end of what holds it", pos - 1
                    )
            if n >= 0:
                key = buf[pos : pos + n]
                pos += n
            elif n == -1:
                key = None
            else:
                raise InvalidLengthError(
                    f"Record key length {n} is negative", pos - 1
                )  # its length's last byte

            n = buf[pos]
            if n < 128:
                n = zigzag_1[n]
                pos += 1
            elif (b1 := buf[pos + 1]) < 128:
                n = zigzag_2[(n & 127) | (b1 << 7)]
                pos += 2
            else:
                n, pos = read_varint(buf, pos)
                if n > end - pos:
                    raise InvalidLengthError(
                        f"Record value length {n} runs past byte {end}, the end of what holds it", pos - 1
                    )
            if n >= 0:
                value = buf[pos : pos + n]
                pos += n
            elif n == -1:
                value = None
            else:
                raise InvalidLengthError(
                    f"Record value length {n} is negative", pos - 1
                )  # its length's last byte

            if buf[pos] == 0:  # no items: a one-byte count, the usual case
                pos += 1
                headers = []
            else:
                n = buf[pos]
                if n < 128:
                    n = zigzag_1[n]
                    pos += 1
                elif (b1 := buf[pos + 1]) < 128:
                    n = zigzag_2[(n & 127) | (b1 << 7)]
                    pos += 2
                else:
                    n, pos = read_varint(buf, pos)
                if n < 0 or n > (end - pos) // MIN_HEADER_SIZE:
                    raise InvalidLengthError(
                        f"{n} Headers cannot fit in the {end - pos} bytes left before byte {end}", pos
                    )
                headers = []
                for _ in range(n):  # the Headers, decoded here: no call per item array
                    n = buf[pos]
                    if n < 128:
                        n = zigzag_1[n]
                        pos += 1
                    elif (b1 := buf[pos + 1]) < 128:
                        n = zigzag_2[(n & 127) | (b1 << 7)]
                        pos += 2
                    else:
                        n, pos = read_varint(buf, pos)
                        if n > end - pos:
                            raise InvalidLengthError(
                                f"Header key length {n} runs past byte {end}, the end of what holds it",
                                pos - 1,
                            )
                    if n >= 0:
                        header_key = buf[pos : pos + n].decode()
                        pos += n
                    else:
                        raise InvalidLengthError(
                            f"Header key length {n} is negative", pos - 1
                        )  # its length's last byte

                    n = buf[pos]
                    if n < 128:
                        n = zigzag_1[n]
                        pos += 1
                    elif (b1 := buf[pos + 1]) < 128:
                        n = zigzag_2[(n & 127) | (b1 << 7)]
                        pos += 2
                    else:
                        n, pos = read_varint(buf, pos)
                        if n > end - pos:
                            raise InvalidLengthError(
                                f"Header value length {n} runs past byte {end}, the end of what holds it",
                                pos - 1,
                            )
                    if n >= 0:
                        header_value = buf[pos : pos + n]
                        pos += n
                    elif n == -1:
                        header_value = None
                    else:
                        raise InvalidLengthError(
                            f"Header value length {n} is negative", pos - 1
                        )  # its length's last byte
                    headers.append(_new(Header, (header_key, header_value)))
            if pos != end:
                raise InvalidLengthError(f"Record fields end at byte {pos}, its length says {end}", start)
            append(
                new(
                    cls,
                    (
                        attributes,
                        base_timestamp + timestamp_delta,
                        base_offset + offset_delta,
                        key,
                        value,
                        headers,
                    ),
                )
            )
            # the next item starts like this one: it and those after it may share its shape (a run)
            if retry <= i < last and pos < stop and buf[pos] == buf[start]:
                run, pos = decode_run(
                    buf, pos, last - i, stop, _SHAPE, cls, items[-1], (base_offset, base_timestamp), start
                )
                if run:
                    items += run
                    next(islice(todo, len(run) - 1, None), None)  # those items are decoded
                else:
                    retry = i + _RETRY
    except (IndexError, struct.error):
        raise TruncatedError("Record ends before its fields do", start) from None
    except UnicodeDecodeError as exc:
        raise KafkaFormatError(f"Record has a string that is not UTF-8: {exc.reason}", start) from None
    if pos > stop:
        raise TruncatedError(f"Record runs past byte {stop}, the end of what holds it", start)
    return items, pos


def decode_record(buf, pos: int = 0, base_offset: int = 0, base_timestamp: int = 0) -> tuple[Record, int]:
    """Decode one Record at ``pos``; return it and the position after it."""
    items, pos = decode_record_array(bytes(buf), pos, 1, base_offset, base_timestamp)
    return items[0], pos


def record_column_parts(items, base_offset, base_timestamp) -> list:
    """:func:`record_parts_of_columns` of ``items``, a sequence of item tuples."""
    return record_parts_of_columns(transpose(items, 6), len(items), base_offset, base_timestamp)


def record_parts_of_columns(cols, n, base_offset, base_timestamp) -> list:
    """Encode items given as columns with C-level ``map`` calls: the common case, fast.

    ``cols[j]`` holds field ``j`` of every item; a column that is None holds the field's default
    for every item. Returns the parts: iterables that each yield one piece per item, in item order
    (an item's encoding is its pieces in part order). A value outside the common case (a null, a
    number beyond the varint tables) raises KeyError/TypeError/IndexError/AttributeError/ValueError,
    and the caller falls back to the general loop.
    """
    parts = []
    col = cols[0]
    parts.append(repeat(_BYTE[0 & 0xFF]) if col is None else map(_BYTE.__getitem__, col))
    col = cols[1]
    if col is None or (col[0] is None and col.count(None) == n):  # (a None among ints fails in sub)
        parts.append(repeat(b"\x00"))
    else:
        parts.append(map(VARINT_BYTES.__getitem__, map(sub, col, repeat(base_timestamp))))
    col = cols[2]
    if col is None or (col[0] is None and col.count(None) == n):  # (a None among ints fails in sub)
        parts.append(
            INDEX_VARINTS[:n] if n <= len(INDEX_VARINTS) else map(VARINT_BYTES.__getitem__, range(n))
        )
    else:
        parts.append(map(VARINT_BYTES.__getitem__, map(sub, col, repeat(base_offset))))
    col = cols[3]
    if col is None:  # every item null
        parts.append(repeat(b"\x01"))
        parts.append(repeat(b""))
    else:
        try:  # len(None) fails at once: cheaper than looking for None first
            parts.append(list(map(VARINT_BYTES.__getitem__, map(len, col))))
            parts.append(col)
        except TypeError:  # nulls among the items (or what the general loop refuses)
            parts.append([b"\x01" if x is None else VARINT_BYTES[len(x)] for x in col])
            parts.append([b"" if x is None else x for x in col])
    col = cols[4]
    if col is None:  # every item null
        parts.append(repeat(b"\x01"))
        parts.append(repeat(b""))
    else:
        try:  # len(None) fails at once: cheaper than looking for None first
            parts.append(list(map(VARINT_BYTES.__getitem__, map(len, col))))
            parts.append(col)
        except TypeError:  # nulls among the items (or what the general loop refuses)
            parts.append([b"\x01" if x is None else VARINT_BYTES[len(x)] for x in col])
            parts.append([b"" if x is None else x for x in col])
    col = cols[5]
    if col is None or not any(col):
        parts.append(repeat(b"\x00"))
    else:
        counts = list(map(len, col))
        parts.append(map(VARINT_BYTES.__getitem__, counts))
        # every item's headers in one call
        encoded = header_pieces(list(chain.from_iterable(col)))  # one piece per header
        if counts.count(counts[0]) == n:  # as many in every item: they join the item's own pieces
            parts.extend(repeat(encoded, counts[0]))
        else:  # each item joins the next count
            parts.append(map(b"".join, map(islice, repeat(encoded), counts)))
    bodies = list(map(b"".join, zip(*parts)))
    return [map(VARINT_BYTES.__getitem__, map(len, bodies)), bodies]


def _encode_record_columns(cols, n, base_offset, base_timestamp) -> bytes:
    """Encode column by column (:func:`record_parts_of_columns`) and join the pieces."""
    return b"".join(chain.from_iterable(zip(*record_parts_of_columns(cols, n, base_offset, base_timestamp))))


def encode_record_array(items, base_offset: int = 0, base_timestamp: int = 0) -> bytes:
    """Encode a sequence of Records back to back (or a :class:`ColumnItems` of them)."""
    return b"".join(encode_record_array_parts(items, base_offset, base_timestamp))


def encode_record_array_parts(items, base_offset: int = 0, base_timestamp: int = 0) -> list[bytes]:
    """:func:`encode_record_array`'s bytes as parts: items of one large shape stay their pieces,
    copied once, into what encloses them (a batch)."""
    if type(items) is ColumnItems and len(items.columns) == 6:
        # items of one shape: one join over the columns (kafkaspec.codec.shape_encode)
        shaped = encode_shaped(
            _SHAPE, items.columns, items.defaults, len(items), (base_offset, base_timestamp)
        )
        if shaped is not None:
            return shaped
        try:
            return [_encode_record_columns(items.columns, len(items), base_offset, base_timestamp)]
        except (KeyError, TypeError, IndexError, ValueError, AttributeError, struct.error):
            pass  # outside the common case: the general loop below encodes it or says what is wrong
    elif type(items) in (list, tuple) and len(items) >= _COLUMNS_FROM:
        try:
            cols = transpose(items, 6)
            shaped = encode_shaped(_SHAPE, cols, (None,) * 6, len(items), (base_offset, base_timestamp))
            if shaped is not None:
                return shaped
            return [_encode_record_columns(cols, len(items), base_offset, base_timestamp)]
        except (KeyError, TypeError, IndexError, ValueError, AttributeError, struct.error):
            pass  # outside the common case: the general loop below encodes it or says what is wrong
    out: list[bytes] = []  # the parts, each copied once, by the caller's join
    for index, item in enumerate(items):
        (attributes, timestamp, offset, key, value, headers) = item
        timestamp_delta = 0 if timestamp is None else timestamp - base_timestamp
        offset_delta = index if offset is None else offset - base_offset

        if headers:
            d6 = encode_header_array(headers)
            p6 = VARINT_BYTES.get(len(headers)) or encode_varint(len(headers))
        else:
            d6 = b""
            p6 = b"\x00"

        d5 = value
        if d5 is None:
            p5 = b"\x01"
            d5 = b""
        else:
            p5 = VARINT_BYTES.get(len(d5)) or encode_varint(len(d5))

        d4 = key
        if d4 is None:
            p4 = b"\x01"
            d4 = b""
        else:
            p4 = VARINT_BYTES.get(len(d4)) or encode_varint(len(d4))

        p3 = VARINT_BYTES.get(offset_delta) or encode_varint(offset_delta)

        p2 = VARINT_BYTES.get(timestamp_delta) or encode_varlong(timestamp_delta)

        p1 = _BYTE[attributes & 0xFF]

        s0 = b"".join((p1, p2, p3, p4, d4, p5, d5, p6, d6))
        p0 = VARINT_BYTES.get(len(s0)) or encode_varint(len(s0))
        out += (p0, s0)
    return out


def encode_record(item, base_offset: int = 0, base_timestamp: int = 0) -> bytes:
    """Encode one Record."""
    return encode_record_array((item,), base_offset, base_timestamp)


# -- columnar decoding ------------------------------------------------------------


class RecordColumns:
    """Decoded Records as one list per field (columns, ready for Arrow).

    Relative fields (``timestamp``, ``offset``) hold the stored deltas, which are
    small cached ints; each decode call adds a run: ``base_run_ends`` (item index where it
    ends) and its ``base_offsets``, ``base_timestamps``. :meth:`absolute` (or a
    vectorised add over the runs) gives the absolute values.

    ``headers_offsets`` holds the boundaries of each item's headers in
    ``headers`` (a :class:`HeaderColumns`), starting at 0 as in an Arrow list array.
    """

    __slots__ = (
        "attributes",
        "timestamp",
        "offset",
        "key",
        "value",
        "headers_offsets",
        "headers",
        "base_run_ends",
        "base_offsets",
        "base_timestamps",
    )

    def __init__(self) -> None:
        self.attributes: list = []
        self.timestamp: list = []
        self.offset: list = []
        self.key: list = []
        self.value: list = []
        self.headers_offsets: list[int] = [0]
        self.headers = HeaderColumns()
        self.base_run_ends: list[int] = []
        self.base_offsets: list[int] = []
        self.base_timestamps: list[int] = []

    def __len__(self) -> int:
        return len(self.attributes)

    def truncate(self, n: int) -> None:
        """Keep the first ``n`` items: drop what a failed decode appended."""
        del self.attributes[n:]
        del self.timestamp[n:]
        del self.offset[n:]
        del self.key[n:]
        del self.value[n:]
        del self.headers_offsets[n + 1 :]
        self.headers.truncate(self.headers_offsets[-1])
        ends = self.base_run_ends
        while ends and ends[-1] > n:
            if (ends[-2] if len(ends) > 1 else 0) < n:
                ends[-1] = n
                break
            ends.pop()
            self.base_offsets.pop()
            self.base_timestamps.pop()

    def add_run(self, end: int, base_offset: int, base_timestamp: int) -> None:
        """Items up to index ``end`` (from the previous run's end) are relative to these bases."""
        self.base_run_ends.append(end)
        self.base_offsets.append(base_offset)
        self.base_timestamps.append(base_timestamp)

    def absolute(self, name: str) -> list[int]:
        """The absolute values of a relative field ('timestamp', 'offset'), rebased run by run."""
        bases = {
            "timestamp": self.base_timestamps,
            "offset": self.base_offsets,
        }[name]
        deltas = getattr(self, name)
        out: list[int] = []
        start = 0
        for end, base in zip(self.base_run_ends, bases):
            out.extend([base + d for d in deltas[start:end]])
            start = end
        return out


def decode_record_columns(
    buf,
    pos: int,
    count: int,
    base_offset: int,
    base_timestamp: int,
    columns: RecordColumns,
    stop: int | None = None,
) -> int:
    """Decode ``count`` consecutive Records at ``pos`` into ``columns``; return the position after them.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends, as in
    :func:`decode_record_array`.

    Each item's values are appended once the whole item has decoded (relative
    fields as deltas, with one run for the call); on an error,
    ``columns.truncate(len_before)`` restores the columns.
    Sparse columns (``attributes``, ``offset``, ``headers``) are filled once
    the loop has finished, from the few items that differ from the default.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // MIN_RECORD_SIZE:
        raise InvalidLengthError(
            f"{count} Records cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    zigzag_1, zigzag_2 = ZIGZAG_1, ZIGZAG_2
    attributes_odd: list[tuple[int, int]] = []  # (index, value) of the items whose attributes is not 0
    append_timestamp = columns.timestamp.append
    offset_delta_odd: list[
        tuple[int, int]
    ] = []  # (index, value) of the items whose offset_delta is not their index
    append_key = columns.key.append
    append_value = columns.value.append
    headers_columns = columns.headers
    headers_odd: list[tuple[int, int]] = []  # (index, end) of the items that have headers
    headers_total = columns.headers_offsets[-1]
    start = pos
    try:
        for i in range(count):
            start = pos

            length = buf[pos]
            if length < 128:
                length = zigzag_1[length]
                pos += 1
            elif (b1 := buf[pos + 1]) < 128:
                length = zigzag_2[(length & 127) | (b1 << 7)]
                pos += 2
            else:
                length, pos = read_varint(buf, pos)
            end = pos + length
            if end > stop:
                raise InvalidLengthError(
                    f"Record length {length} runs past byte {stop}, the end of what holds it", start
                )

            attributes = buf[pos]
            pos += 1

            timestamp_delta = buf[pos]
            if timestamp_delta < 128:
                timestamp_delta = zigzag_1[timestamp_delta]
                pos += 1
            elif (b1 := buf[pos + 1]) < 128:
                timestamp_delta = zigzag_2[(timestamp_delta & 127) | (b1 << 7)]
                pos += 2
            else:
                timestamp_delta, pos = read_varlong(buf, pos)

            offset_delta = buf[pos]
            if offset_delta < 128:
                offset_delta = zigzag_1[offset_delta]
                pos += 1
            elif (b1 := buf[pos + 1]) < 128:
                offset_delta = zigzag_2[(offset_delta & 127) | (b1 << 7)]
                pos += 2
            else:
                offset_delta, pos = read_varint(buf, pos)

            n = buf[pos]
            if n < 128:
                n = zigzag_1[n]
                pos += 1
            elif (b1 := buf[pos + 1]) < 128:
                n = zigzag_2[(n & 127) | (b1 << 7)]
                pos += 2
            else:
                n, pos = read_varint(buf, pos)
                if n > end - pos:
                    raise InvalidLengthError(
                        f"Record key length {n} runs past byte {end}, the end of what holds it", pos - 1
                    )
            if n >= 0:
                key = buf[pos : pos + n]
                pos += n
            elif n == -1:
                key = None
            else:
                raise InvalidLengthError(
                    f"Record key length {n} is negative", pos - 1
                )  # its length's last byte

            n = buf[pos]
            if n < 128:
                n = zigzag_1[n]
                pos += 1
            elif (b1 := buf[pos + 1]) < 128:
                n = zigzag_2[(n & 127) | (b1 << 7)]
                pos += 2
            else:
                n, pos = read_varint(buf, pos)
                if n > end - pos:
                    raise InvalidLengthError(
                        f"Record value length {n} runs past byte {end}, the end of what holds it", pos - 1
                    )
            if n >= 0:
                value = buf[pos : pos + n]
                pos += n
            elif n == -1:
                value = None
            else:
                raise InvalidLengthError(
                    f"Record value length {n} is negative", pos - 1
                )  # its length's last byte

            if buf[pos] == 0:  # no items: a one-byte count, the usual case
                pos += 1
            else:
                n = buf[pos]
                if n < 128:
                    n = zigzag_1[n]
                    pos += 1
                elif (b1 := buf[pos + 1]) < 128:
                    n = zigzag_2[(n & 127) | (b1 << 7)]
                    pos += 2
                else:
                    n, pos = read_varint(buf, pos)
                if n:
                    pos = decode_header_columns(buf, pos, n, headers_columns, end)
                    headers_total += n
                    headers_odd.append((i, headers_total))
            if pos != end:
                raise InvalidLengthError(f"Record fields end at byte {pos}, its length says {end}", start)
            if attributes != 0:
                attributes_odd.append((i, INT8[attributes]))
            append_timestamp(timestamp_delta)
            if offset_delta != i:
                offset_delta_odd.append((i, offset_delta))
            append_key(key)
            append_value(value)
    except (IndexError, struct.error):
        raise TruncatedError("Record ends before its fields do", start) from None
    if pos > stop:
        raise TruncatedError(f"Record runs past byte {stop}, the end of what holds it", start)
    fill_sparse(columns.attributes, count, 0, attributes_odd)
    fill_sparse_index(columns.offset, count, offset_delta_odd)
    fill_sparse_offsets(columns.headers_offsets, count, headers_odd)
    if count:
        columns.add_run(len(columns.attributes), base_offset, base_timestamp)
    return pos
