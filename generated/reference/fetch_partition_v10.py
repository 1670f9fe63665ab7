"""FetchPartition v10, the Construct reference codec: :data:`fetch_partition_construct` parses and builds
the same bytes as the fast codec in :mod:`kafkaspec.generated.fetch_partition_v10`, which tests hold it to.

Generated from schemas/protocol/fetch_partition_v10.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Adapter, Int16sb, Int32sb, Int64sb, Struct

from kafkaspec.codec._construct import KafkaBytes, NullableArray, flatten, nest
from kafkaspec.generated.fetch_partition_v10 import FetchPartition

from .aborted_transaction_v10 import aborted_transaction_construct

fetch_partition_fields = Struct(
    "partition_index" / Int32sb,
    "error_code" / Int16sb,
    "high_watermark" / Int64sb,
    "last_stable_offset" / Int64sb,
    "log_start_offset" / Int64sb,
    "aborted_transactions" / NullableArray(Int32sb, aborted_transaction_construct),
    "records" / KafkaBytes(Int32sb, nullable=True),
)


class _FetchPartitionAdapter(Adapter):
    """Flattens the nested Construct containers into a :class:`~kafkaspec.generated.fetch_partition_v10.FetchPartition` and back."""

    def _decode(self, obj, context, path):
        v = flatten(obj)
        return FetchPartition(
            v["partition_index"],
            v["error_code"],
            v["high_watermark"],
            v["last_stable_offset"],
            v["log_start_offset"],
            v["aborted_transactions"],
            v["records"],
        )

    def _encode(self, obj, context, path):
        if not isinstance(obj, FetchPartition):
            obj = FetchPartition(*obj)
        v = {
            "partition_index": obj.partition_index,
            "error_code": obj.error_code,
            "high_watermark": obj.high_watermark,
            "last_stable_offset": obj.last_stable_offset,
            "log_start_offset": obj.log_start_offset,
            "aborted_transactions": obj.aborted_transactions,
            "records": obj.records,
        }
        return nest(v, _GROUPS)


_GROUPS = [
    [
        "partition_index",
        "error_code",
        "high_watermark",
        "last_stable_offset",
        "log_start_offset",
        "aborted_transactions",
        "records",
    ]
]
fetch_partition_construct = _FetchPartitionAdapter(fetch_partition_fields)
fetch_partition_construct.__doc__ = "Construct parser/builder for FetchPartition v10 (the reference codec)."
