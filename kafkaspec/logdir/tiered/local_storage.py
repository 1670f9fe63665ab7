"""Kafka's own test layout of tiered storage, ``LocalTieredStorage``: reading it.

Apache Kafka ships a ``RemoteStorageManager`` that keeps the remote copy on a local disk
(``storage/src/testFixtures/java/org/apache/kafka/server/log/remote/storage/``: ``LocalTieredStorage``,
``RemoteTopicPartitionDirectory``, ``RemoteLogSegmentFileset``), written by Kafka's own integration
tests and some users' test rigs::

    <dir>/kafka-tiered-storage/<topic>-<partition>-<topic id>/
        <20-digit start offset>-<segment id>.log                       the segment, as the broker had it
        <20-digit start offset>-<segment id>.index                     its offset index
        <20-digit start offset>-<segment id>.timeindex                 its time index
        <20-digit start offset>-<segment id>.txnindex                  its transaction index (optional)
        <20-digit start offset>-<segment id>.leader_epoch_checkpoint   the leader epochs up to the next segment
        <20-digit start offset>-<segment id>.snapshot                  the producer snapshot at its end

Every file is the broker's own, copied as is: no manifest, no chunks, no encryption. A fileset lacking
one of the non-optional files is an upload that did not finish (``LocalTieredStorage`` deletes a
fileset whose copy failed; one left half-written is not served). As in the plugin's layout, a folder
may hold more than one fileset for the same offsets; the live lineage is chosen by the same rule
(:mod:`.lineage`), from events built from the files: each complete fileset is a
``COPY_SEGMENT_FINISHED`` whose start offset is its name's, whose end offset is the last offset of its
``.log``, whose ``segmentLeaderEpochs`` are its checkpoint's entries within those offsets, and whose
event time is when its ``.log`` was written (the file's modification time: the copy's time; 0 in an
object store, where the order is then the end offset's, then the segment id's). Where
``__remote_log_metadata`` is known (:attr:`LocalTieredPartition.remote_log`: the broker's data dir
beside it, in a history) and has events of the partition, those events choose instead, as a broker
does: a broker killed after writing a fileset but before its ``COPY_SEGMENT_FINISHED`` leaves a
complete fileset that no broker serves, which the files alone cannot tell.
"""

from __future__ import annotations

import errno
import re

from ...errors import KafkaFormatError
from ..kafka import files
from ..kafka.layout import LogDir, Partition, UnusedSegment
from ..kafka.segment import Segment
from ..store.fs import StoragePath, storage_path
from ..store.storage import StorageError, StorageOptions, listdir
from .lineage import Lineage, SegmentInfo, segment_epochs
from .live import choose_live, newest, serve_live
from .remote_log_topic import RemoteLogMetadata, remote_log

#: the storage's root folder under its configured ``dir`` (``LocalTieredStorage.ROOT_STORAGE_DIR_NAME``)
ROOT_DIR_NAME = "kafka-tiered-storage"
EPOCHS_SUFFIX = ".leader_epoch_checkpoint"
#: the file types of a fileset (``RemoteLogSegmentFileType``) and whether each is optional
FILE_TYPES = {
    files.LOG_SUFFIX: False,
    files.INDEX_SUFFIX: False,
    files.TIME_INDEX_SUFFIX: False,
    files.TXN_INDEX_SUFFIX: True,
    EPOCHS_SUFFIX: False,
    files.SNAPSHOT_SUFFIX: False,
}
_UUID = r"[A-Za-z0-9_-]{22}"
#: ``RemoteTopicPartitionDirectory``: ``<topic>-<partition>-<topic id>``
_PART_DIR = re.compile(rf"^(?P<topic>[A-Za-z0-9._-]+)-(?P<partition>[0-9]{{1,10}})-(?P<topic_id>{_UUID})$")
#: ``RemoteLogSegmentFileset``: ``<20-digit offset>-<segment id><file type>``
_FILE = re.compile(rf"^(?P<offset>[0-9]{{20}})-(?P<segment_id>{_UUID})(?P<suffix>\.[a-z_]+)$")


