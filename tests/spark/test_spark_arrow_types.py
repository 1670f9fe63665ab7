"""A decoded column's Arrow type as Spark's Python worker checks it (``spark_type``) is worked out in
:mod:`kafkaspec.arrow.value_columns` once, and the Spark type derived from it; it must be exactly what
PySpark's converter makes of the Arrow type through Spark's type and back, or the worker refuses the
batches. No JVM: PySpark's converters are plain Python."""

from __future__ import annotations

import pytest

pa = pytest.importorskip("pyarrow")
pytest.importorskip("pyspark")

from pyspark.sql.pandas.types import from_arrow_type, to_arrow_type  # noqa: E402

from kafkaspec.arrow.value_columns import spark_type, without_times  # noqa: E402

RECORD = pa.struct(
    [
        pa.field("id", pa.int64()),
        pa.field("name", pa.string(), nullable=False),
        pa.field("tags", pa.list_(pa.string())),
        pa.field("scores", pa.map_(pa.string(), pa.float32())),
        pa.field("at", pa.timestamp("ms", tz="UTC")),
        pa.field("local", pa.timestamp("us")),
        pa.field("day", pa.date32()),
        pa.field("price", pa.decimal128(12, 3)),
        pa.field("sha", pa.binary(32)),
        pa.field("nested", pa.list_(pa.struct([("k", pa.string()), ("v", pa.list_(pa.int32()))]))),
    ]
)

TYPES = [
    pa.bool_(),
    pa.int8(),
    pa.int16(),
    pa.int32(),
    pa.int64(),
    pa.float32(),
    pa.float64(),
    pa.string(),
    pa.large_string(),
    pa.binary(),
    pa.binary(16),
    pa.large_binary(),
    pa.date32(),
    pa.timestamp("ms", tz="UTC"),
    pa.timestamp("us", tz="UTC"),
    pa.timestamp("ms"),
    pa.timestamp("us"),
    pa.decimal128(38, 10),
    pa.decimal128(5, 0),
    pa.list_(pa.int32()),
    pa.list_(pa.field("x", pa.int32(), nullable=False)),
    pa.large_list(pa.string()),
    pa.map_(pa.string(), pa.int64()),
    pa.map_(pa.string(), pa.field("value", pa.int64(), nullable=False)),
    RECORD,
    without_times(pa.struct([("t", pa.time32("ms")), ("u", pa.list_(pa.time64("us")))])),
]


@pytest.mark.parametrize("t", TYPES, ids=str)
def test_spark_type_is_pysparks_round_trip(t):
    want = to_arrow_type(from_arrow_type(t, prefer_timestamp_ntz=True), timezone="UTC")
    got = spark_type(t)
    assert got == want
    assert str(got) == str(want)  # field names and nullability too (== ignores list field names)
    assert from_arrow_type(got, prefer_timestamp_ntz=True) == from_arrow_type(t, prefer_timestamp_ntz=True)


@pytest.mark.parametrize(
    "t", [pa.uint32(), pa.uint64(), pa.float16(), pa.date64(), pa.struct([("n", pa.uint8())])]
)
def test_types_spark_has_no_match_of_are_refused(t):
    with pytest.raises(TypeError, match="Spark has no type"):
        spark_type(t)
