"""MultiRequestHeader v0, the Construct reference codec: :data:`multi_request_header_construct` parses and builds
the same bytes as the fast codec in :mod:`kafkaspec.generated.multi_request_header_v0`, which tests hold it to.

Generated from schemas/legacy/multi_request_header_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Adapter, Int16sb, Int32sb, Struct

from kafkaspec.codec._construct import flatten, nest
from kafkaspec.generated.multi_request_header_v0 import MultiRequestHeader

multi_request_header_fields = Struct(
    "request_length" / Int32sb,
    "request_type" / Int16sb,
    "topicpartition_count" / Int16sb,
)


class _MultiRequestHeaderAdapter(Adapter):
    """Flattens the nested Construct containers into a :class:`~kafkaspec.generated.multi_request_header_v0.MultiRequestHeader` and back."""

    def _decode(self, obj, context, path):
        v = flatten(obj)
        return MultiRequestHeader(
            v["request_length"],
            v["request_type"],
            v["topicpartition_count"],
        )

    def _encode(self, obj, context, path):
        if not isinstance(obj, MultiRequestHeader):
            obj = MultiRequestHeader(*obj)
        v = {
            "request_length": obj.request_length,
            "request_type": obj.request_type,
            "topicpartition_count": obj.topicpartition_count,
        }
        return nest(v, _GROUPS)


_GROUPS = [["request_length", "request_type", "topicpartition_count"]]
multi_request_header_construct = _MultiRequestHeaderAdapter(multi_request_header_fields)
multi_request_header_construct.__doc__ = (
    "Construct parser/builder for MultiRequestHeader v0 (the reference codec)."
)
