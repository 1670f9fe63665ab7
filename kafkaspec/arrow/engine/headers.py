"""Record headers: where every record's header keys and values lie (:func:`_header_spans`: header
``j`` of every record at once, up to :data:`MAX_LOCKSTEP_HEADERS`), and their list array
(:func:`_header_arrays`); headers that sit at the same places in every record are sliced out of a
window taken at the first header (:func:`_uniform_headers`), and headers that do not, on records with
as many headers each, are read a header index at a time and copied as items of one size
(:class:`_HeaderColumns`, :func:`_packed`).
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np
import pyarrow as pa

from ...codec.varint import read_varint
from ...errors import KafkaFormatError
from .common import _INT32_LIMIT, _ZIGZAG_1, _Fail
from .fields import _bytes_field, _Fields, _fixed_offsets, _gather, _varint, _windows, _within

#: records with more headers than this send their batches to the per-record decoder (one lockstep
#: step per header index)
MAX_LOCKSTEP_HEADERS = 64


#: the window of every record's headers (:meth:`_Fields.rebase`)
_HEADERS_WINDOW = 64

#: records whose header layout is checked before all are (one of a few sizes of a value fails on these)
_SAMPLE = 16

#: records whose header bytes show which lengths differ from record to record (:func:`_varied_layout`)
_SAMPLE_VARYING = 64


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


class _HeaderSpans(NamedTuple):
    list_offsets: np.ndarray  # int64, each record's first header (and the total at the end)
    key_start: np.ndarray
    key_len: np.ndarray
    value_start: np.ndarray
    value_len: np.ndarray
    value_null: np.ndarray


def _empty_spans(list_offsets: np.ndarray) -> _HeaderSpans:
    total = int(list_offsets[-1])
    return _HeaderSpans(
        list_offsets,
        np.empty(total, np.int64),
        np.empty(total, np.int64),
        np.empty(total, np.int64),
        np.empty(total, np.int64),
        np.zeros(total, bool),
    )


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
    keys: list[_Span] = []
    values: list[_Span] = []
    for j in range(count):
        for places, nullable in ((keys, False), (values, True)):
            start, length, null = fields.span(nullable=nullable)
            places.append((len(windows) - 1, start, length, null))
            if fields.var is not None and (j + 1 < count or places is keys):
                # a field of varied length: what follows starts at different places in the windows; a
                # window taken after it has them at one place again (strided reads and copies)
                _rebase_tail(fields)
                windows.append(fields.window.reshape(-1, fields.width))
                bases.append(fields.origin)
    return _HeaderColumns(windows, bases, keys, values)


def _varied_layout(fields: _Fields, count: int) -> _HeaderColumns | None:
    """:func:`_uniform_headers` when the first record's headers lie inside the window but not every
    record's lie at the same places: the first record's layout, with the length varints that differ
    from record to record read in every record. Which bytes of the window differ in some record is
    found at once (:func:`_varying`); the layout holds where a length differs only in one varint byte
    (each record's own length read at that place, under 64: no null, no longer varint) and every other
    length varint's bytes are the first record's. After a length that differs, the rest of the headers
    lie at one place again in a window taken there (:func:`_rebase_tail`), checked the same way. Header
    names the same in every record are noted (:attr:`_HeaderColumns.names`: no copy of them). ``None``:
    read a field at a time (:class:`_HeaderColumns` from :meth:`_Fields.span`).

    As with :class:`_HeaderLayout`, a varint's bytes decide its value and where it ends, so every
    record is read as the sequential decoder reads it; the read ending at each record's end (checked by
    the caller) puts every field inside its record."""
    windows: list[np.ndarray] = []
    bases: list[np.ndarray] = []
    keys: list[_Span] = []
    values: list[_Span] = []
    names: list[bytes | None] = []
    fields_left = 2 * count
    while fields_left:
        window = fields.window.reshape(-1, fields.width)
        segment, width, row = len(windows), fields.width, bytes(window[0])
        windows.append(window)
        bases.append(fields.origin)
        # which bytes differ, from a sample of the records; the ones taken to be the first record's in
        # every record are checked so in all of them before the window is left
        varies = _varying(np.ascontiguousarray(window[:: max(len(window) // _SAMPLE_VARYING, 1)]))
        same: list[int] = []
        while fields_left:
            is_key = fields_left % 2 == 0
            at = fields.off + fields.lead  # the read's column in this window (the same in every record)
            try:
                length, after = read_varint(row, at)
            except (KafkaFormatError, IndexError):  # a varint running past the window
                return None
            if after > width:
                return None
            fields_left -= 1
            if not varies[at:after].any():  # the first record's length in every record
                if length < 0:  # (a null value in every record: read a field at a time)
                    return None
                same += range(at, after)
                fields._advance(after - at + length)
                (keys if is_key else values).append((segment, after, length, None))
                if is_key:
                    named = after + length <= width and not varies[after : after + length].any()
                    names.append(row[after : after + length] if named else None)
                    same += range(after, after + length) if named else ()
                continue
            if after - at != 1:
                return None
            column = np.ascontiguousarray(window[:, at])
            lengths = _ZIGZAG_1.take(column)
            if int(column.max()) >= 128 or int(lengths.min()) < 0:
                return None
            fields._advance(1)
            fields._advance(lengths)
            (keys if is_key else values).append((segment, at + 1, lengths, None))
            if is_key:
                names.append(None)
            if fields_left:
                break
        if same and not _same_bytes(window, same):
            return None
        if fields_left:
            _rebase_tail(fields, window, at + 1 + lengths)
    return _HeaderColumns(windows, bases, keys, values, tuple(names) if None not in names else None)  # type: ignore[arg-type]


def _varying(window: np.ndarray) -> np.ndarray:
    """Per column of ``window`` (uint8, rows of a multiple of 8 bytes): whether some row's byte there is
    not the first row's (one pass over the window, a 64-bit word at a time)."""
    rows, width = window.shape
    words = window.reshape(-1).view(np.uint64).reshape(rows, width // 8)
    differ = words ^ words[0]
    while len(differ) > 1:  # halves folded onto each other: whole-array operations, not a step a row
        half = len(differ) // 2
        folded = np.bitwise_or(differ[:half], differ[half : 2 * half], out=differ[:half])
        if len(differ) % 2:
            folded[0] |= differ[-1]
        differ = folded
    return differ.reshape(-1).view(np.uint8) != 0


def _rebase_tail(
    fields: _Fields, window: np.ndarray | None = None, columns: np.ndarray | None = None
) -> None:
    """:meth:`_Fields.rebase` in the middle of the headers, as wide as the first record's remaining
    bytes (a multiple of 8, for :func:`_same_bytes`; at most :data:`_HEADERS_WINDOW`): the headers
    are a record's last field. With the read's ``columns`` in the current ``window``, the new window
    is taken from it when it holds every record's rest (in the cache still), else from the data."""
    first = int(fields.origin[0]) + (0 if fields.var is None else int(fields.var[0])) + fields.off
    remaining = int(fields.stop[0]) - first
    width = min(max(-(-remaining // 8) * 8, 8), _HEADERS_WINDOW)
    if window is None or columns is None or int(columns.max()) + width > window.shape[1]:
        fields.rebase(width)
        return
    rows, across = window.shape
    at = np.arange(0, rows * across, across, dtype=np.int64)
    at += columns
    origin = fields.position()
    fields._origin_at(origin, _windows(window.reshape(-1), at, width), 0)


#: a span's window (its index in :attr:`_HeaderColumns.windows`); its start as a column of that window
#: (the same in every record) or as positions in the data; its length (an int: the same in every
#: record); its nulls (or None)
_Span = tuple[int, int | np.ndarray, int | np.ndarray, np.ndarray | None]


class _HeaderColumns(NamedTuple):
    """Every record's headers, read a header index at a time: header ``j`` of every record is
    ``keys[j]`` and ``values[j]`` (:meth:`_Fields.span`). Producers write the same header names in
    the same order on every record, with values of one size or of a few sizes (a trace id, a service
    name, a version byte): each header index is then copied as fixed-size items (:func:`_packed`).
    After a field of varied length the read goes on in a new window (:func:`_rebase_tail`), where what
    follows lies at one place again."""

    windows: list[np.ndarray]  # uint8, (records, width): each record's bytes from a header field on
    bases: list[np.ndarray]  # int64: where each row of each window starts in the data
    keys: list[_Span]
    values: list[_Span]
    names: tuple[bytes, ...] | None = None  # the keys' bytes, when the same in every record

    def spans(self) -> _HeaderSpans:
        """The same headers as :class:`_HeaderSpans` (header ``j`` of record ``r`` is row ``r * count + j``)."""
        n, count = len(self.bases[0]), len(self.keys)
        spans = _empty_spans(np.arange(0, (n + 1) * count, count, dtype=np.int64))
        key_start, key_len, value_start, value_len, value_null = (a.reshape(n, count) for a in spans[1:])
        for j, (key, value) in enumerate(zip(self.keys, self.values, strict=True)):
            key_start[:, j], key_len[:, j] = self._starts(key), key[2]
            value_start[:, j], value_len[:, j] = self._starts(value), value[2]
            if value[3] is not None:
                value_null[:, j] = value[3]
        return spans

    def _starts(self, span: _Span) -> np.ndarray:
        """Where a span starts in the data, in every record."""
        segment, start = span[0], span[1]
        return self.bases[segment] + start if isinstance(start, int) else start


def _packed(
    arr: np.ndarray, columns: _HeaderColumns, places: list[_Span], names: bool = False
) -> pa.Array | None:
    """The header keys or values at ``places`` as one binary array of ``records * len(places)`` values
    in row order, copied a header index at a time as items of one size; ``None`` (take the general
    path) when some are null. ``names``: header keys, which producers write alike on every record:
    when every record has the first one's bytes at every place, the array is a string array made
    once for the run's size (:func:`_repeated`).

    When each index has one length, the items fill a row per record. Else each record's values are
    laid one after the other in a row of a padded matrix (an index of varied lengths copied at its
    longest, the next value written over the tail), and the rows are copied into the array's data,
    each over the previous one's padding (:func:`_joined`)."""
    n, count = len(columns.bases[0]), len(places)
    sizes: list[int | np.ndarray] = []
    for _, _, length, null in places:
        if null is not None:
            return None
        if isinstance(length, int):
            sizes.append(length)
            continue
        low, high = (int(length.min()), int(length.max())) if n else (0, 0)
        sizes.append(low if low == high else length)
    if names and n and (same := columns.names or _same_everywhere(columns, places, sizes)) is not None:
        return _repeated(n, same)
    widths = [size if isinstance(size, int) else int(size.max()) for size in sizes]
    width = sum(widths)
    rows = np.empty((n, width), np.uint8)
    at: int | np.ndarray = 0  # where each record's next value starts in its row
    row_starts = None
    ends = []  # where each record's value ``j`` ends in its row
    for (segment, where, _, _), size, item in zip(places, sizes, widths, strict=True):
        if item:
            items = _items(arr, columns, segment, where, item)
            if isinstance(at, int):
                np.ndarray((n,), f"V{item}", rows, at, (width,))[...] = items
            else:
                if row_starts is None:
                    row_starts = np.arange(0, n * width, width, dtype=np.int64)
                np.ndarray((n * width - item + 1,), f"V{item}", rows, 0, (1,))[row_starts + at] = items
        at = at + size
        ends.append(at)
    if isinstance(at, int):
        return pa.Array.from_buffers(
            pa.binary(), n * count, [None, _row_offsets(n, tuple(widths)), pa.py_buffer(rows)]
        )
    starts, data = _joined(rows, at)
    offsets = np.empty(n * count + 1, np.int32)
    within = offsets[:-1].reshape(n, count)
    within[:, 0] = starts[:-1]
    for j in range(1, count):
        np.add(starts[:-1], ends[j - 1], out=within[:, j], casting="unsafe")
    offsets[-1] = starts[-1]
    return pa.Array.from_buffers(pa.binary(), n * count, [None, pa.py_buffer(offsets), data])


def _joined(rows: np.ndarray, filled: np.ndarray) -> tuple[np.ndarray, pa.Buffer]:
    """The first ``filled`` bytes of each row of ``rows`` (uint8, (records, width)), one after the other:
    where each record's bytes start (and the end), and the bytes. Each row is copied whole as one item,
    in row order, each over the padding of the row before (one numpy copy for them all)."""
    n, width = rows.shape
    starts = np.empty(n + 1, np.int64)
    starts[0] = 0
    np.cumsum(filled, out=starts[1:])
    total = int(starts[-1])
    if total > _INT32_LIMIT:
        raise _Fail
    out = np.empty(total + width, np.uint8)
    np.ndarray((total + 1,), f"V{width}", out, 0, (1,))[starts[:-1]] = rows.reshape(-1).view(f"V{width}")
    return starts.astype(np.int32), pa.py_buffer(out[:total])


def _same_everywhere(
    columns: _HeaderColumns, places: list[_Span], sizes: list[int | np.ndarray]
) -> tuple[bytes, ...] | None:
    """The first record's bytes at ``places`` when every record has them there (each span at one place
    and of one length, inside its window); else ``None``."""
    per_window: dict[int, list[int]] = {}
    for (segment, where, _, _), size in zip(places, sizes, strict=True):
        if not isinstance(where, int) or not isinstance(size, int):
            return None
        if where + size > columns.windows[segment].shape[1]:
            return None
        per_window.setdefault(segment, []).extend(range(where, where + size))
    for segment, bytes_at in per_window.items():
        if bytes_at and not _same_bytes(columns.windows[segment], bytes_at):
            return None
    return tuple(
        bytes(columns.windows[segment][0, where : where + size])  # type: ignore[misc]
        for (segment, where, _, _), size in zip(places, sizes, strict=True)
    )


@functools.lru_cache(maxsize=8)
def _repeated(n: int, names: tuple[bytes, ...]) -> pa.Array:
    """``names`` over and over, ``n`` times, as one string array (the header keys of every run of a
    partition: made and checked once); a name that is not UTF-8 fails the run."""
    try:
        for name in names:
            name.decode()
    except UnicodeDecodeError:
        raise _Fail from None
    row = np.frombuffer(b"".join(names), np.uint8)
    data = np.tile(row, n) if len(row) else np.empty(0, np.uint8)
    offsets = _row_offsets(n, tuple(map(len, names)))
    return pa.Array.from_buffers(pa.string(), n * len(names), [None, offsets, pa.py_buffer(data)])


def _items(
    arr: np.ndarray, columns: _HeaderColumns, segment: int, where: int | np.ndarray, size: int
) -> np.ndarray:
    """The ``size`` bytes at ``where`` in every record, as items of that size: a strided view of the
    window when it holds them, else gathered from the data (zeros past its end: the longest copy of
    a varied value may run on past the last record)."""
    window = columns.windows[segment]
    n, width = window.shape
    if isinstance(where, int):
        if where + size <= width:
            return np.ndarray((n,), f"V{size}", window, where, (width,))
        where = columns.bases[segment] + where
    return _windows(arr, where, size)


@functools.lru_cache(maxsize=16)
def _row_offsets(n: int, sizes: tuple[int, ...]) -> pa.Buffer:
    """The offsets of ``n`` rows of values of ``sizes`` bytes each, in row order."""
    within = np.cumsum([0, *sizes], dtype=np.int32)
    starts = np.arange(n, dtype=np.int32)[:, None] * np.int32(within[-1]) + within[None, :-1]
    return pa.py_buffer(np.append(starts.ravel(), np.int32(n * int(within[-1]))))


def _same_bytes(window: np.ndarray, places: list[int]) -> bool:
    """Whether every row of ``window`` (uint8, rows of a multiple of 8 bytes) has the first row's bytes
    at ``places``: compared a 64-bit word at a time, masked to the places (one strided pass a word)."""
    rows, width = window.shape
    words = window.reshape(-1).view(np.uint64).reshape(rows, width // 8)
    mask = np.zeros(width, np.uint8)
    mask[places] = 0xFF
    masks, firsts = mask.view(np.uint64), words[0] & mask.view(np.uint64)
    return all(((words[:, w] & masks[w]) == firsts[w]).all() for w in sorted({p // 8 for p in places}))


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
