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
this phase), then each is moved into ``path/<topic>-<partition>/`` by one
rename, the partition it replaces (and, for an overwrite, every other one) set
aside first and deleted last. Spark's abort, after a failed task or commit,
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
new version complete in the store (the committed attempts' objects, or, merged or renumbered here,
uploaded under ``path/_kafkalog_staging/<job>/<topic>-<partition>/``), then publishes each through
:mod:`kafkaspec.logdir.store.publish` (never half-visible, and never lost if the driver dies: the marker
names the complete new version), and deletes the job's staging prefix, so failed or retried attempts
never show. A staging prefix a publishing marker still names is kept, so that it can be finished.

Why one module of this size: it is Spark's writer protocol for one format (the task's data writer,
the driver's commit and abort), local and object-store commits being two branches of the same
commit; rows back into batches are :mod:`.batches`, partitions into files
:class:`kafkaspec.logdir.PartitionWriter`, publishing :mod:`kafkaspec.logdir.store.publish`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pyarrow as pa
    from pyspark.sql.types import StructType

import errno
import shutil
import tempfile
import uuid
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pyspark.sql.datasource import DataSourceArrowWriter, WriterCommitMessage

from kafkaspec.generated.record_v2 import Record

from ..builder import build_batch
from ..codec.compression import codec_id
from ..errors import KafkaFormatError
from ..logdir import InvariantError, PartitionWriter, open_log
from ..logdir.kafka import files
from ..logdir.kafka.batch_surgery import restamp_batch
from ..logdir.kafka.names import check_topic_partition, offset_problem
from ..logdir.store.fs import StoragePath
from ..logdir.store.publish import (
    STAGING,
    drop_staging,
    publish,
    read_marker_or_none,
    stage_partition,
    unpublish,
)
from ..logdir.store.storage import RemotePath, StorageError, StorageOptions, as_path, is_uri, listdir
from ..logdir.write.rewrite import update_offset_checkpoints
from .batches import BATCH_COLUMNS, BatchStager, commit_partition, refuse_own_source
from .options import OptionError, ReadOptions, parse_size


@dataclass
class Piece:
    """One task's staged partition directory."""

    topic: str
    partition: int
    path: str
    first_offset: int
    last_offset: int
    numbered: bool  # offsets were assigned by the task (the rows had none)
    #: batch-preserving mode: (source segment, batch position, entries staged) of every staged batch
    sources: list[tuple[str, int, int]] | None = None


@dataclass
class StagedPieces(WriterCommitMessage):
    pieces: list[Piece]


