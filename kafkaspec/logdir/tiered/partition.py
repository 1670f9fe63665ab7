"""A tiered-storage partition: ``<topic>-<topic id>/<partition>/`` of Aiven's layout (:mod:`.segment`), and
finding such partitions under a prefix.

The folder may hold more than one published segment for the same offsets; :class:`TieredPartition`
serves the live lineage, chosen by Kafka's rule (:mod:`.lineage`) from the manifests, or from
``__remote_log_metadata`` (:mod:`.remote_log_topic`) when given, with segments put elsewhere by their
custom metadata (:mod:`.custom`). One job apart from reading a segment (:mod:`.segment`): which
segments a partition is made of.
"""

from __future__ import annotations

import warnings
from pathlib import Path

from ...errors import KafkaFormatError, SkippedDirWarning
from ..kafka import files, names
from ..kafka import layout as layout_module
from ..kafka.layout import LogDir, Partition, UnusedSegment
from ..kafka.segment import Segment
from ..store.fs import StoragePath, storage_path
from ..store.storage import RemotePath, StorageOptions, listdir
from .custom import object_path, parse_custom_metadata
from .encryption import PrivateKeys
from .lineage import Lineage, SegmentInfo, filtered_epochs, parse_segment_metadata, within_leader_epochs
from .live import choose_live, fill_epochs, newest, serve_live
from .manifest import _SEGMENT, _TOPIC_DIR, INDEXES_SUFFIX, MANIFEST_SUFFIX
from .remote_log_topic import RemoteLogMetadata, remote_log
from .segment import TieredSegment


