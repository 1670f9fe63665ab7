"""WireMessage v0, the tracing decoder: :func:`trace_wire_message` reads one WireMessage field by
field and records each field's byte span, raw bytes and value on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``. It returns the same
:class:`~kafkaspec.generated.wire_message_v0.WireMessage` as the fast codec.

Generated from schemas/legacy/wire_message_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from ..wire_message_v0 import WireMessage

NAME = "WireMessage"
VERSION = 0
#: the structure's doc line
DOC = "The Kafka 0.6 message: LENGTH, MAGIC 0, CHECKSUM, PAYLOAD. It has no offset field: offsets are byte positions in the partition's log, and the next message's offset is this offset + LENGTH + 4."
#: each field's doc line, by field name
DOCS = {
    "length": "Length in bytes of the entire message, excluding this field.",
    "magic": "0 means there is no COMPRESSION byte (Kafka 0.6 and earlier).",
    "checksum": "CRC-32 of the payload only.",
    "payload": "Message content, up to the end given by LENGTH.",
}


def trace_wire_message(t) -> WireMessage:
    """Read one WireMessage v0 at ``t.pos``, recording every field on the tracer ``t``; return its value."""
    t.begin(NAME, VERSION, DOC)
    length = t.integer("length", "int32", DOCS["length"])
    t.length_of("length", length, "magic")
    magic = t.integer("magic", "int8", DOCS["magic"], const=0)
    checksum = t.integer("checksum", "uint32", DOCS["checksum"])
    t.checksum("checksum", checksum, "crc32", "payload")
    payload = t.blob("payload", "bytes", DOCS["payload"], "rest")
    return t.end(WireMessage(magic, checksum, payload))
