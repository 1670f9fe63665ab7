"""WireMessage v1, the tracing decoder: :func:`trace_wire_message` reads one WireMessage field by
field and records each field's byte span, raw bytes and value on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``. It returns the same
:class:`~kafkaspec.generated.wire_message_v1.WireMessage` as the fast codec.

Generated from schemas/legacy/wire_message_v1.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from kafkaspec.generated.enums import CompressionType

from ..wire_message_v1 import WireMessage

NAME = "WireMessage"
VERSION = 1
#: the structure's doc line
DOC = "The Kafka 0.7 message: LENGTH, MAGIC 1, COMPRESSION, CHECKSUM, PAYLOAD. When COMPRESSION is set the payload is a compressed message set (wire messages back to back); compression is end to end, so offsets a consumer can fetch from are the boundaries of the compressed messages."
#: each field's doc line, by field name
DOCS = {
    "length": "Length in bytes of the entire message, excluding this field.",
    "magic": "1 means a COMPRESSION byte follows (Kafka 0.7 and later).",
    "compression": "Codec of the payload; 0 none, 1 gzip, 2 snappy.",
    "checksum": "CRC-32 of the payload only.",
    "payload": "Message content, or a compressed message set when COMPRESSION is set.",
}
#: compression's bit fields: (name, first bit, last bit, enum, doc)
COMPRESSION_BITS = (
    (
        "codec",
        0,
        2,
        CompressionType,
        "0 none, 1 gzip, 2 snappy: the payload is then a compressed message set.",
    ),
)


def trace_wire_message(t) -> WireMessage:
    """Read one WireMessage v1 at ``t.pos``, recording every field on the tracer ``t``; return its value."""
    t.begin(NAME, VERSION, DOC)
    length = t.integer("length", "int32", DOCS["length"])
    t.length_of("length", length, "magic")
    magic = t.integer("magic", "int8", DOCS["magic"], const=1)
    compression = t.integer("compression", "int8", DOCS["compression"], bits=COMPRESSION_BITS)
    checksum = t.integer("checksum", "uint32", DOCS["checksum"])
    t.checksum("checksum", checksum, "crc32", "payload")
    payload = t.blob("payload", "bytes", DOCS["payload"], "rest")
    return t.end(WireMessage(magic, compression, checksum, payload))
