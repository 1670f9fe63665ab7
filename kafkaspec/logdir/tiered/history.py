"""A partition's whole history: a broker's local log plus its tiered copy, read as one log.

With tiered storage a broker keeps only its newest segments locally (from the local log start offset,
the base offset of its first local segment); the older ones are remote, and a fetch below the local
log start offset is served from there (``RemoteLogManager.read``). The remote copy usually goes on
past the local start (a segment is deleted locally only once uploaded), so the two overlap:
:class:`HistoryPartition` reads the live remote lineage (:mod:`.lineage`) up to the end of its
last segment that starts below the local log start offset, and the local segments from the next
offset on (the first of them from that offset: :attr:`~kafkaspec.logdir.kafka.segment.Segment.served_from`), each offset
once. Where they do not meet (the remote copy ends before the local log starts: Kafka's remote log
must reach the local log start offset), reading is an error naming both sides, and ``verify`` reports
the missing offsets. The broker's leader-epoch checkpoint is the lineage the remote segments are
chosen by.

``open_log(local, tiered=prefix)`` (:func:`open_history`, through the public :func:`~kafkaspec.logdir.detect.open_log`) pairs each local partition with
the remote one of the same topic and partition; a partition only remote (deleted locally) is read
from the remote copy alone. The tiered copy is in the plugin's layout (:mod:`.segment`) or in Kafka's
``LocalTieredStorage`` one (:mod:`.local_storage`), told apart by their names.
"""

from __future__ import annotations

from pathlib import Path

from ...errors import KafkaFormatError
from ..kafka import layout as layout_module
from ..kafka.layout import LogDir, Partition, UnusedSegment
from ..kafka.segment import Segment
from ..kafka.tail import PartitionTail
from ..store.fs import StoragePath, storage_path
from ..store.storage import RemotePath, StorageOptions
from . import local_storage as local_tiered
from .encryption import PrivateKeys
from .partition import TieredPartition, open_tiered, remote_log
from .remote_log_topic import RemoteLogMetadata


class HistoryPartition(Partition):
    """A local partition directory and its tiered copy (see the module's docstring). Its directory,
    small files and snapshots are the local ones."""

    layout = "kafka"

    def __init__(self, local: Partition, remote: TieredPartition | local_tiered.LocalTieredPartition):
        super().__init__(local.path, local.topic, local.partition)
        self.local, self.remote = local, remote
        #: a gap between the tiered copy and the local log is an error when the segments are asked for
        #: (every reader); ``verify`` turns it off to check both sides and report the gap itself
        self.gap_is_error = True
        if remote.epochs is None:
            try:
                remote.epochs = local.leader_epochs()  # the broker's own lineage chooses the remote segments
            except KafkaFormatError:
                pass  # unreadable: the remote copy's own checkpoint (verify reports the local file)

    def segments(self) -> list[Segment]:
        if self._segments is None:
            local = self.local.segments()
            if (
                local and self.remote._segments is None
            ):  # the remote segments are chosen knowing where the log ends
                self.remote.log_end_offset = PartitionTail().look(self.local).end
            remote = self.remote.segments()
            if not local:
                self._segments = list(remote)
                return self._segments
            start = local[0].base_offset  # the local log start offset
            older = [s for s in remote if s.served_from < start]
            floor = start
            if older:
                end = older[-1].end_offset
                floor = max(start, end + 1) if end is not None else start
                if end is not None and end + 1 < start and self.gap_is_error:
                    raise KafkaFormatError(
                        f"offsets {end + 1}..{start - 1} are missing: the tiered copy's live lineage ends at offset "
                        f"{end} ({older[-1].path}) and the local log starts at offset {start} ({local[0].path}); "
                        "a broker serves neither (the remote log must reach the local log start offset)",
                        None,
                        str(local[0].path),
                    )
            newer = [
                s for i, s in enumerate(local) if i + 1 == len(local) or local[i + 1].base_offset > floor
            ]
            if newer and floor > newer[0].base_offset:
                newer[0].served_from = floor  # the remote copy already holds the offsets before it
            self._segments = older + newer
        return self._segments

    def unused_segments(self) -> list[UnusedSegment]:
        self.segments()  # the remote segments are chosen here, knowing the local log's end
        return self.remote.unused_segments()

    def checkpoint_paths(self) -> list[StoragePath]:
        return self.local.checkpoint_paths()

    def close(self) -> None:
        super().close()
        self.local.close()
        self.remote.close()


def open_history(
    local: str | StoragePath,
    tiered: str | StoragePath,
    *,
    storage: StorageOptions | None = None,
    remote_log_metadata: str | Path | RemotePath | RemoteLogMetadata | None = None,
    keys: PrivateKeys | None = None,
) -> LogDir:
    """The partitions of the local log ``local`` (a data dir or one partition dir), each paired with its
    tiered copy under ``tiered``; with a data dir, also the partitions only the tiered copy holds. The
    remote segments are chosen by ``__remote_log_metadata`` when it is given (``remote_log_metadata``)
    or found beside the data (partitions of it in the local data dir, or in the prefix)."""
    log = layout_module.open_kafka_log(local, storage=storage)
    rlm = remote_log(remote_log_metadata, log.path if log._whole else None, storage)
    copy = (
        local_tiered.open_local_tiered(tiered, storage=storage)
        if local_tiered.is_local_tiered(storage_path(tiered, storage))
        else open_tiered(tiered, storage=storage, remote_log_metadata=rlm, keys=keys)
    )
    remote = {
        (p.topic, p.partition): p
        for p in copy.partitions()
        if isinstance(p, (TieredPartition, local_tiered.LocalTieredPartition))
    }
    for p in remote.values():
        if isinstance(p, local_tiered.LocalTieredPartition):
            p.remote_log = rlm  # Kafka's own record of the uploads, where the files alone cannot tell
    parts: list[Partition] = []
    for part in log.partitions():
        match = remote.pop((part.topic, part.partition), None)
        if match is None:
            parts.append(part)
            continue
        meta = part.metadata()
        if meta and meta.get("topic_id") and meta["topic_id"] != match.topic_id:
            raise KafkaFormatError(
                f"the local partition {part.name} has topic id {meta['topic_id']}, its tiered copy "
                f"{match.path} is of topic id {match.topic_id}: another topic of the same name",
                None,
                str(part.path),
            )
        parts.append(HistoryPartition(part, match))
    if log._whole:
        parts.extend(remote.values())  # deleted locally, still remote
    out = LogDir(log.path, sorted(parts, key=lambda p: (p.topic, p.partition)))
    out.unpublished, out.interrupted = log.unpublished, log.interrupted
    return out


__all__ = ["HistoryPartition", "open_history"]
