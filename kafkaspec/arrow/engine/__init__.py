"""The columnar engine: the records of many v2 batches decoded at once with numpy, into Arrow arrays.

The per-record decoder (the generated ``decode_record_batch_columns``) walks one record at a time in
Python. This engine walks record ``i`` of every batch at once instead, in stages, one module each:

* :mod:`.heads`: the batch heads of a run read with one gather, and the records regions (compressed
  batches decompressed one by one, C code in the codec libraries, and joined into one buffer);
* :mod:`.chain`: the chain of record lengths (the only sequential part of a batch) followed in
  lockstep over the batches, its checks made afterwards over all records at once; batches of the
  first one's records count and size guessed to have its chain, and checked. Then the first bytes of
  every record are copied into a compact array (a *window*);
* :mod:`.fields`: each field read over all records together, through a strided view when it sits at
  the same place in every record, a shifted word when it sits at one of a few, an index otherwise;
  keys and values become Arrow arrays with one gather each;
* :mod:`.headers`: header keys and values, sliced out of a window at the first header when they sit
  at the same places in every record, else copied a header index at a time (:mod:`.header_columns`);
* :mod:`.assemble`: the run's columns, and the run as one RecordBatch of the ``kafkalog`` columns
  (:func:`decode_run`, :func:`decode_run_at`).

No Python object is made per record. The stages share one buffer layout (positions into the joined
records regions, windows of each record's bytes) and one failure rule (:mod:`.common`): the engine
checks everything the per-record decoder checks (each record inside its batch and its fields inside
the record, record counts, varint sizes and ranges, UTF-8 header keys, int64 offsets and timestamps);
it does not raise: when anything fails, :func:`decode_batches` returns ``None`` and the caller decodes
those batches with the per-record decoder, which raises its error with its position (or, where the
engine is only more cautious, gives the same columns). CRCs and batch heads are checked before
batches get here (by the batch iterator, or by :mod:`kafkaspec.arrow.walk`: the heads of a segment at
once, the CRCs of a run right before it comes here).

Needs numpy and pyarrow (``kafkaspec[spark]``); ``import kafkaspec`` does not load this package.
"""

from __future__ import annotations

from ...codec.extras import missing

try:
    import numpy  # noqa: F401
    import pyarrow  # noqa: F401
except ModuleNotFoundError as exc:
    raise missing(exc, "spark", "the columnar engine (kafkaspec.arrow.engine)") from None

from .assemble import Decoded, decode_batches, decode_heads, decode_run, decode_run_at
from .chain import LOCKSTEP_MIN_BATCHES
from .headers import MAX_LOCKSTEP_HEADERS
from .heads import HEAD_DTYPE, read_heads

__all__ = [
    "HEAD_DTYPE",
    "LOCKSTEP_MIN_BATCHES",
    "MAX_LOCKSTEP_HEADERS",
    "Decoded",
    "decode_batches",
    "decode_heads",
    "decode_run",
    "decode_run_at",
    "read_heads",
]
