"""Keys and values decoded per topic: the public API, ``values.decoder(log).decode(topic, value)``.

The format of a topic's keys and of its values is chosen by the user (``auto`` unless told):

* ``avro``, ``json-schema``, ``protobuf``: registry framed (magic 0, 4-byte schema id, payload);
  the schema comes from the log's ``_schemas`` topic, else from the registry URL, when given;
* ``json``, ``string``, ``bytes``, ``long``, ``int``, ``double``, ``uuid``: Kafka's own serializers;
* ``auto``: a value that starts with the magic byte 0 and names a schema id a source holds is read
  with that schema's type; any other value is kept as bytes (format ``bytes``), never guessed.

A value that does not fit its decoder is never dropped or guessed: :meth:`ValueDecoder.decode`
returns it with its bytes, ``value`` None and ``error`` naming the reason, and counts it
(:attr:`ValueDecoder.errors`). A null value (a tombstone) is None with no error.
"""

from __future__ import annotations

import importlib
import json
import re
import warnings
from collections import Counter
from typing import TYPE_CHECKING, Any, NamedTuple

from .framing import FramingError, message_indexes, unframe
from .primitives import PRIMITIVES, json_text
from .registry import RegistryError
from .schemas_topic import SCHEMAS_TOPIC, LogSource, Schema, SchemaStore, read_schemas

if TYPE_CHECKING:
    from .avro import AvroReader
    from .json_schema import JsonSchemaReader, JType
    from .protobuf import ProtobufReader
    from .registry import RegistryClient

__all__ = ["FORMATS", "DecodedValue", "Schemas", "ValueDecoder", "decoder"]

FRAMED = ("avro", "json-schema", "protobuf")
#: every format a topic's keys or values may be read as
FORMATS = ("auto", *FRAMED, *PRIMITIVES)
_TYPE_FORMAT = {"AVRO": "avro", "JSON": "json-schema", "PROTOBUF": "protobuf"}


class DecodedValue(NamedTuple):
    """One key or value, decoded."""

    #: the decoded value (None for a null value or when ``error`` is set)
    value: Any
    #: the format it was read as (``auto`` resolves to the one it found)
    format: str
    #: the registry schema id of a framed value, else None
    schema_id: int | None = None
    #: why the bytes do not fit the format (None when they do)
    error: str | None = None
    #: the bytes, kept as they were
    raw: bytes | None = None


class Schemas:
    """Schemas by id and subject: the ``_schemas`` topic first, then the registry (if any)."""

    def __init__(
        self,
        store: SchemaStore | None = None,
        registry: RegistryClient | None = None,
        pinned: dict[str, int] | None = None,
    ) -> None:
        self.store = store if store is not None else SchemaStore()
        self.registry = registry
        #: subject -> the version :meth:`latest` keeps giving (a stream's columns were typed with it,
        #: while versions registered later still decode as writer schemas)
        self.pinned = dict(pinned or {})

    def where_not(self) -> str:
        """Where an unknown id was looked for, for its message."""
        registry = self.registry is not None
        if not self.store.partitions_read and not self.store.versions:  # none read, none applied by hand
            return "no _schemas topic was read" + (
                ", nor found in the registry" if registry else ", and no registry was given"
            )
        return "not in _schemas" + (" nor the registry" if registry else "")

    def by_id(self, schema_id: int) -> Schema | None:
        got = self.store.by_id(schema_id)
        if got is None and self.registry is not None:
            got = self.registry.by_id(schema_id)
        return got

    def version(self, subject: str, version: int) -> Schema | None:
        """A referenced subject-version; a registry that fails raises RegistryError, which each value
        reader turns into an error of the schema that references it (of its records, not of the run)."""
        got = self.store.version(subject, version)
        if got is None and self.registry is not None:
            got = self.registry.version(subject, version)
        return got

    def latest(self, subject: str) -> Schema | None:
        if subject in self.pinned:
            got = self.store.version(subject, self.pinned[subject])
            if got is not None:  # hard-deleted since: the latest there is, as an unpinned read does
                return got
        sv = self.store.latest(subject)
        return None if sv is None else sv.schema


