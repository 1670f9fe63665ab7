"""The columns of the ``kafkalog`` source: Spark's Kafka source columns first, then batch-level ones.

The record columns are derived from the one Arrow schema, :data:`kafkaspec.arrow.schema.SCHEMA`, that
every Arrow reader yields, and the decoded payloads' and offset commits' from theirs
(:mod:`kafkaspec.arrow.payload_columns`); the audit view's columns are DDL strings. The Spark schemas are built from
these without a JVM, and the Arrow schemas with PySpark's own converter, which is what the Python data
source worker checks yielded batches against.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...arrow.payload_columns import OFFSETS_SCHEMA, PAYLOAD_FIELDS
from ...arrow.schema import SCHEMA

if TYPE_CHECKING:
    import pyarrow as pa
    from pyspark.sql.types import StructType


def _ddl(arrow_type: pa.DataType) -> str:
    """The Spark DDL type of an Arrow type of :data:`SCHEMA` (the inverse of Spark's Arrow converter)."""
    import pyarrow as pa

    if pa.types.is_list(arrow_type):
        item = arrow_type.value_type
        return f"array<struct<{','.join(f'{f.name}:{_ddl(f.type)}' for f in item)}>>"
    kinds = {
        pa.binary(): "binary",
        pa.string(): "string",
        pa.int32(): "int",
        pa.int64(): "bigint",
        pa.bool_(): "boolean",
        pa.timestamp("us", tz="UTC"): "timestamp",
    }
    return kinds[arrow_type]


#: the ``kafkalog`` record columns as (name, DDL type): Spark's Kafka source columns, then the batch's
RECORD_COLUMNS = tuple((f.name, _ddl(f.type)) for f in SCHEMA)

#: ``option("view", "batches")``: one row per batch (or skipped byte range), for audits
AUDIT_COLUMNS = (
    ("topic", "string"),
    ("partition", "int"),
    ("segment", "string"),
    ("position", "bigint"),
    ("size", "bigint"),
    ("magic", "int"),
    ("compression", "string"),
    ("baseOffset", "bigint"),
    ("lastOffset", "bigint"),
    ("recordCount", "int"),
    ("uncompressedSize", "bigint"),
    ("isTransactional", "boolean"),
    ("isControl", "boolean"),
    ("producerId", "bigint"),
    ("transaction", "string"),  # none | committed | aborted | open | held | marker
    ("crcStatus", "string"),  # ok | mismatch | unchecked | corrupt | partial | unused
    ("error", "string"),
)

#: ``option("decode", "auto")``: Kafka's own payloads decoded (kafkaspec.payloads), after the record columns
DECODE_COLUMNS = tuple((f.name, _ddl(f.type)) for f in PAYLOAD_FIELDS)

#: ``option("view", "offsets")``: one row per offset commit (or its tombstone) in __consumer_offsets
OFFSETS_COLUMNS = tuple((f.name, _ddl(f.type)) for f in OFFSETS_SCHEMA)


def struct_type(columns: Sequence[tuple[str, str]]) -> StructType:
    """The Spark ``StructType`` of these columns (built without a JVM, so executors can use it)."""
    from pyspark.sql import types as T

    simple = {
        "binary": T.BinaryType(),
        "string": T.StringType(),
        "int": T.IntegerType(),
        "bigint": T.LongType(),
        "timestamp": T.TimestampType(),
        "boolean": T.BooleanType(),
    }
    headers = T.ArrayType(
        T.StructType([T.StructField("key", T.StringType()), T.StructField("value", T.BinaryType())])
    )
    return T.StructType([T.StructField(name, simple.get(kind, headers)) for name, kind in columns])


def arrow_schema(columns: Sequence[tuple[str, str]]) -> pa.Schema:
    """The Arrow schema Spark expects for these columns (timestamps in UTC microseconds)."""
    from pyspark.sql.pandas.types import to_arrow_schema

    return to_arrow_schema(struct_type(columns), timezone="UTC")
