"""``df.write.format("kafkalog").save(path)``: a DataFrame with the Kafka-source columns to partition directories.

Each task streams its rows into staging partition directories, one per
(topic, partition) it sees, under ``path/_kafkalog_staging/`` (segments and
indexes, through :class:`kafkaspec.logdir.PartitionWriter`). Rows that arrive
in offset order, as a kafkalog read gives them, are written a batch at a time,
so a task holds at most ``recordsPerBatch`` rows per topic-partition. A
topic-partition whose rows arrive out of order is collected and sorted in
memory instead (with what was already written for it), since a log must be in
offset order. The driver's commit works in two phases, so that a refused or
failed job leaves nothing visible in ``path``: first every partition is made
whole under ``path/_kafkalog_staging/<job>/_ready/`` (the tasks' segments are
named by base offset, so tasks holding disjoint offset ranges never clash; rows
without offsets are numbered there, in task order; every refusal happens in
this phase), then each is switched into ``path/<topic>-<partition>/`` in one step (exchanged
with the partition it replaces where the platform can, see
:mod:`kafkaspec.logdir.store.location`), the replaced ones (and, for an
overwrite, every other one) moved aside after the switch and deleted last. Spark's abort, after a failed task or commit,
deletes the job's staging.

Options: ``compression`` (none, gzip, snappy, lz4, zstd; default none),
``recordsPerBatch`` (default 500), ``segmentBytes`` (default 1g),
``preserveBatches`` (default true when the DataFrame has the batch columns).
Columns used: topic, partition, key, value, and when present offset,
timestamp (kept) and headers. An offset must be set in all rows of a
topic-partition or in none.

With the batch columns of a ``kafkalog`` read (``magic`` .. ``batchPosition``),
rows go back into their batches, control rows included, and the driver writes
each partition in the source's batch order (:mod:`.batches`: what is kept, what
is refused); ``compression`` then recompresses data batches (default: each
batch keeps its codec). Without them (or with ``preserveBatches`` false),
records go into fresh plain batches and control rows are not rewritten.

To an object store (``s3://``...), in both modes: each task attempt stages on its executor and
uploads to ``path/_kafkalog_staging/<job>/<task>/``; the driver's commit first puts every partition's
new version complete in the store, then publishes each (never half-visible, and never lost if the
driver dies), so failed or retried attempts never show. The staging and the commit of both kinds are
:class:`kafkaspec.logdir.store.location.Location`'s; what the commit does with each partition is
:mod:`.commit`'s; rows back into batches are :mod:`.batches`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pyarrow as pa
    from pyspark.sql.types import StructType

import shutil
import uuid
from dataclasses import replace
from pathlib import Path
from typing import Any

from pyspark.sql.datasource import DataSourceArrowWriter, WriterCommitMessage

from kafkaspec.generated.record_v2 import Record

from ...builder import build_batch
from ...codec.compression import CODEC_NAMES
from ...errors import KafkaFormatError
from ...logdir import InvariantError, PartitionWriter, open_log
from ...logdir.kafka.names import check_topic_partition, offset_problem
from ...logdir.store.location import Location
from ...logdir.store.publish import STAGING as STAGING
from ...logdir.store.storage import StorageOptions, is_uri
from ..read.option_names import STORAGE_OPTIONS, check_names
from ..read.options import OptionError, ReadOptions, parse_bool, parse_size, whole_number
from .batches import BATCH_COLUMNS, BatchStager
from .commit import (
    Piece,
    Settings,
    StagedPieces,
    by_partition,
    commit_plan,
    plan_commit,
    refuse_own_source,
)
from .commit import kept_files as kept_files

#: the options of a write (module docstring), beside the storage ones of an object-store destination
INT32_MAX = (1 << 31) - 1
#: Kafka's bounds of ``segment.bytes``: a legacy record's overhead, and the largest file position
SEGMENT_BYTES = (14, INT32_MAX)
WRITE_OPTIONS = ("compression", "recordsPerBatch", "segmentBytes", "preserveBatches", *STORAGE_OPTIONS)


class KafkaLogWriter(DataSourceArrowWriter):
    def __init__(self, path: str, options: dict[str, str], schema: StructType, overwrite: bool):
        check_names(options, WRITE_OPTIONS, "the kafkalog writer")
        self.path = path
        self.overwrite = overwrite
        get = {str(k).lower(): v for k, v in options.items()}.get
        self.recompress = _codec(get("compression"))  # batch-preserving mode: None keeps each batch's codec
        self.compression = self.recompress or "none"
        try:  # a batch counts its records in 32 bits
            self.records_per_batch = whole_number(get("recordsperbatch") or "500", 1, INT32_MAX)
        except ValueError as exc:
            raise OptionError(f"option recordsPerBatch: {exc}") from None
        self.segment_bytes = parse_size(get("segmentbytes") or "1g")
        if not SEGMENT_BYTES[0] <= self.segment_bytes <= SEGMENT_BYTES[1]:
            raise OptionError(
                f"option segmentBytes must be from {SEGMENT_BYTES[0]} to {SEGMENT_BYTES[1]} bytes (Kafka's "
                f"segment.bytes: positions in a segment are 32-bit), got {get('segmentbytes')!r}"
            )
        names = set(schema.fieldNames())
        missing = {"topic", "partition", "value"} - names
        if missing:
            raise OptionError(f"kafkalog write needs columns {sorted(missing)} (Kafka source columns)")
        self.columns = names
        preserve = _preserve(get("preservebatches"))
        lacking = [c for c in ("offset", *BATCH_COLUMNS) if c not in names]
        if preserve and lacking:
            raise OptionError(
                f"preserveBatches needs the batch columns of a kafkalog read; missing {lacking}"
            )
        self.preserve = preserve is not False and not lacking
        self.job = uuid.uuid4().hex
        self._location: Location | None = None
        # object-store settings for an s3:// destination (the s3.* options, else the driver's environment)
        self.storage = ReadOptions.parse(options).storage or (
            StorageOptions.from_env() if is_uri(path) else None
        )
        if not is_uri(path):  # the driver's claim: a job killed before its end is cleaned by the next commit
            Location.of(path).claim(self.job)

    @property
    def location(self) -> Location:
        """Where the output goes (made on first use, on the driver and on each executor)."""
        if self._location is None:
            self._location = Location.of(self.path, self.storage)
        return self._location

    # -- executors ------------------------------------------------------------------
    def write(self, iterator: Iterator[pa.RecordBatch]) -> StagedPieces:
        try:
            return self._write(iterator)
        except KafkaFormatError as exc:  # its one line (the row or batch at fault) first: see source.py
            raise exc.with_traceback(None) from None

    def _write(self, iterator: Iterator[pa.RecordBatch]) -> StagedPieces:
        task = uuid.uuid4().hex
        location = self.location
        task_dir = location.task_folder(self.job, task)
        if self.preserve:
            return StagedPieces(self._stage(self._write_batches(iterator, task_dir), task, task_dir))
        stagers: dict[tuple[str, int], _Stager] = {}
        has = self.columns.__contains__
        for rb in iterator:
            n = rb.num_rows
            col = rb.column
            topics = col("topic").to_pylist()
            parts = col("partition").to_pylist()
            keys = col("key").to_pylist() if has("key") else [None] * n
            values = col("value").to_pylist()
            offsets = col("offset").to_pylist() if has("offset") else [None] * n
            stamps = _stamps(rb, has)
            headers: list[Any] = col("headers").to_pylist() if has("headers") else [None] * n
            control = col("isControl").to_pylist() if has("isControl") else [False] * n
            for i in range(n):
                if control[i]:
                    continue
                tp = (topics[i], parts[i])
                stager = stagers.get(tp)
                if stager is None:
                    if tp[0] is None or tp[1] is None:
                        raise ValueError("kafkalog write: topic and partition must not be null")
                    check_topic_partition(*tp, "kafkalog write")
                    stager = stagers[tp] = _Stager(self, task_dir, *tp)
                hs = [(h["key"], h["value"]) for h in headers[i]] if headers[i] else []
                stager.add(offsets[i], stamps[i], keys[i], values[i], hs)
        return StagedPieces(self._stage([stagers[tp].close() for tp in sorted(stagers)], task, task_dir))

    def _stage(self, pieces: list[Piece], task: str, task_dir: Path) -> list[Piece]:
        """The task's pieces staged by the location (an object store's uploaded under the job's staging
        prefix: :meth:`~kafkaspec.logdir.store.location.Location.stage`), renamed where they now are."""
        where = self.location.stage(self.job, task, task_dir, [Path(p.path) for p in pieces])
        return [replace(p, path=staged) for p, staged in zip(pieces, where)]

    def _write_batches(self, iterator: Iterator[pa.RecordBatch], task_dir: Path) -> list[Piece]:
        """Batch-preserving mode: every row back into its batch (:class:`.batches.BatchStager`)."""
        import pyarrow as pa

        stagers: dict[tuple[str, int], BatchStager] = {}
        has = self.columns.__contains__
        for rb in iterator:
            n = rb.num_rows
            col = rb.column
            topics, parts = col("topic").to_pylist(), col("partition").to_pylist()
            keys = col("key").to_pylist() if has("key") else [None] * n
            values, offsets = col("value").to_pylist(), col("offset").to_pylist()
            stamps = (
                [None if t is None else t // 1000 for t in col("timestamp").cast(pa.int64()).to_pylist()]
                if has("timestamp")
                else [None] * n
            )
            headers: list[Any] = col("headers").to_pylist() if has("headers") else [None] * n
            batch_columns = list(zip(*(col(c).to_pylist() for c in BATCH_COLUMNS)))
            for i in range(n):
                tp = (topics[i], parts[i])
                stager = stagers.get(tp)
                if stager is None:
                    if tp[0] is None or tp[1] is None:
                        raise ValueError("kafkalog write: topic and partition must not be null")
                    check_topic_partition(*tp, "kafkalog write")
                    stager = stagers[tp] = BatchStager(
                        task_dir,
                        *tp,
                        compression=self.recompress,
                        segment_bytes=self.segment_bytes,
                        storage=self.storage,
                    )
                hs = [(h["key"], h["value"]) for h in headers[i]] if headers[i] else []
                stager.add(offsets[i], stamps[i], keys[i], values[i], hs, batch_columns[i])
        pieces = []
        for tp in sorted(stagers):
            path, first, last, sources = stagers[tp].close()
            pieces.append(Piece(tp[0], tp[1], path, first, last, False, sources))
        return pieces

    # -- driver ---------------------------------------------------------------------
    def commit(self, messages: list[WriterCommitMessage | None]) -> None:
        """Two phases, so that a refused or failed job leaves nothing visible: every partition is made
        complete in staging first (all refusals happen there), then switched into place
        (:mod:`.commit`)."""
        try:
            self._commit(messages)
        except KafkaFormatError as exc:  # its one line (the row or batch at fault) first: see source.py
            raise exc.with_traceback(None) from None

    def _commit(self, messages: list[WriterCommitMessage | None]) -> None:
        location = self.location
        by_tp = by_partition(messages)
        try:
            refuse_own_source(location, [p for ps in by_tp.values() for p in ps])
            plans = plan_commit(by_tp)
        except BaseException:
            location.abort(self.job)
            raise
        settings = Settings(self.job, self.overwrite, self.segment_bytes, self.storage)
        location.apply(commit_plan(location, plans, settings))

    def abort(self, messages: list[WriterCommitMessage | None]) -> None:
        """Delete the job's staging; OUT shows nothing of it. (On an object store, a partition whose switch
        was made keeps the staged version its marker names, so that it can be finished.)"""
        names = (f"{t}-{p}" for t, p in by_partition(messages))  # checked only where a location uses them
        self.location.abort(self.job, names)


def _codec(value: str | None) -> str | None:
    """The ``compression`` option's codec, any case (as Spark's own ``compression`` options); None when
    not given."""
    if value is None:
        return None
    codec = str(value).strip().lower()
    if codec not in CODEC_NAMES:
        raise OptionError(f"option compression must be one of {', '.join(CODEC_NAMES)}, got {value!r}")
    return codec


def _preserve(value: str | None) -> bool | None:
    """The ``preserveBatches`` option: the reader's booleans (:func:`~kafkaspec.spark.read.options.parse_bool`), or
    ``auto`` (None, the default: kept when the rows carry a kafkalog read's batch columns)."""
    if value is None or str(value).strip().lower() == "auto":
        return None
    try:
        return parse_bool(value, False, "preserveBatches")
    except OptionError:
        raise OptionError(f"option preserveBatches must be auto, true or false, got {value!r}") from None


def _stamps(rb: pa.RecordBatch, has: Callable[[str], bool]) -> list[int | None]:
    """The rows' timestamps in milliseconds: null stays null (the write's time, as Kafka's producer gives
    a record without one), but -1 where ``timestampType`` is -1 too: a magic 0 record, which has none,
    is written as Kafka converts one (``NO_TIMESTAMP``)."""
    import pyarrow as pa

    if not has("timestamp"):
        return [None] * rb.num_rows
    stamps = [None if t is None else t // 1000 for t in rb.column("timestamp").cast(pa.int64()).to_pylist()]
    if has("timestampType") and rb.column("timestamp").null_count:
        types = rb.column("timestampType").to_pylist()
        stamps = [-1 if t is None and k == -1 else t for t, k in zip(stamps, types, strict=True)]
    return stamps


class _Stager:
    """One task's rows of one topic-partition, written to its staging directory as they come.

    In-order rows go out a batch at a time. The first row out of order switches
    to collecting: at close, what was written is read back, merged with the
    collected rows, sorted and written again.
    """

    def __init__(self, owner: KafkaLogWriter, task_dir: Path, topic: str, partition: int):
        check_topic_partition(topic, partition, "kafkalog write")
        self.owner, self.task_dir, self.topic, self.partition = owner, task_dir, topic, partition
        self.folder: Path | None = None  # the folder made for the writer, once there is one
        self.numbered: bool | None = None  # rows without offsets: numbered from 0 in arrival order
        self.pending: list[tuple] = []  # rows of the next batch
        self.unordered: list[tuple] | None = None  # rows collected once the order broke
        self.writer: PartitionWriter | None = None
        self.first: int | None = None  # offsets of the first and last row taken so far
        self.last: int | None = None
        self.count = 0

    def add(
        self,
        offset: int | None,
        timestamp: int | None,
        key: bytes | None,
        value: bytes | None,
        headers: list[tuple[str, bytes | None]],
    ) -> None:
        if self.numbered is None:
            self.numbered = offset is None
        elif self.numbered != (offset is None):
            raise ValueError(
                f"kafkalog write: offset is null in some rows of {self.topic}-{self.partition} "
                "and set in others; set it in all rows or in none"
            )
        if self.numbered:
            offset = self.count
        problem = offset_problem(offset)
        if (
            problem is not None
        ):  # before the row reaches a file: a name like -0000000000000000005.log reads as nothing
            raise InvariantError(f"kafkalog write: {self.topic}-{self.partition} offset {offset}: {problem}")
        self.count += 1
        row = (offset, timestamp, key, value, headers)
        if self.unordered is not None:
            self.unordered.append(row)
            return
        assert offset is not None  # numbered rows got one above
        if self.last is not None and offset <= self.last:
            self.unordered = [row]
            return
        if self.first is None:
            self.first = offset
        self.last = offset
        self.pending.append(row)
        if len(self.pending) >= self.owner.records_per_batch:
            self._flush()

    def _flush(self) -> None:
        rows, self.pending = self.pending, []
        if not rows:
            return
        if self.writer is None:
            self.folder = self.task_dir / uuid.uuid4().hex
            self.writer = PartitionWriter(
                self.folder,
                self.topic,
                self.partition,
                segment_bytes=self.owner.segment_bytes,
                start_offset=rows[0][0],
            )
        chunk = [Record(offset=o, timestamp=t, key=k, value=v, headers=h) for o, t, k, v, h in rows]
        self.writer.append_batch(
            build_batch(chunk, base_offset=chunk[0].offset, compression=self.owner.compression)
        )

    def close(self) -> Piece:
        self._flush()
        if self.unordered is not None:
            self._rewrite_sorted()
        # a stager exists because a row arrived: it has a writer, offsets and a numbering mode
        assert self.writer is not None and self.first is not None and self.last is not None
        assert self.numbered is not None
        self.writer.close()
        return Piece(self.topic, self.partition, str(self.writer.path), self.first, self.last, self.numbered)

    def _rewrite_sorted(self) -> None:
        rows = self.unordered
        assert rows is not None
        if self.writer is not None:
            self.writer.close()
            with open_log(self.writer.path) as staged:
                for part in staged.partitions():
                    for _, batch in part.batches(verify=False):
                        rows.extend(
                            (r.offset, r.timestamp, r.key, r.value, list(r.headers)) for r in batch.records
                        )
            assert self.folder is not None
            shutil.rmtree(self.folder)  # the folder made for this writer, by its own path
            self.writer = None
        rows.sort(key=lambda r: r[0])
        for a, b in zip(rows, rows[1:]):
            if a[0] == b[0]:
                raise ValueError(
                    f"kafkalog write: offset {a[0]} appears twice in {self.topic}-{self.partition}"
                )
        self.unordered = None
        self.first, self.last = rows[0][0], rows[-1][0]
        size = self.owner.records_per_batch
        for i in range(0, len(rows), size):
            self.pending = rows[i : i + size]
            self._flush()
