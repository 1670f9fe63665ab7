"""OffsetIndexEntry v0, the Construct reference codec: :data:`offset_index_entry_construct` parses and builds
the same bytes as the fast codec in :mod:`kafkaspec.generated.offset_index_entry_v0`, which tests hold it to.

Generated from schemas/logdir/offset_index_entry_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Adapter, Int32sb, Struct

from kafkaspec.codec._construct import flatten, nest
from kafkaspec.generated.offset_index_entry_v0 import OffsetIndexEntry

offset_index_entry_fields = Struct(
    "relative_offset" / Int32sb,
    "position" / Int32sb,
)


class _OffsetIndexEntryAdapter(Adapter):
    """Flattens the nested Construct containers into a :class:`~kafkaspec.generated.offset_index_entry_v0.OffsetIndexEntry` and back."""

    def _decode(self, obj, context, path):
        v = flatten(obj)
        return OffsetIndexEntry(
            v["relative_offset"],
            v["position"],
        )

    def _encode(self, obj, context, path):
        if not isinstance(obj, OffsetIndexEntry):
            obj = OffsetIndexEntry(*obj)
        v = {
            "relative_offset": obj.relative_offset,
            "position": obj.position,
        }
        return nest(v, _GROUPS)


_GROUPS = [["relative_offset", "position"]]
offset_index_entry_construct = _OffsetIndexEntryAdapter(offset_index_entry_fields)
offset_index_entry_construct.__doc__ = (
    "Construct parser/builder for OffsetIndexEntry v0 (the reference codec)."
)
