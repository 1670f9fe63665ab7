"""What every stage of the engine shares: the failure rule (a check that fails raises :class:`_Fail`
inside the engine, and the run is declined, never half-decoded) and the varint tables.
"""

from __future__ import annotations

from typing import TypeVar

import numpy as np

#: the most bytes of every record gathered at once (:class:`~.fields._Fields`, :func:`~.chain._window_width`)
_WINDOW = 32
_PAD = 16  # zero bytes after joined (decompressed) data: a varint read past a record's end stays inside the array
_INT32_LIMIT = (1 << 31) - 1
_I64_MIN, _I64_MAX = np.iinfo(np.int64).min, np.iinfo(np.int64).max
_U16LE = np.dtype("<u2")
_U32LE = np.dtype("<u4")

#: one-byte zigzag varints (only the first 128 entries are used); int16: the lengths and counts read with
#: it are passed over several times, and sums with int64 positions widen
_ZIGZAG_1 = np.array([(b >> 1) ^ -(b & 1) for b in range(256)], np.int16)


def _two_byte_tables() -> tuple[np.ndarray, np.ndarray]:
    """For every pair of bytes (first | second << 8): the zigzag varint they start and its size
    (0 when it is longer than two bytes)."""
    pair = np.arange(1 << 16)
    first, second = pair & 255, pair >> 8
    u = np.where(first < 128, first, (first & 127) | (second << 7))
    size = np.where(first < 128, 1, np.where(second < 128, 2, 0))
    # small dtypes: the tables (64 Ki entries each) stay in the cache; sums with int64 positions widen
    return ((u >> 1) ^ -(u & 1)).astype(np.int32), size.astype(np.int8)


_VALUE_2, _SIZE_2 = _two_byte_tables()
#: the record-length walk's step for the two bytes at a record's start: past its length varint and its
#: body; 0 (the walk stays) for a length of three or more varint bytes, or a negative one. int64, as the
#: positions it moves (a step's sum needs no widening: a tenth of the walk's time)
_STEP_2 = np.where((_SIZE_2 > 0) & (_VALUE_2 >= 0), _SIZE_2 + _VALUE_2, 0).astype(np.int64)

_T = TypeVar("_T")


class _Fail(Exception):
    """A vectorised check failed: the caller falls back to the per-record decoder."""
