"""The record chain: where every record of a run starts and ends. The only sequential part of a batch
is the chain of record lengths; it is followed in lockstep over the batches (one numpy gather of two
bytes and one table lookup per step, :func:`_record_spans`), its checks made afterwards over all
records at once; batches of the first one's records count and size are guessed to have its chain
(:func:`_chain_template`), and checked. Then the first bytes of every record are copied into a
compact array (a *window*, :func:`~.fields._windows`), ready for the field reader.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...codec.varint import read_varint
from ...errors import KafkaFormatError
from .common import _STEP_2, _U16LE, _WINDOW, _Fail
from .fields import _Fields, _windows

#: below this many batches still walking their record chain, the rest is walked in plain Python
#: (a numpy step costs microseconds whatever its size; a batch of 10,000 records alone must not pay it)
LOCKSTEP_MIN_BATCHES = 8


def _record_spans(
    data: bytes | memoryview,
    arr: np.ndarray,
    counts: np.ndarray,
    starts: np.ndarray,
    ends: np.ndarray,
    guess: bool = True,
) -> _Fields:
    """Every record's span (rows in batch order), with its first bytes, ready to read its fields.

    The record length chain, followed in lockstep: step ``i`` reads the first two bytes of record
    ``i`` of every batch that has one and moves each batch's position past that record (one table
    lookup, :data:`_STEP_2`: 0 for a length of three varint bytes or a negative one, so the position
    stays). The checks come after the walk, over all records at once: each record's length must end
    it where the next record starts, and the last one exactly at its batch's end. A batch whose walk
    did not end there (a record of 8 KiB or more, or a bad length) is walked again in plain Python,
    which checks each step. Batches with the first batch's records count and size are not walked:
    they are guessed to have its chain (:func:`_chain_template`; with ``guess``), and the guess is
    checked from the windows. Then the first bytes of every record are copied (16 to :data:`_WINDOW`,
    :func:`_window_width`), in file order (the walk itself jumps from batch to batch: one cache miss a
    record, whatever it reads).
    """
    total = int(counts.sum())
    row_base = np.zeros(len(counts), np.int64)
    np.cumsum(counts[:-1], out=row_base[1:])
    rec = np.empty(total, np.int64)  # where each record (its length varint) starts
    u16 = np.ndarray((max(len(arr) - 1, 0),), _U16LE, arr, 0, (1,))  # the two bytes at every position
    pos = starts.copy()  # where each batch's walk stands (its end, once done)
    template = _chain_template(data, u16, counts, starts, ends, rec, row_base) if guess else None
    same = template.batches if template else np.zeros(0, np.int64)
    pos[same] = ends[same]
    filled = counts > 0
    filled[same] = False
    active = np.flatnonzero(filled)
    shortest = int(counts[active].min()) if len(active) else 0  # the step at which batches next drop out
    p, rows = pos[active], row_base[active]
    step = _STEP_2
    i = 0
    while len(active) >= LOCKSTEP_MIN_BATCHES:
        # the positions of each step until the active batches change: row k, record i + k of each batch
        steps = np.empty((shortest - i + 1, len(active)), np.int64)
        steps[0] = p
        for k in range(1, shortest - i + 1):  # few calls a step: a step handles one record of each batch
            np.add(steps[k - 1], step.take(u16[steps[k - 1]]), out=steps[k])
        p = steps[-1]
        _place(rec, rows, i, steps[:-1])
        i = shortest
        keep = counts[active] > i
        pos[active[~keep]] = p[~keep]
        active, p, rows = active[keep], p[keep], rows[keep]
        shortest = int(counts[active].min()) if len(active) else 0
    pos[active] = p
    walked = np.ones(len(counts), bool)
    walked[active] = False
    again = np.flatnonzero(walked & (pos != ends))  # walks that did not end at their batch's end
    # long batches (from record i on), and the ones to walk again (from their start): one record at a time
    plain = [*((b, i) for b in active.tolist()), *((b, 0) for b in again.tolist())]
    for b, first_record in plain:
        at, limit, first_row = int(pos[b]) if first_record else int(starts[b]), int(ends[b]), int(row_base[b])
        for j in range(first_record, int(counts[b])):
            if at >= limit:
                raise _Fail
            rec[first_row + j] = at
            size: int = data[at]
            if size < 128:
                size = (size >> 1) ^ -(size & 1)
                at += 1
            else:
                try:
                    size, at = read_varint(data, at)
                except (KafkaFormatError, IndexError):
                    raise _Fail from None
            if size < 0 or at + size > limit:
                raise _Fail
            at += size
        if at != limit:
            raise _Fail
    # every record's length from its first bytes: the chain must hold record by record
    # each record's window starts at the byte before it: the last byte of the record before
    # (:func:`_headerless`), or of the batch's head
    width = _window_width(data, int(rec[0])) if total else _WINDOW
    window = _windows(arr, rec, width, lead=1)
    fields = _Fields(arr, u16, rec, window, lead=1)
    pair = np.ndarray((total,), _U16LE, fields.window, 1, (width,)) if total else np.zeros(0, np.uint16)
    if template and not template.holds(pair, row_base):  # a guess that failed: walked again, no guess
        return _record_spans(data, arr, counts, starts, ends, guess=False)
    if template and len(template.batches) == len(counts):  # every batch has the first one's chain: its
        # records' sizes, and their length varints' (two bytes where the first has the continuation bit)
        moved = np.tile(_STEP_2.take(template.pairs), len(counts))
        stop = rec + moved
        sizes = ((template.pairs >> 7) & 1).astype(np.uint8) + np.uint8(1)
        fields._advance(int(sizes[0]) if (sizes == sizes[0]).all() else np.tile(sizes, len(counts)))
    elif (moved := _STEP_2.take(pair)).all():  # each record's length varint and body, as the walk stepped
        # over them. Trusted: every length took one or two bytes and is not negative, so every lockstep
        # step moved by exactly its record: each record ends where the next starts, and the walk ended
        # each batch at its end (or walked it again in plain Python).
        stop = rec + moved
        fields._advance((fields.window[1::width] >> 7) + np.uint8(1))
    else:  # a step stayed: the chain is checked record by record
        length = fields.varint(5)
        stop = fields.position() + length
        follows = np.empty(
            total, np.int64
        )  # where each record must end: the next one's start, or the batch's end
        follows[:-1] = rec[1:]
        filled = counts > 0
        follows[(row_base + counts - 1)[filled]] = ends[filled]
        if (length < 0).any() or not np.array_equal(stop, follows):
            raise _Fail
        moved = stop - rec
    fields.stop, fields.sizes = stop, moved
    fields._advance(1)  # past the attributes byte (unused by the columns)
    return fields


class _Template(NamedTuple):
    """Batches guessed to have the record chain of the run's first batch (:func:`_chain_template`)."""

    batches: np.ndarray  # their indices
    pairs: np.ndarray  # uint16: the first batch's two bytes at each of its records' starts

    def holds(self, pair: np.ndarray, row_base: np.ndarray) -> bool:
        """Whether the guess holds: ``pair`` has every record's first two bytes, in row order."""
        count = len(self.pairs)
        if len(self.batches) * count == len(pair):  # every record of the run
            return bool((pair.reshape(-1, count) == self.pairs).all())
        return bool((pair[row_base[self.batches][:, None] + np.arange(count)] == self.pairs).all())


