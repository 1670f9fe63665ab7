"""The field reader: each field of every record read together (:class:`_Fields`), through a strided
view of the records' windows when it sits at the same place in every record, a shifted word when it
sits at one of a few, an index otherwise; and the bytes of spans (keys, values, header keys and
values) as one Arrow array with one gather (:func:`_gather`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import cast

import numpy as np
import pyarrow as pa

from .common import _SIZE_2, _T, _U16LE, _U32LE, _VALUE_2, _ZIGZAG_1, _Fail


def _windows(arr: np.ndarray, origin: np.ndarray, width: int, lead: int = 0) -> np.ndarray:
    """``width`` bytes from ``lead`` bytes before each of ``origin`` (positions in ``arr``), as items of
    that size; outside ``arr``, zeros (windows reaching past either end come from a padded copy of that
    end, so the data itself needs no padding: a run reaching a segment's end is not copied for it)."""
    wide = np.dtype(f"V{width}")
    start = origin - lead if lead else origin
    last = len(arr) - width  # the last position with a whole window inside the data
    if last < 0:  # the data is shorter than a window: every window from the padded copy
        return _padded_windows(arr, start, width) if len(start) else np.empty(0, f"V{width}")
    whole = np.ndarray((last + 1,), wide, arr, 0, (1,))
    if not len(start) or (int(start.max()) <= last and (not lead or int(start.min()) >= 0)):
        return whole[start]
    # the few windows reaching past an end (the last records', the first's lead): gathered clamped, then
    # replaced (a boolean mask over every row would cost more than the gather itself)
    out = whole[np.clip(start, 0, last)]
    for outside in (np.flatnonzero(start < 0), np.flatnonzero(start > last)):
        if len(outside):
            out[outside] = _padded_windows(arr, start[outside], width)
    return out


def _padded_windows(arr: np.ndarray, start: np.ndarray, width: int) -> np.ndarray:
    """The windows at ``start`` (a few, near the data's ends) from a copy of the bytes they span, with
    zeros outside the data."""
    lo, hi = int(start.min()), int(start.max()) + width
    pad = np.zeros(hi - lo, np.uint8)
    pad[max(lo, 0) - lo : min(hi, len(arr)) - lo] = arr[max(lo, 0) : min(hi, len(arr))]
    return np.ndarray((hi - lo - width + 1,), np.dtype(f"V{width}"), pad, 0, (1,))[start - lo]


class _Fields:
    """The fields of every record, read in order: each read moves the read position past its field.

    ``window`` holds the first :data:`~.common._WINDOW` bytes of every record (the record walk copied them).
    Fields inside them are read from that compact array, through a strided view when every record
    has the field at the same place (equal varint widths and key lengths), a shifted word when it sits
    at one of a few places, else through an index; fields further in are read from the data itself.

    The read position is ``var + off``: a per-record part that changes only after a field of
    different widths (``None``: the same place in every record) and a part shared by all records. What
    a read derives from the per-record part (its range, the word shifts, the index) is kept until
    that part changes: fields after a fixed-size one read at no extra cost.
    """

    def __init__(
        self, arr: np.ndarray, u16: np.ndarray, origin: np.ndarray, window: np.ndarray, lead: int = 0
    ):
        self.arr, self.u16 = arr, u16
        self.stop = origin  # where each record ends (set once known)
        self.sizes: np.ndarray | None = None  # each record's size from its start (set with ``stop``)
        self._origin_at(origin, window, lead)

    def _origin_at(self, origin: np.ndarray, window: np.ndarray, lead: int) -> None:
        self.origin = origin
        self.lead = lead  # the window starts this many bytes before each record's origin
        self.width = window.dtype.itemsize
        self.window = window.view(np.uint8)
        self.window16 = np.ndarray((max(len(self.window) - 1, 0),), _U16LE, self.window, 0, (1,))
        self._set_var(None, 0)

    def _set_var(self, var: np.ndarray | None, off: int) -> None:
        self.var, self.off = var, off  # where the read stands from each record's origin: var + off
        self._derived: dict[str, object] = {}  # what reads computed from ``var``

    def _from_var(self, name: str, make: Callable[[np.ndarray], _T]) -> _T:
        """``make(var)``, made once for each ``var``."""
        if name not in self._derived:
            assert self.var is not None
            self._derived[name] = make(self.var)
        return cast(_T, self._derived[name])

    def rebase(self, width: int) -> None:
        """Read on from here with a new window of ``width`` bytes from every
        record's read position: fields that sit at different places from the records' starts (after
        fields of different widths) often sit at the same place from here, and read as strided views."""
        origin = self.position()
        self._origin_at(origin, _windows(self.arr, origin, width), 0)

    def move_to(self, position: np.ndarray) -> None:
        """Continue from ``position`` (positions in the data), read elsewhere."""
        self._set_var(position - self.origin, 0)

    def position(self) -> np.ndarray:
        """Where every record's read stands, as positions in the data (a new array)."""
        if self.var is None:
            return self.origin + self.off
        return self._from_var("position", lambda var: self.origin + var) + self.off

    def _reads(self) -> tuple[Callable[[], np.ndarray], Callable[[], np.ndarray]]:
        """Two readers of every record's read position: its byte, and its two bytes (little-endian
        uint16); what they share is computed once."""
        off, n, width, var = self.off, len(self.origin), self.width, self.var
        window, at = self.window, self.off + self.lead  # ``at``: in the window
        if var is None:
            if at + 2 <= width:  # the same place in every window: strided views, no copy
                return (lambda: window[at::width]), (lambda: np.ndarray((n,), _U16LE, window, at, (width,)))
            pos = self.origin + off
        else:
            low, high = self._from_var("range", lambda v: (int(v.min()), int(v.max())))
            if high - low <= 2 and low + at + 4 <= width:  # a few places (after a field of one or two bytes):
                # a strided 4-byte word at the first of them, shifted per record, instead of an index
                word = np.ndarray((n,), _U32LE, window, low + at, (width,))
                shift = self._from_var("shift", lambda v: (v - low).astype(np.uint32) << np.uint32(3))
                return (lambda: (word >> shift) & np.uint32(0xFF)), (
                    lambda: (word >> shift) & np.uint32(0xFFFF)
                )
            if high + at + 2 <= width:
                rows = self._from_var(  # each record's window row, plus its part of the read
                    "rows", lambda v: np.arange(0, n * width, width, dtype=np.int64) + v
                )
                index = rows + at
                window16 = self.window16
                return (lambda: window.take(index)), (lambda: window16[index])
            pos = self.position()
        arr, u16 = self.arr, self.u16
        return (lambda: arr.take(pos)), (lambda: u16[pos])

    def _advance(self, size: np.ndarray | int) -> None:
        """Move the read ``size`` bytes on (per record, or the same for all)."""
        if isinstance(size, int):
            self.off += size
        elif not len(size):
            return
        elif int(size.min()) == int(size.max()):  # still the same distance on in every record
            self.off += int(size[0])
        elif self.var is None:  # varint sizes stay small (int16: a pass over a quarter of the bytes);
            # lengths (int64) widen the sum
            self._set_var(size.astype(np.int16) if size.dtype.itemsize < 2 else size, self.off)
        else:
            self._set_var(self.var + size, self.off)

    def varint(self, max_bytes: int, wide: bool = False) -> np.ndarray:
        """A zigzag varint at every record's read position (5: 32-bit; 9: a varlong up to 63 bits).
        ``wide``: two bytes are likely (timestamp and offset deltas): read them at once."""
        if not len(self.origin):
            return np.zeros(0, np.int64)
        firsts, pairs = self._reads()
        if not wide:
            first = firsts()
            top = int(first.max())
            if top < 128:  # every value in one byte (lengths under 64, no headers)
                self._advance(1)
                return np.zeros(len(first), np.int16) if top == 0 else _ZIGZAG_1.take(first)
        pair = pairs().astype(np.intp)  # as the two lookups' index (each would convert it)
        size = _SIZE_2.take(pair)
        if not size.all():  # some longer than two bytes
            value, sizes = _varint(self.arr, self.position(), max_bytes)
            self._advance(sizes)
            return value
        value = _VALUE_2.take(pair)
        self._advance(size)
        return value

    def bytes_field(self, nullable: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """A bytes field (varint length; -1 for null where ``nullable``): its (start, length (0 for null),
        nulls or None). Whether it lies inside its record is checked once all fields are read: each
        field moves the read forward, so the read ending exactly at each record's end vouches for all."""
        length, null = self._length(nullable)
        start = self.position()
        self._advance(length)
        return start, length, null

    def span(self, nullable: bool = True) -> tuple[int | np.ndarray, int | np.ndarray, np.ndarray | None]:
        """:meth:`bytes_field`, its start as a column of the windows (an int) when it starts at the same
        place in every record, else as positions in the data, and its length as an int when every
        record's is the same byte (header names, values of one size): a copy of the field can then be
        one strided copy, and no positions or lengths are computed for it. The length bytes are read
        once (each read of a column of the windows passes over all of them)."""
        first = self._reads()[0]() if len(self.origin) else np.zeros(0, np.uint8)
        if self.var is None:
            first = np.ascontiguousarray(first)
        byte = int(first[0]) if len(first) else 0
        length: int | np.ndarray
        null = None
        if byte < 128 and _ZIGZAG_1[byte] >= 0 and (first == byte).all():
            length = int(_ZIGZAG_1[byte])
            self._advance(1)
        elif len(first) and int(first.max()) < 128:  # lengths under 64, one varint byte each
            length = _ZIGZAG_1.take(first)
            shortest = int(length.min())
            if shortest < 0:
                if shortest < -1 or not nullable:
                    raise _Fail
                length, null = np.maximum(length, 0), length == -1
            self._advance(1)
        else:
            length, null = self._length(nullable)
        start = self.off + self.lead if self.var is None else self.position()
        self._advance(length)
        return start, length, null

    def _length(self, nullable: bool) -> tuple[np.ndarray, np.ndarray | None]:
        """A bytes field's length varint: (length (0 for null), nulls or None)."""
        length = self.varint(5)
        shortest = int(length.min()) if len(length) else 0
        if shortest >= 0:
            return length, None
        if shortest < -1 or not nullable:
            raise _Fail
        return np.maximum(length, 0), length == -1


def _varint(arr: np.ndarray, pos: np.ndarray, max_bytes: int) -> tuple[np.ndarray, np.ndarray | int]:
    """Zigzag varints at ``pos``: (values, sizes). ``max_bytes`` 5: a varint (32-bit range);
    9: a varlong up to 63 bits (10-byte varlongs are left to the per-record decoder)."""
    first = arr[pos]
    longer = first >= 128
    if not longer.any():  # the usual case: every value in one byte
        return _ZIGZAG_1[first], 1
    # both bytes in one gather, through a little-endian uint16 view at every byte offset (unaligned; the
    # data ends with padding, so the byte after the last is inside the array)
    pair = np.ndarray((len(arr) - 1,), _U16LE, arr, 0, (1,))[pos]
    size = _SIZE_2[pair]
    if size.all():  # one or two bytes each (record lengths of 64 to 8191 bytes): two table lookups
        return _VALUE_2[pair], size
    longer = np.flatnonzero(longer)
    u = (first & 127).astype(np.uint64)
    size = np.ones(len(pos), np.int64)
    at = pos[longer]
    for k in range(1, max_bytes):
        byte = arr[at + k]
        u[longer] |= (byte & 127).astype(np.uint64) << np.uint64(7 * k)
        size[longer] += 1
        more = byte >= 128
        longer, at = longer[more], at[more]
        if not len(longer):
            break
    else:
        raise _Fail  # longer than max_bytes
    if max_bytes == 5 and (u > 0xFFFFFFFF).any():
        raise _Fail
    return (u >> np.uint64(1)).astype(np.int64) ^ -(u & np.uint64(1)).astype(np.int64), size


def _within(p: np.ndarray, stop: np.ndarray) -> None:
    if (p > stop).any():
        raise _Fail


def _bytes_field(
    arr: np.ndarray, p: np.ndarray, stop: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A nullable bytes field (varint length, -1 for null) at ``p``: start, length (0 for null), nulls, next."""
    length, n = _varint(arr, p, 5)
    start = p + n
    if (length < -1).any():
        raise _Fail
    null = length == -1
    length = np.maximum(length, 0)
    after = start + length
    _within(after, stop)
    return start, length, null, after


#: spans of one length up to this many bytes are gathered as fixed-size items (:func:`_gather`)
_FIXED_MAX = 1 << 20


def _gather(
    data: pa.Buffer,
    arr: np.ndarray,
    start: np.ndarray,
    length: np.ndarray,
    null: np.ndarray | None,
    arrow_type: pa.DataType,
) -> pa.Array:
    """A binary array of ``data[start:start + length]`` per row (spans in order, not overlapping, inside
    ``arr``, the same bytes as ``data``). Spans all of one length and no null (fixed-size keys, header
    keys, many values) are one numpy gather of that many bytes per row; others one C-level ``take``
    over an array whose elements alternate between the gap before each span and the span."""
    n = len(start)
    if n and (null is None or not null.any()):
        size = int(length[0])
        if size <= _FIXED_MAX and (length == size).all():
            fixed = np.ndarray((len(arr) - size + 1,), f"V{size}", arr, 0, (1,))[start] if size else b""
            return pa.Array.from_buffers(arrow_type, n, [None, _fixed_offsets(n, size), pa.py_buffer(fixed)])
    bounds = np.empty(2 * n + 1, np.int32)
    bounds[0] = 0
    bounds[1::2] = start
    bounds[2::2] = start + length
    spans = pa.Array.from_buffers(arrow_type, 2 * n, [None, pa.py_buffer(bounds), data])
    picked = spans.take(pa.array(np.arange(1, 2 * n, 2, dtype=np.int64)))
    if null is None or not null.any():
        return picked
    validity = pa.py_buffer(np.packbits(~null, bitorder="little"))
    return pa.Array.from_buffers(arrow_type, n, [validity, *picked.buffers()[1:]], null_count=int(null.sum()))


@functools.lru_cache(maxsize=16)
def _fixed_offsets(n: int, size: int) -> pa.Buffer:
    """The offsets of ``n`` values of ``size`` bytes each (a run's key and value columns often share them)."""
    return pa.py_buffer(np.arange(n + 1, dtype=np.int32) * np.int32(size))
