"""The ``kafkalog`` writer's commit: the tasks' pieces of each partition planned, then applied by the location.

Two phases, so that a refused or failed job leaves nothing visible in the output: :func:`plan_commit`
decides, from the tasks' commit messages alone, what each partition's new version is (:class:`How`: the
tasks' files as they are, renumbered, or rebuilt batch by batch) and refuses overlapping offsets; then
:func:`commit_plan` turns the plans into a
:class:`~kafkaspec.logdir.store.location.CommitPlan`, which the output's
:class:`~kafkaspec.logdir.store.location.Location` applies: every partition made whole in staging first
(every other refusal happens there), then switched into place (by renames in a local folder, by
publishing in an object store: see :mod:`kafkaspec.logdir.store.location`).
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pyspark.sql.datasource import WriterCommitMessage

from ...logdir import PartitionWriter, open_log
from ...logdir.kafka import files
from ...logdir.kafka.batch_surgery import restamp_batch
from ...logdir.kafka.names import check_topic_partition
from ...logdir.store.fs import StoragePath
from ...logdir.store.location import CommitPlan, DirPlan, Location
from ...logdir.store.storage import StorageOptions, listdir
from ...logdir.write.rewrite import update_offset_checkpoints
from .batches import commit_partition


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


class How(enum.Enum):
    """How the commit makes a partition's new version."""

    #: the tasks' staged files as they are
    FILES = "files"
    #: rows without offsets from several tasks, each staged batch appended at the next offset
    RENUMBER = "renumber"
    #: batch-preserving: the source's batches written again (:func:`.batches.commit_partition`)
    REBUILD = "rebuild"


@dataclass
class PartitionPlan:
    """What the commit does for one partition, decided before anything is written or listed: a pure
    function of the tasks' pieces (:func:`plan_commit`), the same for every kind of location."""

    topic: str
    partition: int
    how: How
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
            how = How.RENUMBER
        else:
            _refuse_overlaps(topic, partition, pieces)
            how = How.FILES if pieces[0].sources is None else How.REBUILD
        plans.append(PartitionPlan(topic, partition, how, pieces))
    return plans


@dataclass(frozen=True)
class Settings:
    """What the commit needs of the writer's options."""

    job: str
    overwrite: bool
    segment_bytes: int
    storage: StorageOptions | None


def commit_plan(location: Location, plans: list[PartitionPlan], settings: Settings) -> CommitPlan:
    """The location's :class:`~kafkaspec.logdir.store.location.CommitPlan` of ``plans``: each partition
    taken from the tasks' files or made here, an existing log refused unless the write overwrites (and
    then every other partition replaced), the offset checkpoints of a rebuilt data dir brought along."""

    def refuse(final: StoragePath) -> None:
        """FileExistsError when ``final`` holds a log and this write does not overwrite."""
        if not settings.overwrite and final.exists() and any(final.glob("*.log")):
            raise FileExistsError(f"{final} already holds a log; write with mode('overwrite')")

    return CommitPlan(
        settings.job,
        [_dir_plan(location, plan, settings) for plan in plans],
        refuse=refuse,
        replaces=(lambda name: files.parse_partition_dir(name) is not None) if settings.overwrite else None,
        settle=_settle_offsets,
    )


def _dir_plan(location: Location, plan: PartitionPlan, settings: Settings) -> DirPlan:
    if plan.how is How.FILES:
        return DirPlan(
            plan.name, taken=lambda: kept_files([_listing(location.path(p.path)) for p in plan.pieces])
        )
    make: Callable[[Path], None]
    if plan.how is How.RENUMBER:

        def make(directory: Path) -> None:
            _renumber(directory, plan, settings)

    else:

        def make(directory: Path) -> None:
            commit_partition(
                directory, plan.topic, plan.partition, plan.pieces, settings.segment_bytes, settings.storage
            )

    return DirPlan(plan.name, make=make)


def _renumber(directory: Path, plan: PartitionPlan, settings: Settings) -> None:
    """Rows without offsets from several tasks: append every staged batch at the next offset."""
    with PartitionWriter(directory, plan.topic, plan.partition, segment_bytes=settings.segment_bytes) as w:
        for p in plan.pieces:
            with open_log(p.path, storage=settings.storage) as staged:
                for part in staged.partitions():
                    for _, batch in part.batches(verify=False):
                        w.append_batch(restamp_batch(bytearray(batch.raw()), base_offset=w.next_offset))


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


def _kept(name: str, size: int, i: int, count: int) -> bool:
    """Whether the file ``name`` of the ``i``-th of ``count`` pieces of a partition goes into it: the small
    files from the first piece, the snapshot from the last, no empty active segment but the last's."""
    if name in (files.LEADER_EPOCH_CHECKPOINT, files.PARTITION_METADATA) and i > 0:
        return False
    if name.endswith(files.SNAPSHOT_SUFFIX) and i < count - 1:
        return False
    return not (name.endswith(files.LOG_SUFFIX) and size == 0 and i < count - 1)


def by_partition(messages: list[WriterCommitMessage | None]) -> dict[tuple[str, int], list[Piece]]:
    """The pieces of the commit messages by (topic, partition), each checked (the commit builds paths
    from them)."""
    by_tp: dict[tuple[str, int], list[Piece]] = {}
    for m in messages:
        for p in m.pieces if isinstance(m, StagedPieces) else ():
            check_topic_partition(p.topic, p.partition, "kafkalog write")
            by_tp.setdefault((p.topic, p.partition), []).append(p)
    return by_tp


def refuse_own_source(location: Location, pieces: list[Piece]) -> None:
    """ValueError when a batch-preserving write would replace the segments it reads its batches from."""
    for piece in pieces:
        for segment, _, _ in piece.sources or ():
            if location.holds(segment):
                raise ValueError(
                    f"kafkalog write: {location.root} holds the source segment {segment} that the rows "
                    "come from; a batch-preserving write reads it back, so write somewhere else"
                )


def _settle_offsets(ready: Path, root: StoragePath) -> None:
    """The offset checkpoints a batch-preserving commit wrote into ``ready`` merged into ``root``'s."""
    offsets = _ready_offsets(ready)
    if offsets:
        update_offset_checkpoints(Path(str(root)), offsets)


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


def _refuse_overlaps(topic: str, partition: int, pieces: list[Piece]) -> None:
    """Tasks' pieces of one partition, sorted by first offset, must not share an offset."""
    for a, b in zip(pieces, pieces[1:]):
        if b.first_offset <= a.last_offset:
            raise ValueError(
                f"kafkalog write: tasks hold overlapping offsets of {topic}-{partition} "
                f"({a.first_offset}..{a.last_offset} and {b.first_offset}..{b.last_offset}); "
                "repartition by topic and partition first"
            )


__all__ = [
    "How",
    "PartitionPlan",
    "Piece",
    "Settings",
    "StagedPieces",
    "by_partition",
    "commit_plan",
    "kept_files",
    "plan_commit",
    "refuse_own_source",
]
