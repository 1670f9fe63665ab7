"""A stream of typed values (issue 26): ``valueFormat=avro`` / ``auto`` on a directory with a
``_schemas`` topic, batches appended mid-stream, one of them under a schema version registered after
the stream started. The column type stays the one the stream started with (v1's), and the record
under v2 decodes into it (Avro schema resolution), rather than being an unknown id. Driven as Spark's
driver and tasks call the reader (see test_stream_offsets.py)."""

from __future__ import annotations

import json

import pyarrow as pa
import pytest
from support.values import V1, V2, avro_bytes, framed, skey, sval

from kafkaspec import Record, logdir
from kafkaspec.spark.read.options import ReadOptions
from kafkaspec.spark.read.source import _with_value_schemas
from kafkaspec.spark.stream.reader import KafkaLogStreamReader


def _reader(path, **options):
    opts = _with_value_schemas(str(path), ReadOptions.parse({k: str(v) for k, v in options.items()}))
    return KafkaLogStreamReader(str(path), opts)


def _decoded(reader, start, end):
    out = []
    for p in reader.partitions(start, end):
        for b in reader.read(p):
            t = pa.Table.from_batches([b])
            out += zip(t["offset"].to_pylist(), t["value_decoded"].to_pylist(), t["value_error"].to_pylist())
    return out


@pytest.mark.parametrize("fmt", ["avro", "auto"])
def test_batches_appended_mid_stream_decode_under_a_version_registered_later(tmp_path, fmt):
    schemas = logdir.PartitionWriter(tmp_path, "_schemas", 0)
    schemas.append([Record(key=skey("orders-value", 1), value=sval("orders-value", 1, 1, json.dumps(V1)))])
    schemas.segment.fh.flush()
    orders = logdir.PartitionWriter(tmp_path, "orders", 0)
    orders.append([Record(key=b"1", value=framed(1, avro_bytes(V1, {"id": 1, "coupon": "X"})))])
    orders.segment.fh.flush()
    canary = tmp_path / "canary"
    canary.write_text("keep")

    reader = _reader(tmp_path, subscribe="orders", valueFormat=fmt)
    start = reader.initialOffset()
    end = reader.latestOffset(start, reader.getDefaultReadLimit())
    assert _decoded(reader, start, end) == [(0, {"id": 1, "coupon": "X"}, None)]

    # mid-stream: v1 again, then v2 registered after the stream started and a record under it
    orders.append([Record(key=b"2", value=framed(1, avro_bytes(V1, {"id": 2, "coupon": None})))])
    schemas.append([Record(key=skey("orders-value", 2), value=sval("orders-value", 2, 2, json.dumps(V2)))])
    schemas.segment.fh.flush()
    orders.append(
        [Record(key=b"3", value=framed(2, avro_bytes(V2, {"id": 3, "currency": "USD"})))], compression="lz4"
    )
    orders.segment.fh.flush()
    start, end = end, reader.latestOffset(end, reader.getDefaultReadLimit())
    got = _decoded(reader, start, end)
    # v1's column type (id, coupon): the v2 record's id decodes, its coupon (not in v2) is null
    assert got == [(1, {"id": 2, "coupon": None}, None), (2, {"id": 3, "coupon": None}, None)]
    schemas.close()
    orders.close()
    assert canary.read_text() == "keep"


def test_spark_read_stream_decodes_a_version_registered_after_it_started(spark, tmp_path):
    root = tmp_path / "data"
    canary = tmp_path / "canary"
    canary.write_text("keep")
    schemas = logdir.PartitionWriter(root, "_schemas", 0)
    schemas.append([Record(key=skey("orders-value", 1), value=sval("orders-value", 1, 1, json.dumps(V1)))])
    schemas.segment.fh.flush()
    orders = logdir.PartitionWriter(root, "orders", 0)
    orders.append([Record(key=b"1", value=framed(1, avro_bytes(V1, {"id": 1, "coupon": "X"})))])
    orders.segment.fh.flush()
    stream = (
        spark.readStream.format("kafkalog")
        .option("subscribe", "orders")
        .option("valueFormat", "auto")
        .load(str(root))
    )
    assert stream.schema["value_decoded"].dataType.simpleString() == "struct<id:bigint,coupon:string>"
    q = (
        stream.select("offset", "value_decoded.id", "value_decoded.coupon", "value_error")
        .writeStream.format("memory")
        .queryName("typed_stream")
        .option("checkpointLocation", str(tmp_path / "ckpt"))
        .start()
    )
    try:
        q.processAllAvailable()
        schemas.append(
            [Record(key=skey("orders-value", 2), value=sval("orders-value", 2, 2, json.dumps(V2)))]
        )
        schemas.segment.fh.flush()
        orders.append([Record(key=b"3", value=framed(2, avro_bytes(V2, {"id": 3, "currency": "USD"})))])
        orders.segment.fh.flush()
        q.processAllAvailable()
        rows = [tuple(r) for r in spark.sql("SELECT * FROM typed_stream ORDER BY offset").collect()]
    finally:
        q.stop()
        schemas.close()
        orders.close()
    assert rows == [(0, 1, "X", None), (1, 3, None, None)]
    assert canary.read_text() == "keep"
