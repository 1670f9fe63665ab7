"""A Delta run SIGKILLed on S3 (moto) after its tasks wrote data files left files no commit references, for
good. Each run now marks the table on the store (``<dest>/.kafkaspec-runs/<table>/<run>``, an object
holding its owner's proof, :mod:`kafkaspec.logdir.store.runs`), and the next run on the table deletes a
dead run's unreferenced files; while a run lives, its files are never touched."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time

import pytest
from support.tables import consumer_rows

from kafkaspec import Record, logdir
from kafkaspec.tables import write_table

pytestmark = pytest.mark.hostile


def _records(local, n, seed):
    """Records of random values: with ``--target-file-mb 1`` a run writes files before it has read all."""
    rng = random.Random(seed)
    with logdir.PartitionWriter(local, "orders", 0) as w:
        for i in range(0, n, 500):
            w.append(
                [Record(key=b"k%d" % j, value=rng.randbytes(200), timestamp=j) for j in range(i, i + 500)]
            )


#: a Delta run whose data files are written by tasks, as Spark's executors write them (delta-rs, on the
#: path without Spark, completes its uploads to a store only as it commits: a kill leaves no file there)
_TASKS = (
    "import sys; from kafkaspec.tables.files import write_table_tasks; "
    "write_table_tasks(sys.argv[1], sys.argv[2], lambda fn, tasks: [fn(t) for t in tasks], "
    "format='delta', target_file_mb=1)"
)


def _run(local, dest, **env):
    return subprocess.Popen(
        [sys.executable, "-c", _TASKS, str(local), dest],
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **env},
    )


def _paused(proc, point="written"):
    line = proc.stderr.readline()
    assert line.strip() == f"paused at {point}", line + proc.stderr.read()


def _table(dest):
    from deltalake import DeltaTable

    return DeltaTable(f"{dest}/orders", storage_options={"AWS_ALLOW_HTTP": "true"})


def _rows(dest):
    t = _table(dest).to_pyarrow_table()
    return sorted(
        zip(*(t.column(c).to_pylist() for c in ("topic", "partition", "offset", "value")), strict=True)
    )


def _data_files(s3, dest):
    from pyarrow import fs as pafs

    root = dest.removeprefix("s3://") + "/orders"
    found = s3.filesystem().get_file_info(pafs.FileSelector(root, recursive=True))
    return {
        i.path for i in found if i.is_file and i.path.endswith(".parquet") and "/_delta_log/" not in i.path
    }


def _referenced(dest):
    return {u.removeprefix("s3://") for u in _table(dest).file_uris()}


def _clock_past(s3, dest, files):
    """Wait (bounded) until the store's clock, in its whole seconds, is past the times of ``files``: a
    run marking in the same second as a dead run's last file leaves that file to the run after it."""
    fs = s3.filesystem()
    last = max(i.mtime for i in fs.get_file_info(sorted(files)))
    probe = dest.removeprefix("s3://").split("/")[0] + "/clock-probe"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with fs.open_output_stream(probe) as f:
            f.write(b"now")
        if fs.get_file_info(probe).mtime > last:
            return
        time.sleep(0.2)
    raise AssertionError(f"the store's clock stayed at {last}")


def _markers(s3, dest):
    from pyarrow import fs as pafs

    root = dest.removeprefix("s3://") + "/.kafkaspec-runs/orders"
    return [i.base_name for i in s3.filesystem().get_file_info(pafs.FileSelector(root, allow_not_found=True))]


