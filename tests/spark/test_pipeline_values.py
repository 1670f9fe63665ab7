"""``pipeline --decode-values`` (issue 26 item 3): one Parquet dataset per typed topic,
``decoded/<topic>/``, whose ``value_decoded`` is a real column (DuckDB reads
``value_decoded.amount``), with the values that did not fit kept, named and counted."""

from __future__ import annotations

import decimal
import json

import duckdb
import pyarrow.dataset as ds
from support.values import V1, V2, avro_bytes, framed, skey, sval

from kafkaspec import Record
from kafkaspec.logdir import PartitionWriter

PAY = {
    "type": "record",
    "name": "Pay",
    "fields": [
        {"name": "amount", "type": {"type": "bytes", "logicalType": "decimal", "precision": 9, "scale": 2}},
        {"name": "who", "type": "string"},
    ],
}


def test_decode_values_writes_a_typed_dataset_per_topic(spark, tmp_path):
    from kafkaspec.spark.run.pipeline import format_summary, run_pipeline

    data, out = tmp_path / "logs", tmp_path / "out"
    canary = tmp_path / "canary"
    canary.write_text("keep")
    with PartitionWriter(data, "_schemas", 0) as w:
        for subject, version, sid, schema in [
            ("orders-value", 1, 1, V1),
            ("orders-value", 2, 2, V2),
            ("pay-value", 1, 3, PAY),
        ]:
            w.append(
                [Record(key=skey(subject, version), value=sval(subject, version, sid, json.dumps(schema)))]
            )
    with PartitionWriter(data, "orders", 0) as w:
        w.append(
            [
                Record(value=framed(1, avro_bytes(V1, {"id": 1, "coupon": "X"}))),
                Record(value=framed(2, avro_bytes(V2, {"id": 2, "currency": "USD"}))),
                Record(value=b"junk"),
            ]
        )
    for p in (0, 1):
        with PartitionWriter(data, "pay", p) as w:
            w.append(
                [
                    Record(
                        value=framed(3, avro_bytes(PAY, {"amount": decimal.Decimal(f"{p}1.25"), "who": "a"}))
                    )
                ]
            )
    with PartitionWriter(data, "plain", 0) as w:
        w.append([Record(value=b"text")])

    summary = run_pipeline(spark, str(data), str(out), decode_values=True)

    assert sorted(p.name for p in (out / "decoded").iterdir()) == ["orders", "pay"]  # no subject, no dataset
    pay = ds.dataset(out / "decoded" / "pay", partitioning="hive").to_table()
    assert str(pay.schema.field("value_decoded").type) == "struct<amount: decimal128(9, 2), who: string>"
    got = duckdb.sql(
        f"select sum(value_decoded.amount) as total from read_parquet('{out}/decoded/pay/*/*.parquet')"
    )
    assert got.fetchall()[0][0] == decimal.Decimal("12.50")
    orders = ds.dataset(out / "decoded" / "orders", partitioning="hive").to_table().sort_by("offset")
    assert orders.column("value_decoded").to_pylist() == [
        {"id": 1, "currency": "EUR"},
        {"id": 2, "currency": "USD"},
        None,
    ]
    assert (
        orders.column("value_error").to_pylist()[:2] == [None, None]
        and orders.column("value_error")[2].is_valid
    )
    assert summary.decoded == {
        "orders": {"type": "struct<id: int64, currency: string>", "errors": 1},
        "pay": {"type": "struct<amount: decimal128(9, 2), who: string>", "errors": 0},
    }
    assert "orders: struct<id: int64, currency: string>  (1 values did not fit)" in format_summary(summary)
    assert summary.records == 9  # records/ as ever, every record with its bytes
    assert canary.read_text() == "keep"
