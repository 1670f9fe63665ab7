"""The batch walk of a segment for the Arrow readers: every v2 batch head found and checked at once.

:class:`kafkaspec.records.BatchIterator` walks one entry at a time in Python (head unpacked, lengths,
magic, CRC and record count checked, a ``Batch`` object made): a few microseconds a batch, a tenth
of the columnar engine's time on 100-record batches. Here the only sequential part, the chain of
batch lengths, is a plain loop over ints; the heads are read with one numpy gather
(:func:`~kafkaspec.arrow.engine.read_heads`) and checked as arrays, the CRC-32C of each batch by the
crc32c library; no object is made per batch.

The walk stops at the first entry it does not vouch for: a legacy (magic 0/1) entry, a length out of
bounds, a short tail, a failed check. The caller hands the bytes from there to ``BatchIterator``,
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
    """Consecutive v2 batches of a buffer that passed every check of the batch iterator."""

    positions: np.ndarray  # int64, where each batch starts
    heads: np.ndarray  # their heads, HEAD_DTYPE records
    stop: int  # where the walk stopped: the end of the last batch, or the entry it did not vouch for


def v2_heads(buf: bytes, start: int, *, verify: bool) -> Heads:
    """The v2 batches of ``buf`` from ``start`` on, up to the first entry that is not a whole, valid v2
    batch (``verify``: CRCs checked too)."""
    end = len(buf)
    starts: list[int] = []
    crcs: list[int] = []
    pos = start
    head_size, magic_at, length_at = v2.RECORD_BATCH_OVERHEAD, v2.MAGIC_OFFSET, v2.BATCH_LENGTH_OFFSET
    length_end, shortest, crc_from = v2.BATCH_LENGTH_END, v2.MIN_BATCH_LENGTH, v2.ATTRIBUTES_OFFSET
    view = memoryview(buf)
    while end - pos >= head_size and buf[pos + magic_at] == 2:  # the chain of lengths: bounds checked here
        length = _LENGTH(buf, pos + length_at)[0]
        after = pos + length_end + length
        if length < shortest or after > end:
            break
        starts.append(pos)
        if verify:  # while the batch's bytes are at hand (in the cache)
            crcs.append(crc32c(view[pos + crc_from:after]))
        pos = after
    positions = np.array(starts, np.int64)
    heads = read_heads(np.frombuffer(buf, np.uint8), positions)
    ok = heads["records_count"] >= 0
    if verify and starts:
        ok &= np.array(crcs, np.uint32) == heads["crc"]
    if not ok.all():
        good = int(np.argmin(ok))  # the first batch failing a check: the batch iterator reports it
        return Heads(positions[:good], heads[:good], starts[good])
    return Heads(positions, heads, pos)
