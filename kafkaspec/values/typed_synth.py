"""Synthetic topics of registry-framed Avro and JSON Schema values, for ``synth`` and the demo: the
``_schemas`` records of each topic's two schema versions and a value writer, ``(rng, i) -> bytes``,
like :mod:`.protobuf_synth` for Protobuf.

Each schema evolves as a real one does: v2 adds a field with a default and removes an optional one.
Values alternate between the versions, so a topic read into its latest schema shows both rules. The
Avro bytes are written here by hand (zigzag varints, length-prefixed strings, a union's branch index,
as the Avro specification says), so synth, a core command, needs neither fastavro nor ``avro``; the
tests read them with Apache Avro's own library.
"""

from __future__ import annotations

import json
import random
import struct

from kafkaspec.codec.varint import encode_varlong

__all__ = [
    "INVOICE_V1",
    "INVOICE_V2",
    "PROFILE_V1",
    "PROFILE_V2",
    "avro_schema_records",
    "invoice_value",
    "json_schema_records",
    "profile_value",
]


def _invoice(last: dict[str, object]) -> str:
    """An Avro schema of Invoice: the fields of both versions, then ``last``, the one they differ in."""
    return json.dumps(
        {
            "type": "record",
            "name": "Invoice",
            "namespace": "demo",
            "fields": [
                {"name": "id", "type": "long"},
                {"name": "customer", "type": "string"},
                {"name": "amount_cents", "type": "long"},
                last,
            ],
        }
    )


def _profile(last: str, schema: dict[str, object]) -> str:
    """A JSON Schema of Profile: the properties of both versions, then ``last``, the one they differ in."""
    return json.dumps(
        {
            "$schema": "http://json-schema.org/draft-07/schema#",
            "title": "Profile",
            "type": "object",
            "properties": {
                "id": {"type": "integer"},
                "name": {"type": "string"},
                "age": {"type": "integer"},
                last: schema,
            },
            "required": ["id", "name", "age"],
            "additionalProperties": False,
        }
    )


INVOICE_V1 = _invoice({"name": "note", "type": ["null", "string"], "default": None})
# v2: currency added with a default; the optional note removed
INVOICE_V2 = _invoice({"name": "currency", "type": "string", "default": "EUR"})
PROFILE_V1 = _profile("nickname", {"type": "string"})
# v2: country added with a default; the optional nickname removed
PROFILE_V2 = _profile("country", {"type": "string", "default": "NL"})

NAMES = ("ada", "grace", "alan", "edsger", "barbara", "donald")
COUNTRIES = ("NL", "FR", "DE", "US")


def _records(topic: str, first_id: int, kind: str, texts: tuple[str, str]) -> list[tuple[bytes, bytes]]:
    subject = f"{topic}-value"
    out = []
    for version, text in enumerate(texts, 1):
        key = {"keytype": "SCHEMA", "subject": subject, "version": version, "magic": 1}
        value = {
            "subject": subject,
            "version": version,
            "id": first_id + version - 1,
            "schemaType": kind,
            "schema": text,
            "deleted": False,
        }
        out.append((json.dumps(key).encode(), json.dumps(value).encode()))
    return out


def avro_schema_records(topic: str = "invoices", first_id: int = 200) -> list[tuple[bytes, bytes]]:
    """The ``_schemas`` records (key, value) that register v1 and v2 of ``<topic>-value`` (Avro) under the
    ids ``first_id`` and ``first_id + 1``."""
    return _records(topic, first_id, "AVRO", (INVOICE_V1, INVOICE_V2))


def json_schema_records(topic: str = "profiles", first_id: int = 300) -> list[tuple[bytes, bytes]]:
    """The ``_schemas`` records (key, value) that register v1 and v2 of ``<topic>-value`` (JSON Schema)."""
    return _records(topic, first_id, "JSON", (PROFILE_V1, PROFILE_V2))


_long = encode_varlong  # zigzag, as Avro writes int and long


def _string(s: str) -> bytes:
    b = s.encode()
    return _long(len(b)) + b


def _frame(schema_id: int) -> bytes:
    return b"\x00" + struct.pack(">i", schema_id)


def invoice_value(rng: random.Random, i: int, first_id: int = 200) -> bytes:
    """Invoice ``i`` framed as Confluent's Avro serializer frames it (magic 0, the schema id, the Avro
    body): even ``i`` written with v1 (a note on some), odd with v2 (a currency)."""
    v2 = i % 2 == 1
    body = _long(i) + _string(f"c-{rng.randrange(50_000)}") + _long(rng.randrange(-5_000, 10**7))
    if v2:
        body += _string(rng.choice(("EUR", "USD", "GBP")))
    elif rng.random() < 0.5:
        body += _long(1) + _string(rng.choice(("paid", "", "overdue")))  # union branch 1: string
    else:
        body += _long(0)  # union branch 0: null
    return _frame(first_id + int(v2)) + body


def profile_value(rng: random.Random, i: int, first_id: int = 300) -> bytes:
    """Profile ``i`` framed as Confluent's JSON Schema serializer frames it (magic 0, the schema id, the
    JSON text): even ``i`` written with v1, odd with v2 (a country on some)."""
    v2 = i % 2 == 1
    doc: dict[str, object] = {"id": i, "name": rng.choice(NAMES), "age": rng.randrange(18, 99)}
    if v2:
        if rng.random() < 0.7:
            doc["country"] = rng.choice(COUNTRIES)
    # v1 values leave the optional nickname unset: the reader of a JSON Schema topic reads every value
    # into the subject's latest version and refuses (never drops) a property that version removed
    return _frame(first_id + int(v2)) + json.dumps(doc, separators=(",", ":")).encode()
