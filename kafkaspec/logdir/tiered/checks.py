"""What ``verify`` compares in a tiered segment beyond its batches: the manifest against itself and
against the objects it publishes.

A manifest states most sizes twice (the chunk index's ``originalFileSize`` and the segment metadata's
``segmentSizeInBytes``; the index ranges and the ``.indexes`` object's size) and the segment's identity
and offsets twice (the object names and ``remoteLogSegmentMetadata``). Each chunk is authenticated on
its own, so a chunk cut out of an encrypted segment, with the manifest adjusted to match, still
decrypts: what gives it away is a statement the editor left alone. Reading needs only the chunk index
(:mod:`.segment` refuses sizes that cannot be, before reading); these are the comparisons a reader
does not need and a verifier does. Each finding is ``(object, message)``; the verifier's segment scan
(:func:`kafkaspec.logdir.verify.scan.check_source`) makes them problems.
"""

from __future__ import annotations

import bisect
from typing import Any, Protocol

from ...errors import KafkaFormatError
from ..kafka.segment import Scanned
from ..store.fs import StoragePath


class _Manifest(Protocol):
    """What the checks read of a parsed manifest (:class:`~.segment.Manifest`)."""

    @property
    def source(self) -> str: ...

    @property
    def original_file_size(self) -> int: ...

    @property
    def index_ranges(self) -> dict[str, tuple[int, int] | None]: ...

    @property
    def segment_metadata(self) -> Any: ...


class _Manifested(Protocol):
    """What the checks read of a tiered segment (:class:`~.segment.TieredSegment`): named by structure,
    not by class, since the segment calls them (``TieredSegment.source_findings``)."""

    @property
    def path(self) -> StoragePath: ...

    @property
    def base_offset(self) -> int: ...

    @property
    def segment_id(self) -> str: ...

    @property
    def manifest(self) -> _Manifest: ...

    @property
    def manifest_path(self) -> StoragePath: ...

    @property
    def indexes_path(self) -> StoragePath: ...


def bundle_ranges(seg: _Manifested) -> list[tuple[str, str]]:
    """The index ranges against each other and the ``.indexes`` object: the plugin writes the indexes
    back to back (each range starts where the one before it ends, in whatever order they were added),
    and the last ends at the object's end. Bytes that no range covers, or that two cover, are bytes
    nobody can account for."""
    m = seg.manifest
    found = []
    at = 0
    ranges = sorted((where, kind) for kind, where in m.index_ranges.items() if where is not None)
    for (pos, size), kind in ranges:
        if pos != at:
            found.append(
                (
                    m.source,
                    f"segmentIndexes.{kind} starts at byte {pos} of {seg.indexes_path.name}, but "
                    f"the indexes before it end at byte {at} (the plugin writes them back to back)",
                )
            )
        at = max(at, pos + size)
    try:
        held = seg.indexes_path.stat().st_size
    except FileNotFoundError:
        return found + [
            (str(seg.indexes_path), f"missing: the manifest {seg.manifest_path.name} publishes it")
        ]
    if held != at:
        found.append(
            (m.source, f"segmentIndexes end at byte {at}, but {seg.indexes_path.name} holds {held} bytes")
        )
    return found


def segment_metadata(
    seg: _Manifested, scanned: Scanned, topic: str, partition: int, topic_id: str
) -> list[tuple[str, str]]:
    """``remoteLogSegmentMetadata`` against the chunk index, the object names and the batches: size,
    identity (topic id, partition, segment id), start and end offsets (Kafka's endOffset is the next
    segment's base offset minus one: the last batch's last offset, as there are no gaps), max timestamp,
    and the leader epoch each batch carries. A manifest without it, or a field it leaves out, is not
    checked here (readers do not need them)."""
    m = seg.manifest
    meta = m.segment_metadata
    if meta is None:
        return []
    src = m.source
    if not isinstance(meta, dict):
        return [(src, "remoteLogSegmentMetadata is not an object")]
    found = []

    def compare(obj: dict[str, Any], path: str, actual: Any, what: str) -> None:
        """A stated field against what it must be; a field the manifest leaves out is not compared (the
        plugin's own manifests hold no segmentSizeInBytes, for one)."""
        name = path.rsplit(".", 1)[-1]
        if name in obj and obj[name] != actual:
            found.append((src, f"remoteLogSegmentMetadata.{path} is {obj[name]!r}, but {what} is {actual!r}"))

    compare(
        meta, "segmentSizeInBytes", m.original_file_size, "chunkIndex.originalFileSize (the segment's size)"
    )
    compare(meta, "startOffset", seg.base_offset, f"the base offset {seg.path.name} is named by")
    ident = meta.get("remoteLogSegmentId")
    if isinstance(ident, dict):
        compare(ident, "remoteLogSegmentId.id", seg.segment_id, f"the segment id {seg.path.name} is named by")
        tip = ident.get("topicIdPartition")
        if isinstance(tip, dict):
            if topic_id:
                compare(
                    tip, "remoteLogSegmentId.topicIdPartition.topicId", topic_id, "the topic id of its folder"
                )
            tp = tip.get("topicPartition")
            if isinstance(tp, dict):
                compare(
                    tp,
                    "remoteLogSegmentId.topicIdPartition.topicPartition.topic",
                    topic,
                    "the topic of its folder",
                )
                if partition >= 0:
                    compare(
                        tp,
                        "remoteLogSegmentId.topicIdPartition.topicPartition.partition",
                        partition,
                        "the partition of its folder",
                    )
    if not scanned.complete or scanned.last_offset is None:
        return found
    compare(meta, "endOffset", scanned.last_offset, f"the last offset of {seg.path.name}")
    compare(meta, "maxTimestampMs", scanned.max_timestamp, f"the largest batch timestamp in {seg.path.name}")
    epochs = meta.get("segmentLeaderEpochs")
    if isinstance(epochs, dict):
        try:
            pairs = sorted((int(v), int(k)) for k, v in epochs.items() if len(k) < 12 and isinstance(v, int))
        except ValueError:
            pairs = []
        if len(pairs) != len(epochs):
            found.append(
                (src, "remoteLogSegmentMetadata.segmentLeaderEpochs is not a map of epoch numbers to offsets")
            )
            return found
        starts = [s for s, _ in pairs]
        for base, epoch in zip(scanned.bases, scanned.epochs):
            k = bisect.bisect_right(starts, base) - 1
            if epoch >= 0 and (k < 0 or pairs[k][1] != epoch):
                given = f"epoch {pairs[k][1]} from offset {pairs[k][0]}" if k >= 0 else "no epoch"
                found.append(
                    (
                        src,
                        f"remoteLogSegmentMetadata.segmentLeaderEpochs gives {given} for the batch at "
                        f"offset {base} of {seg.path.name}, which has leader epoch {epoch}",
                    )
                )
                break
    return found


def checks(
    seg: _Manifested, scanned: Scanned, topic: str, partition: int, topic_id: str
) -> list[tuple[str, str]]:
    """Every comparison above, for one segment whose manifest parsed."""
    try:
        return bundle_ranges(seg) + segment_metadata(seg, scanned, topic, partition, topic_id)
    except KafkaFormatError as exc:
        return [(exc.source or str(seg.manifest_path), exc.reason)]


__all__ = ["Scanned", "bundle_ranges", "checks", "segment_metadata"]
