"""The batch walk of a segment for the Arrow readers: every v2 batch head found and checked at once.

:class:`kafkaspec.records.BatchIterator` walks one entry at a time in Python (head unpacked, lengths,
magic, CRC and record count checked, a ``Batch`` object made): a few microseconds a batch, a tenth
of the columnar engine's time on 100-record batches. Here the only sequential part, the chain of
batch lengths, is a plain loop over ints (after the batches of the first one's length, found at once:
:func:`_alike`); the heads are read with one numpy gather
(:func:`~kafkaspec.arrow.engine.read_heads`) and checked as arrays; the CRC-32C of each batch is
taken by the crc32c library, a run of batches at a time (:func:`crc_mismatch`); no object is made
per batch.

The walk stops at the first entry it does not vouch for: a legacy (magic 0/1) entry, a length out of
bounds, a short tail, a failed check; the reader stops at the first batch whose CRC fails. The caller
hands the bytes from there to ``BatchIterator``,
which raises the exact error (same message, same byte) or reads the legacy entries and the partial
tail as ever: nothing is checked less, nothing reported differently.
"""

from __future__ import annotations

import struct
from typing import NamedTuple

import numpy as np

from kafkaspec.generated import record_batch_v2 as v2

from ..codec.crc import crc32c
from .engine import read_heads

_LENGTH = struct.Struct(">i").unpack_from


class Heads(NamedTuple):
    """Consecutive v2 batches of a buffer that passed every check of the batch iterator but the CRC's."""

    positions: np.ndarray  # int64, where each batch starts
    heads: np.ndarray  # their heads, HEAD_DTYPE records
    stop: int  # where the walk stopped: the end of the last batch, or the entry it did not vouch for


def v2_heads(buf: bytes, start: int) -> Heads:
    """The v2 batches of ``buf`` from ``start`` on, up to the first entry that is not a whole v2 batch
    with a records count of 0 or more (their CRCs: :func:`crc_mismatch`)."""
    end = len(buf)
    data = np.frombuffer(buf, np.uint8)
    alike, alike_heads, pos = _alike(buf, data, start)
    head_size, magic_at, length_at = v2.RECORD_BATCH_OVERHEAD, v2.MAGIC_OFFSET, v2.BATCH_LENGTH_OFFSET
    length_end, shortest = v2.BATCH_LENGTH_END, v2.MIN_BATCH_LENGTH
    starts: list[int] = []
    while end - pos >= head_size and buf[pos + magic_at] == 2:  # the chain of lengths: bounds checked here
        length = _LENGTH(buf, pos + length_at)[0]
        after = pos + length_end + length
        if length < shortest or after > end:
            break
        starts.append(pos)
        pos = after
    positions = np.array(starts, np.int64)
    heads = read_heads(data, positions)
    if len(alike):
        positions, heads = np.concatenate([alike, positions]), np.concatenate([alike_heads, heads])
    ok = heads["records_count"] >= 0
    if not ok.all():
        good = int(np.argmin(ok))  # the first batch failing a check: the batch iterator reports it
        return Heads(positions[:good], heads[:good], int(positions[good]))
    return Heads(positions, heads, pos)


#: batches tried at once by :func:`_alike` (a guess that fails costs one such try)
_ALIKE_FIRST = 16


def _alike(buf: bytes, data: np.ndarray, start: int) -> tuple[np.ndarray, np.ndarray, int]:
    """The batches from ``start`` on, as far as each is a v2 batch of the first one's length (batches
    of fixed-size records written alike): where they start, their heads, and where they end; found
    with a few array operations instead of a step a batch. None when the second batch differs (the
    walk goes on a batch at a time from ``start``)."""
    none = np.zeros(0, np.int64), read_heads(data, np.zeros(0, np.int64)), start
    if len(buf) - start < v2.RECORD_BATCH_OVERHEAD or buf[start + v2.MAGIC_OFFSET] != 2:
        return none
    length = _LENGTH(buf, start + v2.BATCH_LENGTH_OFFSET)[0]
    if length < v2.MIN_BATCH_LENGTH:
        return none
    size = v2.BATCH_LENGTH_END + length
    whole = (len(buf) - start) // size  # the batches of that size that fit
    tried = min(whole, _ALIKE_FIRST)
    while tried > 1:
        at = start + size * np.arange(tried, dtype=np.int64)
        heads = read_heads(data, at)
        same = (heads["magic"] == 2) & (heads["batch_length"] == length)
        if not same.all():  # the chain holds up to the first that differs
            tried = int(np.argmin(same))
            return (at[:tried], heads[:tried], start + size * tried) if tried > 1 else none
        if tried == whole:
            return at, heads, start + size * tried
        tried = whole
    return none


def crc_mismatch(buf: bytes, positions: np.ndarray, heads: np.ndarray) -> int | None:
    """The index of the first of these batches (of :func:`v2_heads`) whose CRC-32C is not its head's;
    ``None`` when every one matches. The Arrow readers check a run's CRCs right before decoding it: the
    pass over its bytes leaves them in the cache for the record walk, which jumps from batch to batch."""
    view = memoryview(buf)
    covered = positions + v2.ATTRIBUTES_OFFSET  # from the attributes to the batch's end
    crcs = [
        crc32c(view[a:b])
        for a, b in zip(covered.tolist(), (positions + v2.BATCH_LENGTH_END + heads["batch_length"]).tolist())
    ]
    ok = np.array(crcs, np.uint32) == heads["crc"]
    return None if ok.all() else int(np.argmin(ok))
