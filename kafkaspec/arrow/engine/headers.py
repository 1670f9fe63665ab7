"""Record headers: where every record's header keys and values lie (:func:`_header_spans`: header
``j`` of every record at once, up to :data:`MAX_LOCKSTEP_HEADERS`), and their list array
(:func:`_header_arrays`); headers that sit at the same places in every record are sliced out of a
window taken at the first header (:func:`_uniform_headers`), and headers that do not, on records with
as many headers each, are read a header index at a time and copied as items of one size
(:mod:`.header_columns`).
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np
import pyarrow as pa

from ...codec.varint import read_varint
from ...errors import KafkaFormatError
from .common import _INT32_LIMIT, _Fail
from .fields import _bytes_field, _Fields, _fixed_offsets, _gather, _varint, _windows, _within
from .header_columns import (
    _HEADERS_WINDOW,
    _empty_spans,
    _HeaderColumns,
    _HeaderSpans,
    _packed,
    _rebase_tail,
    _same_bytes,
    _Span,
    _varied_layout,
)

#: records with more headers than this send their batches to the per-record decoder (one lockstep
#: step per header index)
MAX_LOCKSTEP_HEADERS = 64


#: records whose header layout is checked before all are (one of a few sizes of a value fails on these)
_SAMPLE = 16


def _headerless(fields: _Fields, arr: np.ndarray, counts: np.ndarray, ends: np.ndarray) -> bool:
    """Whether every record ends with a header count of 0 right after the read position (no record has
    headers, and the fields read so far end one byte before each record's end): seen without reading the
    records' ends from the data, since each record's last byte leads the next record's window. When
    not, the header count is read as any field (nothing is decided here but this shortcut)."""
    n = len(fields.stop)
    if fields.lead != 1 or not n or fields.sizes is None:  # (lead 1: the walk's windows, not rebased:
        return False  # ``sizes`` are from ``origin``)
    # the read one byte before each record's end: compared as distances from the records' starts
    before_end = fields.off + 1
    if not (
        (fields.sizes == before_end).all()
        if fields.var is None
        else np.array_equal(fields.var + before_end, fields.sizes)
    ):
        return False
    last = np.empty(n, np.uint8)  # each record's last byte
    last[:-1] = fields.window[fields.width :: fields.width]  # the byte before the next record: in its window
    filled = counts > 0
    last[np.cumsum(counts)[filled] - 1] = arr[
        ends[filled] - 1
    ]  # a batch's last record ends at the batch's end
    return not last.any()


def _header_spans(
    fields: _Fields, hcount: np.ndarray
) -> _HeaderSpans | _HeaderLayout | _HeaderColumns | None:
    """Where every record's header keys and values lie (``None``: no headers at all); moves the read past them."""
    most = int(hcount.max()) if len(hcount) else 0
    if most == 0:
        return None
    if most > MAX_LOCKSTEP_HEADERS:
        raise _Fail
    if int(hcount.min()) == most:  # every record has as many headers (the usual case): strided, no row subset
        if len(hcount) * most > _INT32_LIMIT:
            raise _Fail
        return _uniform_headers(fields, most)
    list_offsets = np.zeros(len(hcount) + 1, np.int64)
    np.cumsum(hcount, out=list_offsets[1:])
    if int(list_offsets[-1]) > _INT32_LIMIT:
        raise _Fail
    spans = _empty_spans(list_offsets)
    arr, stop = fields.arr, fields.stop
    p = fields.position()
    rows = np.flatnonzero(hcount > 0)
    j = 0
    while len(rows):  # header j of every record that has one
        q = p[rows]
        end = stop[rows]
        klen, n = _varint(arr, q, 5)
        q += n
        if (klen < 0).any():
            raise _Fail
        h = list_offsets[rows] + j
        spans.key_start[h] = q
        spans.key_len[h] = klen
        q += klen
        _within(q, end)
        vs, vl, vnull, q = _bytes_field(arr, q, end)
        spans.value_start[h], spans.value_len[h], spans.value_null[h] = vs, vl, vnull
        p[rows] = q
        j += 1
        rows = rows[hcount[rows] > j]
    fields.move_to(p)
    return spans


def _header_arrays(
    spans: _HeaderSpans | _HeaderLayout | _HeaderColumns | None,
    arr: np.ndarray,
    data: bytes | memoryview,
    n: int,
    headers_type: pa.ListType,
) -> pa.Array:
    """The headers of ``n`` records as a list array, from their spans (checked to lie inside their records)."""
    if spans is None:
        return _no_headers(n, headers_type)
    if isinstance(spans, _HeaderLayout):
        count = len(spans.keys)
        values = pa.StructArray.from_arrays(
            [
                _as_string(_sliced(spans.window, spans.keys, pa.binary())),
                _sliced(spans.window, spans.values, pa.binary()),
            ],
            fields=list(headers_type.value_type),
        )
        offsets = pa.array(np.arange(0, (n + 1) * count, count, dtype=np.int32)[: n + 1])
        return pa.ListArray.from_arrays(offsets, values, type=headers_type)
    if isinstance(spans, _HeaderColumns):
        count = len(spans.keys)
        packed = _packed(arr, spans, spans.keys, names=True), _packed(arr, spans, spans.values)
        if packed[0] is None or packed[1] is None:
            spans = spans.spans()
        else:
            values = pa.StructArray.from_arrays(
                [_as_string(packed[0]), packed[1]], fields=list(headers_type.value_type)
            )
            offsets = pa.array(np.arange(0, (n + 1) * count, count, dtype=np.int32)[: n + 1])
            return pa.ListArray.from_arrays(offsets, values, type=headers_type)
    databuf = pa.py_buffer(data)
    keys = _as_string(_gather(databuf, arr, spans.key_start, spans.key_len, None, pa.binary()))
    values = pa.StructArray.from_arrays(
        [keys, _gather(databuf, arr, spans.value_start, spans.value_len, spans.value_null, pa.binary())],
        fields=list(headers_type.value_type),
    )
    return pa.ListArray.from_arrays(pa.array(spans.list_offsets.astype(np.int32)), values, type=headers_type)


@functools.lru_cache(maxsize=8)
def _no_headers(n: int, headers_type: pa.ListType) -> pa.Array:
    """``n`` empty header lists (shared, as :func:`~.assemble._constant`: most runs have no headers at all)."""
    fields = list(headers_type.value_type)
    values = pa.StructArray.from_arrays([pa.array([], pa.string()), pa.array([], pa.binary())], fields=fields)
    return pa.ListArray.from_arrays(pa.array(np.zeros(n + 1, np.int32)), values, type=headers_type)


class _HeaderLayout(NamedTuple):
    """Headers at the same places in every record, inside each record's headers window."""

    window: np.ndarray  # uint8, (records, width): each record's bytes from its first header on
    keys: list[tuple[int, int]]  # (where in the window, length) of header j's key
    values: list[tuple[int, int]]  # the same of its value (none null)


def _uniform_headers(fields: _Fields, count: int) -> _HeaderLayout | _HeaderColumns:
    """:func:`_header_spans` when every record has ``count`` headers. The read restarts at the first
    header (:meth:`_Fields.rebase`): when every header then lies at the same place in every record
    (the same header names, values of one size: trace ids, content types), the layout is returned and
    the bytes are sliced out of the windows: the first record's layout, checked on every record by its
    length varints' bytes alone. Else each field is read, a header index at a time over every record
    (:class:`_HeaderColumns`)."""
    first = int(fields.origin[0]) + (0 if fields.var is None else int(fields.var[0])) + fields.off
    template = _header_template(bytes(fields.arr[first : first + _HEADERS_WINDOW]), count)
    # as wide as the first record's headers (each read of a column of the windows passes over all of them)
    width = _HEADERS_WINDOW if template is None else max(-(-template[3] // 8) * 8, 8)
    at_first = fields.position()
    if template is not None:
        keys, values, length_bytes, end = template
        # the length varints of every record the same bytes as the first record's: the same lengths, so
        # every header at the same place (a varint's bytes decide where it ends, and so where the next starts)
        sample = _windows(fields.arr, at_first[:: max(len(at_first) // _SAMPLE, 1)], width)
        if _same_bytes(sample.view(np.uint8).reshape(-1, width), length_bytes):
            fields._origin_at(at_first, _windows(fields.arr, at_first, width), 0)
            window = fields.window.reshape(-1, width)
            if _same_bytes(window, length_bytes):
                fields._advance(end)
                return _HeaderLayout(window, keys, values)
        else:  # lengths that differ: a word more, for the later headers of records with longer values
            width = min(width + 8, _HEADERS_WINDOW)
            fields._origin_at(at_first, _windows(fields.arr, at_first, width), 0)
        varied = _varied_layout(fields, count)
        if varied is not None:
            return varied
    fields._origin_at(at_first, _windows(fields.arr, at_first, width), 0)  # (read a field at a time)
    window = fields.window.reshape(-1, width)
    # a varint has one encoding of each size, so headers whose length bytes differ lie at different places
    windows, bases = [window], [fields.origin - fields.lead]
    key_spans: list[_Span] = []
    value_spans: list[_Span] = []
    for j in range(count):
        for places, nullable in ((key_spans, False), (value_spans, True)):
            start, length, null = fields.span(nullable=nullable)
            places.append((len(windows) - 1, start, length, null))
            if fields.var is not None and (j + 1 < count or places is key_spans):
                # a field of varied length: what follows starts at different places in the windows; a
                # window taken after it has them at one place again (strided reads and copies)
                _rebase_tail(fields)
                windows.append(fields.window.reshape(-1, fields.width))
                bases.append(fields.origin)
    return _HeaderColumns(windows, bases, key_spans, value_spans)


def _header_template(
    row: bytes, count: int
) -> tuple[list[tuple[int, int]], list[tuple[int, int]], list[int], int] | None:
    """The places of ``count`` headers at the start of ``row`` (one record's headers window): (where,
    length) of each key and of each value, where their length varints' bytes are, and where the last
    header ends; ``None`` when they do not all lie inside the row, or a value is null."""
    keys: list[tuple[int, int]] = []
    values: list[tuple[int, int]] = []
    length_bytes: list[int] = []
    at = 0
    try:
        for _ in range(count):
            for places, least in ((keys, 0), (values, 0)):
                size, after = read_varint(row, at)
                length_bytes += range(at, after)
                if size < least or after + size > len(row):
                    return None
                places.append((after, size))
                at = after + size
    except (KafkaFormatError, IndexError):  # a varint running past the row
        return None
    return keys, values, length_bytes, at


def _sliced(window: np.ndarray, places: list[tuple[int, int]], arrow_type: pa.DataType) -> pa.Array:
    """The bytes at ``places`` (where, length) of every window row, row by row, as a binary array of
    ``rows * len(places)`` values: one strided copy per place."""
    rows, width = window.shape
    sizes = [size for _, size in places]
    per_row = sum(sizes)
    out = np.empty((rows, per_row), np.uint8)
    at = 0
    for where, size in places:  # as items of ``size`` bytes: one copy each, not a loop over bytes
        if size:
            np.ndarray((rows,), f"V{size}", out, at, (per_row,))[...] = np.ndarray(
                (rows,), f"V{size}", window, where, (width,)
            )
        at += size
    if len(set(sizes)) == 1:
        offsets = _fixed_offsets(rows * len(places), sizes[0])
    else:
        within = np.cumsum([0, *sizes[:-1]], dtype=np.int32)
        starts = (np.arange(rows, dtype=np.int32)[:, None] * np.int32(per_row) + within[None, :]).ravel()
        offsets = pa.py_buffer(np.append(starts, np.int32(rows * per_row)))
    return pa.Array.from_buffers(arrow_type, rows * len(places), [None, offsets, pa.py_buffer(out)])


def _as_string(binary: pa.Array) -> pa.Array:
    """A binary array (no nulls) as a string array: its buffers as they are when every byte is ASCII (one
    numpy pass over the bytes), else Arrow's UTF-8 checking cast; a key that is not UTF-8 fails the run."""
    if binary.type == pa.string():  # checked already (:func:`_repeated`)
        return binary
    validity, offsets, data = binary.buffers()
    if data is None or not (np.frombuffer(data, np.uint8)[: _last_offset(binary)] >= 128).any():
        return pa.Array.from_buffers(
            pa.string(), len(binary), [validity, offsets, data], offset=binary.offset
        )
    try:
        return binary.cast(pa.string())
    except pa.ArrowInvalid:
        raise _Fail from None


def _last_offset(binary: pa.Array) -> int:
    """Where the bytes of a binary array end in its data buffer."""
    offsets = np.frombuffer(binary.buffers()[1], np.int32)
    return int(offsets[binary.offset + len(binary)])