class TieredPartition(Partition):
    """``<topic>-<topic id>/<partition>/`` of the tiered-storage layout: the segments a broker serves.

    The folder may hold more than one segment for the same offsets (a re-upload after a leader change,
    an unclean election, an upload that failed half-way). :meth:`segments` is the live lineage, chosen
    by Kafka's rule (:mod:`.lineage`) from every manifest's ``remoteLogSegmentMetadata`` and the
    partition's leader-epoch lineage; :attr:`unused` lists the others, each with the reason. Listing
    the folder once and reading each manifest once is all choosing costs (plus one ``.indexes`` object
    for the leader-epoch checkpoint when none is given as ``epochs``).
    """

    layout = "tiered"

    def __init__(
        self,
        path: StoragePath,
        topic: str,
        partition: int,
        topic_id: str,
        epochs: list[files.EpochEntry] | None = None,
        remote_log: RemoteLogMetadata | None = None,
        keys: PrivateKeys | None = None,
        segments: list[Segment] | None = None,
    ):
        """``segments``: the segments to serve as they are (one segment opened on its own), instead of
        choosing the live lineage from the folder."""
        super().__init__(path, topic, partition)
        self._segments = segments
        self.topic_id = topic_id
        self.keys = keys  # for encrypted segments (None: the environment's)
        #: the partition's leader-epoch lineage to choose by (e.g. a broker's leader-epoch-checkpoint);
        #: None: the checkpoint uploaded with the newest segment
        self.epochs = epochs
        #: ``__remote_log_metadata``, replayed: when it has events of this partition, they decide
        self.remote_log = remote_log
        #: the local log's end offset when read as a partition's history: a remote segment ending at or
        #: past it is not served (``RemoteLogManager.isRemoteSegmentWithinLeaderEpochs``)
        self.log_end_offset: int | None = None
        self._lineage_source = "manifests"
        self.unused: list[UnusedSegment] = []

    def segments(self) -> list[Segment]:
        if self._segments is None:
            self._segments = self._choose()
        return self._segments

    def unused_segments(self) -> list[UnusedSegment]:
        self.segments()
        return self.unused

    @property
    def lineage_source(self) -> str:
        """What decided the live segments: ``"manifests"`` or ``"__remote_log_metadata (<where>)"``."""
        self.segments()
        return self._lineage_source

    def _choose(self) -> list[Segment]:
        stems: dict[str, dict[str, StoragePath]] = {}
        for p in listdir(self.path):
            m = _SEGMENT.match(p.name)
            if m:
                stems.setdefault(p.name[: -len(m["suffix"])], {})[m["suffix"]] = p
        kept: list[Segment] = []
        chosen: dict[str, TieredSegment] = {}
        published: list[SegmentInfo] = []
        started: list[SegmentInfo] = []
        orphans: dict[str, StoragePath] = {}
        for stem, objects in sorted(stems.items()):
            if MANIFEST_SUFFIX not in objects:  # not published: the upload did not finish
                where = objects.get(files.LOG_SUFFIX) or objects[INDEXES_SUFFIX]
                orphans[stem] = where
                started.append(SegmentInfo(stem, int(stem[:20]), int(stem[:20]), (), -1, str(where)))
                continue
            seg = TieredSegment(objects[MANIFEST_SUFFIX].with_name(stem + files.LOG_SUFFIX), keys=self.keys)
            try:
                info = parse_segment_metadata(
                    seg.manifest.segment_metadata, str(seg.manifest_path), stem, seg.base_offset
                )
            except KafkaFormatError:
                info = None  # a manifest that does not parse: reading the segment reports it, where its name puts it
            if info is None:
                kept.append(seg)
            else:
                chosen[stem] = seg
                published.append(info)
        epochs = self.epochs if self.epochs is not None else self._newest_checkpoint(published, chosen)
        lineage, from_topic = choose_live(self, published, started, epochs)
        if from_topic:
            return self._choose_from_topic(lineage, stems, chosen)
        self._lineage_source = "manifests"
        served = serve_live(self, lineage, chosen, _same_bytes, "the manifests")
        kept += served
        self.unused = [
            UnusedSegment(orphans.get(u.segment_id) or chosen[u.segment_id].path, u.start, why)
            for u, why in lineage.unused
        ]
        return sorted(kept, key=lambda s: s.base_offset)

    def _choose_from_topic(
        self, lineage: Lineage, stems: dict[str, dict[str, StoragePath]], chosen: dict[str, TieredSegment]
    ) -> list[Segment]:
        """The live segments ``__remote_log_metadata`` gives (``lineage``), read from their objects: a
        finished segment whose objects are missing is an error naming it; an object the topic says is
        deleted or unfinished, or does not name at all, is listed unused and never read."""
        assert self.remote_log is not None
        source = f"__remote_log_metadata ({self.remote_log.source})"
        self._lineage_source = source
        custom = {
            f"{s.start_offset:020d}-{s.segment_id}": s.custom_metadata
            for p in self.remote_log.state.partition(self.topic, self.partition, self.topic_id)
            for s in p.segments.values()
        }
        kept: list[Segment] = []
        for info, first in lineage.live:
            what = f"segment {info.segment_id[21:]} (offsets {info.start}..{info.end})"
            elsewhere = self._elsewhere(info.segment_id, custom.get(info.segment_id), what)
            if elsewhere is not None:
                log_path, manifest_path = elsewhere
                missing = [str(p) for p in (log_path, manifest_path) if not p.exists()]
                seg = TieredSegment(log_path, keys=self.keys)
            else:
                objects = stems.get(info.segment_id, {})
                missing = [
                    info.segment_id + x for x in (files.LOG_SUFFIX, MANIFEST_SUFFIX) if x not in objects
                ]
                seg = chosen.get(info.segment_id) or TieredSegment(
                    self.path / (info.segment_id + files.LOG_SUFFIX), keys=self.keys
                )
            if missing:
                raise KafkaFormatError(
                    f"{what} is COPY_SEGMENT_FINISHED in {source}, but its objects are missing: "
                    f"no {' or '.join(missing)}",
                    None,
                    str(self.path),
                )
            seg.served_from, seg.end_offset = first, info.end
            kept.append(seg)
        named = {s.segment_id for s, _ in lineage.live} | {u.segment_id for u, _ in lineage.unused}
        self.unused = [
            UnusedSegment(_object_of(stems[u.segment_id]), u.start, f"{why} (decided by {source})")
            for u, why in lineage.unused
            if u.segment_id in stems
        ]
        self.unused += [
            UnusedSegment(
                _object_of(objects),
                int(stem[:20]),
                f"{source} has no record of this segment: no broker serves it",
            )
            for stem, objects in sorted(stems.items())
            if stem not in named
        ]
        self.unused.sort(key=lambda u: (u.base_offset, str(u.path)))
        return sorted(kept, key=lambda s: s.base_offset)

    def _elsewhere(
        self, stem: str, custom: bytes | None, what: str
    ) -> tuple[StoragePath, StoragePath] | None:
        """The segment's ``.log`` and manifest where Aiven's custom metadata puts them (``OBJECT_PREFIX``,
        ``OBJECT_KEY``: :mod:`.custom`), or None when it names no other place than this folder."""
        location = parse_custom_metadata(custom, f"the custom metadata of {what}")
        main = f"{self.topic}-{self.topic_id}/{self.partition}/{stem}"
        root = self.path.parent.parent
        log_path = object_path(root, location, main, files.LOG_SUFFIX, what)
        manifest_path = object_path(root, location, main, MANIFEST_SUFFIX, what)
        if log_path is None or manifest_path is None:
            return None
        if str(log_path) == str(self.path / (stem + files.LOG_SUFFIX)):
            return None  # this folder after all
        if _SEGMENT.match(log_path.name) is None:
            raise KafkaFormatError(
                f"{what}: its custom metadata puts it at {log_path}, which is not named like a "
                "segment (<20-digit offset>-<segment id>.log)",
                None,
                str(self.path),
            )
        return log_path, manifest_path

    def _newest_checkpoint(
        self, published: list[SegmentInfo], chosen: dict[str, TieredSegment]
    ) -> list[files.EpochEntry] | None:
        """The leader-epoch checkpoint uploaded with the newest segment (highest leader epoch, then end
        offset, then event time): the whole lineage as the latest leader knew it (``RemoteLogManager``
        uploads the entries below the next segment's base offset with each segment)."""
        last = newest(published)
        if last is None:
            return None
        seg = chosen[last.segment_id]
        try:
            text = seg.index_file("leaderEpoch")
            if not text:
                return None
            epochs = files.parse_leader_epoch_checkpoint(
                text.decode("utf-8", "replace"), str(seg.indexes_path)
            )
        except KafkaFormatError:
            return None  # unreadable: choose by the epochs the manifests state (verify reports the bundle)
        if within_leader_epochs(fill_epochs([last], epochs)[0], filtered_epochs(epochs)) is not None:
            return (
                None  # it disagrees with its own segment's manifest: no lineage to trust (verify reports it)
            )
        return epochs

    def leader_epochs(self) -> list[files.EpochEntry] | None:
        segs = self.segments()
        if not segs:
            return None
        last = segs[-1]
        assert isinstance(last, TieredSegment)
        text = last.index_file("leaderEpoch")
        if not text:
            return (
                None  # the checkpoint in the last segment's bundle: a bad byte is a bad number, named by line
            )
        return files.parse_leader_epoch_checkpoint(text.decode("utf-8", "replace"), str(last.indexes_path))

    def metadata(self) -> dict[str, str] | None:
        return {"version": "0", "topic_id": self.topic_id}

    def snapshot_paths(self) -> list[StoragePath]:
        return []


