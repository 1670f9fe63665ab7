"""The bounds a schema is held to before it gets a column type: what a hostile ``_schemas`` topic can
make the readers and :mod:`kafkaspec.arrow.value_types` build is limited by these two numbers.
"""

from __future__ import annotations

__all__ = ["MAX_DEPTH", "MAX_TYPE_NODES"]

#: the most nodes a column type may have (each struct, list and leaf one), counted expanded: a JSON
#: Schema's ``$ref`` is resolved once, but two properties that ``$ref`` one definition hold two copies
#: of its type in the Arrow type, and 40 levels of definitions that each ``$ref`` the one below twice
#: would be 2^40 nodes (Avro's and Protobuf's named types that share each other alike). A JSON Schema
#: past it has no column type (its records get an error naming it); an Avro or Protobuf one, JSON text.
MAX_TYPE_NODES = 100_000
#: the deepest a schema is followed: each nested ``properties``/``items``/``anyOf`` level and each ``$ref``
#: (within the schema or to a referenced one) counts one. Deeper is an error of its records (a chain of
#: 3,000 referenced schemas ran the stack out); the value check and the Arrow type recurse as deep.
#: Both bounds are the JSON Schema reader's, the Avro and Protobuf Arrow types' too.
MAX_DEPTH = 200
