"""RecordBatch v2, the Construct reference codec: :data:`record_batch_construct` parses and builds
the same bytes as the fast codec in :mod:`kafkaspec.generated.record_batch_v2`, which tests hold it to.

Generated from schemas/record_batch_v2.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import (
    Adapter,
    Array,
    Const,
    Int8sb,
    Int16sb,
    Int32sb,
    Int32ub,
    Int64sb,
    Prefixed,
    Rebuild,
    Struct,
    len_,
    this,
)

from kafkaspec.codec._construct import Checksummed, KafkaCompressed, flatten, nest
from kafkaspec.generated.record_batch_v2 import COMPRESSION_MASK, RecordBatch

from .record_v2 import _record_rebase, _record_unbase, record_construct

record_batch_fields = Struct(
    "base_offset" / Int64sb,
    "_rest"
    / Prefixed(
        Int32sb,
        Struct(
            "partition_leader_epoch" / Int32sb,
            "magic" / Const(2, Int8sb),
            "_rest"
            / Checksummed(
                "crc",
                Int32ub,
                "crc32c",
                Struct(
                    "attributes" / Int16sb,
                    "last_offset_delta" / Int32sb,
                    "base_timestamp" / Int64sb,
                    "max_timestamp" / Int64sb,
                    "producer_id" / Int64sb,
                    "producer_epoch" / Int16sb,
                    "base_sequence" / Int32sb,
                    "records_count" / Rebuild(Int32sb, len_(this.records)),
                    "records"
                    / KafkaCompressed(
                        lambda ctx: ctx.attributes & COMPRESSION_MASK,
                        Array(this.records_count, record_construct),
                        magic=2,
                    ),
                ),
            ),
        ),
    ),
)


class _RecordBatchAdapter(Adapter):
    """Flattens the nested Construct containers into a :class:`~kafkaspec.generated.record_batch_v2.RecordBatch` and back."""

    def _decode(self, obj, context, path):
        v = flatten(obj)
        v["records"] = [_record_rebase(r, v["base_offset"], v["base_timestamp"]) for r in v["records"]]
        return RecordBatch(
            v["base_offset"],
            v["partition_leader_epoch"],
            v["magic"],
            v["crc"],
            v["attributes"],
            v["last_offset_delta"],
            v["base_timestamp"],
            v["max_timestamp"],
            v["producer_id"],
            v["producer_epoch"],
            v["base_sequence"],
            v["records"],
        )

    def _encode(self, obj, context, path):
        if not isinstance(obj, RecordBatch):
            obj = RecordBatch(*obj)
        v = {
            "base_offset": obj.base_offset,
            "partition_leader_epoch": obj.partition_leader_epoch,
            "magic": obj.magic,
            "crc": obj.crc,
            "attributes": obj.attributes,
            "last_offset_delta": obj.last_offset_delta,
            "base_timestamp": obj.base_timestamp,
            "max_timestamp": obj.max_timestamp,
            "producer_id": obj.producer_id,
            "producer_epoch": obj.producer_epoch,
            "base_sequence": obj.base_sequence,
            "records": obj.records,
        }
        v["records"] = [
            _record_unbase(r, i, v["base_offset"], v["base_timestamp"]) for i, r in enumerate(v["records"])
        ]
        return nest(v, _GROUPS)


_GROUPS = [
    ["base_offset"],
    ["partition_leader_epoch", "magic"],
    [
        "attributes",
        "last_offset_delta",
        "base_timestamp",
        "max_timestamp",
        "producer_id",
        "producer_epoch",
        "base_sequence",
        "records_count",
        "records",
    ],
]
record_batch_construct = _RecordBatchAdapter(record_batch_fields)
record_batch_construct.__doc__ = "Construct parser/builder for RecordBatch v2 (the reference codec)."
