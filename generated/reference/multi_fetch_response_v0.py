"""MultiFetchResponse v0, the Construct reference codec: :data:`multi_fetch_response_construct` parses and builds
the same bytes as the fast codec in :mod:`kafkaspec.generated.multi_fetch_response_v0`, which tests hold it to.

Generated from schemas/legacy/multi_fetch_response_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Adapter, GreedyBytes, Int16sb, Int32sb, Prefixed, Struct

from kafkaspec.codec._construct import flatten, nest
from kafkaspec.generated.multi_fetch_response_v0 import MultiFetchResponse

multi_fetch_response_fields = Struct(
    "_rest"
    / Prefixed(
        Int32sb,
        Struct(
            "error_code" / Int16sb,
            "responses" / GreedyBytes,
        ),
    )
)


class _MultiFetchResponseAdapter(Adapter):
    """Flattens the nested Construct containers into a :class:`~kafkaspec.generated.multi_fetch_response_v0.MultiFetchResponse` and back."""

    def _decode(self, obj, context, path):
        v = flatten(obj)
        return MultiFetchResponse(
            v["error_code"],
            v["responses"],
        )

    def _encode(self, obj, context, path):
        if not isinstance(obj, MultiFetchResponse):
            obj = MultiFetchResponse(*obj)
        v = {
            "error_code": obj.error_code,
            "responses": obj.responses,
        }
        return nest(v, _GROUPS)


_GROUPS = [[], ["error_code", "responses"]]
multi_fetch_response_construct = _MultiFetchResponseAdapter(multi_fetch_response_fields)
multi_fetch_response_construct.__doc__ = (
    "Construct parser/builder for MultiFetchResponse v0 (the reference codec)."
)
