"""Message v0, the Construct reference codec: :data:`message_construct` parses and builds
the same bytes as the fast codec in :mod:`kafkaspec.generated.message_v0`, which tests hold it to.

Generated from schemas/legacy/message_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Adapter, Const, Int8sb, Int32sb, Int32ub, Int64sb, Prefixed, Struct

from kafkaspec.codec._construct import Checksummed, KafkaBytes, flatten, nest
from kafkaspec.generated.message_v0 import Message

message_fields = Struct(
    "offset" / Int64sb,
    "_rest"
    / Prefixed(
        Int32sb,
        Struct(
            "_rest"
            / Checksummed(
                "crc",
                Int32ub,
                "crc32",
                Struct(
                    "magic" / Const(0, Int8sb),
                    "attributes" / Int8sb,
                    "key" / KafkaBytes(Int32sb, nullable=True),
                    "value" / KafkaBytes(Int32sb, nullable=True),
                ),
            )
        ),
    ),
)


class _MessageAdapter(Adapter):
    """Flattens the nested Construct containers into a :class:`~kafkaspec.generated.message_v0.Message` and back."""

    def _decode(self, obj, context, path):
        v = flatten(obj)
        return Message(
            v["offset"],
            v["crc"],
            v["magic"],
            v["attributes"],
            v["key"],
            v["value"],
        )

    def _encode(self, obj, context, path):
        if not isinstance(obj, Message):
            obj = Message(*obj)
        v = {
            "offset": obj.offset,
            "crc": obj.crc,
            "magic": obj.magic,
            "attributes": obj.attributes,
            "key": obj.key,
            "value": obj.value,
        }
        return nest(v, _GROUPS)


_GROUPS = [["offset"], [], ["magic", "attributes", "key", "value"]]
message_construct = _MessageAdapter(message_fields)
message_construct.__doc__ = "Construct parser/builder for Message v0 (the reference codec)."
