"""ResponseHeader v0, the Construct reference codec: :data:`response_header_construct` parses and builds
the same bytes as the fast codec in :mod:`kafkaspec.generated.response_header_v0`, which tests hold it to.

Generated from schemas/legacy/response_header_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Adapter, Int16sb, Int32sb, Struct

from kafkaspec.codec._construct import flatten, nest
from kafkaspec.generated.response_header_v0 import ResponseHeader

response_header_fields = Struct(
    "response_length" / Int32sb,
    "error_code" / Int16sb,
)


class _ResponseHeaderAdapter(Adapter):
    """Flattens the nested Construct containers into a :class:`~kafkaspec.generated.response_header_v0.ResponseHeader` and back."""

    def _decode(self, obj, context, path):
        v = flatten(obj)
        return ResponseHeader(
            v["response_length"],
            v["error_code"],
        )

    def _encode(self, obj, context, path):
        if not isinstance(obj, ResponseHeader):
            obj = ResponseHeader(*obj)
        v = {
            "response_length": obj.response_length,
            "error_code": obj.error_code,
        }
        return nest(v, _GROUPS)


_GROUPS = [["response_length", "error_code"]]
response_header_construct = _ResponseHeaderAdapter(response_header_fields)
response_header_construct.__doc__ = "Construct parser/builder for ResponseHeader v0 (the reference codec)."
