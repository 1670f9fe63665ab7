"""PartitionFetch v0, the Construct reference codec: :data:`partition_fetch_construct` parses and builds
the same bytes as the fast codec in :mod:`kafkaspec.generated.partition_fetch_v0`, which tests hold it to.

Generated from schemas/legacy/partition_fetch_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Adapter, Int16sb, Int32sb, Int64sb, Struct

from kafkaspec.codec._construct import KafkaBytes, flatten, nest
from kafkaspec.generated.partition_fetch_v0 import PartitionFetch

partition_fetch_fields = Struct(
    "topic" / KafkaBytes(Int16sb, nullable=False, encoding="utf-8"),
    "partition" / Int32sb,
    "offset" / Int64sb,
    "max_size" / Int32sb,
)


class _PartitionFetchAdapter(Adapter):
    """Flattens the nested Construct containers into a :class:`~kafkaspec.generated.partition_fetch_v0.PartitionFetch` and back."""

    def _decode(self, obj, context, path):
        v = flatten(obj)
        return PartitionFetch(
            v["topic"],
            v["partition"],
            v["offset"],
            v["max_size"],
        )

    def _encode(self, obj, context, path):
        if not isinstance(obj, PartitionFetch):
            obj = PartitionFetch(*obj)
        v = {
            "topic": obj.topic,
            "partition": obj.partition,
            "offset": obj.offset,
            "max_size": obj.max_size,
        }
        return nest(v, _GROUPS)


_GROUPS = [["topic", "partition", "offset", "max_size"]]
partition_fetch_construct = _PartitionFetchAdapter(partition_fetch_fields)
partition_fetch_construct.__doc__ = "Construct parser/builder for PartitionFetch v0 (the reference codec)."
