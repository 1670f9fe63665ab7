"""Typed keys and values: records' bytes decoded with their schemas.

One job per module:

* :mod:`.schemas_topic`: the Schema Registry's ``_schemas`` topic replayed into subjects, versions
  and ids (soft and hard deletes as the registry applies them);
* :mod:`.registry`: a registry URL as a second source (``GET /schemas/ids/{id}``, cached);
* :mod:`.framing`: the registry's wire framing (magic byte, schema id, Protobuf message indexes);
* :mod:`.avro`: registry-framed Avro, through fastavro (the ``values`` extra);
* :mod:`.protobuf`: registry-framed Protobuf, its ``.proto`` compiled by protoc (grpcio-tools);
* :mod:`.json_schema`: registry-framed JSON Schema values typed and checked by their schema;
* :mod:`.protobuf_synth`: a synthetic topic of Protobuf values (its `_schemas` records and a value writer);
* :mod:`.primitives`: Kafka's own serializers (string, int, long, double, UUID), JSON, bytes;
* :mod:`.decoder`: the public API, ``decoder(log).decode(topic, value)``, with the formats per topic;
* :mod:`.bounds`: how large and deep a schema's column type may grow.

No module here loads pyarrow: the Arrow types and columns of decoded values are
:mod:`kafkaspec.arrow.value_types` and :mod:`kafkaspec.arrow.value_columns`.
"""

from __future__ import annotations

from . import _moved
from .decoder import FORMATS, DecodedValue, Schemas, ValueDecoder, decoder, jsonable
from .framing import Frame, FramingError, message_indexes, unframe
from .registry import RegistryClient, RegistryError
from .schemas_topic import SCHEMAS_TOPIC, Reference, Schema, SchemaStore, SchemaVersion, read_schemas

__all__ = [
    "FORMATS",
    "SCHEMAS_TOPIC",
    "DecodedValue",
    "Frame",
    "FramingError",
    "Reference",
    "RegistryClient",
    "RegistryError",
    "Schema",
    "SchemaStore",
    "SchemaVersion",
    "Schemas",
    "ValueDecoder",
    "decoder",
    "jsonable",
    "message_indexes",
    "read_schemas",
    "unframe",
]

_moved.install()