class KafkaLogWriter(DataSourceArrowWriter):
    def __init__(self, path: str, options: dict[str, str], schema: StructType, overwrite: bool):
        self.path = path
        self.overwrite = overwrite
        get = {str(k).lower(): v for k, v in options.items()}.get
        self.compression = get("compression") or "none"
        codec_id(self.compression)  # fail early on an unknown codec
        self.recompress = get("compression")  # batch-preserving mode: None keeps each batch's codec
        self.records_per_batch = int(get("recordsperbatch") or 500)
        if self.records_per_batch < 1:
            raise OptionError("recordsPerBatch must be at least 1")
        self.segment_bytes = parse_size(get("segmentbytes") or "1g")
        names = set(schema.fieldNames())
        missing = {"topic", "partition", "value"} - names
        if missing:
            raise OptionError(f"kafkalog write needs columns {sorted(missing)} (Kafka source columns)")
        self.columns = names
        preserve = (get("preservebatches") or "auto").lower()
        if preserve not in ("auto", "true", "false"):
            raise OptionError(f"preserveBatches must be true or false, got {preserve!r}")
        lacking = [c for c in ("offset", *BATCH_COLUMNS) if c not in names]
        if preserve == "true" and lacking:
            raise OptionError(
                f"preserveBatches needs the batch columns of a kafkalog read; missing {lacking}"
            )
        self.preserve = preserve != "false" and not lacking
        self.job = uuid.uuid4().hex
        # object-store settings for an s3:// destination (the s3.* options, else the driver's environment)
        self.storage = ReadOptions.parse(options).storage or (
            StorageOptions.from_env() if is_uri(path) else None
        )

    # -- executors ------------------------------------------------------------------
    def write(self, iterator: Iterator[pa.RecordBatch]) -> StagedPieces:
        try:
            return self._write(iterator)
        except KafkaFormatError as exc:  # its one line (the row or batch at fault) first: see source.py
            raise exc.with_traceback(None) from None

    def _write(self, iterator: Iterator[pa.RecordBatch]) -> StagedPieces:
        task = uuid.uuid4().hex
        remote = is_uri(self.path)  # an object store: stage on this executor, then upload (see _upload)
        task_dir = (
            Path(tempfile.mkdtemp(prefix="kafkalog-task-"))
            if remote
            else Path(self.path) / STAGING / self.job / task
        )
        if self.preserve:
            pieces = self._write_batches(iterator, task_dir)
            return StagedPieces(self._upload(pieces, task, task_dir) if remote else pieces)
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
            if has("timestamp"):
                import pyarrow as pa

                stamps = [
                    None if t is None else t // 1000 for t in col("timestamp").cast(pa.int64()).to_pylist()
                ]
            else:
                stamps = [None] * n
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
        pieces = [stagers[tp].close() for tp in sorted(stagers)]
        if remote:
            pieces = self._upload(pieces, task, task_dir)
        return StagedPieces(pieces)

    def _upload(self, pieces: list[Piece], task: str, task_dir: Path) -> list[Piece]:
        """Put this task's staged partitions under ``<dest>/_kafkalog_staging/<job>/<task>/``: invisible
        until the driver's commit copies them to their final keys. A failed or retried attempt leaves only
        objects under its own task prefix, which no commit message names and the commit (or abort) deletes
        with the job's prefix: a retry never duplicates."""
        staging = as_path(self.path, self.storage) / STAGING / self.job / task
        assert isinstance(staging, RemotePath)
        try:
            out = []
            for p in pieces:
                local = Path(p.path)
                dest = staging / local.name
                for f in sorted(local.iterdir()):
                    if f.is_file():
                        (dest / f.name).write_bytes(f.read_bytes())
                out.append(replace(p, path=str(dest)))
            return out
        finally:
            shutil.rmtree(task_dir, ignore_errors=True)

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
        complete in staging first (all refusals happen there), then switched into place."""
        try:
            self._commit(messages)
        except KafkaFormatError as exc:  # its one line (the row or batch at fault) first: see source.py
            raise exc.with_traceback(None) from None

    def _commit(self, messages: list[WriterCommitMessage | None]) -> None:
        if is_uri(self.path):
            self._commit_remote(messages)
            return
        root = Path(self.path)
        job_dir = root / STAGING / self.job
        ready, old = job_dir / _READY, job_dir / _OLD
        by_tp = _by_partition(messages)
        try:
            refuse_own_source(root, [p for ps in by_tp.values() for p in ps])
            for plan in plan_commit(by_tp):
                self._refuse_existing(root / plan.name)
                self._prepare(ready, plan)
        except BaseException:
            self.abort(messages)
            raise
        self._switch_local(root, ready, old)
        shutil.rmtree(job_dir, ignore_errors=True)
        _rmdir_if_empty(root / STAGING)

    def _refuse_existing(self, final: StoragePath) -> None:
        """FileExistsError when ``final`` holds a log and this write does not overwrite (local or remote:
        the same check, before anything is switched)."""
        if not self.overwrite and final.exists() and any(final.glob("*.log")):
            raise FileExistsError(f"{final} already holds a log; write with mode('overwrite')")

    def _prepare(self, ready: Path, plan: PartitionPlan) -> None:
        """Write ``ready/<topic>-<partition>`` whole as ``plan`` says."""
        if plan.how != "files":
            self._made(ready, plan)
            return
        target = ready / plan.name
        target.mkdir(parents=True, exist_ok=True)
        for f in kept_files([_listing(Path(p.path)) for p in plan.pieces]):
            f.replace(target / f.name)

    def _made(self, directory: Path, plan: PartitionPlan) -> None:
        """A partition the driver writes itself into ``directory``: renumbered, or rebuilt batch by batch."""
        if plan.how == "renumber":
            self._renumber(directory, plan.topic, plan.partition, plan.pieces)
        else:
            commit_partition(
                directory, plan.topic, plan.partition, plan.pieces, self.segment_bytes, self.storage
            )

    def _switch_local(self, root: Path, ready: Path, old: Path) -> None:
        """Move the prepared partitions into ``root`` (each by one rename), the ones they replace (and, for
        an overwrite, every other partition) aside into ``old`` first, then delete those."""
        old.mkdir(parents=True, exist_ok=True)
        if self.overwrite:
            for d in root.iterdir():
                if d.is_dir() and files.parse_partition_dir(d.name):
                    d.replace(old / d.name)
        offsets = _ready_offsets(ready)
        for d in sorted(ready.iterdir()) if ready.is_dir() else ():
            if not d.is_dir():
                continue
            final = root / d.name
            if final.exists():
                final.replace(old / d.name)
            d.replace(final)
        if offsets:
            update_offset_checkpoints(root, offsets)
        shutil.rmtree(old, ignore_errors=True)

    def _commit_remote(self, messages: list[WriterCommitMessage | None]) -> None:
        """The commit to an object store, which has no rename: every partition's new version is put
        complete under the job's staging prefix first (plain pieces are already there, uploaded by the
        tasks; batch-preserving and renumbered ones are made in a local folder here, then uploaded), so
        every refusal comes before anything is visible; then each partition is switched by
        :func:`kafkaspec.logdir.store.publish.publish` (never half-visible, and never lost if this driver dies:
        the marker names the complete new version)."""
        root = as_path(self.path, self.storage)
        assert isinstance(root, RemotePath)
        store = root.store
        by_tp = _by_partition(messages)
        staged: dict[str, dict[str, RemotePath]] = {}
        switching = False
        try:
            _refuse_own_remote_source(root, [p for ps in by_tp.values() for p in ps])
            existing = listdir(root) if root.exists() else []
            for plan in plan_commit(by_tp):
                final = root / plan.name
                store.forget(final.key)
                self._refuse_existing(final)
                staged[final.name] = self._prepare_remote(final, plan)
            switching = True
            if self.overwrite:
                for d in existing:  # partitions this write no longer holds are deleted behind a marker
                    if files.parse_partition_dir(d.name) and d.name not in staged:
                        unpublish(d, self.job)
            for name in sorted(staged):
                publish(root / name, staged[name], self.job)
        except BaseException:
            if not (switching and _switched(root, staged, self.job)):
                _drop_staging(root, self.job)
            raise
        _drop_staging(root, self.job)

    def _prepare_remote(self, final: RemotePath, plan: PartitionPlan) -> dict[str, RemotePath]:
        """{name: staged object} of the partition's new version, complete in the store, as ``plan`` says."""
        if plan.how != "files":  # made in a local folder here, then uploaded
            local = Path(tempfile.mkdtemp(prefix="kafkalog-commit-"))
            try:
                self._made(local, plan)
                return stage_partition(local / final.name, final, self.job)
            finally:
                shutil.rmtree(local, ignore_errors=True)
        return {f.name: f for f in kept_files([_listing(as_path(p.path, self.storage)) for p in plan.pieces])}

    def _renumber(self, directory: Path, topic: str, partition: int, pieces: list[Piece]) -> None:
        """Rows without offsets from several tasks: append every staged batch at the next offset."""

        with PartitionWriter(directory, topic, partition, segment_bytes=self.segment_bytes) as w:
            for p in pieces:
                with open_log(p.path, storage=self.storage) as staged:
                    for part in staged.partitions():
                        for _, batch in part.batches(verify=False):
                            w.append_batch(restamp_batch(bytearray(batch.raw()), base_offset=w.next_offset))

    def abort(self, messages: list[WriterCommitMessage | None]) -> None:
        """Delete the job's staging; OUT shows nothing of it. (On an object store, a partition whose switch
        was made keeps the staged version its marker names, so that it can be finished.)"""
        if is_uri(self.path):
            root = as_path(self.path, self.storage)
            assert isinstance(root, RemotePath)
            names: dict[str, Any] = {f"{t}-{p}": {} for t, p in _by_partition(messages)}
            if not _switched(root, names, self.job):
                _drop_staging(root, self.job)
            return
        shutil.rmtree(Path(self.path) / STAGING / self.job, ignore_errors=True)
        _rmdir_if_empty(Path(self.path) / STAGING)


