"""Record headers read a header index at a time (:class:`_HeaderColumns`), for records with as many
headers each that do not all lie at the same places: the first record's layout with the lengths that
differ read where they are (:func:`_varied_layout`), or each field read in turn; each header index
copied as items of one size (:func:`_packed`); header names alike in every record made once
(:func:`_repeated`). The spans of every header (:class:`_HeaderSpans`) for the general path, and the
word-at-a-time byte check (:func:`_same_bytes`) both paths use.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np
import pyarrow as pa

from ...codec.varint import read_varint
from ...errors import KafkaFormatError
from .common import _INT32_LIMIT, _ZIGZAG_1, _Fail
from .fields import _Fields, _gather, _windows

#: the window of every record's headers (:meth:`_Fields.rebase`)
_HEADERS_WINDOW = 64


#: records whose header bytes show which lengths differ from record to record (:func:`_varied_layout`)
_SAMPLE_VARYING = 64

#: a length varint of one byte: its length, or -1 when it is not one (a null, a negative length, a longer varint)
_LENGTH_1 = np.where((_ZIGZAG_1 >= 0) & (np.arange(256) < 128), _ZIGZAG_1, -1).astype(np.int16)


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


def _varied_layout(fields: _Fields, count: int) -> _HeaderColumns | None:
    """:func:`_read_layout`, with the bytes that differ seen on a sample of the records, then (when
    the layout fails) on all of them."""
    at_first = fields.origin, fields.window.view(f"V{fields.width}")
    read = _read_layout(fields, count, exact=False)
    if read is None:
        fields._origin_at(*at_first, 0)
        read = _read_layout(fields, count, exact=True)
    return read


def _read_layout(fields: _Fields, count: int, exact: bool) -> _HeaderColumns | None:
    """:func:`~.headers._uniform_headers` when the first record's headers lie inside the window but not
    every record's lie at the same places: the first record's layout, with the length varints that
    differ from record to record read in every record. Which bytes of the window differ is seen on a
    sample of the records (:func:`_varying`; ``exact``: on every record), and the bytes taken to be
    alike are checked on every record; the layout holds where a length differs only in one varint byte
    (each record's own length read at that place, under 64: no null, no longer varint) and every other
    length varint's bytes are the first record's. After a length that differs, the rest of the headers
    lie at one place again in a window taken there (:func:`_rebase_tail`), checked the same way. Header
    names the same in every record are noted (:attr:`_HeaderColumns.names`: no copy of them). ``None``:
    read a field at a time (:class:`_HeaderColumns` from :meth:`_Fields.span`).

    As with :class:`~.headers._HeaderLayout`, a varint's bytes decide its value and where it ends, so every
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
        # which bytes differ, from a sample of the records (the first ones, and some spread over all,
        # for values that cycle); the ones taken to be the first record's in every record are checked
        # so in all of them before the window is left, and when some are not, they are found in all
        varies = _varying(
            window
            if exact
            else np.concatenate([window[:_SAMPLE_VARYING], window[:: max(len(window) // _SAMPLE_VARYING, 1)]])
        )
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
            lengths = _LENGTH_1.take(window[:, at])
            if int(lengths.min()) < 0:
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
    alike = tuple(name for name in names if name is not None)
    return _HeaderColumns(windows, bases, keys, values, alike if len(alike) == len(names) else None)


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

    When each index has one length, the items fill a row per record. Else, when the values of one
    length after each varied one cover what its longest copy runs on, each index is copied straight
    into the array's data (:func:`_scattered`); else each record's values are laid one after the other
    in a row of a padded matrix (an index of varied lengths copied at its longest, the next value
    written over the tail), and the filled part of each row is taken with one Arrow ``take`` (one copy
    a record instead of one a value)."""
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
    if (direct := _scattered(arr, columns, places, sizes, widths)) is not None:
        return direct
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
    filled = _gather(
        pa.py_buffer(rows),
        rows.reshape(-1),
        np.arange(0, n * width, width, dtype=np.int64),
        at,
        None,
        pa.binary(),
    )
    _, record_offsets, data = filled.buffers()
    starts = np.frombuffer(record_offsets, np.int32, n + 1)
    offsets = np.empty(n * count + 1, np.int32)
    within = offsets[:-1].reshape(n, count)
    within[:, 0] = starts[:-1]
    for j in range(1, count):
        np.add(starts[:-1], ends[j - 1], out=within[:, j], casting="unsafe")
    offsets[-1] = starts[-1]
    return pa.Array.from_buffers(pa.binary(), n * count, [None, pa.py_buffer(offsets), data])


def _scattered(
    arr: np.ndarray,
    columns: _HeaderColumns,
    places: list[_Span],
    sizes: list[int | np.ndarray],
    widths: list[int],
) -> pa.Array | None:
    """:func:`_packed` of places some of whose lengths differ from record to record, each index copied
    straight into the array's data (no padded matrix): the ones of varied lengths first, each at its
    longest, then the ones of one length over what those wrote past their ends. ``None`` when the
    values of one length that follow a varied one (up to the next varied one, in the next record
    too) are fewer bytes than it may run on."""
    n, count = len(columns.bases[0]), len(places)
    for j, size in enumerate(sizes):
        if isinstance(size, np.ndarray):
            covered, k = 0, (j + 1) % count
            while isinstance(sizes[k], int) and k != j:
                covered += widths[k]
                k = (k + 1) % count
            if k != j or covered < widths[j] - int(size.min()):
                return None
    filled = sizes[0]
    for size in sizes[1:]:
        filled = filled + size
    if not isinstance(filled, np.ndarray):  # (every index of one length: rows of one size)
        return None
    starts = np.empty(n + 1, np.int64)
    starts[0] = 0
    np.cumsum(filled, out=starts[1:])
    total = int(starts[-1])
    if total > _INT32_LIMIT:
        raise _Fail
    offsets = np.empty(n * count + 1, np.int32)
    within = offsets[:-1].reshape(n, count)
    at = [starts[:-1]]  # where each record's value ``j`` starts in the data
    for j in range(1, count):
        at.append(at[-1] + sizes[j - 1])
    for j in range(count):
        within[:, j] = at[j]
    offsets[-1] = total
    out = np.empty(total + max(widths), np.uint8)
    for varied in (True, False):
        for (segment, where, _, _), size, item, to in zip(places, sizes, widths, at, strict=True):
            if item and isinstance(size, np.ndarray) == varied:
                items = _items(arr, columns, segment, where, item)
                np.ndarray((len(out) - item + 1,), f"V{item}", out, 0, (1,))[to] = items
    return pa.Array.from_buffers(
        pa.binary(), n * count, [None, pa.py_buffer(offsets), pa.py_buffer(out[:total])]
    )


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
        bytes(columns.windows[segment][0, where : where + size])
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
    at ``places``: compared a 64-bit word at a time, masked to the places (a word wholly of places
    compared as it is: one pass fewer)."""
    rows, width = window.shape
    words = window.reshape(-1).view(np.uint64).reshape(rows, width // 8)
    mask = np.zeros(width, np.uint8)
    mask[places] = 0xFF
    masks, firsts = mask.view(np.uint64), words[0] & mask.view(np.uint64)
    for w in sorted({p // 8 for p in places}):
        column = words[:, w] if masks[w] == _ALL_BYTES else words[:, w] & masks[w]
        if not (column == firsts[w]).all():
            return False
    return True


_ALL_BYTES = np.uint64(0xFFFF_FFFF_FFFF_FFFF)
