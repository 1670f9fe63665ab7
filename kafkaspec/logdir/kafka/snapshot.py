"""Producer-state snapshots (``<offset>.snapshot``), decoded and built with the generated codec."""

from __future__ import annotations

from kafkaspec.generated import producer_snapshot_v1 as codec
from kafkaspec.generated.producer_snapshot_entry_v1 import ProducerSnapshotEntry
from kafkaspec.generated.producer_snapshot_v1 import ProducerSnapshot

from ...entry import Buffer

__all__ = ["ProducerSnapshot", "ProducerSnapshotEntry", "encode_snapshot", "parse_snapshot"]


def parse_snapshot(data: Buffer, *, verify: bool = True) -> ProducerSnapshot:
    """Decode a snapshot file's bytes; the CRC-32C is checked unless ``verify=False``."""
    items, _ = codec.decode_producer_snapshot_array(bytes(data), 0, 1, verify=verify)
    return items[0]


def encode_snapshot(entries: list[ProducerSnapshotEntry]) -> bytes:
    """Encode a snapshot (version 1, CRC computed) holding ``entries``."""
    return codec.encode_producer_snapshot(codec.ProducerSnapshot(version=1, producer_entries=list(entries)))