class LocalTieredSegment(Segment):
    """A segment of the ``LocalTieredStorage`` layout: a broker's segment files under a
    ``<offset>-<segment id>`` name (the indexes beside it, as in a broker's directory)."""

    layout = "local-tiered"

    def __init__(self, path: str | StoragePath, base_offset: int | None = None):
        p = storage_path(path)
        m = _FILE.match(p.name)
        if m is None or m["suffix"] != files.LOG_SUFFIX:
            raise KafkaFormatError(
                "not a LocalTieredStorage segment name (<20-digit offset>-<segment id>.log)", None, str(p)
            )
        super().__init__(p, int(m["offset"]) if base_offset is None else base_offset)
        self.segment_id = m["segment_id"]

    @property
    def epochs_path(self) -> StoragePath:
        return self._sibling(EPOCHS_SUFFIX)

    @property
    def snapshot_path(self) -> StoragePath:
        return self._sibling(files.SNAPSHOT_SUFFIX)

    def last_offset(self) -> int | None:
        """The last offset of its ``.log`` (from the offset index's last entry on; None: no batch)."""
        entries = self.index_entries()
        start = entries[-1].position if entries and entries[-1].position < self.size else 0
        last = None
        for batch in self.iter_stored_batches(start, verify=False):
            last = batch.last_offset
        if last is None and start:
            for batch in self.iter_stored_batches(0, verify=False):
                last = batch.last_offset
        return last


