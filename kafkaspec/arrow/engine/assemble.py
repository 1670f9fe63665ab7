"""The last stage: a run's record columns (:func:`_records`: the chain, the fields, the headers, and
the offsets and timestamps from the batch heads) and the run as one RecordBatch of the ``kafkalog``
columns (:func:`decode_run`, :func:`decode_run_at`).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import pyarrow as pa

from kafkaspec.generated.record_batch_v2 import (
    COMPRESSION_MASK,
    IS_CONTROL_MASK,
    IS_TRANSACTIONAL_MASK,
    TIMESTAMP_TYPE_MASK,
    TIMESTAMP_TYPE_SHIFT,
)

from ...codec.compression import CODEC_NAMES, DEFAULT_MAX_DECOMPRESSED
from ...records import Batch
from ..schema import HEADERS_TYPE, SCHEMA
from .chain import _record_spans
from .common import _I64_MAX, _I64_MIN, _Fail
from .fields import _gather
from .headers import _header_arrays, _header_spans, _HeaderColumns, _HeaderLayout, _headerless, _HeaderSpans
from .heads import read_heads, records_regions


class Decoded(NamedTuple):
    """The records of a run of v2 batches, as columns (one row per record, batches in order)."""

    counts: np.ndarray  # int64, records per batch
    offset: np.ndarray  # int64, absolute
    timestamp: np.ndarray  # int64 milliseconds, absolute (LogAppendTime: the batch's max timestamp)
    key: pa.Array  # binary, null for a null key
    value: pa.Array  # binary, null for a null value (tombstone)
    headers: pa.Array  # list<struct<key: string, value: binary>> of the type asked for
    #: int64 per batch: the size of its records region as decoded (after decompression), so that a
    #: caller needing a compressed batch's uncompressed size (the pipeline's audit) need not decompress again
    plain_sizes: np.ndarray
    heads: np.ndarray  # the batch heads, :data:`HEAD_DTYPE` records (the batch columns come from these)


def decode_batches(
    buf: bytes,
    batches: Sequence[Batch],
    headers_type: pa.ListType,
    *,
    max_decompressed: int = DEFAULT_MAX_DECOMPRESSED,
) -> Decoded | None:
    """Decode the records of ``batches`` (v2 views into ``buf``, heads checked, in file order).

    ``None`` when any batch fails a check (or needs a path the engine leaves to the per-record
    decoder: 10-byte varlongs, more than :data:`~.headers.MAX_LOCKSTEP_HEADERS` headers on a record, a run
    beyond 2 GiB); nothing is half-decoded then.
    """
    try:
        return _decode(buf, batches, headers_type, max_decompressed)
    except _Fail:
        return None


_CODEC_LIST = [*CODEC_NAMES, "unknown5", "unknown6", "unknown7"]


_CODECS = pa.array(_CODEC_LIST, pa.string())


_US_LIMIT = np.iinfo(np.int64).max // 1000  # milliseconds that still fit a Spark timestamp (microseconds)


def decode_run(
    buf: bytes,
    run: Sequence[Batch],
    *,
    topic: str,
    partition: int,
    segment: str,
    base: int = 0,
    max_decompressed: int = DEFAULT_MAX_DECOMPRESSED,
    plain_sizes: dict[int, int] | None = None,
) -> pa.RecordBatch | None:
    """The records of a run of v2 batches of ``buf`` (file position ``base``) as one RecordBatch of the
    ``kafkalog`` columns (:data:`~kafkaspec.arrow.schema.SCHEMA`); ``None`` when the engine declines
    (decode the run one record at a time instead). Both Arrow readers call this, so a run's columns are
    built in one place.

    ``plain_sizes``: filled, when the run decodes, with each batch's position in ``buf`` -> the size of
    its records region after decompression."""
    positions = np.fromiter((b.position for b in run), np.int64, len(run))
    return decode_run_at(
        buf,
        positions,
        read_heads(np.frombuffer(buf, np.uint8), positions),
        topic=topic,
        partition=partition,
        segment=segment,
        base=base,
        max_decompressed=max_decompressed,
        plain_sizes=plain_sizes,
    )


def decode_run_at(
    buf: bytes,
    positions: np.ndarray,
    heads: np.ndarray,
    *,
    topic: str,
    partition: int,
    segment: str,
    base: int = 0,
    max_decompressed: int = DEFAULT_MAX_DECOMPRESSED,
    plain_sizes: dict[int, int] | None = None,
) -> pa.RecordBatch | None:
    """:func:`decode_run` of the batches at ``positions`` with their ``heads`` (checked, as by
    :func:`kafkaspec.arrow.walk.v2_heads`): no ``Batch`` object needed."""
    try:
        decoded = decode_heads(
            buf, np.frombuffer(buf, np.uint8), positions, heads, HEADERS_TYPE, max_decompressed
        )
    except _Fail:
        return None
    ts = decoded.timestamp
    if len(ts) and (int(ts.min()) < -_US_LIMIT or int(ts.max()) > _US_LIMIT):  # beyond a Spark timestamp:
        # the per-record path names the record
        return None
    if plain_sizes is not None:
        plain_sizes.update(zip(positions.tolist(), decoded.plain_sizes.tolist(), strict=True))
    counts = decoded.counts
    n = len(ts)
    heads = decoded.heads
    attributes = heads["attributes"]

    def per_batch(values: np.ndarray, dtype: type) -> pa.Array:
        values = values.astype(dtype)
        if len(values) and (values == values[0]).all():  # one value for the run (no producer, no transaction)
            return _constant(values[0].item(), _ARROW_TYPES[dtype], n)
        return pa.array(np.repeat(values, counts))

    columns = [
        decoded.key,
        decoded.value,
        _constant(topic, pa.string(), n),
        _constant(partition, pa.int32(), n),
        pa.array(decoded.offset),
        pa.array(ts * 1000).view(pa.timestamp("us", tz="UTC")),
        per_batch((attributes & TIMESTAMP_TYPE_MASK) >> TIMESTAMP_TYPE_SHIFT, np.int32),
        decoded.headers,
        _constant(2, pa.int32(), n),
        _codec_column(attributes & COMPRESSION_MASK, counts, n),
        per_batch(heads["producer_id"], np.int64),
        per_batch(heads["producer_epoch"], np.int32),
        per_batch(heads["base_sequence"], np.int32),
        per_batch((attributes & IS_TRANSACTIONAL_MASK) != 0, np.bool_),
        per_batch((attributes & IS_CONTROL_MASK) != 0, np.bool_),
        per_batch(heads["partition_leader_epoch"], np.int32),
        _constant(segment, pa.string(), n),
        per_batch(base + positions, np.int64),
    ]
    return pa.RecordBatch.from_arrays(columns, schema=SCHEMA)


_ARROW_TYPES = {np.int32: pa.int32(), np.int64: pa.int64(), np.bool_: pa.bool_()}


@functools.lru_cache(maxsize=32)
def _constant(value: object, arrow_type: pa.DataType, n: int) -> pa.Array:
    """``value`` ``n`` times. Arrow arrays are immutable, so a run of the same length (every full run
    of a segment) shares one: a segment path repeated 65,536 times is 4 MB to build each time."""
    return pa.repeat(pa.scalar(value, arrow_type), n)


def _codec_column(codecs: np.ndarray, counts: np.ndarray, n: int) -> pa.Array:
    """The ``compression`` column: one shared array when the run's batches share a codec (the usual case)."""
    first = int(codecs[0]) if len(codecs) else 0
    if (codecs == first).all():
        return _constant(_CODEC_LIST[first], pa.string(), n)
    return _CODECS.take(np.repeat(codecs.astype(np.int8), counts))


