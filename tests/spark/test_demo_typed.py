"""``make demo``'s job on a small synth directory: ``pipeline --decode-values`` writes one typed Parquet
dataset for each of synth's registry-framed topics (Avro, JSON Schema, Protobuf), from its ``_schemas``
topic alone, and each row's ``value_decoded`` is what :mod:`kafkaspec.values` reads from that record's
bytes (the values themselves are checked against independent libraries in
tests/logdir/test_synth_typed.py)."""

from __future__ import annotations

import pyarrow.dataset as ds

from kafkaspec.logdir import open_log, synth
from kafkaspec.values import decoder

TYPES = {
    "invoices": "struct<id: int64, customer: string, amount_cents: int64, currency: string>",
    "profiles": "struct<id: int64, name: string, age: int64, country: string>",
    "shipments": "struct<id: int64, carrier: string, weight_grams: int64, items: list<item: string>, region: string>",
}


def test_the_demo_writes_typed_parquet_for_each_typed_topic(spark, tmp_path):
    from kafkaspec.spark.run.pipeline import format_summary, run_pipeline

    data, out = tmp_path / "logs", tmp_path / "out"
    canary = tmp_path / "canary"
    canary.write_text("keep")
    synth(data, size_mb=1, seed=7)

    summary = run_pipeline(spark, str(data), str(out), decode_values=True)

    assert summary.decoded == {topic: {"type": kind, "errors": 0} for topic, kind in TYPES.items()}
    text = format_summary(summary)
    for topic, kind in TYPES.items():
        assert f"{topic}: {kind}" in text
    log = open_log(data)
    dec = decoder(log)
    for topic, kind in TYPES.items():
        table = ds.dataset(out / "decoded" / topic, partitioning="hive").to_table().sort_by("offset")
        written = str(table.schema.field("value_decoded").type)
        assert written.replace("list<element:", "list<item:") == kind  # Parquet calls a list's item "element"
        assert table.column("value_error").null_count == len(table)
        (part,) = [p for p in log.partitions() if p.topic == topic]
        expected = [dec.decode(topic, rec.value).value for _, rec in part.records()]
        assert len(expected) == len(table) >= 100
        got = table.column("value_decoded").to_pylist()
        assert [{k: v for k, v in row.items() if v is not None} for row in got] == expected
    assert canary.read_text() == "keep"
