"""RequestHeader v0, the Construct reference codec: :data:`request_header_construct` parses and builds
the same bytes as the fast codec in :mod:`kafkaspec.generated.request_header_v0`, which tests hold it to.

Generated from schemas/legacy/request_header_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Adapter, Int16sb, Int32sb, Struct

from kafkaspec.codec._construct import KafkaBytes, flatten, nest
from kafkaspec.generated.request_header_v0 import RequestHeader

request_header_fields = Struct(
    "request_length" / Int32sb,
    "request_type" / Int16sb,
    "topic" / KafkaBytes(Int16sb, nullable=False, encoding="utf-8"),
    "partition" / Int32sb,
)


class _RequestHeaderAdapter(Adapter):
    """Flattens the nested Construct containers into a :class:`~kafkaspec.generated.request_header_v0.RequestHeader` and back."""

    def _decode(self, obj, context, path):
        v = flatten(obj)
        return RequestHeader(
            v["request_length"],
            v["request_type"],
            v["topic"],
            v["partition"],
        )

    def _encode(self, obj, context, path):
        if not isinstance(obj, RequestHeader):
            obj = RequestHeader(*obj)
        v = {
            "request_length": obj.request_length,
            "request_type": obj.request_type,
            "topic": obj.topic,
            "partition": obj.partition,
        }
        return nest(v, _GROUPS)


_GROUPS = [["request_length", "request_type", "topic", "partition"]]
request_header_construct = _RequestHeaderAdapter(request_header_fields)
request_header_construct.__doc__ = "Construct parser/builder for RequestHeader v0 (the reference codec)."
