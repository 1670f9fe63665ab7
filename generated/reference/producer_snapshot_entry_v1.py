"""ProducerSnapshotEntry v1, the Construct reference codec: :data:`producer_snapshot_entry_construct` parses and builds
the same bytes as the fast codec in :mod:`kafkaspec.generated.producer_snapshot_entry_v1`, which tests hold it to.

Generated from schemas/logdir/producer_snapshot_entry_v1.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Adapter, Int16sb, Int32sb, Int64sb, Struct

from kafkaspec.codec._construct import flatten, nest
from kafkaspec.generated.producer_snapshot_entry_v1 import ProducerSnapshotEntry

producer_snapshot_entry_fields = Struct(
    "producer_id" / Int64sb,
    "epoch" / Int16sb,
    "last_sequence" / Int32sb,
    "last_offset" / Int64sb,
    "offset_delta" / Int32sb,
    "timestamp" / Int64sb,
    "coordinator_epoch" / Int32sb,
    "current_txn_first_offset" / Int64sb,
)


class _ProducerSnapshotEntryAdapter(Adapter):
    """Flattens the nested Construct containers into a :class:`~kafkaspec.generated.producer_snapshot_entry_v1.ProducerSnapshotEntry` and back."""

    def _decode(self, obj, context, path):
        v = flatten(obj)
        return ProducerSnapshotEntry(
            v["producer_id"],
            v["epoch"],
            v["last_sequence"],
            v["last_offset"],
            v["offset_delta"],
            v["timestamp"],
            v["coordinator_epoch"],
            v["current_txn_first_offset"],
        )

    def _encode(self, obj, context, path):
        if not isinstance(obj, ProducerSnapshotEntry):
            obj = ProducerSnapshotEntry(*obj)
        v = {
            "producer_id": obj.producer_id,
            "epoch": obj.epoch,
            "last_sequence": obj.last_sequence,
            "last_offset": obj.last_offset,
            "offset_delta": obj.offset_delta,
            "timestamp": obj.timestamp,
            "coordinator_epoch": obj.coordinator_epoch,
            "current_txn_first_offset": obj.current_txn_first_offset,
        }
        return nest(v, _GROUPS)


_GROUPS = [
    [
        "producer_id",
        "epoch",
        "last_sequence",
        "last_offset",
        "offset_delta",
        "timestamp",
        "coordinator_epoch",
        "current_txn_first_offset",
    ]
]
producer_snapshot_entry_construct = _ProducerSnapshotEntryAdapter(producer_snapshot_entry_fields)
producer_snapshot_entry_construct.__doc__ = (
    "Construct parser/builder for ProducerSnapshotEntry v1 (the reference codec)."
)
