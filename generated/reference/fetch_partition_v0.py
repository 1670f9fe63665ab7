"""FetchPartition v0, the Construct reference codec: :data:`fetch_partition_construct` parses and builds
the same bytes as the fast codec in :mod:`kafkaspec.generated.fetch_partition_v0`, which tests hold it to.

Generated from schemas/protocol/fetch_partition_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Adapter, Int16sb, Int32sb, Int64sb, Struct

from kafkaspec.codec._construct import KafkaBytes, flatten, nest
from kafkaspec.generated.fetch_partition_v0 import FetchPartition

fetch_partition_fields = Struct(
    "partition" / Int32sb,
    "error_code" / Int16sb,
    "high_watermark" / Int64sb,
    "message_set" / KafkaBytes(Int32sb, nullable=False),
)


class _FetchPartitionAdapter(Adapter):
    """Flattens the nested Construct containers into a :class:`~kafkaspec.generated.fetch_partition_v0.FetchPartition` and back."""

    def _decode(self, obj, context, path):
        v = flatten(obj)
        return FetchPartition(
            v["partition"],
            v["error_code"],
            v["high_watermark"],
            v["message_set"],
        )

    def _encode(self, obj, context, path):
        if not isinstance(obj, FetchPartition):
            obj = FetchPartition(*obj)
        v = {
            "partition": obj.partition,
            "error_code": obj.error_code,
            "high_watermark": obj.high_watermark,
            "message_set": obj.message_set,
        }
        return nest(v, _GROUPS)


_GROUPS = [["partition", "error_code", "high_watermark", "message_set"]]
fetch_partition_construct = _FetchPartitionAdapter(fetch_partition_fields)
fetch_partition_construct.__doc__ = "Construct parser/builder for FetchPartition v0 (the reference codec)."
