"""Helpers for the typed-values tests: ``_schemas`` records as the Schema Registry writes them, Avro
bodies written by Apache Avro's own library, and Confluent's serializer framing."""

from __future__ import annotations

import importlib
import io
import json
import struct
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import avro.io
import avro.schema

V1 = {
    "type": "record",
    "name": "Order",
    "namespace": "shop",
    "fields": [
        {"name": "id", "type": "long"},
        {"name": "coupon", "type": ["null", "string"], "default": None},
    ],
}
# v2: a field added with a default, the optional one removed
V2 = {
    "type": "record",
    "name": "Order",
    "namespace": "shop",
    "fields": [{"name": "id", "type": "long"}, {"name": "currency", "type": "string", "default": "EUR"}],
}


def skey(subject: str, version: int) -> bytes:
    """A SCHEMA key of ``_schemas``."""
    return json.dumps({"keytype": "SCHEMA", "subject": subject, "version": version, "magic": 1}).encode()


def sval(
    subject: str,
    version: int,
    schema_id: int,
    schema: str,
    deleted: bool = False,
    schema_type=None,
    references=(),
) -> bytes:
    """A SCHEMA value of ``_schemas`` (no schemaType: Avro)."""
    v = {"subject": subject, "version": version, "id": schema_id, "schema": schema, "deleted": deleted}
    if schema_type:
        v["schemaType"] = schema_type
    if references:
        v["references"] = list(references)
    return json.dumps(v).encode()


def avro_bytes(schema: dict, datum, names=None) -> bytes:
    """``datum`` as Apache Avro's own library writes it."""
    parsed = (
        avro.schema.make_avsc_object(schema, names)
        if names is not None
        else avro.schema.parse(json.dumps(schema))
    )
    buf = io.BytesIO()
    avro.io.DatumWriter(parsed).write(datum, avro.io.BinaryEncoder(buf))
    return buf.getvalue()


def framed(schema_id: int, body: bytes) -> bytes:
    """Confluent's serializer framing: magic byte 0, the id as a 4-byte big-endian int, the body."""
    return b"\x00" + struct.pack(">i", schema_id) + body


def protoc_module(folder: Path, name: str, text: str) -> ModuleType:
    """``<name>_pb2``: the classes protoc (grpcio-tools) generates from the ``.proto`` ``text``, written as
    ``folder/<name>.proto`` (an independent reader of Protobuf bytes)."""
    (folder / f"{name}.proto").write_text(text)
    subprocess.run(
        [sys.executable, "-m", "grpc_tools.protoc", f"-I{folder}", f"--python_out={folder}", f"{name}.proto"],
        check=True,
    )
    sys.path.insert(0, str(folder))
    try:
        return importlib.import_module(f"{name}_pb2")
    finally:
        sys.path.remove(str(folder))
