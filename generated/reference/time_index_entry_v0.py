"""TimeIndexEntry v0, the Construct reference codec: :data:`time_index_entry_construct` parses and builds
the same bytes as the fast codec in :mod:`kafkaspec.generated.time_index_entry_v0`, which tests hold it to.

Generated from schemas/logdir/time_index_entry_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Adapter, Int32sb, Int64sb, Struct

from kafkaspec.codec._construct import flatten, nest
from kafkaspec.generated.time_index_entry_v0 import TimeIndexEntry

time_index_entry_fields = Struct(
    "timestamp" / Int64sb,
    "relative_offset" / Int32sb,
)


class _TimeIndexEntryAdapter(Adapter):
    """Flattens the nested Construct containers into a :class:`~kafkaspec.generated.time_index_entry_v0.TimeIndexEntry` and back."""

    def _decode(self, obj, context, path):
        v = flatten(obj)
        return TimeIndexEntry(
            v["timestamp"],
            v["relative_offset"],
        )

    def _encode(self, obj, context, path):
        if not isinstance(obj, TimeIndexEntry):
            obj = TimeIndexEntry(*obj)
        v = {
            "timestamp": obj.timestamp,
            "relative_offset": obj.relative_offset,
        }
        return nest(v, _GROUPS)


_GROUPS = [["timestamp", "relative_offset"]]
time_index_entry_construct = _TimeIndexEntryAdapter(time_index_entry_fields)
time_index_entry_construct.__doc__ = "Construct parser/builder for TimeIndexEntry v0 (the reference codec)."