def test_a_killed_delta_run_on_s3_is_cleaned_after_and_a_live_ones_files_are_not(s3_env, tmp_path):
    local, canary = tmp_path / "logs", tmp_path / "canary"
    canary.write_text("keep")
    _records(local, 1000, 1)
    dest = f"s3://{s3_env.new_bucket()}/lake"
    assert write_table(str(local), dest, format="delta").rows == 1000
    _records(local, 12_000, 2)

    killed = _run(local, dest, KAFKASPEC_TABLES_PAUSE="written")
    _paused(killed)
    killed.send_signal(signal.SIGKILL)
    killed.wait(timeout=30)
    dead = _data_files(s3_env, dest) - _referenced(dest)
    assert dead and len(_markers(s3_env, dest)) == 1  # written, never committed; its marker on the store
    _clock_past(s3_env, dest, dead)
    assert write_table(str(local), dest, format="delta", target_file_mb=1).rows == 12_000
    assert _rows(dest) == consumer_rows(local)
    assert not dead & _data_files(s3_env, dest)  # the dead run's files are gone
    assert _data_files(s3_env, dest) == _referenced(dest) and _markers(s3_env, dest) == []

    _records(local, 6000, 3)
    gate = tmp_path / "gate"
    live = _run(local, dest, KAFKASPEC_TABLES_PAUSE="written", KAFKASPEC_TABLES_GATE=str(gate))
    try:
        _paused(live)
        written = _data_files(s3_env, dest) - _referenced(dest)
        assert written
        assert write_table(str(local), dest, format="delta").rows == 6000  # commits while the other lives
        assert written <= _data_files(s3_env, dest)  # the live run's files untouched
        assert _rows(dest) == consumer_rows(local)
        gate.write_text("go")
        assert live.wait(timeout=120) != 0  # it lost the race to commit: its files are a dead run's now
        assert "another run committed to it first" in live.stderr.read()
        _clock_past(s3_env, dest, written)
    finally:
        live.kill()
        live.wait(timeout=30)
    _records(local, 500, 4)
    assert write_table(str(local), dest, format="delta").rows == 500
    assert _rows(dest) == consumer_rows(local)
    assert _data_files(s3_env, dest) == _referenced(dest) and _markers(s3_env, dest) == []
    assert canary.read_text() == "keep"


_ICEBERG_TASKS = (
    "import sys; from kafkaspec.tables.files import write_table_tasks; "
    "write_table_tasks(sys.argv[1], sys.argv[2], lambda fn, tasks: [fn(t) for t in tasks], "
    "format='iceberg', catalog_uri=sys.argv[3], target_file_mb=1)"
)


def test_iceberg_on_s3_keeps_a_live_runs_files_and_another_hosts_and_cleans_a_dead_ones(s3_env, tmp_path):
    """Iceberg on a store has Delta's markers: while a run lives, another's commit leaves its files (the
    commit used to delete every unreferenced file older than its metadata, a live run's too); once it
    failed, the next run deletes them; a stale marker of another host keeps its own run's files only."""
    import uuid

    from pyarrow import fs as pafs
    from pyiceberg.catalog import load_catalog

    local, canary = tmp_path / "logs", tmp_path / "canary"
    canary.write_text("keep")
    _records(local, 1000, 1)
    bucket = s3_env.new_bucket()
    dest, catalog = f"s3://{bucket}/lake", f"sqlite:///{tmp_path}/catalog.db"
    assert write_table(str(local), dest, catalog_uri=catalog).rows == 1000
    fs = s3_env.filesystem()
    data = f"{bucket}/lake/kafka/orders/data"
    other = uuid.uuid4().hex
    with fs.open_output_stream(f"{bucket}/lake/.kafkaspec-runs/orders/{other}") as f:
        f.write(f"elsewhere@pid:[1] {uuid.uuid4()} 4242 777\n".encode())
    theirs = f"{data}/00000-0-{uuid.uuid4()}-run-{other}.parquet"
    with fs.open_output_stream(theirs) as f:
        f.write(b"another host's")
    props = {"s3.endpoint": os.environ["AWS_ENDPOINT_URL"], "s3.region": os.environ["AWS_DEFAULT_REGION"]}

    def files():
        found = fs.get_file_info(pafs.FileSelector(data, recursive=True))
        return {i.path for i in found if i.is_file}

    def referenced():
        table = load_catalog("kafkaspec", type="sql", uri=catalog, warehouse=dest, **props).load_table(
            ("kafka", "orders")
        )
        return {t.file.file_path.removeprefix("s3://") for t in table.scan().plan_files()}

    def rows():
        table = load_catalog("kafkaspec", type="sql", uri=catalog, warehouse=dest, **props).load_table(
            ("kafka", "orders")
        )
        t = table.scan().to_arrow()
        return sorted(
            zip(*(t.column(c).to_pylist() for c in ("topic", "partition", "offset", "value")), strict=True)
        )

    _records(local, 6000, 2)
    gate = tmp_path / "gate"
    live = subprocess.Popen(
        [sys.executable, "-c", _ICEBERG_TASKS, str(local), dest, catalog],
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "KAFKASPEC_TABLES_PAUSE": "written", "KAFKASPEC_TABLES_GATE": str(gate)},
    )
    try:
        _paused(live)
        written = files() - referenced() - {theirs}
        assert written
        _clock_past(s3_env, dest, written)  # a run that wrote a second before another's commit
        assert write_table(str(local), dest, catalog_uri=catalog).rows == 6000  # commits while it lives
        assert written <= files()  # the live run's files untouched
        gate.write_text("go")
        assert live.wait(timeout=120) != 0  # it lost the race to commit: its files are a dead run's now
        assert "another run committed to it first" in live.stderr.read()
    finally:
        live.kill()
        live.wait(timeout=30)
    _records(local, 500, 3)
    assert write_table(str(local), dest, catalog_uri=catalog).rows == 500
    assert rows() == consumer_rows(local)
    assert files() == referenced() | {theirs}
    assert fs.get_file_info(f"{bucket}/lake/.kafkaspec-runs/orders/{other}").is_file
    assert canary.read_text() == "keep"


