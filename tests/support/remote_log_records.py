"""``__remote_log_metadata`` record values written by hand from Kafka's specs
(``storage/src/main/resources/message/RemoteLogSegmentMetadata*Record.json``,
``RemotePartitionDeleteMetadataRecord.json``; all flexible, version 0) and Kafka's framing
(``RemoteLogMetadataSerde``: unsigned varint frame version 1, api key, version), not from our schemas,
so that the decoder is checked against Kafka's layout. And a helper that writes them as the records
of a ``__remote_log_metadata-N`` partition, with a null key as Kafka's ``ProducerManager`` does.
"""

from __future__ import annotations

import struct
import uuid
from pathlib import Path

from kafkaspec import Record
from kafkaspec.logdir import PartitionWriter

STARTED, FINISHED, DELETE_STARTED, DELETE_FINISHED = 0, 1, 2, 3


def uvarint(n: int) -> bytes:
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def _string(s: str) -> bytes:
    b = s.encode()
    return uvarint(len(b) + 1) + b


def _bytes(b: bytes | None) -> bytes:
    return b"\x00" if b is None else uvarint(len(b) + 1) + b


def _tip(topic: str, topic_id: uuid.UUID, partition: int) -> bytes:
    # TopicIdPartitionEntry: Name, Id, Partition, no tagged fields
    return _string(topic) + topic_id.bytes + struct.pack(">i", partition) + b"\x00"


def _segment_id(topic: str, topic_id: uuid.UUID, partition: int, seg: uuid.UUID) -> bytes:
    return _tip(topic, topic_id, partition) + seg.bytes + b"\x00"


def _frame(api_key: int, body: bytes) -> bytes:
    return uvarint(1) + uvarint(api_key) + uvarint(0) + body


def segment(
    topic: str,
    topic_id: uuid.UUID,
    partition: int,
    seg: uuid.UUID,
    start: int,
    end: int,
    epochs: list[tuple[int, int]],
    *,
    state: int = STARTED,
    broker: int = 1,
    event_time: int = 1000,
    max_timestamp: int = 2000,
    size: int = 100,
    custom: bytes | None = None,
    txn_index_empty: bool | None = None,
) -> bytes:
    """A RemoteLogSegmentMetadataRecord value (api key 0)."""
    body = (
        _segment_id(topic, topic_id, partition, seg)
        + struct.pack(">qqiqq", start, end, broker, max_timestamp, event_time)
        + uvarint(len(epochs) + 1)
        + b"".join(struct.pack(">iq", e, o) + b"\x00" for e, o in epochs)
        + struct.pack(">i", size)
        + _bytes(custom)
        + struct.pack(">b", state)
    )
    if txn_index_empty is None:
        body += b"\x00"
    else:  # TxnIndexEmpty: tag 0, one byte
        body += b"\x01" + b"\x00" + b"\x01" + bytes([1 if txn_index_empty else 0])
    return _frame(0, body)


def update(
    topic: str,
    topic_id: uuid.UUID,
    partition: int,
    seg: uuid.UUID,
    state: int,
    *,
    broker: int = 1,
    event_time: int = 1001,
    custom: bytes | None = None,
) -> bytes:
    """A RemoteLogSegmentMetadataUpdateRecord value (api key 1)."""
    return _frame(
        1,
        _segment_id(topic, topic_id, partition, seg)
        + struct.pack(">iq", broker, event_time)
        + _bytes(custom)
        + struct.pack(">b", state)
        + b"\x00",
    )


def partition_delete(
    topic: str, topic_id: uuid.UUID, partition: int, state: int, *, broker: int = 1, event_time: int = 1002
) -> bytes:
    """A RemotePartitionDeleteMetadataRecord value (api key 2)."""
    return _frame(
        2, _tip(topic, topic_id, partition) + struct.pack(">iqb", broker, event_time, state) + b"\x00"
    )


def snapshot_entry(seg: uuid.UUID, start: int, end: int, *, state: int = FINISHED) -> bytes:
    """A RemoteLogSegmentMetadataSnapshotRecord value (api key 3)."""
    body = (
        seg.bytes
        + struct.pack(">qqiqq", start, end, 1, 2000, 1000)
        + uvarint(2)
        + struct.pack(">iq", 0, start)
        + b"\x00"
        + struct.pack(">i", 100)
        + b"\x00"
        + struct.pack(">b", state)
        + b"\x00"
    )
    return _frame(3, body)


def write_topic(root: Path, values: list[bytes], partition: int = 0) -> Path:
    """``root/__remote_log_metadata-<partition>/`` holding ``values`` in order (null keys); returns root."""
    with PartitionWriter(root, "__remote_log_metadata", partition) as w:
        for i, v in enumerate(values):
            w.append([Record(key=None, value=v, timestamp=1000 + i)])
    return root
