"""The cluster path for real: the pipeline on a standalone master + 2 workers, reading its input from an
S3 server, equals local mode on the local copy."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pyarrow.compute as pc
import pyarrow.dataset as ds
import pytest
from support.cluster import StandaloneCluster
from support.s3 import SECRET_KEY, start_server

from kafkaspec.spark.run.pipeline import run_pipeline

pytestmark = [
    pytest.mark.slow,
    pytest.mark.spark,
    # ~75 s on a 2-core box (three extra JVMs): `make test` runs it by default (CLUSTER_TEST=1);
    # a plain `pytest` run skips it unless KAFKASPEC_CLUSTER_TEST=1
    pytest.mark.skipif(
        os.environ.get("KAFKASPEC_CLUSTER_TEST", "0") in ("", "0"),
        reason="starts a Spark standalone cluster; set KAFKASPEC_CLUSTER_TEST=1 or run `make cluster-test`",
    ),
]


def _table(path, sort, segment_prefix=None):
    table = ds.dataset(str(path), format="parquet", partitioning="hive").to_table()
    if segment_prefix is not None:  # the input's location, the one column allowed to differ
        i = table.column_names.index("segment")
        table = table.set_column(
            i, "segment", pc.replace_substring(table["segment"], segment_prefix, "INPUT")
        )
    return table.select(sorted(table.column_names)).sort_by([(c, "ascending") for c in sort])


def test_pipeline_on_standalone_cluster_reading_s3_equals_local(spark, synth_dir, tmp_path, monkeypatch):
    """The input is on the S3 server the test starts, not on a disk the processes share; the cluster's
    workers start without any AWS variable: the driver's environment is all the job is given."""
    local_out = tmp_path / "local"
    run_pipeline(spark, str(synth_dir), str(local_out), split_size="256k")
    cluster_out = tmp_path / "cluster"
    for key in [k for k in os.environ if k.startswith("AWS_")]:
        monkeypatch.delenv(key)  # the cluster's daemons (started from this environment) get none
    s3 = start_server()
    try:
        input_uri = s3.upload(synth_dir, s3.new_bucket(), "backup/logs")
        with StandaloneCluster(tmp_path / "cluster-work", workers=2) as url:
            env = dict(os.environ, PYSPARK_PYTHON=sys.executable, **s3.env())
            done = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "kafkaspec.cli",
                    "pipeline",
                    input_uri,
                    str(cluster_out),
                    "--master",
                    url,
                    "--split-size",
                    "256k",
                    "--memory",
                    "512m",
                ],
                capture_output=True,
                text=True,
                env=env,
                timeout=300,
            )
            assert done.returncode == 0, done.stderr[-5000:]
    finally:
        s3.stop()
    assert f"master {url}" in done.stdout and input_uri in done.stdout
    assert SECRET_KEY not in done.stdout + done.stderr
    sort = ["topic", "partition", "offset"]
    local_prefix = str(synth_dir)
    assert _table(cluster_out / "records", sort, input_uri).equals(
        _table(local_out / "records", sort, local_prefix)
    )
    audit_sort = ["segment", "position"]
    assert _table(cluster_out / "batches", audit_sort, input_uri).equals(
        _table(local_out / "batches", audit_sort, local_prefix)
    )
    a, b = (json.loads((d / "summary.json").read_text()) for d in (local_out, cluster_out))
    for key in ("records", "batches", "bytes", "per_partition", "transactions", "codecs"):
        assert a[key] == b[key], key
    assert [{**c, "segment": c["segment"].replace(local_prefix, "INPUT")} for c in a["corrupt"]] == [
        {**c, "segment": c["segment"].replace(input_uri, "INPUT")} for c in b["corrupt"]
    ]
