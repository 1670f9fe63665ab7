"""Protobuf descriptors and classes that protoc does not make here (:mod:`.protobuf` compiles ``.proto``
text): a schema held as base64 (a serialized FileDescriptorProto, what Confluent's Python serializer
registers), Google's well-known types from the protobuf library, and the message classes of a pool.
"""

from __future__ import annotations

from typing import Any

from .schemas_topic import Schema

__all__ = ["WELL_KNOWN", "message_class", "serialized", "well_known"]

#: Google's well-known types protoc and the protobuf library bring (``google/protobuf/<name>.proto``)
WELL_KNOWN = frozenset(
    {
        "any",
        "api",
        "descriptor",
        "duration",
        "empty",
        "field_mask",
        "source_context",
        "struct",
        "timestamp",
        "type",
        "wrappers",
    }
)


def message_class(message_factory: Any, pool: Any, name: str, schema: Schema) -> Any:
    """The class of message ``name`` in ``pool``, or why there is none (a text, kept in place of the class):
    the protobuf library makes the classes of its message fields recursively, so a chain of a few thousand
    messages ran Python's stack out, out of the whole run. KeyError for a name the pool lacks."""
    try:
        return message_factory.GetMessageClass(pool.FindMessageTypeByName(name))
    except RecursionError:
        return f"schema id {schema.id}: message {name[:80]} holds messages nested too deep to load"


def serialized(text: str) -> bytes | None:
    """The bytes of a schema given as base64 (a serialized FileDescriptorProto, as Confluent's Python
    serializer registers it), or None for .proto text (whose spaces and semicolons are not base64)."""
    import base64
    import binascii

    try:
        return base64.b64decode(text.strip(), validate=True)
    except (binascii.Error, ValueError):
        return None


def well_known(name: str, schema_id: int) -> Any:
    """The FileDescriptorProto of one of Google's well-known types, from the protobuf library."""
    import importlib

    from google.protobuf import descriptor_pb2, descriptor_pool

    module = name.removeprefix("google/protobuf/").removesuffix(".proto")
    if module not in WELL_KNOWN or name != f"google/protobuf/{module}.proto":
        raise ValueError(f"schema id {schema_id} imports {name[:80]!r}, not one of Google's well-known types")
    try:
        importlib.import_module(f"google.protobuf.{module}_pb2")
        found = descriptor_pool.Default().FindFileByName(name)
    except (ImportError, KeyError):
        raise ValueError(
            f"schema id {schema_id} imports {name[:80]!r}, not one of Google's well-known types"
        ) from None
    fdp = descriptor_pb2.FileDescriptorProto()
    found.CopyToProto(fdp)
    return fdp
