"""OffsetsResponse v0, the Construct reference codec: :data:`offsets_response_construct` parses and builds
the same bytes as the fast codec in :mod:`kafkaspec.generated.offsets_response_v0`, which tests hold it to.

Generated from schemas/legacy/offsets_response_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Adapter, Array, Int16sb, Int32sb, Prefixed, Rebuild, Struct, len_, this

from kafkaspec.codec._construct import flatten, nest
from kafkaspec.generated.offsets_response_v0 import OffsetsResponse

from .offset_entry_v0 import offset_entry_construct

offsets_response_fields = Struct(
    "_rest"
    / Prefixed(
        Int32sb,
        Struct(
            "error_code" / Int16sb,
            "number_offsets" / Rebuild(Int32sb, len_(this.offsets)),
            "offsets" / Array(this.number_offsets, offset_entry_construct),
        ),
    )
)


class _OffsetsResponseAdapter(Adapter):
    """Flattens the nested Construct containers into a :class:`~kafkaspec.generated.offsets_response_v0.OffsetsResponse` and back."""

    def _decode(self, obj, context, path):
        v = flatten(obj)
        return OffsetsResponse(
            v["error_code"],
            v["offsets"],
        )

    def _encode(self, obj, context, path):
        if not isinstance(obj, OffsetsResponse):
            obj = OffsetsResponse(*obj)
        v = {
            "error_code": obj.error_code,
            "offsets": obj.offsets,
        }
        return nest(v, _GROUPS)


_GROUPS = [[], ["error_code", "number_offsets", "offsets"]]
offsets_response_construct = _OffsetsResponseAdapter(offsets_response_fields)
offsets_response_construct.__doc__ = "Construct parser/builder for OffsetsResponse v0 (the reference codec)."
