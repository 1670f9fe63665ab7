"""PartitionProduce v0, the Construct reference codec: :data:`partition_produce_construct` parses and builds
the same bytes as the fast codec in :mod:`kafkaspec.generated.partition_produce_v0`, which tests hold it to.

Generated from schemas/legacy/partition_produce_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Adapter, Int16sb, Int32sb, Struct

from kafkaspec.codec._construct import KafkaBytes, flatten, nest
from kafkaspec.generated.partition_produce_v0 import PartitionProduce

partition_produce_fields = Struct(
    "topic" / KafkaBytes(Int16sb, nullable=False, encoding="utf-8"),
    "partition" / Int32sb,
    "messages" / KafkaBytes(Int32sb, nullable=False),
)


class _PartitionProduceAdapter(Adapter):
    """Flattens the nested Construct containers into a :class:`~kafkaspec.generated.partition_produce_v0.PartitionProduce` and back."""

    def _decode(self, obj, context, path):
        v = flatten(obj)
        return PartitionProduce(
            v["topic"],
            v["partition"],
            v["messages"],
        )

    def _encode(self, obj, context, path):
        if not isinstance(obj, PartitionProduce):
            obj = PartitionProduce(*obj)
        v = {
            "topic": obj.topic,
            "partition": obj.partition,
            "messages": obj.messages,
        }
        return nest(v, _GROUPS)


_GROUPS = [["topic", "partition", "messages"]]
partition_produce_construct = _PartitionProduceAdapter(partition_produce_fields)
partition_produce_construct.__doc__ = (
    "Construct parser/builder for PartitionProduce v0 (the reference codec)."
)