def _decode(
    buf: bytes, batches: Sequence[Batch], headers_type: pa.ListType, max_decompressed: int
) -> Decoded:
    nb = len(batches)
    whole = np.frombuffer(buf, np.uint8)
    positions = np.fromiter((b.position for b in batches), np.int64, nb)
    return decode_heads(buf, whole, positions, read_heads(whole, positions), headers_type, max_decompressed)


def decode_heads(
    buf: bytes,
    whole: np.ndarray,
    positions: np.ndarray,
    heads: np.ndarray,
    headers_type: pa.ListType,
    max_decompressed: int,
) -> Decoded:
    """:func:`decode_batches` from the batches' positions in ``buf`` and their heads (already checked)."""
    data, counts, starts, ends = records_regions(buf, positions, heads, max_decompressed)
    arr = np.frombuffer(data, np.uint8)
    try:
        return _records(data, arr, heads, counts, starts, ends, headers_type)
    except IndexError:  # a length pointing past the data: only corrupt records do that
        raise _Fail from None


def _records(
    data: bytes | memoryview,
    arr: np.ndarray,
    heads: np.ndarray,
    counts: np.ndarray,
    starts: np.ndarray,
    ends: np.ndarray,
    headers_type: pa.ListType,
) -> Decoded:
    """The record columns of the batches whose records regions are ``arr[starts:ends]``."""
    fields = _record_spans(data, arr, counts, starts, ends)
    stop = fields.stop
    rows = len(stop)
    # timestampDelta, offsetDelta, key, value, headers
    ts_delta = fields.varint(9, wide=True)
    off_delta = fields.varint(5, wide=True)
    key = fields.bytes_field()
    value = fields.bytes_field()
    header_spans: _HeaderSpans | _HeaderLayout | _HeaderColumns | None = None
    if not _headerless(fields, arr, counts, ends):
        hcount = fields.varint(5)
        if len(hcount) and int(hcount.min()) < 0:
            raise _Fail
        header_spans = _header_spans(fields, hcount)
        if not np.array_equal(
            fields.position(), stop
        ):  # every field inside its record: now the bytes can be copied
            raise _Fail
    headers = _header_arrays(header_spans, arr, data, rows, headers_type)

    base_offsets = heads["base_offset"].astype(np.int64)
    base_ts = heads["base_timestamp"].astype(np.int64)
    log_append = (heads["attributes"] & TIMESTAMP_TYPE_MASK) != 0
    offset = _add_checked(base_offsets, counts, off_delta)
    if log_append.any():
        batch_of_row = np.repeat(np.arange(len(counts)), counts)
        rel_ts = _add_checked(base_ts, counts, np.where(log_append[batch_of_row], 0, ts_delta))
        timestamp = np.where(
            log_append[batch_of_row], heads["max_timestamp"].astype(np.int64)[batch_of_row], rel_ts
        )
    else:
        timestamp = _add_checked(base_ts, counts, ts_delta)
    databuf = pa.py_buffer(data)
    key_array = _gather(databuf, arr, *key, pa.binary())
    value_array = _gather(databuf, arr, *value, pa.binary())
    assert len(key_array) == rows
    return Decoded(counts, offset, timestamp, key_array, value_array, headers, ends - starts, heads)


def _add_checked(base: np.ndarray, counts: np.ndarray, delta: np.ndarray) -> np.ndarray:
    """Each batch's ``base`` repeated over its records, plus each record's ``delta``, in int64; failing (to
    the per-record decoder, which names the record) on overflow."""
    if not len(delta):
        return delta.astype(np.int64)
    low, high = int(base.min()), int(base.max())
    if delta.dtype.itemsize <= 4:  # a 32-bit delta: only a base within 2^31 of a limit can overflow
        wide = low - (1 << 31) < _I64_MIN or high + (1 << 31) > _I64_MAX
    else:
        wide = high + int(delta.max()) > _I64_MAX or low + int(delta.min()) < _I64_MIN
    if len(counts) and int(counts[0]) * len(counts) == len(delta) and (counts == counts[0]).all():
        total = (base[:, None] + delta.reshape(len(counts), -1)).ravel()  # batches of one size: no repeat
    else:
        total = np.repeat(base, counts) + delta
    if wide:
        rep = np.repeat(base, counts)
        if (((rep ^ total) & (delta ^ total)) < 0).any():  # near the limits: the exact check
            raise _Fail
    return total