class LocalTieredPartition(Partition):
    """``<topic>-<partition>-<topic id>/`` of the ``LocalTieredStorage`` layout: the segments a broker
    serves (the live lineage, chosen as for the plugin's layout); :attr:`unused` lists the others."""

    layout = "local-tiered"

    def __init__(
        self,
        path: StoragePath,
        topic: str,
        partition: int,
        topic_id: str,
        epochs: list[files.EpochEntry] | None = None,
    ):
        super().__init__(path, topic, partition)
        self.topic_id = topic_id
        #: the partition's leader-epoch lineage to choose by; None: the newest segment's checkpoint
        self.epochs = epochs
        #: as :attr:`kafkaspec.logdir.tiered.partition.TieredPartition.log_end_offset`
        self.log_end_offset: int | None = None
        #: ``__remote_log_metadata``, replayed: when it has events of this partition, they decide
        self.remote_log: RemoteLogMetadata | None = None
        self.unused: list[UnusedSegment] = []

    def segments(self) -> list[Segment]:
        if self._segments is None:
            self._segments = self._choose()
        return self._segments

    def unused_segments(self) -> list[UnusedSegment]:
        self.segments()
        return self.unused

    def _choose(self) -> list[Segment]:
        stems: dict[str, dict[str, StoragePath]] = {}
        for p in listdir(self.path):
            m = _FILE.match(p.name)
            if m and m["suffix"] in FILE_TYPES:
                stems.setdefault(p.name[: -len(m["suffix"])], {})[m["suffix"]] = p
        chosen: dict[str, LocalTieredSegment] = {}
        published: list[SegmentInfo] = []
        started: list[SegmentInfo] = []
        orphans: dict[str, tuple[StoragePath, str]] = {}
        checkpoints: dict[str, list[files.EpochEntry]] = {}
        complete: dict[str, LocalTieredSegment] = {}
        kept: list[Segment] = []
        for stem, objects in sorted(stems.items()):
            missing = [s for s, optional in FILE_TYPES.items() if not optional and s not in objects]
            base = int(stem[:20])
            if missing:  # the copy did not finish (or was being deleted): not served
                where = objects.get(files.LOG_SUFFIX) or next(iter(objects.values()))
                orphans[stem] = (
                    where,
                    f"its upload did not finish (COPY_SEGMENT_STARTED): the fileset has no "
                    f"{', '.join(missing)} file",
                )
                started.append(SegmentInfo(stem, base, base, (), -1, str(where)))
                continue
            seg = complete[stem] = LocalTieredSegment(objects[files.LOG_SUFFIX], base)
            end = seg.last_offset()
            epochs_path = objects[EPOCHS_SUFFIX]
            entries = files.parse_leader_epoch_checkpoint(files.read_text_file(epochs_path), str(epochs_path))
            seg.close()
            if end is None:  # no batch: nothing to choose by, kept where its name puts it (verify reads it)
                kept.append(seg)
                continue
            # no epochs of its offsets in its checkpoint: given theirs by live.fill_epochs
            pairs = segment_epochs({e.epoch: e.start_offset for e in entries}, base, end)
            mtime = getattr(seg.path.stat(), "st_mtime", 0.0)  # an object store's listing gives none: 0
            chosen[stem] = seg
            checkpoints[stem] = entries
            published.append(SegmentInfo(stem, base, end, pairs, int(mtime * 1000), str(seg.path)))
        epochs = self.epochs
        last = newest(published)
        if epochs is None and last is not None:
            epochs = checkpoints[last.segment_id] or None
        lineage, from_topic = choose_live(self, published, started, epochs)
        if from_topic:
            return self._choose_from_topic(lineage, stems, complete)
        served = serve_live(self, lineage, chosen, _same_bytes, "the files")
        kept += served
        for u, why in lineage.unused:
            path, why = orphans[u.segment_id] if u.segment_id in orphans else (chosen[u.segment_id].path, why)
            self.unused.append(UnusedSegment(path, u.start, why))
        self.unused.sort(key=lambda u: (u.base_offset, str(u.path)))
        return sorted(kept, key=lambda s: s.base_offset)

    def _choose_from_topic(
        self,
        lineage: Lineage,
        stems: dict[str, dict[str, StoragePath]],
        complete: dict[str, LocalTieredSegment],
    ) -> list[Segment]:
        """The live segments ``__remote_log_metadata`` gives (``lineage``), read from their filesets: a
        finished segment whose fileset is missing or incomplete is an error naming it; a fileset the
        topic says is deleted or unfinished, or does not name at all, is listed unused and never read."""
        assert self.remote_log is not None
        source = f"__remote_log_metadata ({self.remote_log.source})"
        kept: list[Segment] = []
        for info, first in lineage.live:
            seg = complete.get(info.segment_id)
            if seg is None:
                objects = stems.get(info.segment_id, {})
                lacks = [s for s, optional in FILE_TYPES.items() if not optional and s not in objects]
                raise KafkaFormatError(
                    f"segment {info.segment_id[21:]} (offsets {info.start}..{info.end}) is "
                    f"COPY_SEGMENT_FINISHED in {source}, but "
                    + (
                        f"its fileset has no {', '.join(lacks)} file"
                        if objects
                        else "there is no fileset of it"
                    ),
                    None,
                    str(self.path),
                )
            seg.served_from, seg.end_offset = first, info.end
            kept.append(seg)
        named = {s.segment_id for s, _ in lineage.live} | {u.segment_id for u, _ in lineage.unused}
        where = {
            stem: objects.get(files.LOG_SUFFIX) or next(iter(objects.values()))
            for stem, objects in stems.items()
        }
        self.unused = [
            UnusedSegment(where[u.segment_id], u.start, f"{why} (decided by {source})")
            for u, why in lineage.unused
            if u.segment_id in where
        ]
        self.unused += [
            UnusedSegment(
                path, int(stem[:20]), f"{source} has no record of this segment: no broker serves it"
            )
            for stem, path in sorted(where.items())
            if stem not in named
        ]
        self.unused.sort(key=lambda u: (u.base_offset, str(u.path)))
        return sorted(kept, key=lambda s: s.base_offset)

    def leader_epochs(self) -> list[files.EpochEntry] | None:
        segs = self.segments()
        if not segs:
            return None
        last = segs[-1]
        assert isinstance(last, LocalTieredSegment)
        p = last.epochs_path
        return files.parse_leader_epoch_checkpoint(files.read_text_file(p), str(p))

    def metadata(self) -> dict[str, str] | None:
        return {"version": "0", "topic_id": self.topic_id}

    def snapshot_paths(self) -> list[StoragePath]:
        return []  # named by segment, not by offset: read with their segment, not as the partition's


