"""Typed keys and values in the ``kafkalog`` source: options ``keyFormat`` / ``valueFormat`` add
``key_decoded`` + ``key_error`` / ``value_decoded`` + ``value_error`` columns (:mod:`kafkaspec.values`).

Where the schemas come from: the ``_schemas`` topic of the data directory read, replayed once on the
driver and shipped to the executors in the options (so executors need neither the topic nor the
network), and, with ``schemaRegistryUrl``, the registry for ids the topic does not hold (asked from
the executors, each caching what it fetched).

One column type per topic: the Arrow type of ``value_decoded`` is the one
``to_arrow(decode_values=True)`` gives the topic (:func:`kafkaspec.arrow.value_types.value_type`), as
Spark's worker takes it (:func:`kafkaspec.arrow.value_columns.spark_column_type`), and its Spark type
is derived from that Arrow type once, by PySpark's own converter, so there is one mapping, not two; the
one exception is a time of day (Avro time-millis / time-micros), which Spark 4.0 has no type for: it is
the int milliseconds / long microseconds of the day (:func:`kafkaspec.arrow.value_columns.without_times`). A read of one
topic gets that type as it is; a read of several (``subscribe``, ``subscribePattern`` or none) gets a
struct with one field per topic, each of that topic's type, and a row fills only its topic's field.

A record whose bytes do not fit is kept, never dropped: its ``*_decoded`` is null, ``*_error`` names
the reason, and ``view=batches`` counts such records per batch (``keyErrors`` / ``valueErrors``).
Decoding runs on the executors, one Arrow batch at a time, so memory stays bounded by the batch.
"""

from __future__ import annotations

import uuid
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ...errors import KafkaFormatError
from ...values.decoder import FORMATS, Schemas, ValueDecoder

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    import pyarrow as pa
    from pyspark.sql.types import StructField, StructType

    from ...arrow.ranges import ReadRange
    from ...arrow.value_columns import ValueArrays
    from ...entry import LogBatch
    from ...logdir import LogDir, Partition
    from ...logdir.kafka.tail import PartitionTail
    from ...values.registry import RegistryClient
    from ...values.schemas_topic import SchemaStore

__all__ = [
    "AuditCounts",
    "SchemasTail",
    "ValueColumns",
    "arrow_types",
    "audit_counts",
    "parse_formats",
    "refresh",
    "resolve",
    "spark_fields",
    "value_arrays",
    "with_values",
]

PARTS = ("key", "value")
#: audit-view columns with ``keyFormat`` / ``valueFormat``: records per batch that did not fit
AUDIT_COUNT_COLUMNS = (("keyErrors", "int"), ("valueErrors", "int"))


@dataclass(frozen=True)
class ValueColumns:
    """What the executors need to decode keys and values; picklable, resolved on the driver."""

    #: the format of keys (None: no key columns) and of values (None: no value columns)
    key_format: str | None = None
    value_format: str | None = None
    registry_url: str | None = None
    #: the driver's ``KAFKASPEC_REGISTRY_TIMEOUT`` / ``KAFKASPEC_REGISTRY_BUDGET`` (executors may not share its
    #: environment); None: the executor's, else the defaults. The budget and a failed registry are per task
    registry_timeout: float | None = None
    registry_budget: float | None = None
    #: this read (a stream: this micro-batch): the tasks of one run that a Python worker runs share one
    #: registry client, its answers, its budget and, once the registry failed, the knowledge of it
    run: str = ""
    #: the read's topics, sorted; several: the decoded columns are structs of one field per topic
    topics: tuple[str, ...] = ()
    #: the ``_schemas`` topic replayed on the driver (None until :func:`resolve`)
    schemas: SchemaStore | None = field(default=None, repr=False)
    #: (subject, version) of each topic's reader schema when the columns were typed (:func:`resolve`)
    pinned: tuple[tuple[str, int], ...] = ()

    def parts(self) -> tuple[str, ...]:
        return tuple(p for p in PARTS if (self.key_format if p == "key" else self.value_format) is not None)

    def decoder(self) -> ValueDecoder:
        """A decoder of this read (on an executor: one per task; the registry's answers cached in it)."""
        registry = None
        if self.registry_url:
            registry = _registry(self)
        return ValueDecoder(
            Schemas(self.schemas, registry, dict(self.pinned)),
            self.value_format or "bytes",
            self.key_format or "bytes",
        )


#: this process's registry clients by run (most recent last), a few kept: a Python worker that runs many
#: tasks of one read asks a silent registry once, not once per task
_CLIENTS: OrderedDict[tuple[str, str, float | None, float | None], RegistryClient] = OrderedDict()
_CLIENTS_KEPT = 4


