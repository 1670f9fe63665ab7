"""Writing a log directory in Kafka's tiered-storage layout (Aiven's RemoteStorageManager; the layout is
described in :mod:`.segment`): per segment the chunked ``.log`` object, the ``.indexes`` bundle, and last
the manifest that publishes them, optionally zstd-compressed and encrypted as the plugin does."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import zstandard

from ..kafka import files
from ..kafka.layout import Partition, open_kafka_log, show_path
from ..kafka.names import InvalidTopicError, check_topic_partition, show_topic
from ..kafka.segment import Segment
from ..store.fs import StoragePath, put
from ..store.storage import RemotePath, StorageOptions, as_path
from .encryption import IV_SIZE, TAG_SIZE, Encrypter
from .manifest import (
    DEFAULT_CHUNK_SIZE,
    INDEX_KINDS,
    INDEXES_SUFFIX,
    MANIFEST_SUFFIX,
    encode_chunk_sizes,
    kafka_uuid,
)

#: a Kafka topic id as partition.metadata and the layout's folder names hold it
_TOPIC_ID = re.compile(r"[A-Za-z0-9_-]{22}")


@dataclass
class TieredReport:
    segments: int = 0
    bytes_in: int = 0
    bytes_stored: int = 0


def write_tiered(
    source: str | Path,
    dest: str | Path | RemotePath,
    *,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    compression: bool = True,
    broker_id: int = 0,
    storage: StorageOptions | None = None,
    public_key: bytes | None = None,
    key_id: str = "kafkaspec",
    key_pair: Callable[[str, int, int], tuple[str, bytes] | None] | None = None,
) -> TieredReport:
    """Write every segment of the log directory ``source`` in the tiered-storage layout under ``dest``.

    Per segment: the ``.log`` object (chunks of ``chunk_size``, each its own zstd frame with
    ``compression``), the ``.indexes`` object, and last the manifest that publishes them. Topic ids come
    from ``partition.metadata`` (derived from the topic name without one); segment ids are derived from
    topic id, partition and base offset, so writing the same segment again replaces it, never adds one.

    Encryption: every segment under ``public_key`` (key pair ``key_id``), or, with ``key_pair``, each
    segment under the key pair ``key_pair(topic, partition, base_offset)`` returns (``(key pair id,
    public key PEM)``, None: unencrypted), as a bucket looks after the plugin's keys were rotated.
    """
    if chunk_size <= 0:
        raise ValueError(f"chunk_size must be positive, got {chunk_size}")
    root = as_path(dest, storage)
    report = TieredReport()
    with open_kafka_log(source) as log:
        # every name is checked before the first object is written: each is a path component of the layout
        folders = [root / _topic_folder(part) / str(part.partition) for part in log.partitions()]
        for part, folder in zip(log.partitions(), folders):
            meta = part.metadata()
            topic_id = meta["topic_id"] if meta else kafka_uuid(part.topic.encode())
            epochs = part.leader_epochs() or []
            segs = part.segments()
            for i, seg in enumerate(segs):
                data = seg.data
                end_offset = (segs[i + 1].base_offset - 1) if i + 1 < len(segs) else seg.base_offset
                max_ts = -1
                for batch in seg.iter_batches(verify=False):
                    end_offset = batch.last_offset
                    max_ts = max(max_ts, batch.max_timestamp)
                seg_id = kafka_uuid(f"{topic_id}/{part.partition}/{seg.base_offset}".encode())
                stem = f"{seg.base_offset:020d}-{seg_id}"
                after = segs[i + 1].base_offset if i + 1 < len(segs) else end_offset + 1
                chosen = (
                    key_pair(part.topic, part.partition, seg.base_offset)
                    if key_pair is not None
                    else ((key_id, public_key) if public_key is not None else None)
                )
                enc = Encrypter.new(chosen[1], chosen[0]) if chosen is not None else None
                stored, sizes = _chunks(data, chunk_size, compression, enc)
                bundle, ranges = _bundle(seg, part, epochs, after, enc)
                manifest = _manifest(
                    len(data),
                    chunk_size,
                    sizes,
                    compression,
                    ranges,
                    part,
                    topic_id,
                    seg_id,
                    seg.base_offset,
                    end_offset,
                    max_ts,
                    broker_id,
                    epochs,
                    enc,
                )
                put(folder / f"{stem}{files.LOG_SUFFIX}", stored)
                put(folder / f"{stem}{INDEXES_SUFFIX}", bundle)
                put(folder / f"{stem}{MANIFEST_SUFFIX}", manifest)  # last: it publishes the segment
                report.segments += 1
                report.bytes_in += len(data)
                report.bytes_stored += len(stored)
                seg.close()
    return report


def _topic_folder(part: Partition) -> str:
    """``<topic>-<topic id>``, once the topic, the partition and the topic id are checked: a name Kafka
    refuses, or a topic id that is not 22 base64url characters, would put objects outside ``dest``."""
    where = f"{show_path(part.path)}: not written"
    check_topic_partition(part.topic, part.partition, where)
    meta = part.metadata()
    topic_id = meta["topic_id"] if meta else kafka_uuid(part.topic.encode())
    if not _TOPIC_ID.fullmatch(topic_id):
        raise InvalidTopicError(
            f"{where}: its partition.metadata topic_id {show_topic(topic_id)} is not a "
            "topic id (22 characters of base64url)"
        )
    return f"{part.topic}-{topic_id}"


def _chunks(
    data: bytes, chunk_size: int, compression: bool, enc: Encrypter | None
) -> tuple[bytes, list[int]]:
    """The stored ``.log``: each chunk compressed (``compression``), then encrypted (``enc``), as the plugin does."""
    if not compression and enc is None:
        return data, [min(chunk_size, len(data) - p) for p in range(0, len(data), chunk_size)]
    zc = zstandard.ZstdCompressor(write_content_size=True)
    out = [data[p : p + chunk_size] for p in range(0, len(data), chunk_size)]
    if compression:
        out = [zc.compress(c) for c in out]
    if enc is not None:
        out = [enc.encrypt(c) for c in out]
    return b"".join(out), [len(c) for c in out]


def _bundle(
    seg: Segment, part: Partition, epochs: list[files.EpochEntry], after: int, enc: Encrypter | None = None
) -> tuple[bytes, dict[str, Any]]:
    """The ``.indexes`` object and its ranges. As Kafka's RemoteLogManager uploads them: the producer
    snapshot taken where the next segment starts (``after``: the state at this segment's end), and the
    leader-epoch entries that start before there."""

    def read(path: StoragePath) -> bytes:
        return files.read_regular(path) if path.exists() else b""

    snapshot = part.path / files.offset_file_name(after, files.SNAPSHOT_SUFFIX)
    parts = {
        "offset": read(seg.index_path),
        "timestamp": read(seg.time_index_path),
        "producerSnapshot": read(snapshot),
        "leaderEpoch": files.format_leader_epoch_checkpoint(
            [e for e in epochs if 0 <= e.start_offset < after]
        ).encode(),
    }
    txn = seg.txn_index_path
    if txn.exists():
        parts["transaction"] = read(txn)
    if enc is not None:  # each index one encrypted chunk, never compressed
        parts = {k: enc.encrypt(v) for k, v in parts.items()}
    ranges: dict[str, Any] = {}
    pos = 0
    for kind in INDEX_KINDS:
        if kind in parts:
            ranges[kind] = {"position": pos, "size": len(parts[kind])}
            pos += len(parts[kind])
        else:
            ranges[kind] = None
    return b"".join(parts[k] for k in INDEX_KINDS if k in parts), ranges


def _manifest(
    size: int,
    chunk_size: int,
    sizes: list[int],
    compression: bool,
    ranges: dict[str, Any],
    part: Partition,
    topic_id: str,
    seg_id: str,
    start: int,
    end: int,
    max_ts: int,
    broker_id: int,
    epochs: list[files.EpochEntry],
    enc: Encrypter | None = None,
) -> bytes:
    if compression:
        chunk_index: dict[str, Any] = {
            "type": "variable",
            "originalChunkSize": chunk_size,
            "originalFileSize": size,
            "transformedChunks": encode_chunk_sizes(sizes),
        }
    else:
        chunk_index = {
            "type": "fixed",
            "originalChunkSize": chunk_size,
            "originalFileSize": size,
            "transformedChunkSize": chunk_size + (IV_SIZE + TAG_SIZE if enc else 0),
            "finalTransformedChunkSize": sizes[-1] if sizes else 0,
        }
    doc = {
        "version": "1",
        "chunkIndex": chunk_index,
        "segmentIndexes": ranges,
        "compression": compression,
        **({"encryption": enc.manifest_field} if enc else {}),
        "remoteLogSegmentMetadata": {
            "remoteLogSegmentId": {
                "topicIdPartition": {
                    "topicId": topic_id,
                    "topicPartition": {"topic": part.topic, "partition": part.partition},
                },
                "id": seg_id,
            },
            "startOffset": start,
            "endOffset": end,
            "maxTimestampMs": max_ts,
            "brokerId": broker_id,
            "eventTimestampMs": max(max_ts, 0),
            "segmentSizeInBytes": size,
            "segmentLeaderEpochs": {str(e.epoch): e.start_offset for e in epochs if e.start_offset <= end},
        },
    }
    return json.dumps(doc, separators=(",", ":")).encode()


__all__ = ["TieredReport", "write_tiered"]
