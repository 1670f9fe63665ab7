"""ControlRecordKey v0, the Construct reference codec: :data:`control_record_key_construct` parses and builds
the same bytes as the fast codec in :mod:`kafkaspec.generated.control_record_key_v0`, which tests hold it to.

Generated from schemas/control_record_key_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Adapter, Int16sb, Struct

from kafkaspec.codec._construct import flatten, nest
from kafkaspec.generated.control_record_key_v0 import ControlRecordKey

control_record_key_fields = Struct(
    "version" / Int16sb,
    "type" / Int16sb,
)


class _ControlRecordKeyAdapter(Adapter):
    """Flattens the nested Construct containers into a :class:`~kafkaspec.generated.control_record_key_v0.ControlRecordKey` and back."""

    def _decode(self, obj, context, path):
        v = flatten(obj)
        return ControlRecordKey(
            v["version"],
            v["type"],
        )

    def _encode(self, obj, context, path):
        if not isinstance(obj, ControlRecordKey):
            obj = ControlRecordKey(*obj)
        v = {
            "version": obj.version,
            "type": obj.type,
        }
        return nest(v, _GROUPS)


_GROUPS = [["version", "type"]]
control_record_key_construct = _ControlRecordKeyAdapter(control_record_key_fields)
control_record_key_construct.__doc__ = (
    "Construct parser/builder for ControlRecordKey v0 (the reference codec)."
)