def _object_of(objects: dict[str, StoragePath]) -> StoragePath:
    """The object that names a segment in messages: its ``.log``, else its manifest, else its indexes."""
    return objects.get(files.LOG_SUFFIX) or objects.get(MANIFEST_SUFFIX) or objects[INDEXES_SUFFIX]


def _same_bytes(a: TieredSegment, b: TieredSegment) -> bool:
    """Whether two published segments hold the same segment: the same stored ``.log`` object, or (stored
    differently: other chunking, compression or data key) the same bytes once decoded."""
    if a.size != b.size:
        return False
    size = a.path.stat().st_size
    if size == b.path.stat().st_size and files.read_regular(a.path, 0, size) == files.read_regular(
        b.path, 0, size
    ):
        return True
    try:
        return a.data == b.data
    finally:
        a.close()
        b.close()


def find_tiered(root: StoragePath, depth: int = 2, keys: PrivateKeys | None = None) -> list[TieredPartition]:
    """The tiered-storage partitions under ``root`` (a prefix holding ``<topic>-<topic id>/`` folders, one
    such folder, or one ``<partition>`` folder in it). As in Kafka's layout (:meth:`LogDir.partitions`),
    symbolic links to directories are not followed and a topic Kafka would refuse is passed over, each
    announced as a :class:`~kafkaspec.errors.SkippedDirWarning`."""
    found: list[TieredPartition] = []
    m = _TOPIC_DIR.match(root.name)
    if root.name.isdigit() and (t := _TOPIC_DIR.match(root.parent.name)):
        if _has_manifests(root):
            found.append(TieredPartition(root, t["topic"], int(root.name), t["topic_id"], keys=keys))
        return found
    if m:
        if (problem := names.topic_problem(m["topic"])) is not None:
            _skip(root, f"topic {names.show_topic(m['topic'])} is illegal: {problem}")
            return found
        for p in listdir(root):
            if not p.name.isdigit() or _linked_dir(p):
                continue
            if len(p.name) > 10 or int(p.name) > names.MAX_PARTITION:
                _skip(p, f"partition {p.name[:20]} is beyond {names.MAX_PARTITION}")
            elif _has_manifests(p):
                found.append(TieredPartition(p, m["topic"], int(p.name), m["topic_id"], keys=keys))
        return found
    if depth > 0:
        for p in listdir(root):
            if p.is_dir() and not _linked_dir(p):
                found.extend(find_tiered(p, depth - 1, keys))
    return found


