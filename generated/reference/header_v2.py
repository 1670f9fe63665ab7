"""Header v2, the Construct reference codec: :data:`header_construct` parses and builds
the same bytes as the fast codec in :mod:`kafkaspec.generated.header_v2`, which tests hold it to.

Generated from schemas/header_v2.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Adapter, Struct, ZigZag

from kafkaspec.codec._construct import KafkaBytes, flatten, nest
from kafkaspec.generated.header_v2 import Header

header_fields = Struct(
    "key" / KafkaBytes(ZigZag, nullable=False, encoding="utf-8"),
    "value" / KafkaBytes(ZigZag, nullable=True),
)


class _HeaderAdapter(Adapter):
    """Flattens the nested Construct containers into a :class:`~kafkaspec.generated.header_v2.Header` and back."""

    def _decode(self, obj, context, path):
        v = flatten(obj)
        return Header(
            v["key"],
            v["value"],
        )

    def _encode(self, obj, context, path):
        if not isinstance(obj, Header):
            obj = Header(*obj)
        v = {
            "key": obj.key,
            "value": obj.value,
        }
        return nest(v, _GROUPS)


_GROUPS = [["key", "value"]]
header_construct = _HeaderAdapter(header_fields)
header_construct.__doc__ = "Construct parser/builder for Header v2 (the reference codec)."
