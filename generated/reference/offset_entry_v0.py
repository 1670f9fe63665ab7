"""OffsetEntry v0, the Construct reference codec: :data:`offset_entry_construct` parses and builds
the same bytes as the fast codec in :mod:`kafkaspec.generated.offset_entry_v0`, which tests hold it to.

Generated from schemas/legacy/offset_entry_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Adapter, Int64sb, Struct

from kafkaspec.codec._construct import flatten, nest
from kafkaspec.generated.offset_entry_v0 import OffsetEntry

offset_entry_fields = Struct(
    "offset" / Int64sb,
)


class _OffsetEntryAdapter(Adapter):
    """Flattens the nested Construct containers into a :class:`~kafkaspec.generated.offset_entry_v0.OffsetEntry` and back."""

    def _decode(self, obj, context, path):
        v = flatten(obj)
        return OffsetEntry(
            v["offset"],
        )

    def _encode(self, obj, context, path):
        if not isinstance(obj, OffsetEntry):
            obj = OffsetEntry(*obj)
        v = {
            "offset": obj.offset,
        }
        return nest(v, _GROUPS)


_GROUPS = [["offset"]]
offset_entry_construct = _OffsetEntryAdapter(offset_entry_fields)
offset_entry_construct.__doc__ = "Construct parser/builder for OffsetEntry v0 (the reference codec)."
