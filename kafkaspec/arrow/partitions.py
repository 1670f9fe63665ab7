"""Partitions as Arrow: the ``kafkalog`` record columns as ``pyarrow.RecordBatch``es, without Spark.

``Partition.to_arrow()`` and ``LogDir.to_arrow_batches()`` (what DuckDB and Polars take directly)
decode v2 batches through the columnar engine (:mod:`kafkaspec.arrow.engine`), a run of batches at a
time; a run the engine declines, and legacy (magic 0/1) entries, decode one record at a time, so a
corrupt batch raises the per-record decoder's error, naming the segment and byte position. The
Spark reader (:mod:`kafkaspec.arrow.ranges`) assembles its engine runs here too: one schema.

Needs numpy and pyarrow (``kafkaspec[spark]``).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from ..extras import missing

try:
    import numpy as np
    import pyarrow as pa
except ModuleNotFoundError as exc:
    raise missing(exc, "spark", "Arrow output (to_arrow, to_arrow_batches)") from None

from ..compression import CODEC_NAMES, DEFAULT_MAX_DECOMPRESSED
from ..entry import LogBatch
from ..errors import KafkaFormatError
from ..generated.record_batch_v2 import (
    COMPRESSION_MASK,
    IS_CONTROL_MASK,
    IS_TRANSACTIONAL_MASK,
    TIMESTAMP_TYPE_MASK,
    TIMESTAMP_TYPE_SHIFT,
)
from ..records import Batch, BatchIterator
from .engine import decode_batches

if TYPE_CHECKING:
    from ..logdir.layout import LogDir, Partition
    from ..values.decoder import ValueDecoder

HEADERS_TYPE = pa.list_(pa.struct([("key", pa.string()), ("value", pa.binary())]))

#: the ``kafkalog`` record columns (Spark's Kafka source columns, then the batch's), as Spark's Arrow
#: converter gives them (tests/spark checks they stay equal)
SCHEMA = pa.schema([
    ("key", pa.binary()), ("value", pa.binary()), ("topic", pa.string()), ("partition", pa.int32()),
    ("offset", pa.int64()), ("timestamp", pa.timestamp("us", tz="UTC")), ("timestampType", pa.int32()),
    ("headers", HEADERS_TYPE), ("magic", pa.int32()), ("compression", pa.string()), ("producerId", pa.int64()),
    ("producerEpoch", pa.int32()), ("baseSequence", pa.int32()), ("isTransactional", pa.bool_()),
    ("isControl", pa.bool_()), ("partitionLeaderEpoch", pa.int32()), ("segment", pa.string()),
    ("batchPosition", pa.int64()),
])

#: records per run of batches (and so per yielded RecordBatch, about)
ROWS_PER_RUN = 65536

_CODEC_LIST = [*CODEC_NAMES, "unknown5", "unknown6", "unknown7"]
_CODECS = pa.array(_CODEC_LIST, pa.string())
_US_LIMIT = np.iinfo(np.int64).max // 1000  # milliseconds that still fit a Spark timestamp (microseconds)


def decode_run(buf: bytes, run: Sequence[Batch], *, topic: str, partition: int, segment: str, base: int = 0,
               schema: pa.Schema = SCHEMA, max_decompressed: int = DEFAULT_MAX_DECOMPRESSED,
               plain_sizes: dict[int, int] | None = None) -> pa.RecordBatch | None:
    """The records of a run of v2 batches of ``buf`` (file position ``base``) as one RecordBatch, through
    the engine; ``None`` when the engine declines (decode the run one record at a time instead).

    ``plain_sizes``: filled, when the run decodes, with each batch's position in ``buf`` -> the size of
    its records region after decompression."""
    decoded = decode_batches(buf, run, schema.field("headers").type, max_decompressed=max_decompressed)
    if decoded is None:
        return None
    ts = decoded.timestamp
    if (np.abs(ts) > _US_LIMIT).any():  # beyond a Spark timestamp: the per-record path names the record
        return None
    if plain_sizes is not None:
        plain_sizes.update(zip([b.position for b in run], decoded.plain_sizes.tolist(), strict=True))
    counts = decoded.counts
    n = len(ts)
    heads = decoded.heads
    attributes = heads["attributes"]

    def per_batch(values: np.ndarray, dtype: type) -> pa.Array:
        return pa.array(np.repeat(values.astype(dtype), counts))

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
        per_batch(base + np.fromiter((b.position for b in run), np.int64, len(run)), np.int64),
    ]
    return pa.RecordBatch.from_arrays(columns, schema=schema)


@functools.lru_cache(maxsize=8)
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


def _per_record(entries: Sequence[LogBatch], *, topic: str, partition: int, segment: str) -> pa.RecordBatch:
    """The same columns from record objects: legacy entries, and runs the engine declined."""
    cols: dict[str, list] = {name: [] for name in SCHEMA.names}
    for entry in entries:
        try:
            records = list(entry)
        except KafkaFormatError as exc:
            raise exc.at(0, segment) from None
        if isinstance(entry, Batch):
            tstype = (entry.attributes & TIMESTAMP_TYPE_MASK) >> TIMESTAMP_TYPE_SHIFT
        else:
            tstype = (entry.attributes & TIMESTAMP_TYPE_MASK) >> TIMESTAMP_TYPE_SHIFT if entry.magic == 1 else -1
        fixed = {"topic": topic, "partition": partition, "timestampType": tstype, "magic": entry.magic,
                 "compression": CODEC_NAMES[entry.attributes & COMPRESSION_MASK] if entry.attributes & 7 < 5 else
                 f"unknown{entry.attributes & 7}",
                 "producerId": entry.producer_id, "producerEpoch": entry.producer_epoch,
                 "baseSequence": entry.base_sequence, "isTransactional": entry.is_transactional,
                 "isControl": entry.is_control, "partitionLeaderEpoch": entry.partition_leader_epoch,
                 "segment": segment, "batchPosition": entry.position}
        for r in records:
            cols["key"].append(r.key)
            cols["value"].append(r.value)
            cols["offset"].append(r.offset)
            cols["timestamp"].append((-1 if r.timestamp is None else r.timestamp) * 1000)
            cols["headers"].append([{"key": k, "value": v} for k, v in r.headers or ()])
            for name, value in fixed.items():
                cols[name].append(value)
    arrays = []
    for f in SCHEMA:
        if f.name == "timestamp":
            arrays.append(pa.array(cols["timestamp"], pa.int64()).view(f.type))
        else:
            arrays.append(pa.array(cols[f.name], f.type))
    return pa.RecordBatch.from_arrays(arrays, schema=SCHEMA)


def with_decoded_values(batches: Iterator[pa.RecordBatch], topic: str, values: ValueDecoder) -> Iterator[pa.RecordBatch]:
    """Each RecordBatch with ``value_decoded`` (typed from the topic's schema, :mod:`kafkaspec.values`)
    and ``value_error`` (why a value did not fit; its bytes stay in ``value``) added: one batch at a
    time, so memory stays bounded by the batch."""
    from ..values.arrow_types import decode_column

    for rb in batches:
        decoded, errors = decode_column(values, topic, rb.column(1))
        yield pa.RecordBatch.from_arrays([*rb.columns, decoded, errors],
                                         names=[*rb.schema.names, "value_decoded", "value_error"])


def partition_batches(part: Partition, *, verify: bool = True, max_decompressed: int = DEFAULT_MAX_DECOMPRESSED,
                      values: ValueDecoder | None = None) -> Iterator[pa.RecordBatch]:
    """Every record of the partition, segment by segment, as RecordBatches of :data:`SCHEMA`; with
    ``values``, the decoded values added (:func:`with_decoded_values`)."""
    if values is not None:
        yield from with_decoded_values(partition_batches(part, verify=verify, max_decompressed=max_decompressed),
                                       part.topic, values)
        return
    for seg in part.segments():
        floor = seg.served_from  # a tiered segment: where its lineage serves it from
        try:
            buf = seg.data
            segment = str(seg.path)
            names: dict[str, Any] = {"topic": part.topic, "partition": part.partition, "segment": segment}
            run: list[Batch] = []
            rows = 0
            try:
                for entry in BatchIterator(buf, verify=verify, max_decompressed=max_decompressed, check_records=False):
                    if entry.last_offset < floor:
                        continue  # served by the segment before (tiered storage's lineage)
                    if entry.base_offset < floor:
                        raise KafkaFormatError(f"the batch at byte {entry.position} holds offsets {entry.base_offset}.."
                                               f"{entry.last_offset}, but the live lineage serves this segment from "
                                               f"offset {floor}: the two uploads cut their batches differently",
                                               entry.position, segment)
                    if not isinstance(entry, Batch):
                        if run:
                            yield _run(buf, run, names, max_decompressed)
                            run, rows = [], 0
                        yield _per_record([entry], **names)
                        continue
                    run.append(entry)
                    rows += entry.head.records_count
                    if rows >= ROWS_PER_RUN:
                        yield _run(buf, run, names, max_decompressed)
                        run, rows = [], 0
            except KafkaFormatError as exc:
                raise exc.at(0, segment) from None
            if run:
                yield _run(buf, run, names, max_decompressed)
        finally:
            seg.close()


def _run(buf: bytes, run: list[Batch], names: dict[str, Any], max_decompressed: int) -> pa.RecordBatch:
    rb = decode_run(buf, run, max_decompressed=max_decompressed, **names)
    return _per_record(run, **names) if rb is None else rb


def partition_table(part: Partition, *, verify: bool = True, values: ValueDecoder | None = None) -> pa.Table:
    """The partition's records as one ``pyarrow.Table`` (:data:`SCHEMA`, plus the decoded values)."""
    batches = list(partition_batches(part, verify=verify, values=values))
    if values is None:
        return pa.Table.from_batches(batches, schema=SCHEMA)
    if batches:
        return pa.Table.from_batches(batches)
    decoded, errors = _empty_decoded(part.topic, values)
    return pa.Table.from_batches([], schema=SCHEMA.append(decoded).append(errors))


def _empty_decoded(topic: str, values: ValueDecoder) -> tuple[pa.Field, pa.Field]:
    arrow_type, _ = values.arrow_type(topic)
    return pa.field("value_decoded", arrow_type or pa.string()), pa.field("value_error", pa.string())


def logdir_batches(log: LogDir, *, verify: bool = True, values: ValueDecoder | None = None) -> Iterator[pa.RecordBatch]:
    """Every partition's records (topics and partitions in the directory's order), as RecordBatches;
    with ``values``, the decoded values of each topic (a different struct per topic)."""
    for part in log.partitions():
        yield from partition_batches(part, verify=verify, values=values)