def _registry(vc: ValueColumns) -> RegistryClient:
    from ...values.registry import RegistryClient

    assert vc.registry_url is not None
    if not vc.run:
        return RegistryClient(vc.registry_url, vc.registry_timeout, vc.registry_budget)
    key = (vc.run, vc.registry_url, vc.registry_timeout, vc.registry_budget)
    client = _CLIENTS.get(key)
    if client is None:
        client = _CLIENTS[key] = RegistryClient(vc.registry_url, vc.registry_timeout, vc.registry_budget)
        while len(_CLIENTS) > _CLIENTS_KEPT:
            _CLIENTS.popitem(last=False)
    else:
        _CLIENTS.move_to_end(key)
    return client


def parse_formats(get: Callable[[str], str | None], error: type[ValueError]) -> ValueColumns | None:
    """Options ``keyFormat``, ``valueFormat`` and ``schemaRegistryUrl`` (``get`` takes lower-case names);
    None when neither format is set."""
    formats: dict[str, str | None] = {}
    for part in PARTS:
        text = get(f"{part}format")
        fmt = None if text is None else text.strip().lower()
        if fmt is not None and fmt not in FORMATS:
            raise error(f"option {part}Format must be one of {', '.join(FORMATS)}, got {text!r}")
        formats[part] = fmt
    url = (get("schemaregistryurl") or "").strip() or None
    if formats["key"] is None and formats["value"] is None:
        if url is not None:
            raise error("option schemaRegistryUrl needs keyFormat or valueFormat")
        return None
    if url is None:
        return ValueColumns(key_format=formats["key"], value_format=formats["value"])
    from ...values.registry import registry_env

    timeout, budget = registry_env()
    return ValueColumns(
        key_format=formats["key"],
        value_format=formats["value"],
        registry_url=url,
        registry_timeout=timeout,
        registry_budget=budget,
        run=uuid.uuid4().hex,
    )


def resolve(vc: ValueColumns, log: LogDir, wants: Callable[[str, int], bool]) -> ValueColumns:
    """``vc`` with the read's topics and the ``_schemas`` topic of ``log`` (on the driver)."""
    from dataclasses import replace

    from ...values.schemas_topic import read_schemas

    topics = sorted({p.topic for p in log.partitions() if wants(p.topic, p.partition)})
    store = read_schemas(log)
    pinned = []
    for topic in topics:
        for part in vc.parts():
            sv = store.latest(f"{topic}-{part}")
            if sv is not None:
                pinned.append((sv.subject, sv.version))
    return replace(vc, topics=tuple(topics), schemas=store, pinned=tuple(pinned))


def refresh(vc: ValueColumns, log: LogDir) -> ValueColumns:
    """``vc`` with the ``_schemas`` topic of ``log`` read again, whole (a stream follows it with
    :class:`SchemasTail` instead): ids registered since the stream started decode as writer schemas,
    while each topic's reader schema stays the version its columns were typed with (``pinned``), so a
    row still fits the stream's one schema."""
    from dataclasses import replace

    from ...values.schemas_topic import read_schemas

    return replace(vc, schemas=read_schemas(log), run=uuid.uuid4().hex if vc.run else "")


