"""WireMessage v0, the Construct reference codec: :data:`wire_message_construct` parses and builds
the same bytes as the fast codec in :mod:`kafkaspec.generated.wire_message_v0`, which tests hold it to.

Generated from schemas/legacy/wire_message_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Adapter, Const, GreedyBytes, Int8sb, Int32sb, Int32ub, Prefixed, Struct

from kafkaspec.codec._construct import Checksummed, flatten, nest
from kafkaspec.generated.wire_message_v0 import WireMessage

wire_message_fields = Struct(
    "_rest"
    / Prefixed(
        Int32sb,
        Struct(
            "magic" / Const(0, Int8sb),
            "_rest"
            / Checksummed(
                "checksum",
                Int32ub,
                "crc32",
                Struct(
                    "payload" / GreedyBytes,
                ),
            ),
        ),
    )
)


class _WireMessageAdapter(Adapter):
    """Flattens the nested Construct containers into a :class:`~kafkaspec.generated.wire_message_v0.WireMessage` and back."""

    def _decode(self, obj, context, path):
        v = flatten(obj)
        return WireMessage(
            v["magic"],
            v["checksum"],
            v["payload"],
        )

    def _encode(self, obj, context, path):
        if not isinstance(obj, WireMessage):
            obj = WireMessage(*obj)
        v = {
            "magic": obj.magic,
            "checksum": obj.checksum,
            "payload": obj.payload,
        }
        return nest(v, _GROUPS)


_GROUPS = [[], ["magic"], ["payload"]]
wire_message_construct = _WireMessageAdapter(wire_message_fields)
wire_message_construct.__doc__ = "Construct parser/builder for WireMessage v0 (the reference codec)."
