"""Message v1, the tracing decoder: :func:`trace_message` reads one Message field by
field and records each field's byte span, raw bytes and value on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``. It returns the same
:class:`~kafkaspec.generated.message_v1.Message` as the fast codec.

Generated from schemas/legacy/message_v1.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from kafkaspec.generated.enums import CompressionType, TimestampType

from ..message_v1 import Message

NAME = "Message"
VERSION = 1
#: the structure's doc line
DOC = "A MessageSet entry holding a Message v1 (Kafka 0.10 to 0.10.2, KIP-32): like v0 with a timestamp after the attributes and a timestamp-type bit. Inner messages of a compressed wrapper carry offsets relative to the wrapper: inner absolute offset = wrapper offset - last inner relative offset + inner relative offset. Under LogAppendTime the wrapper's timestamp applies to every inner message."
#: each field's doc line, by field name
DOCS = {
    "offset": "Logical offset; for a compressed wrapper, the absolute offset of its last inner message (producers may send 0 or -1).",
    "message_size": "Byte length of the message that follows (crc to the end of value).",
    "crc": "CRC-32 (IEEE) of everything from magic to the end of the message.",
    "magic": "Format version 1; at byte 16 of the entry, as in every later format.",
    "attributes": "Message flags; bits 4-7 are unused and zero.",
    "timestamp": "Milliseconds since the epoch (-1 when unknown); for a wrapper, the largest inner timestamp or the broker's append time.",
    "key": "Message key; length -1 means null. Null for a compressed wrapper.",
    "value": "Message value (payload); length -1 means null. For a wrapper, the compressed inner message set.",
}
#: attributes's bit fields: (name, first bit, last bit, enum, doc)
ATTRIBUTES_BITS = (
    (
        "compression",
        0,
        2,
        CompressionType,
        "Codec of the value: when set, the value is a compressed inner message set.",
    ),
    ("timestamp_type", 3, 3, TimestampType, "0 CreateTime, 1 LogAppendTime (set by the broker on wrappers)."),
)


def trace_message(t) -> Message:
    """Read one Message v1 at ``t.pos``, recording every field on the tracer ``t``; return its value."""
    t.begin(NAME, VERSION, DOC)
    offset = t.integer("offset", "int64", DOCS["offset"])
    message_size = t.integer("message_size", "int32", DOCS["message_size"])
    t.length_of("message_size", message_size, "crc")
    crc = t.integer("crc", "uint32", DOCS["crc"])
    t.checksum("crc", crc, "crc32", "magic")
    magic = t.integer("magic", "int8", DOCS["magic"], const=1)
    attributes = t.integer("attributes", "int8", DOCS["attributes"], bits=ATTRIBUTES_BITS)
    timestamp = t.integer("timestamp", "int64", DOCS["timestamp"])
    key = t.blob("key", "bytes", DOCS["key"], "int32", nullable=True)
    value = t.blob("value", "bytes", DOCS["value"], "int32", nullable=True)
    return t.end(Message(offset, crc, magic, attributes, timestamp, key, value))