@dataclass
class PartitionPlan:
    """What the commit does for one partition, decided before anything is written or listed: a pure
    function of the tasks' pieces (:func:`plan_commit`), applied by rename (local) or by publishing
    (object stores)."""

    topic: str
    partition: int
    #: ``renumber``: rows without offsets from several tasks, appended at the next offset; ``rebuild``:
    #: batch-preserving, the source's batches written again; ``files``: the tasks' files as they are
    how: str
    pieces: list[Piece]  # sorted by first offset

    @property
    def name(self) -> str:
        return f"{self.topic}-{self.partition}"


def plan_commit(by_tp: dict[tuple[str, int], list[Piece]]) -> list[PartitionPlan]:
    """Each partition's plan, in name order; ValueError when tasks hold overlapping offsets."""
    plans = []
    for (topic, partition), pieces in sorted(by_tp.items()):
        pieces = sorted(pieces, key=lambda p: p.first_offset)
        if any(p.numbered for p in pieces) and len(pieces) > 1:
            how = "renumber"
        else:
            _refuse_overlaps(topic, partition, pieces)
            how = "files" if pieces[0].sources is None else "rebuild"
        plans.append(PartitionPlan(topic, partition, how, pieces))
    return plans


def kept_files(listings: list[list[tuple[str, int, Any]]]) -> list[Any]:
    """The files that make up a partition, from each piece's listing of (name, size, file) in piece
    order: see :func:`_kept`."""
    return [
        f
        for i, listing in enumerate(listings)
        for name, size, f in listing
        if _kept(name, size, i, len(listings))
    ]


