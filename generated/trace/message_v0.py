"""Message v0, the tracing decoder: :func:`trace_message` reads one Message field by
field and records each field's byte span, raw bytes and value on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``. It returns the same
:class:`~kafkaspec.generated.message_v0.Message` as the fast codec.

Generated from schemas/legacy/message_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from kafkaspec.generated.enums import CompressionType

from ..message_v0 import Message

NAME = "Message"
VERSION = 0
#: the structure's doc line
DOC = "A MessageSet entry holding a Message v0 (Kafka 0.8 to 0.9): offset and size, then the message itself (crc, magic, attributes, key, value). A log segment or a fetch response of this era is a plain concatenation of entries. When the compression bits are set the message is a wrapper: its value is the compressed bytes of an inner message set whose offsets are absolute."
#: each field's doc line, by field name
DOCS = {
    "offset": "Logical offset of the message; for a compressed wrapper, the offset of its last inner message. Producers may send any value (-1, 0).",
    "message_size": "Byte length of the message that follows (crc to the end of value).",
    "crc": "CRC-32 (IEEE) of everything from magic to the end of the message.",
    "magic": "Format version 0; at byte 16 of the entry, as in every later format.",
    "attributes": "Message flags; bits 3-7 are unused and zero.",
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
)


def trace_message(t) -> Message:
    """Read one Message v0 at ``t.pos``, recording every field on the tracer ``t``; return its value."""
    t.begin(NAME, VERSION, DOC)
    offset = t.integer("offset", "int64", DOCS["offset"])
    message_size = t.integer("message_size", "int32", DOCS["message_size"])
    t.length_of("message_size", message_size, "crc")
    crc = t.integer("crc", "uint32", DOCS["crc"])
    t.checksum("crc", crc, "crc32", "magic")
    magic = t.integer("magic", "int8", DOCS["magic"], const=0)
    attributes = t.integer("attributes", "int8", DOCS["attributes"], bits=ATTRIBUTES_BITS)
    key = t.blob("key", "bytes", DOCS["key"], "int32", nullable=True)
    value = t.blob("value", "bytes", DOCS["value"], "int32", nullable=True)
    return t.end(Message(offset, crc, magic, attributes, key, value))
