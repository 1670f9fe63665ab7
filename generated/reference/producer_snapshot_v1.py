"""ProducerSnapshot v1, the Construct reference codec: :data:`producer_snapshot_construct` parses and builds
the same bytes as the fast codec in :mod:`kafkaspec.generated.producer_snapshot_v1`, which tests hold it to.

Generated from schemas/logdir/producer_snapshot_v1.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Adapter, Const, Int16sb, Int32sb, Int32ub, PrefixedArray, Struct

from kafkaspec.codec._construct import Checksummed, flatten, nest
from kafkaspec.generated.producer_snapshot_v1 import ProducerSnapshot

from .producer_snapshot_entry_v1 import producer_snapshot_entry_construct

producer_snapshot_fields = Struct(
    "version" / Const(1, Int16sb),
    "_rest"
    / Checksummed(
        "crc",
        Int32ub,
        "crc32c",
        Struct(
            "producer_entries" / PrefixedArray(Int32sb, producer_snapshot_entry_construct),
        ),
    ),
)


class _ProducerSnapshotAdapter(Adapter):
    """Flattens the nested Construct containers into a :class:`~kafkaspec.generated.producer_snapshot_v1.ProducerSnapshot` and back."""

    def _decode(self, obj, context, path):
        v = flatten(obj)
        return ProducerSnapshot(
            v["version"],
            v["crc"],
            v["producer_entries"],
        )

    def _encode(self, obj, context, path):
        if not isinstance(obj, ProducerSnapshot):
            obj = ProducerSnapshot(*obj)
        v = {
            "version": obj.version,
            "crc": obj.crc,
            "producer_entries": obj.producer_entries,
        }
        return nest(v, _GROUPS)


_GROUPS = [["version"], ["producer_entries"]]
producer_snapshot_construct = _ProducerSnapshotAdapter(producer_snapshot_fields)
producer_snapshot_construct.__doc__ = (
    "Construct parser/builder for ProducerSnapshot v1 (the reference codec)."
)