def _chain_template(
    data: bytes | memoryview,
    u16: np.ndarray,
    counts: np.ndarray,
    starts: np.ndarray,
    ends: np.ndarray,
    rec: np.ndarray,
    row_base: np.ndarray,
) -> _Template | None:
    """Guess that every batch of the first batch's records count and size has its record chain, and
    place their records' starts in ``rec``; ``None`` when no other batch is such.

    The first batch with records is walked in plain Python. A batch whose two bytes at each of the first
    batch's record starts are the first batch's two bytes there has the same chain: a length of one or
    two varint bytes is decided by those bytes, so each of its records ends where the first batch's
    does, and the last at its end. The guess is checked (:meth:`_Template.holds`) from the windows the
    walk copies anyway: no pass of its own over the data. Batches of fixed-size keys and values and
    regular deltas (the usual producer's batches) are walked at once instead of a lockstep step a record."""
    filled = np.flatnonzero(counts > 0)
    if len(filled) < 2:
        return None
    first = int(filled[0])
    count, size = int(counts[first]), int(ends[first] - starts[first])
    chain = _short_chain(data, int(starts[first]), int(ends[first]), count)
    if chain is None:
        return None
    same = np.flatnonzero((counts == count) & (ends - starts == size))
    if len(same) < 2:
        return None
    rel = np.array(chain, np.int64)
    pairs = u16[starts[first] + rel]
    if not np.array_equal(u16[starts[same[-1]] + rel], pairs):  # one more batch tried before guessing
        return None
    if len(same) == len(counts) and count * len(counts) == len(rec):  # every batch: already in row order
        np.add(starts[:, None], rel, out=rec.reshape(len(counts), count))
    else:
        rec[(row_base[same][:, None] + np.arange(count)).ravel()] = (starts[same][:, None] + rel).ravel()
    return _Template(same, pairs)


def _short_chain(data: bytes | memoryview, at: int, end: int, count: int) -> list[int] | None:
    """Where each of ``count`` records from ``at`` starts (from ``at``), when each length is a varint of
    one or two bytes, not negative, and the last record ends at ``end``; else ``None``."""
    starts = []
    start = at
    for _ in range(count):
        if at + 1 >= end:
            return None
        starts.append(at - start)
        u = data[at]
        if u < 128:
            at += 1
        else:
            second = data[at + 1]
            if second >= 128:
                return None
            u = (u & 127) | second << 7
            at += 2
        length = (u >> 1) ^ -(u & 1)
        if length < 0:
            return None
        at += length
    return starts if at == end else None


def _window_width(data: bytes | memoryview, start: int) -> int:
    """The width of the records' windows: 16 or 24 bytes when the first record's fields before its
    value (and two bytes more, for deltas growing a byte) fit, else :data:`_WINDOW`. Every read of a
    field passes over the windows (strided), so narrower rows are fewer bytes through the cache; a field
    of a record lying past its window is read from the data instead (correct, slower)."""
    try:
        at = start + (1 if data[start] < 128 else 2) + 1  # past the length and the attributes
        for field in range(4):  # timestamp delta, offset delta, key length, value length
            length, at = read_varint(data, at)
            if field == 2:
                at += max(length, 0)
    except (KafkaFormatError, IndexError):  # a bad record: the checks that follow name it
        return _WINDOW
    need = at - start + 1 + 2 + 2  # the lead byte, a two-byte read, two deltas a byte longer
    return 16 if need <= 16 else 24 if need <= 24 else _WINDOW


def _place(rec: np.ndarray, rows: np.ndarray, first: int, steps: np.ndarray) -> None:
    """Store the walk's positions: ``steps[k, b]`` is where record ``first + k`` of the batch whose
    records start at row ``rows[b]`` starts."""
    if not len(steps):
        return
    walked = steps.T  # one row per batch, in record order
    if first == 0 and len(rec) == walked.size and np.array_equal(rows, np.arange(0, len(rec), len(steps))):
        rec.reshape(walked.shape)[...] = (
            walked  # every batch of the run, all of its records: already in row order
        )
    else:
        rec[(rows[:, None] + np.arange(first, first + len(steps))).ravel()] = walked.ravel()