def _same_bytes(a: Segment, b: Segment) -> bool:
    size = a.size
    return size == b.size and files.read_regular(a.path, 0, size) == files.read_regular(b.path, 0, size)


def _partition(path: StoragePath) -> LocalTieredPartition | None:
    m = _PART_DIR.match(path.name)
    if m is None or int(m["partition"]) > 2**31 - 1:
        return None
    return LocalTieredPartition(path, m["topic"], int(m["partition"]), m["topic_id"])


def find_local_tiered(root: StoragePath) -> list[LocalTieredPartition]:
    """The partitions under ``root``: the storage's ``dir``, its ``kafka-tiered-storage`` folder, or one
    ``<topic>-<partition>-<topic id>`` folder."""
    one = _partition(root)
    if one is not None:
        return [one] if _has_segments(root) else []
    found: list[LocalTieredPartition] = []
    for p in listdir(root):
        if p.name == ROOT_DIR_NAME and p.is_dir():
            found.extend(find_local_tiered(p))
        elif (part := _partition(p)) is not None and p.is_dir() and _has_segments(p):
            found.append(part)
    return found


def _has_segments(path: StoragePath) -> bool:
    return any((m := _FILE.match(p.name)) and m["suffix"] == files.LOG_SUFFIX for p in listdir(path))


def _one_segment(root: StoragePath) -> bool:
    m = _FILE.match(root.name)
    return bool(m and m["suffix"] == files.LOG_SUFFIX)


def is_local_tiered(root: StoragePath) -> bool:
    """Whether ``root`` holds the ``LocalTieredStorage`` layout: one of its segments (an
    ``<offset>-<segment id>.log`` with its ``.leader_epoch_checkpoint``, which the plugin's layout has
    not), a ``<topic>-<partition>-<topic id>`` folder of them, or a folder of those (or of
    ``kafka-tiered-storage/``)."""
    try:
        if _one_segment(root):
            return root.with_name(root.name[: -len(files.LOG_SUFFIX)] + EPOCHS_SUFFIX).exists()
        return bool(find_local_tiered(root))
    except StorageError as exc:
        if exc.errno in (errno.ETIMEDOUT, errno.ECONNREFUSED):  # no answer is not "no such layout"
            raise
        return False
    except (OSError, KafkaFormatError):
        return False


def open_local_tiered(
    path: str | StoragePath,
    *,
    storage: StorageOptions | None = None,
    remote_log_metadata: str | StoragePath | RemoteLogMetadata | None = None,
) -> LogDir:
    """A :class:`LogDir` over the ``LocalTieredStorage`` layout at ``path`` (a folder, or one segment).
    ``remote_log_metadata``: the ``__remote_log_metadata`` partitions (a data dir holding them, or one
    partition dir) whose events choose each partition's live segments (None: the files decide)."""
    root = storage_path(path, storage)
    if _one_segment(root):
        part = _partition(root.parent) or LocalTieredPartition(root.parent, root.parent.name, -1, "")
        part._segments = [LocalTieredSegment(root)]
        return LogDir(root.parent, [part])
    found = sorted(find_local_tiered(root), key=lambda p: (p.topic, p.partition))
    if remote_log_metadata is not None and found:
        meta = remote_log(remote_log_metadata, None, storage)
        for p in found:
            p.remote_log = meta
    parts: list[Partition] = list(found)
    return LogDir(root, parts)


__all__ = [
    "ROOT_DIR_NAME",
    "LocalTieredPartition",
    "LocalTieredSegment",
    "find_local_tiered",
    "is_local_tiered",
    "open_local_tiered",
]
