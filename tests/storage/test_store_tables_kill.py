"""A table run SIGKILLed on GCS (gcp-storage-emulator) and Azure (Azurite), as the local and S3 kill tests
do it: killed after it wrote data files but before its commit, or after its commit but before its run
marker went, the table reads as its last commit to pyiceberg and deltalake; the next run succeeds,
appends exactly what a read_committed consumer has that the table lacks, and deletes exactly the dead
run's files: none a live run wrote, none outside the table's prefix (a file named with the dead run's
id in a sibling folder stays), none beside the table (a canary object in the bucket).

Delta on GCS is not here (no emulator we run serves delta-rs: docs/tables.md)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time

import pytest
from support.tables import consumer_rows

from kafkaspec import Record, logdir

pytestmark = pytest.mark.hostile

CASES = [("gcs", "iceberg"), ("azure", "iceberg"), ("azure", "delta")]


def _records(local, n, seed):
    """Records of random values: with ``--target-file-mb 1`` a run writes files before it has read all."""
    rng = random.Random(seed)
    with logdir.PartitionWriter(local, "orders", 0) as w:
        for i in range(0, n, 500):
            w.append(
                [Record(key=b"k%d" % j, value=rng.randbytes(200), timestamp=j) for j in range(i, i + 500)]
            )


def _cli(local, dest, fmt, catalog, **env):
    cmd = [sys.executable, "-m", "kafkaspec.cli", "pipeline", str(local), "--table", fmt, dest, "--quiet"]
    cmd += ["--target-file-mb", "1", *(["--catalog-uri", catalog] if catalog else [])]
    return subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True, env={**os.environ, **env})


#: a run whose data files are written by tasks, as Spark's executors write them (the driver commits)
_TASKS = (
    "import sys; from kafkaspec.tables.files import write_table_tasks; "
    "write_table_tasks(sys.argv[1], sys.argv[2], lambda fn, tasks: [fn(t) for t in tasks], "
    "format=sys.argv[3], catalog_uri=sys.argv[4] or None, target_file_mb=1)"
)


def _tasks(local, dest, fmt, catalog, **env):
    cmd = [sys.executable, "-c", _TASKS, str(local), dest, fmt, catalog or ""]
    return subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True, env={**os.environ, **env})


def _paused(proc, point):
    line = proc.stderr.readline()
    assert line.strip() == f"paused at {point}", line + proc.stderr.read()


def _path(uri):
    """A store URI (``gs://bucket/key``, ``abfs://container@account.../key``) as its filesystem's path."""
    where, _, key = uri.split("://", 1)[1].partition("/")
    return f"{where.split('@', 1)[0]}/{key}"


class _Table:
    """The table ``orders`` of ``dest`` on ``server``'s store, read as a user reads it."""

    def __init__(self, server, fmt, dest, catalog):
        self.server, self.fmt, self.dest, self.catalog = server, fmt, dest, catalog
        self.root = _path(dest) + ("/orders" if fmt == "delta" else "/kafka/orders")

    def _read(self):
        from kafkaspec.tables.stores import delta_options, iceberg_properties

        if self.fmt == "delta":
            from deltalake import DeltaTable

            table = DeltaTable(f"{self.dest}/orders", storage_options=delta_options(self.dest))
            return table.to_pyarrow_table(), {_path(u) for u in table.file_uris()}
        from pyiceberg.catalog import load_catalog

        cat = load_catalog(
            "kafkaspec", type="sql", uri=self.catalog, warehouse=self.dest, **iceberg_properties()
        )
        table = cat.load_table(("kafka", "orders"))
        return table.scan().to_arrow(), {_path(t.file.file_path) for t in table.scan().plan_files()}

    def rows(self):
        t = self._read()[0]
        return sorted(
            zip(*(t.column(c).to_pylist() for c in ("topic", "partition", "offset", "value")), strict=True)
        )

    def referenced(self):
        return self._read()[1]

    def files(self, under=""):
        from pyarrow import fs as pafs

        found = self.server.filesystem().get_file_info(
            pafs.FileSelector(self.root + under, recursive=True, allow_not_found=True)
        )
        return {i.path for i in found if i.is_file and i.path.endswith(".parquet")}

    def markers(self):
        from pyarrow import fs as pafs

        root = _path(self.dest) + "/.kafkaspec-runs/orders"
        found = self.server.filesystem().get_file_info(pafs.FileSelector(root, allow_not_found=True))
        return [i.base_name for i in found if i.is_file and not i.base_name.startswith(".")]


def _put(server, path, data):
    with server.filesystem().open_output_stream(path) as f:
        f.write(data)


def _clock_past(server, bucket, files):
    """Wait (bounded) until the store's clock is past the times of ``files``: a file not named with a
    run id (delta-rs's own) written in the same tick as the next run's marker is left to the run after."""
    fs = server.filesystem()
    last = max((i.mtime for i in fs.get_file_info(sorted(files))), default=None)
    if last is None:
        return
    probe = f"{bucket}/clock-probe"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        _put(server, probe, b"now")
        if fs.get_file_info(probe).mtime > last:
            return
        time.sleep(0.2)
    raise AssertionError(f"the store's clock stayed at {last}")


def _setup(server, tmp_path, fmt):
    """A table of 1000 records on the store, a canary beside it and a stray file in its folder, and
    6,000 records more in the log; the table and what stays whatever a run does."""
    local = tmp_path / "logs"
    _records(local, 1000, 1)
    bucket = server.new_bucket()
    dest = server.uri(bucket, "lake")
    catalog = f"sqlite:///{tmp_path}/catalog.db" if fmt == "iceberg" else None
    assert _cli(local, dest, fmt, catalog).wait(timeout=120) == 0
    table = _Table(server, fmt, dest, catalog)
    assert table.rows() == consumer_rows(local)
    keep = {f"{bucket}/lake-canary": b"keep", f"{table.root}/notes.parquet": b"mine"}
    for path, data in keep.items():
        _put(server, path, data)
    _records(local, 6000, 2)
    return local, bucket, table, keep


def _kept(server, keep):
    fs = server.filesystem()
    for path, data in keep.items():
        with fs.open_input_stream(path) as f:
            assert f.read() == data, path


#: the kills of one table, one after another: each run killed, the next cleaning its files; by the path
#: without Spark (``pipeline``) and by tasks, as Spark's executors write (the driver commits)
KILLS = [(_tasks, "written"), (_cli, "committed"), (_cli, "written"), (_tasks, "committed")]


@pytest.mark.parametrize(("store_server", "fmt"), CASES, indirect=["store_server"])
def test_killed_runs_leave_the_last_commit_and_the_next_deletes_their_files(store_env, tmp_path, fmt):
    local, bucket, table, keep = _setup(store_env, tmp_path, fmt)
    notes = f"{table.root}/notes.parquet"
    left: set[str] = set()  # the unreferenced files of the run killed last
    for run, point in KILLS:
        before = table.rows()
        proc = run(local, table.dest, fmt, table.catalog, KAFKASPEC_TABLES_PAUSE=point)
        try:
            _paused(proc, point)
        finally:
            proc.kill()
            proc.wait(timeout=30)
        assert table.rows() == (consumer_rows(local) if point == "committed" else before), (run, point)
        assert not left & table.files()  # the run before's files, deleted by this one
        (dead,) = table.markers()  # this one's marker stays on the store: the previous one's went
        left = table.files() - table.referenced() - {notes}
        if point == "written" and run is _tasks:
            assert left  # data files uploaded, never committed
        sibling = f"{table.root}-copy/data/00000-0-x-run-{dead}.parquet"  # its id, outside the table
        keep[sibling] = b"not the table's"
        _put(store_env, sibling, keep[sibling])
        _clock_past(store_env, bucket, left)
        _records(local, 500, len(keep))
    after = _cli(local, table.dest, fmt, table.catalog)
    assert after.wait(timeout=180) == 0, after.stderr.read()
    assert table.rows() == consumer_rows(local)  # each record once: none lost, none twice
    assert table.files() == table.referenced() | {notes}
    assert table.markers() == []
    _kept(store_env, keep)


@pytest.mark.parametrize(  # GCS's paths are as S3's, whose test this is too (test_store_delta_leftovers)
    ("store_server", "fmt"), [("azure", "iceberg"), ("azure", "delta")], indirect=["store_server"]
)
def test_a_live_runs_files_stay_until_it_is_dead(store_env, tmp_path, fmt):
    local, bucket, table, keep = _setup(store_env, tmp_path, fmt)
    gate = tmp_path / "gate"
    live_env = {"KAFKASPEC_TABLES_PAUSE": "written", "KAFKASPEC_TABLES_GATE": str(gate)}
    live = _tasks(local, table.dest, fmt, table.catalog, **live_env)
    try:
        _paused(live, "written")
        written = table.files() - table.referenced() - {f"{table.root}/notes.parquet"}
        assert written
        _clock_past(store_env, bucket, written)
        assert _cli(local, table.dest, fmt, table.catalog).wait(timeout=180) == 0  # commits while it lives
        assert written <= table.files()  # the live run's files untouched
        assert table.rows() == consumer_rows(local)
        gate.write_text("go")
        assert live.wait(timeout=120) != 0  # it lost the race to commit: its files are a dead run's now
        assert "another run committed to it first" in live.stderr.read()
        _clock_past(store_env, bucket, written)
    finally:
        live.kill()
        live.wait(timeout=30)
    _records(local, 500, 3)
    assert _cli(local, table.dest, fmt, table.catalog).wait(timeout=180) == 0
    assert table.rows() == consumer_rows(local)
    assert table.files() == table.referenced() | {f"{table.root}/notes.parquet"}
    assert table.markers() == []
    _kept(store_env, keep)