def _linked_dir(p: StoragePath) -> bool:
    """A symbolic link to a directory (announced, never followed: it could lead back into the tree)."""
    if isinstance(p, Path) and p.is_symlink():
        if p.is_dir():
            _skip(p, layout_module.link_reason(p))
        return True
    return False


def _skip(path: StoragePath, reason: str) -> None:
    warnings.warn(SkippedDirWarning(layout_module.show_path(path), reason), stacklevel=3)


def _has_manifests(path: StoragePath) -> bool:
    return any(p.name.endswith(MANIFEST_SUFFIX) and _SEGMENT.match(p.name) for p in listdir(path))


def open_tiered(
    path: str | StoragePath,
    *,
    storage: StorageOptions | None = None,
    remote_log_metadata: str | Path | RemotePath | RemoteLogMetadata | None = None,
    keys: PrivateKeys | None = None,
) -> LogDir:
    """A :class:`LogDir` over the tiered-storage layout at ``path`` (see :func:`kafkaspec.logdir.open_log`).
    ``remote_log_metadata``: the ``__remote_log_metadata`` partitions (a data dir holding them, or one
    partition dir) whose events choose each partition's live segments; None: those found in ``path``
    itself (``__remote_log_metadata-N`` folders beside the topics), else the manifests alone. ``keys``:
    the private keys of encrypted segments, by key pair id (None: the environment's)."""
    root = storage_path(path, storage)
    parts = find_tiered(root, keys=keys)
    _one_folder_each(root, parts)
    meta = remote_log(remote_log_metadata, root, storage) if parts else None
    for p in parts:
        p.remote_log = meta
    return LogDir(root, sorted(parts, key=lambda p: (p.topic, p.partition)))


def _one_folder_each(root: StoragePath, parts: list[TieredPartition]) -> None:
    """Refuse a partition found in more than one folder under ``root`` (the same topic id and partition
    under two prefixes, as a bucket holds them after the plugin's prefix changed or a prefix was copied):
    read as two partitions, each offset held in both would come out twice. Which copy is live is the
    question ``__remote_log_metadata`` answers, with its custom metadata saying where each segment is, for
    one prefix opened on its own."""
    where: dict[tuple[str, str, int], list[TieredPartition]] = {}
    for p in parts:
        where.setdefault((p.topic, p.topic_id, p.partition), []).append(p)
    for (topic, topic_id, partition), found in sorted(where.items()):
        if len(found) > 1:
            raise KafkaFormatError(
                f"{topic}-{partition} (topic id {topic_id}) is under more than one prefix of {root}: "
                f"{', '.join(str(p.path) for p in found)}; open one prefix (with its __remote_log_metadata, "
                "which says where each segment of the partition is)",
                source=str(root),
            )


def is_tiered(path: StoragePath) -> bool:
    """Whether ``path`` holds the tiered-storage layout (a topic-id folder with segment manifests)."""
    try:
        return bool(find_tiered(path))
    except (OSError, KafkaFormatError):
        return False


__all__ = ["TieredPartition", "find_tiered", "is_tiered", "open_tiered", "remote_log"]
