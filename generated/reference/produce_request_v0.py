"""ProduceRequest v0, the Construct reference codec: :data:`produce_request_construct` parses and builds
the same bytes as the fast codec in :mod:`kafkaspec.generated.produce_request_v0`, which tests hold it to.

Generated from schemas/legacy/produce_request_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Adapter, Const, Int16sb, Int32sb, Prefixed, Struct

from kafkaspec.codec._construct import KafkaBytes, flatten, nest
from kafkaspec.generated.produce_request_v0 import ProduceRequest

produce_request_fields = Struct(
    "_rest"
    / Prefixed(
        Int32sb,
        Struct(
            "request_type" / Const(0, Int16sb),
            "topic" / KafkaBytes(Int16sb, nullable=False, encoding="utf-8"),
            "partition" / Int32sb,
            "messages" / KafkaBytes(Int32sb, nullable=False),
        ),
    )
)


class _ProduceRequestAdapter(Adapter):
    """Flattens the nested Construct containers into a :class:`~kafkaspec.generated.produce_request_v0.ProduceRequest` and back."""

    def _decode(self, obj, context, path):
        v = flatten(obj)
        return ProduceRequest(
            v["request_type"],
            v["topic"],
            v["partition"],
            v["messages"],
        )

    def _encode(self, obj, context, path):
        if not isinstance(obj, ProduceRequest):
            obj = ProduceRequest(*obj)
        v = {
            "request_type": obj.request_type,
            "topic": obj.topic,
            "partition": obj.partition,
            "messages": obj.messages,
        }
        return nest(v, _GROUPS)


_GROUPS = [[], ["request_type", "topic", "partition", "messages"]]
produce_request_construct = _ProduceRequestAdapter(produce_request_fields)
produce_request_construct.__doc__ = "Construct parser/builder for ProduceRequest v0 (the reference codec)."
