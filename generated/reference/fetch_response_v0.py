"""FetchResponse v0, the Construct reference codec: :data:`fetch_response_construct` parses and builds
the same bytes as the fast codec in :mod:`kafkaspec.generated.fetch_response_v0`, which tests hold it to.

Generated from schemas/legacy/fetch_response_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Adapter, GreedyBytes, Int16sb, Int32sb, Prefixed, Struct

from kafkaspec.codec._construct import flatten, nest
from kafkaspec.generated.fetch_response_v0 import FetchResponse

fetch_response_fields = Struct(
    "_rest"
    / Prefixed(
        Int32sb,
        Struct(
            "error_code" / Int16sb,
            "messages" / GreedyBytes,
        ),
    )
)


class _FetchResponseAdapter(Adapter):
    """Flattens the nested Construct containers into a :class:`~kafkaspec.generated.fetch_response_v0.FetchResponse` and back."""

    def _decode(self, obj, context, path):
        v = flatten(obj)
        return FetchResponse(
            v["error_code"],
            v["messages"],
        )

    def _encode(self, obj, context, path):
        if not isinstance(obj, FetchResponse):
            obj = FetchResponse(*obj)
        v = {
            "error_code": obj.error_code,
            "messages": obj.messages,
        }
        return nest(v, _GROUPS)


_GROUPS = [[], ["error_code", "messages"]]
fetch_response_construct = _FetchResponseAdapter(fetch_response_fields)
fetch_response_construct.__doc__ = "Construct parser/builder for FetchResponse v0 (the reference codec)."