_MID_UPLOAD = """
import os, sys, time
import pyarrow as pa
from kafkaspec.arrow.schema import SCHEMA
from kafkaspec.tables.delta_files import DeltaFiles
from kafkaspec.tables.leftovers import RunMarker
dest, table = sys.argv[1], sys.argv[2]
run = RunMarker(dest, "orders").run
files = DeltaFiles(table, SCHEMA, [], 256 << 20, run=run)
for _ in range(40):  # 40 MB of random values: upload parts sent, the file never closed
    values = pa.array([os.urandom(1000) for _ in range(1000)], pa.binary())
    files.write(pa.RecordBatch.from_arrays(
        [values if f.name == "value" else pa.nulls(1000, f.type) for f in SCHEMA], schema=SCHEMA
    ))
print(run, flush=True)
time.sleep(600)
"""


def test_a_run_killed_mid_upload_leaves_a_multipart_upload_the_next_run_aborts(s3_env, tmp_path):
    """A data file being uploaded when its run is SIGKILLed stays an incomplete multipart upload (no
    object, still stored); the next run of the table aborts those named with a dead run's id, under the
    table's prefix only: an upload of the same run's name under another prefix stays."""
    import boto3

    local = tmp_path / "logs"
    _records(local, 500, 1)
    bucket = s3_env.new_bucket()
    dest = f"s3://{bucket}/lake"
    assert write_table(str(local), dest, format="delta").rows == 500
    s3 = boto3.client("s3")

    def uploads():
        return {u["Key"] for u in s3.list_multipart_uploads(Bucket=bucket).get("Uploads", [])}

    proc = subprocess.Popen(
        [sys.executable, "-c", _MID_UPLOAD, dest, f"{dest}/orders"], stdout=subprocess.PIPE, text=True
    )
    try:
        run = proc.stdout.readline().strip()
        assert len(run) == 32, run
        deadline, seen = time.monotonic() + 120, False
        while not seen and time.monotonic() < deadline and proc.poll() is None:
            found = s3.list_multipart_uploads(Bucket=bucket, Prefix="lake/orders/").get("Uploads", [])
            seen = bool(found) and bool(
                s3.list_parts(Bucket=bucket, Key=found[0]["Key"], UploadId=found[0]["UploadId"]).get("Parts")
            )
            time.sleep(0 if seen else 0.1)
        assert seen and proc.poll() is None, "no upload under way seen in 120 s"
    finally:
        proc.kill()
        proc.wait(timeout=30)
    left = {k for k in uploads() if k.startswith("lake/orders/")}
    assert left  # SIGKILL mid-upload: an incomplete multipart upload stays
    elsewhere = f"lake/other/part-00000-x-c000-run-{run}.snappy.parquet"  # not this table's
    other = s3.create_multipart_upload(Bucket=bucket, Key=elsewhere)
    _records(local, 500, 2)
    assert write_table(str(local), dest, format="delta").rows == 500
    assert _rows(dest) == consumer_rows(local)
    assert uploads() == {elsewhere}
    s3.abort_multipart_upload(Bucket=bucket, Key=elsewhere, UploadId=other["UploadId"])