class ValueDecoder:
    """Decodes a topic's keys and values with the formats chosen per topic."""

    def __init__(
        self,
        schemas: Schemas,
        value_format: str = "auto",
        key_format: str = "auto",
        formats: dict[str, tuple[str, str]] | None = None,
    ) -> None:
        for f in (value_format, key_format, *(x for kv in (formats or {}).values() for x in kv)):
            if f not in FORMATS:
                raise ValueError(f"unknown format {f!r} (one of {', '.join(FORMATS)})")
        self.schemas = schemas
        self.value_format = value_format
        self.key_format = key_format
        #: topic -> (key format, value format), overriding the defaults
        self.formats = dict(formats or {})
        #: (topic, "key"/"value", reason) -> records that did not fit
        self.errors: Counter[tuple[str, str, str]] = Counter()
        self._avro: AvroReader | None = None
        self._protobuf: ProtobufReader | None = None
        self._json: JsonSchemaReader | None = None
        self._readers: dict[tuple[str, str], Schema | None] = {}

    def format_of(self, topic: str, part: str = "value") -> str:
        """The format of ``topic``'s keys or values: the one named for the topic, else the default. A
        registry format (Avro, JSON Schema, Protobuf) as the default is not applied to Kafka's own topics
        (``__*``) or the registry's (``_schemas``), whose records are never written with the registry's
        framing (``--decode`` reads Kafka's): they keep their bytes unless a format is named for them."""
        kv = self.formats.get(topic)
        if kv is not None:
            return kv[0] if part == "key" else kv[1]
        fmt = self.key_format if part == "key" else self.value_format
        if fmt in FRAMED and (topic.startswith("__") or topic == SCHEMAS_TOPIC):
            return "bytes"  # never registry-framed: an error on every record would say nothing
        return fmt

    def reader_schema(self, topic: str, part: str = "value") -> Schema | None:
        """The topic's one reader schema: ``<topic>-<key|value>``'s latest version (TopicNameStrategy)."""
        k = (topic, part)
        if k not in self._readers:
            self._readers[k] = self.schemas.latest(f"{topic}-{part}")
        return self._readers[k]

    def decode(self, topic: str, value: bytes | None, part: str = "value") -> DecodedValue:
        """``value`` (a record's value, or its key with ``part="key"``) read as the topic's format."""
        fmt = self.format_of(topic, part)
        if value is None:
            return DecodedValue(None, fmt)
        value = bytes(value)
        try:
            if fmt in PRIMITIVES:
                return DecodedValue(PRIMITIVES[fmt](value), fmt, raw=value)
            return self._framed(topic, value, part, fmt)
        except (ValueError, FramingError) as exc:
            reason = getattr(exc, "reason", None) or str(exc)
            self.errors[(topic, part, _kind(reason))] += 1
            return DecodedValue(None, fmt, getattr(exc, "schema_id", None), str(exc), value)

    def arrow_type(self, topic: str, part: str = "value") -> tuple[Any, bool]:
        """Deprecated (goes in the next release): :func:`kafkaspec.arrow.value_types.value_type`, the
        Arrow type of the topic's decoded values and whether UUIDs need turning into text."""
        warnings.warn(
            "ValueDecoder.arrow_type(topic) is deprecated: use "
            "kafkaspec.arrow.value_types.value_type(decoder, topic)",
            DeprecationWarning,
            stacklevel=2,
        )
        value_types = importlib.import_module("kafkaspec.arrow.value_types")  # the layer above: named as text
        return value_types.value_type(self, topic, part)

    def column_format(self, topic: str, part: str = "value") -> str:
        """The format of the values a typed column holds: the topic's, or with ``auto`` its reader schema's."""
        fmt = self.format_of(topic, part)
        reader = self.reader_schema(topic, part)
        if fmt == "auto" and reader is not None:
            return _TYPE_FORMAT[reader.schema_type]
        return fmt

    def decode_many(self, topic: str, raws: list[bytes | None], part: str = "value") -> list[DecodedValue]:
        """:meth:`decode` of each of ``raws`` (same results, errors counted alike): framed Avro with a
        known schema id goes straight to fastavro, the writer and reader schemas looked up once per id."""
        fmt = self.format_of(topic, part)
        if fmt not in ("auto", "avro"):
            return [self.decode(topic, b, part) for b in raws]
        reader = self.reader_schema(topic, part)
        if reader is not None and reader.schema_type != "AVRO":
            reader = None
        by_id: dict[int, Schema | None] = {}
        out: list[DecodedValue] = []
        append = out.append
        avro: AvroReader | None = None
        for b in raws:
            if b is not None and len(b) >= 5 and b[0] == 0:
                sid = int.from_bytes(b[1:5], "big", signed=True)
                writer = by_id[sid] if sid in by_id else by_id.setdefault(sid, self._avro_schema(sid))
                if writer is not None:
                    if avro is None:
                        avro = self.avro_reader()
                    try:
                        append(DecodedValue(avro.read(b[5:], writer, reader), "avro", sid, None, b))
                        continue
                    except ValueError:
                        pass  # decode() below names the reason and counts it
            append(self.decode(topic, b, part))
        return out

    def decode_avro_batch(self, topic: str, raws: list[bytes | None], part: str = "value") -> list[Any]:
        """The decoded values of ``raws`` (a batch of a topic whose column is Avro), grouped by schema id and
        read by one loop per writer schema (:meth:`~kafkaspec.values.avro.AvroReader.read_many`): None for a null, and
        :data:`~kafkaspec.values.avro.FAILED` where the value is not framed Avro of a known id or does not
        decode; :meth:`decode` of those gives the reason and counts it (nothing is counted here)."""
        from .avro import FAILED

        out: list[Any] = [FAILED] * len(raws)
        reader = self.reader_schema(topic, part)
        if reader is not None and reader.schema_type != "AVRO":
            reader = None
        groups: dict[int, tuple[list[int], list[bytes]]] = {}
        for i, b in enumerate(raws):
            if b is None:
                out[i] = None
            elif len(b) >= 5 and b[0] == 0:
                sid = int.from_bytes(b[1:5], "big", signed=True)
                g = groups.get(sid)
                if g is None:
                    g = groups[sid] = ([], [])
                g[0].append(i)
                g[1].append(b[5:])
        for sid, (where, bodies) in groups.items():
            writer = self._avro_schema(sid)
            if writer is None:
                continue
            try:
                got = self.avro_reader().read_many(bodies, writer, reader)
            except ValueError:
                continue  # the writer or reader schema does not parse: decode() says so per record
            for i, v in zip(where, got):
                out[i] = v
        return out

    def _avro_schema(self, schema_id: int) -> Schema | None:
        """The Avro schema with this id, or None (not Avro, unknown, or the registry failing: decode() says)."""
        try:
            schema = self.schemas.by_id(schema_id)
        except RegistryError:
            return None
        return schema if schema is not None and schema.schema_type == "AVRO" else None

    def decode_key(self, topic: str, key: bytes | None) -> DecodedValue:
        return self.decode(topic, key, "key")

    def _framed(self, topic: str, value: bytes, part: str, fmt: str) -> DecodedValue:
        if fmt == "auto":
            if len(value) < 5 or value[0] != 0:
                return DecodedValue(value, "bytes", raw=value)
        frame = unframe(value)
        try:
            schema = self.schemas.by_id(frame.schema_id)
        except RegistryError as exc:
            raise _WithId(f"schema id {frame.schema_id}: {exc}", frame.schema_id) from None
        if schema is None:
            raise _WithId(
                f"unknown schema id {frame.schema_id} ({self.schemas.where_not()})", frame.schema_id
            )
        found = _TYPE_FORMAT[schema.schema_type]
        if fmt != "auto" and found != fmt:
            raise _WithId(f"schema id {frame.schema_id} is {schema.schema_type}, not {fmt}", frame.schema_id)
        body = value[frame.start :]
        try:
            if found == "avro":
                reader = self.reader_schema(topic, part)
                if reader is not None and reader.schema_type != "AVRO":
                    reader = None
                decoded = self.avro_reader().read(body, schema, reader)
            elif found == "json-schema":
                from .json_schema import conform

                decoded = PRIMITIVES["json"](bytes(body))
                reader = self.reader_schema(topic, part)
                typed_by = reader if reader is not None and reader.schema_type == "JSON" else schema
                conform(decoded, self.json_reader().column(typed_by))
            else:
                indexes, start = message_indexes(value, frame.start)
                reader = self.reader_schema(topic, part)
                if reader is not None and reader.schema_type != "PROTOBUF":
                    reader = None
                decoded = self.protobuf_reader().read(value[start:], schema, indexes, reader)
        except ValueError as exc:
            raise _WithId(str(exc), frame.schema_id) from None
        return DecodedValue(decoded, found, frame.schema_id, raw=value)

    def json_column(self, topic: str, part: str = "value") -> JType:
        """The column type of a topic whose reader schema is a JSON Schema."""
        reader = self.reader_schema(topic, part)
        assert reader is not None and reader.schema_type == "JSON"
        return self.json_reader().column(reader)

    def json_column_value(self, topic: str, value: Any, part: str = "value") -> Any:
        """A decoded JSON Schema value as its topic's Arrow column holds it (untyped parts as JSON text)."""
        from .json_schema import conform

        return conform(value, self.json_column(topic, part), column=True)

    def json_reader(self) -> JsonSchemaReader:
        """The JSON Schema reader of this decoder (its schemas' column types cached in it)."""
        if self._json is None:
            from .json_schema import JsonSchemaReader

            self._json = JsonSchemaReader(self.schemas.version)
        return self._json

    def protobuf_reader(self) -> ProtobufReader:
        """The Protobuf reader of this decoder (its compiled schemas cached in it)."""
        if self._protobuf is None:
            from .protobuf import ProtobufReader

            self._protobuf = ProtobufReader(self.schemas.version)
        return self._protobuf

    def avro_reader(self) -> AvroReader:
        """The Avro reader of this decoder (its parsed schemas cached in it)."""
        if self._avro is None:
            from .avro import AvroReader

            self._avro = AvroReader(self.schemas.version)
        return self._avro


class _WithId(ValueError):
    def __init__(self, reason: str, schema_id: int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.schema_id = schema_id


def _kind(reason: str) -> str:
    """The reason with each number as ``#``, so that errors count by kind."""
    return re.sub(r"-?\d+", "#", reason)[:120]


def decoder(
    log: LogSource | None = None,
    *,
    value_format: str = "auto",
    key_format: str = "auto",
    registry_url: str | None = None,
    formats: dict[str, tuple[str, str]] | None = None,
) -> ValueDecoder:
    """A :class:`ValueDecoder` whose schemas come from ``log``'s ``_schemas`` topic (and the registry at
    ``registry_url``, asked only for what the topic does not hold)."""
    registry = None
    if registry_url:
        from .registry import RegistryClient

        registry = RegistryClient(registry_url)
    store = read_schemas(log) if log is not None else None
    return ValueDecoder(Schemas(store, registry), value_format, key_format, formats)


def jsonable(d: DecodedValue) -> Any:
    """A decoded value as JSON can carry it: bytes as base64, decimals and datetimes as strings."""
    return json.loads(json_text(d.value))