def _listing(directory: StoragePath) -> list[tuple[str, int, Any]]:
    """(name, size, file) of each file of a task's staged piece, local or in the store, by name."""
    return [(f.name, f.stat().st_size, f) for f in listdir(directory)]


#: under a job's local staging folder: its partitions made whole, and those they replace, moved aside
_READY, _OLD = "_ready", "_replaced"


def _by_partition(messages: list[WriterCommitMessage | None]) -> dict[tuple[str, int], list[Piece]]:
    by_tp: dict[tuple[str, int], list[Piece]] = {}
    for m in messages:
        for p in m.pieces if isinstance(m, StagedPieces) else ():
            check_topic_partition(p.topic, p.partition, "kafkalog write")  # the commit builds paths from it
            by_tp.setdefault((p.topic, p.partition), []).append(p)
    return by_tp


def _kept(name: str, size: int, i: int, count: int) -> bool:
    """Whether the file ``name`` of the ``i``-th of ``count`` pieces of a partition goes into it: the small
    files from the first piece, the snapshot from the last, no empty active segment but the last's."""
    if name in (files.LEADER_EPOCH_CHECKPOINT, files.PARTITION_METADATA) and i > 0:
        return False
    if name.endswith(files.SNAPSHOT_SUFFIX) and i < count - 1:
        return False
    return not (name.endswith(files.LOG_SUFFIX) and size == 0 and i < count - 1)


def _ready_offsets(ready: Path) -> dict[tuple[str, int], tuple[int, int]]:
    """{(topic, partition): (log start, log end)} from the offset checkpoints a batch-preserving commit
    wrote into ``ready`` (empty when there are none)."""

    def read(name: str) -> dict[tuple[str, int], int]:
        path = ready / name
        out: dict[tuple[str, int], int] = {}
        if path.is_file():
            for line in files.read_text_file(path).splitlines()[2:]:
                parts = line.split()
                if len(parts) == 3 and parts[1].isdigit() and parts[2].lstrip("-").isdigit():
                    out[(parts[0], int(parts[1]))] = int(parts[2])
        return out

    starts, ends = read("log-start-offset-checkpoint"), read("recovery-point-offset-checkpoint")
    return {tp: (starts[tp], ends[tp]) for tp in starts if tp in ends}


def _switched(root: RemotePath, partitions: dict[str, Any], job: str) -> bool:
    """Whether a partition of ``partitions`` (names under ``root``) holds ``job``'s publishing marker."""
    return any(read_marker_or_none(root / name, job) is not None for name in partitions)


def _drop_staging(root: RemotePath, job: str) -> None:
    """Delete this job's staging prefix, and the staging prefix itself once no other job uses it."""
    try:
        drop_staging(root, job)
    except StorageError as exc:
        if exc.errno != errno.ENOENT:
            raise


def _refuse_own_remote_source(root: RemotePath, pieces: list[Piece]) -> None:
    """ValueError when a batch-preserving write to an object store would replace its source segments."""
    top = str(root).rstrip("/") + "/"
    for piece in pieces:
        for segment, _, _ in piece.sources or ():
            if str(segment).startswith(top):
                raise ValueError(
                    f"kafkalog write: {root} holds the source segment {segment} that the rows come "
                    "from; a batch-preserving write reads it back, so write somewhere else"
                )


def _refuse_overlaps(topic: str, partition: int, pieces: list[Piece]) -> None:
    """Tasks' pieces of one partition, sorted by first offset, must not share an offset."""
    for a, b in zip(pieces, pieces[1:]):
        if b.first_offset <= a.last_offset:
            raise ValueError(
                f"kafkalog write: tasks hold overlapping offsets of {topic}-{partition} "
                f"({a.first_offset}..{a.last_offset} and {b.first_offset}..{b.last_offset}); "
                "repartition by topic and partition first"
            )


def _rmdir_if_empty(path: Path) -> None:
    try:
        path.rmdir()
    except OSError:
        pass


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
