"""The ``kafkalog`` record columns, once: Spark's Kafka source columns, then the batch's.

Every Arrow reader of :mod:`kafkaspec.arrow` yields RecordBatches of :data:`SCHEMA`, and the Spark
source's record columns (:mod:`kafkaspec.spark.read.schema`) are derived from it, so the two cannot
drift apart. The types are those Spark's Arrow converter gives its own columns (timestamps as UTC
microseconds), which is what the Python data source worker checks yielded batches against.

Needs pyarrow (``kafkaspec[spark]``).
"""

from __future__ import annotations

from ..codec.extras import missing

try:
    import pyarrow as pa
except ModuleNotFoundError as exc:
    raise missing(exc, "spark", "Arrow output (to_arrow, to_arrow_batches)") from None

#: a record's headers: (key, value) pairs in their order
HEADERS_TYPE = pa.list_(pa.struct([("key", pa.string()), ("value", pa.binary())]))

#: exactly the columns (names, order, types) of Spark's Kafka source
KAFKA_FIELDS = [
    ("key", pa.binary()),
    ("value", pa.binary()),
    ("topic", pa.string()),
    ("partition", pa.int32()),
    ("offset", pa.int64()),
    ("timestamp", pa.timestamp("us", tz="UTC")),
    ("timestampType", pa.int32()),
    ("headers", HEADERS_TYPE),
]

#: one value per batch, repeated on each of its records
BATCH_FIELDS = [
    ("magic", pa.int32()),
    ("compression", pa.string()),
    ("producerId", pa.int64()),
    ("producerEpoch", pa.int32()),
    ("baseSequence", pa.int32()),
    ("isTransactional", pa.bool_()),
    ("isControl", pa.bool_()),
    ("partitionLeaderEpoch", pa.int32()),
    ("segment", pa.string()),
    ("batchPosition", pa.int64()),
]

#: the ``kafkalog`` record columns
SCHEMA = pa.schema(KAFKA_FIELDS + BATCH_FIELDS)
