"""OffsetsRequest v0, the Construct reference codec: :data:`offsets_request_construct` parses and builds
the same bytes as the fast codec in :mod:`kafkaspec.generated.offsets_request_v0`, which tests hold it to.

Generated from schemas/legacy/offsets_request_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Adapter, Const, Int16sb, Int32sb, Int64sb, Prefixed, Struct

from kafkaspec.codec._construct import KafkaBytes, flatten, nest
from kafkaspec.generated.offsets_request_v0 import OffsetsRequest

offsets_request_fields = Struct(
    "_rest"
    / Prefixed(
        Int32sb,
        Struct(
            "request_type" / Const(4, Int16sb),
            "topic" / KafkaBytes(Int16sb, nullable=False, encoding="utf-8"),
            "partition" / Int32sb,
            "time" / Int64sb,
            "max_number" / Int32sb,
        ),
    )
)


class _OffsetsRequestAdapter(Adapter):
    """Flattens the nested Construct containers into a :class:`~kafkaspec.generated.offsets_request_v0.OffsetsRequest` and back."""

    def _decode(self, obj, context, path):
        v = flatten(obj)
        return OffsetsRequest(
            v["request_type"],
            v["topic"],
            v["partition"],
            v["time"],
            v["max_number"],
        )

    def _encode(self, obj, context, path):
        if not isinstance(obj, OffsetsRequest):
            obj = OffsetsRequest(*obj)
        v = {
            "request_type": obj.request_type,
            "topic": obj.topic,
            "partition": obj.partition,
            "time": obj.time,
            "max_number": obj.max_number,
        }
        return nest(v, _GROUPS)


_GROUPS = [[], ["request_type", "topic", "partition", "time", "max_number"]]
offsets_request_construct = _OffsetsRequestAdapter(offsets_request_fields)
offsets_request_construct.__doc__ = "Construct parser/builder for OffsetsRequest v0 (the reference codec)."
