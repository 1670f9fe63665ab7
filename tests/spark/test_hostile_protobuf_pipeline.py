"""``pipeline --decode-values`` over a ``_schemas`` topic whose Protobuf references are named to be run
as Python (issue 39 item 1): on Spark's executors too, nothing from the data runs; the schema's records
keep their bytes with an error naming the reference, the pipeline reports them."""

from __future__ import annotations

import pyarrow.dataset as ds
import pytest
from support.values import framed, skey, sval

from kafkaspec import Record
from kafkaspec.logdir import PartitionWriter

pytestmark = pytest.mark.hostile

TRICKS = ("grpc_tools/__init__.py", "sitecustomize.py", "google/protobuf/__init__.py")


def test_reference_names_never_run_in_the_pipeline(spark, tmp_path):
    from kafkaspec.spark.run.pipeline import run_pipeline

    data, out = tmp_path / "logs", tmp_path / "out"
    (tmp_path / "canary").write_text("keep")
    markers = [tmp_path / f"marker-{i}" for i in range(len(TRICKS))]
    main = 'syntax = "proto3";\npackage evil;\nmessage M { int64 id = 1; }\n'
    with PartitionWriter(data, "_schemas", 0) as w:
        for i, (trick, marker) in enumerate(zip(TRICKS, markers, strict=True)):
            python = f"import pathlib; pathlib.Path({str(marker)!r}).write_text('ran')\n"
            w.append(
                [
                    Record(
                        key=skey(f"payload{i}", 1),
                        value=sval(f"payload{i}", 1, 100 + i, python, schema_type="PROTOBUF"),
                    )
                ]
            )
            w.append(
                [
                    Record(
                        key=skey("evil-value", i + 1),
                        value=sval(
                            "evil-value",
                            i + 1,
                            10 + i,
                            main,
                            schema_type="PROTOBUF",
                            references=[{"name": trick, "subject": f"payload{i}", "version": 1}],
                        ),
                    )
                ]
            )
    with PartitionWriter(data, "evil", 0) as w:
        w.append([Record(value=framed(10 + i, b"\x00\x08\x01")) for i in range(len(TRICKS))])

    summary = run_pipeline(spark, str(data), str(out), decode_values=True)

    assert [m.name for m in markers if m.exists()] == []
    assert summary.records == 2 * len(TRICKS) + len(TRICKS)
    assert summary.decoded["evil"]["errors"] == len(TRICKS)
    evil = ds.dataset(out / "decoded" / "evil", partitioning="hive").to_table().sort_by("offset")
    errors = evil.column("value_error").to_pylist()
    for i, trick in enumerate(TRICKS):
        assert errors[i] == (
            f"schema id {10 + i} references {trick!r}, which is not a relative .proto import path "
            f"(the reference to subject 'payload{i}' version 1)"
        )
    assert (tmp_path / "canary").read_text() == "keep"
