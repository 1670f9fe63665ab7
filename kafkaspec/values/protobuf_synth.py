"""A synthetic topic of registry-framed Protobuf values, for ``synth`` and the demo: the ``_schemas``
records of its two schema versions and a value writer, ``(rng, i) -> bytes``, like synth's other topics.

The schema evolves as a real one does: v2 adds a field (``region``) and removes an optional one
(``note``, its number reserved). Values alternate between the two versions, so a topic read into its
latest schema shows both rules. The bytes are written here by hand (varints and length-delimited
fields, as Protobuf's encoding says), so synth needs no Protobuf library; the tests read them with
classes protoc generated.
"""

from __future__ import annotations

import json
import random
import struct

from kafkaspec.codec.varint import encode_uvarint

__all__ = ["SHIPMENT_V1", "SHIPMENT_V2", "schema_records", "shipment_value"]

SHIPMENT_V1 = """syntax = "proto3";
package demo;

message Shipment {
  int64 id = 1;
  string carrier = 2;
  int64 weight_grams = 3;
  optional string note = 4;
  repeated string items = 5;
}
"""
# v2: region added; the optional note removed (its number reserved)
SHIPMENT_V2 = SHIPMENT_V1.replace("  optional string note = 4;\n", "  reserved 4;\n").replace(
    "  repeated string items = 5;\n", "  repeated string items = 5;\n  string region = 6;\n"
)

CARRIERS = ("dhl", "ups", "fedex", "laposte")
REGIONS = ("eu-west", "eu-central", "us-east")


def schema_records(topic: str = "shipments", first_id: int = 100) -> list[tuple[bytes, bytes]]:
    """The ``_schemas`` records (key, value) that register v1 and v2 of ``<topic>-value`` under the ids
    ``first_id`` and ``first_id + 1``."""
    subject = f"{topic}-value"
    out = []
    for version, text in ((1, SHIPMENT_V1), (2, SHIPMENT_V2)):
        key = {"keytype": "SCHEMA", "subject": subject, "version": version, "magic": 1}
        value = {
            "subject": subject,
            "version": version,
            "id": first_id + version - 1,
            "schemaType": "PROTOBUF",
            "schema": text,
            "deleted": False,
        }
        out.append((json.dumps(key).encode(), json.dumps(value).encode()))
    return out


def _varint(n: int) -> bytes:
    return encode_uvarint(n & ((1 << 64) - 1))  # negative int64s take ten bytes, as Protobuf writes them


def _int(field: int, n: int) -> bytes:
    return b"" if n == 0 else _varint(field << 3) + _varint(n)  # proto3: a default is not written


def _str(field: int, s: str, always: bool = False) -> bytes:
    b = s.encode()
    return b"" if not b and not always else _varint(field << 3 | 2) + _varint(len(b)) + b


def shipment_value(rng: random.Random, i: int, first_id: int = 100) -> bytes:
    """Shipment ``i`` framed as Confluent's serializer frames it (magic 0, the schema id, message index
    [0] as the single byte 0): even ``i`` written with v1 (a note on some), odd with v2 (a region)."""
    body = _int(1, i) + _str(2, rng.choice(CARRIERS)) + _int(3, rng.randrange(50, 30_000))
    v2 = i % 2 == 1
    if not v2 and rng.random() < 0.5:
        body += _str(
            4, rng.choice(("fragile", "", "leave at door")), always=True
        )  # optional: written when set
    for _ in range(rng.randint(0, 3)):
        body += _str(5, f"sku-{rng.randrange(5000)}", always=True)
    if v2:
        body += _str(6, rng.choice(REGIONS))
    return b"\x00" + struct.pack(">i", first_id + int(v2)) + b"\x00" + body
