"""Every Avro logical type through a Spark read of the ``kafkalog`` source (issue 26): Spark 4.0 has
no TIME type, so time-millis / time-micros arrive as the int milliseconds / long microseconds of the
day Avro stores; every other logical type has a Spark type of its own. The values are written by
fastavro and must come back exactly as fastavro reads them."""

from __future__ import annotations

import datetime
import decimal
import io
import json
import uuid

import fastavro
import pytest
from support.values import framed, skey, sval

from kafkaspec import Record
from kafkaspec.logdir import PartitionWriter

LOGICAL = {
    "type": "record",
    "name": "AllLogical",
    "fields": [
        {
            "name": "dec_bytes",
            "type": {"type": "bytes", "logicalType": "decimal", "precision": 12, "scale": 3},
        },
        {
            "name": "dec_fixed",
            "type": {
                "type": "fixed",
                "name": "D8",
                "size": 8,
                "logicalType": "decimal",
                "precision": 18,
                "scale": 4,
            },
        },
        {"name": "ts_ms", "type": {"type": "long", "logicalType": "timestamp-millis"}},
        {"name": "ts_us", "type": {"type": "long", "logicalType": "timestamp-micros"}},
        {"name": "lts_ms", "type": {"type": "long", "logicalType": "local-timestamp-millis"}},
        {"name": "lts_us", "type": {"type": "long", "logicalType": "local-timestamp-micros"}},
        {"name": "day", "type": {"type": "int", "logicalType": "date"}},
        {"name": "t_ms", "type": {"type": "int", "logicalType": "time-millis"}},
        {"name": "t_us", "type": {"type": "long", "logicalType": "time-micros"}},
        {"name": "id", "type": {"type": "string", "logicalType": "uuid"}},
        {"name": "span", "type": {"type": "fixed", "name": "Dur", "size": 12, "logicalType": "duration"}},
        {"name": "maybe_t", "type": ["null", {"type": "int", "logicalType": "time-millis"}], "default": None},
    ],
}

UTC = datetime.UTC
DATA = [
    {
        "dec_bytes": decimal.Decimal("-123456789.012"),
        "dec_fixed": decimal.Decimal("12345678901234.5678"),
        "ts_ms": datetime.datetime(2026, 1, 2, 3, 4, 5, 678000, tzinfo=UTC),
        "ts_us": datetime.datetime(1969, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
        "lts_ms": datetime.datetime(2026, 3, 29, 2, 30, 0, 123000),  # a wall-clock time no DST shift may move
        "lts_us": datetime.datetime(2000, 2, 29, 12, 0, 0, 1),
        "day": datetime.date(1900, 1, 1),
        "t_ms": datetime.time(23, 59, 59, 999000),
        "t_us": datetime.time(0, 0, 0, 1),
        "id": uuid.UUID("12345678-1234-5678-1234-567812345678"),
        "span": (1).to_bytes(4, "little") + (2).to_bytes(4, "little") + (3).to_bytes(4, "little"),
        "maybe_t": datetime.time(12, 0),
    },
    {
        "dec_bytes": decimal.Decimal("0.001"),
        "dec_fixed": decimal.Decimal("-0.0001"),
        "ts_ms": datetime.datetime(1970, 1, 1, tzinfo=UTC),
        "ts_us": datetime.datetime(2262, 4, 11, tzinfo=UTC),
        "lts_ms": datetime.datetime(1970, 1, 1),
        "lts_us": datetime.datetime(9999, 12, 31, 23, 59, 59, 999999),
        "day": datetime.date(9999, 12, 31),
        "t_ms": datetime.time(0),
        "t_us": datetime.time(23, 59, 59, 999999),
        "id": uuid.UUID(int=0),
        "span": bytes(12),
        "maybe_t": None,
    },
]


def _fastavro_bytes(datum: dict) -> bytes:
    out = io.BytesIO()
    fastavro.schemaless_writer(out, fastavro.parse_schema(LOGICAL), datum)
    return out.getvalue()


def _fastavro_read(body: bytes) -> dict:
    return fastavro.schemaless_reader(io.BytesIO(body), fastavro.parse_schema(LOGICAL))


def _micros_of_day(t: datetime.time) -> int:
    return ((t.hour * 60 + t.minute) * 60 + t.second) * 1_000_000 + t.microsecond


@pytest.fixture(scope="module")
def logical_dir(tmp_path_factory):
    root = tmp_path_factory.mktemp("logical")
    with PartitionWriter(root, "_schemas", 0) as w:
        w.append(
            [Record(key=skey("moments-value", 1), value=sval("moments-value", 1, 1, json.dumps(LOGICAL)))]
        )
    with PartitionWriter(root, "moments", 0) as w:
        w.append([Record(value=framed(1, _fastavro_bytes(d))) for d in DATA])
    return root


def test_every_logical_type_reads_with_its_values_exact(spark, logical_dir):
    df = (
        spark.read.format("kafkalog")
        .option("subscribe", "moments")
        .option("valueFormat", "avro")
        .load(str(logical_dir))
    )
    assert df.schema["value_decoded"].dataType.simpleString() == (
        "struct<dec_bytes:decimal(12,3),dec_fixed:decimal(18,4),ts_ms:timestamp,ts_us:timestamp,"
        "lts_ms:timestamp_ntz,lts_us:timestamp_ntz,day:date,t_ms:int,t_us:bigint,id:string,span:binary,"
        "maybe_t:int>"
    )
    # Spark's session zone must not move a value: compare instants as epoch microseconds in SQL
    rows = (
        df.orderBy("offset")
        .selectExpr(
            "value",
            "value_error",
            "value_decoded.*",
            "unix_micros(value_decoded.ts_ms) AS ts_ms_us",
            "unix_micros(value_decoded.ts_us) AS ts_us_us",
        )
        .collect()
    )
    assert len(rows) == len(DATA)
    for row, written in zip(rows, DATA):
        assert row.value_error is None
        want = _fastavro_read(bytes(row.value)[5:])
        assert want == written or want["ts_us"] == written["ts_us"]  # what fastavro reads is what it wrote
        epoch = datetime.datetime(1970, 1, 1, tzinfo=UTC)
        assert row.dec_bytes == want["dec_bytes"] and row.dec_fixed == want["dec_fixed"]
        assert row.ts_ms_us == (want["ts_ms"] - epoch) // datetime.timedelta(microseconds=1)
        assert row.ts_us_us == (want["ts_us"] - epoch) // datetime.timedelta(microseconds=1)
        assert row.lts_ms == want["lts_ms"] and row.lts_us == want["lts_us"]
        assert row.day == want["day"]
        assert row.t_ms == _micros_of_day(want["t_ms"]) // 1000
        assert row.t_us == _micros_of_day(want["t_us"])
        assert row.id == str(want["id"])
        assert bytes(row.span) == want["span"]
        assert row.maybe_t == (None if want["maybe_t"] is None else _micros_of_day(want["maybe_t"]) // 1000)