class SchemasTail:
    """The ``_schemas`` topic of a stream, followed between its micro-batches (on the driver): the registry's
    state and, per partition of the topic, its tail and the offset replayed up to. Each :meth:`refresh`
    applies only the records appended since the last; a topic that went back under it (truncated,
    deleted and recreated: ``TailPoint.rewound``), records gone below its position (retention), or its
    partitions changing, are replayed whole, as is the first refresh (the reader typed its columns from
    a replay of its own). Kafka's cleaner keeps offsets (and what the registry holds at the end): the
    state and position stand. A refresh that applies something applies it to a copy, so the micro-batches
    planned before keep the state they were planned with. A topic that is gone (or no longer a directory)
    or holds a segment that cannot be read (a FIFO, a link loop) is a :class:`KafkaFormatError` naming it:
    neither the schemas of before nor none at all are the registry's state."""

    def __init__(self) -> None:
        self.store: SchemaStore | None = None
        self.tails: dict[str, PartitionTail] = {}
        #: each partition (its path) -> the offset its records were replayed up to
        self.done: dict[str, int] = {}
        #: each partition (its path) -> where in its last segment the replay stopped (:func:`_replay`)
        self.resume: dict[str, tuple[int, int] | None] = {}
        #: whole replays so far (the first and each after the topic went back)
        self.replays = 0

    def refresh(self, vc: ValueColumns, partitions: Sequence[Partition]) -> ValueColumns:
        """``vc`` with the ``_schemas`` topic as ``partitions`` (a listing of the stream's source) hold it now."""
        import copy
        from dataclasses import replace

        from ...logdir.kafka.tail import PartitionTail
        from ...values.schemas_topic import SCHEMAS_TOPIC, SchemaStore

        points = {}
        for part in partitions:
            if part.topic == SCHEMAS_TOPIC:
                key = str(part.path)
                tail = self.tails.setdefault(key, PartitionTail())
                points[key] = (part, tail.look(part))
                _refuse_unreadable(part)
        if self.done and not points:
            raise KafkaFormatError(
                "the _schemas topic this stream follows is gone (deleted, or no longer a directory): the "
                "values' schemas cannot be followed; restart the query once it is back",
                None,
                min(self.done),
            )
        whole = (
            self.store is None
            or set(points) != set(self.done)
            or any(p.rewound is not None or p.log_start > self.done[k] for k, (_, p) in points.items())
        )
        if whole:
            store = SchemaStore()
            store.partitions_read = len(points)
            self.replays += 1
        else:
            assert self.store is not None
            grew = any(p.end > self.done[k] for k, (_, p) in points.items())
            store = copy.deepcopy(self.store) if grew else self.store
        resume = {} if whole else self.resume
        for k, (part, point) in points.items():
            lo = None if whole else self.done[k]
            if lo is None or point.end > lo:
                resume[k] = _replay(store, part, lo, point.end, resume.get(k)) or resume.get(k)
        self.store, self.resume = store, resume
        self.done = {k: p.end for k, (_, p) in points.items()}
        return replace(vc, schemas=store, run=uuid.uuid4().hex if vc.run else "")


def _refuse_unreadable(part: Partition) -> None:
    """A KafkaFormatError naming the first segment of the ``_schemas`` partition ``part`` that cannot be
    read (listed as a FIFO, a device, a symbolic link loop, ...): its tail would pass over it and keep the
    schemas it had, a replay would leave its schemas out; neither is the registry's state."""
    for seg in part.segments():
        gap = seg.unreadable()
        if gap is not None:
            raise KafkaFormatError(
                f"a segment of the _schemas topic this stream follows cannot be read: {gap.reason}",
                None,
                str(seg.path),
            )


def _replay(
    store: SchemaStore, part: Partition, lo: int | None, hi: int, resume: tuple[int, int] | None = None
) -> tuple[int, int] | None:
    """Apply the records of ``part`` at offsets [lo, hi) (lo None: from its start) to ``store``; a batch that
    cannot be read is a problem of the store (its segment named), as :func:`~kafkaspec.values.schemas_topic.read_schemas` reports it.
    ``resume``: (base offset, byte position) of the last segment where the previous replay stopped, read
    on from there while that segment is still the last (the cleaner rewrites closed segments only; an
    active segment has no offset index to start from). Returns the same for this replay."""
    from ...records import BatchIterator

    segments = part.segments()
    where = None
    for i, seg in enumerate(segments):
        next_base = segments[i + 1].base_offset if i + 1 < len(segments) else None
        if lo is not None and next_base is not None and next_base <= lo:
            continue
        if seg.base_offset >= hi and i > 0:
            break
        if resume is not None and next_base is None and resume[0] == seg.base_offset:
            start = resume[1]
        else:
            start = seg.position_for_offset(lo) if lo is not None and lo > seg.base_offset else 0
        try:
            batches: Iterable[LogBatch]
            if seg.layout == "kafka":  # the bytes from ``start`` only
                batches = BatchIterator(seg.read_range(start, seg.size))
            else:
                batches, start = seg.iter_batches(start), 0
            for batch in batches:
                if batch.base_offset >= hi:
                    break
                if seg.layout == "kafka":
                    where = (seg.base_offset, start + batch.end)
                if batch.is_control or (lo is not None and batch.last_offset < lo):
                    continue
                for r in batch:
                    if (lo is None or r.offset >= lo) and r.offset < hi:
                        store.apply(r.key, r.value, f"{seg.path} offset {r.offset}")
        except KafkaFormatError as exc:
            store.problems.append((str(seg.path), str(exc)))
        finally:
            seg.close()
    return where


def arrow_types(vc: ValueColumns, dec: ValueDecoder | None = None) -> dict[str, pa.DataType]:
    """part -> the Arrow type of the read's ``<part>_decoded`` column, as Spark's worker checks it
    (:func:`kafkaspec.arrow.value_columns.spark_column_type`)."""
    from ...arrow.value_columns import spark_column_type

    dec = vc.decoder() if dec is None else dec
    return {part: spark_column_type(dec, vc.topics, part) for part in vc.parts()}


