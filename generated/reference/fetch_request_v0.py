"""FetchRequest v0, the Construct reference codec: :data:`fetch_request_construct` parses and builds
the same bytes as the fast codec in :mod:`kafkaspec.generated.fetch_request_v0`, which tests hold it to.

Generated from schemas/legacy/fetch_request_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Adapter, Const, Int16sb, Int32sb, Int64sb, Prefixed, Struct

from kafkaspec.codec._construct import KafkaBytes, flatten, nest
from kafkaspec.generated.fetch_request_v0 import FetchRequest

fetch_request_fields = Struct(
    "_rest"
    / Prefixed(
        Int32sb,
        Struct(
            "request_type" / Const(1, Int16sb),
            "topic" / KafkaBytes(Int16sb, nullable=False, encoding="utf-8"),
            "partition" / Int32sb,
            "offset" / Int64sb,
            "max_size" / Int32sb,
        ),
    )
)


class _FetchRequestAdapter(Adapter):
    """Flattens the nested Construct containers into a :class:`~kafkaspec.generated.fetch_request_v0.FetchRequest` and back."""

    def _decode(self, obj, context, path):
        v = flatten(obj)
        return FetchRequest(
            v["request_type"],
            v["topic"],
            v["partition"],
            v["offset"],
            v["max_size"],
        )

    def _encode(self, obj, context, path):
        if not isinstance(obj, FetchRequest):
            obj = FetchRequest(*obj)
        v = {
            "request_type": obj.request_type,
            "topic": obj.topic,
            "partition": obj.partition,
            "offset": obj.offset,
            "max_size": obj.max_size,
        }
        return nest(v, _GROUPS)


_GROUPS = [[], ["request_type", "topic", "partition", "offset", "max_size"]]
fetch_request_construct = _FetchRequestAdapter(fetch_request_fields)
fetch_request_construct.__doc__ = "Construct parser/builder for FetchRequest v0 (the reference codec)."
