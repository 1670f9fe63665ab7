"""MultiProduceRequest v0, the Construct reference codec: :data:`multi_produce_request_construct` parses and builds
the same bytes as the fast codec in :mod:`kafkaspec.generated.multi_produce_request_v0`, which tests hold it to.

Generated from schemas/legacy/multi_produce_request_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Adapter, Array, Const, Int16sb, Int32sb, Prefixed, Rebuild, Struct, len_, this

from kafkaspec.codec._construct import flatten, nest
from kafkaspec.generated.multi_produce_request_v0 import MultiProduceRequest

from .partition_produce_v0 import partition_produce_construct

multi_produce_request_fields = Struct(
    "_rest"
    / Prefixed(
        Int32sb,
        Struct(
            "request_type" / Const(3, Int16sb),
            "topicpartition_count" / Rebuild(Int16sb, len_(this.produces)),
            "produces" / Array(this.topicpartition_count, partition_produce_construct),
        ),
    )
)


class _MultiProduceRequestAdapter(Adapter):
    """Flattens the nested Construct containers into a :class:`~kafkaspec.generated.multi_produce_request_v0.MultiProduceRequest` and back."""

    def _decode(self, obj, context, path):
        v = flatten(obj)
        return MultiProduceRequest(
            v["request_type"],
            v["produces"],
        )

    def _encode(self, obj, context, path):
        if not isinstance(obj, MultiProduceRequest):
            obj = MultiProduceRequest(*obj)
        v = {
            "request_type": obj.request_type,
            "produces": obj.produces,
        }
        return nest(v, _GROUPS)


_GROUPS = [[], ["request_type", "topicpartition_count", "produces"]]
multi_produce_request_construct = _MultiProduceRequestAdapter(multi_produce_request_fields)
multi_produce_request_construct.__doc__ = (
    "Construct parser/builder for MultiProduceRequest v0 (the reference codec)."
)