def spark_fields(vc: ValueColumns, targets: dict[str, pa.DataType] | None = None) -> list[StructField]:
    """The Spark fields the options add: ``<part>_decoded`` (typed per topic, from ``targets``, by default
    :func:`arrow_types`) and ``<part>_error``."""
    from pyspark.sql import types as T
    from pyspark.sql.pandas.types import from_arrow_type

    targets = arrow_types(vc) if targets is None else targets
    out = []
    for part in vc.parts():
        decoded = from_arrow_type(targets[part], prefer_timestamp_ntz=True)
        out += [T.StructField(f"{part}_decoded", decoded), T.StructField(f"{part}_error", T.StringType())]
    return out


def value_arrays(task: ReadRange, vc: ValueColumns) -> ValueArrays:
    """The decoded columns of ``task``'s records (its topic's decoder, the read's column types)."""
    from ...arrow.value_columns import ValueArrays

    dec = vc.decoder()
    return ValueArrays(dec, task.topic, vc.parts(), arrow_types(vc, dec), vc.topics)


def with_values(
    batches: Iterator[pa.RecordBatch], task: ReadRange, vc: ValueColumns
) -> Iterator[pa.RecordBatch]:
    """The record batches of ``task`` with the decoded columns added, one batch at a time."""
    from ...arrow.columns import assembled
    from ...arrow.schema import SCHEMA

    return assembled(batches, SCHEMA, [value_arrays(task, vc)])


def audit_counts(
    task: ReadRange, vc: ValueColumns, read: Callable[[ReadRange], Iterator[pa.RecordBatch]]
) -> dict[tuple[str, int], tuple[int, int]]:
    """(segment, batch position) -> (keys, values) of the task's records that did not fit their format,
    from a records read (``read``) of the same range, decoded batch by batch. Every data record counts
    (aborted ones too, as the audit lists their batches); a corrupt batch is the audit's own row, so
    the read skips it rather than fail."""
    from dataclasses import replace

    from ...arrow.value_columns import decode_column

    counts: dict[str, Counter[tuple[str, int]]] = {p: Counter() for p in PARTS}
    if task.unused is not None or task.unreadable is not None:
        return {}
    whole = replace(
        task, read_committed=None, include_control=False, skip_corrupt=True, min_offset=None, max_offset=None
    )
    dec = vc.decoder()
    for rb in read(whole):
        where = list(zip(rb.column("segment").to_pylist(), rb.column("batchPosition").to_pylist()))
        for part in vc.parts():
            if task.topic not in vc.topics:  # no column type: each record with bytes is an error
                errors = rb.column(part).to_pylist()
            else:
                errors = decode_column(dec, task.topic, rb.column(part), part)[1].to_pylist()
            for w, e in zip(where, errors):
                if e is not None:
                    counts[part][w] += 1
    keys = set(counts["key"]) | set(counts["value"])
    return {w: (counts["key"][w], counts["value"][w]) for w in keys}


class AuditCounts:
    """``keyErrors`` / ``valueErrors`` of audit rows (null for a part whose format is not set, and on
    rows that are no batch of records: skipped ranges, unused segments)."""

    def __init__(self, counts: dict[tuple[str, int], tuple[int, int]], vc: ValueColumns) -> None:
        self.counts, self.vc = counts, vc

    def fields(self) -> list[pa.Field]:
        import pyarrow as pa

        return [pa.field(name, pa.int32()) for name, _ in AUDIT_COUNT_COLUMNS]

    def __call__(self, rb: pa.RecordBatch) -> list[pa.Array]:
        import pyarrow as pa

        where = zip(
            rb.column("segment").to_pylist(),
            rb.column("position").to_pylist(),
            rb.column("recordCount").to_pylist(),
        )
        key_n: list[int | None] = []
        value_n: list[int | None] = []
        for segment, position, records in where:
            k, v = self.counts.get((segment, position), (0, 0))
            key_n.append(k if records is not None and self.vc.key_format is not None else None)
            value_n.append(v if records is not None and self.vc.value_format is not None else None)
        return [pa.array(key_n, pa.int32()), pa.array(value_n, pa.int32())]


def with_spark_fields(schema: StructType, values: ValueColumns, view: str) -> StructType:
    """The source's schema with the columns ``values`` adds (records view: decoded and error columns;
    batches view: the error counts per batch)."""
    from pyspark.sql import types as T

    if view == "batches":
        return T.StructType(
            [*schema.fields, *(T.StructField(n, T.IntegerType()) for n, _ in AUDIT_COUNT_COLUMNS)]
        )
    return T.StructType([*schema.fields, *spark_fields(values)])
