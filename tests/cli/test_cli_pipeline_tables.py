"""``kafkaspec pipeline SRC --table FORMAT DEST`` under bad input: a destination that is not a table, a
table whose columns are not ours, a catalog that cannot be reached or never answers: one line, exit 2,
never a traceback, the destination unchanged."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time

import pytest
from support.tables import FORMATS, table_rows, write_orders

pytestmark = pytest.mark.hostile


def _pipeline(*args, env=None, timeout=120):
    done = subprocess.run(
        [sys.executable, "-m", "kafkaspec.cli", "pipeline", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
    )
    return done


def _one_line_exit_2(done, *words):
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    for word in words:
        assert word in lines[0], lines[0]
    assert "KAFKASPEC_DEBUG" not in lines[0], lines[0]  # a refusal, said as one: not an unexpected error
    return lines[0]


@pytest.mark.parametrize("fmt", FORMATS)
def test_destination_that_is_a_file(fmt, tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    write_orders(src, 2)
    dest.write_text("keep")
    _one_line_exit_2(_pipeline(src, "--table", fmt, dest), "not a folder")
    assert dest.read_text() == "keep"


def test_iceberg_destination_that_is_a_folder_of_other_things(tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    write_orders(src, 2)
    dest.mkdir()
    (dest / "canary").write_text("keep")
    _one_line_exit_2(_pipeline(src, "--table", "iceberg", dest), "not an Iceberg warehouse")
    assert sorted(os.listdir(dest)) == ["canary"]


def test_delta_destination_with_a_folder_in_the_way_of_a_table(tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    write_orders(src, 2)
    write_orders(src, 1, topic="payments")
    assert _pipeline(src, "--table", "delta", dest).returncode == 0  # payments and orders are tables now
    (dest / "audit").mkdir()
    (dest / "audit" / "canary").write_text("keep")
    write_orders(src, 1, topic="audit")
    _one_line_exit_2(_pipeline(src, "--table", "delta", dest), "not a Delta table")
    assert os.listdir(dest / "audit") == ["canary"]


def test_iceberg_table_whose_columns_are_not_ours(tmp_path):
    import pyarrow as pa
    from pyiceberg.catalog import load_catalog

    src, dest = tmp_path / "logs", tmp_path / "lake"
    write_orders(src, 2)
    dest.mkdir()
    catalog = load_catalog(
        "kafkaspec", type="sql", uri=f"sqlite:///{dest}/catalog.db", warehouse=f"file://{dest}"
    )
    catalog.create_namespace("kafka")
    theirs = catalog.create_table(("kafka", "orders"), schema=pa.schema([("id", pa.int64())]))
    theirs.append(pa.table({"id": [1, 2, 3]}))
    snapshot = theirs.current_snapshot().snapshot_id
    _one_line_exit_2(_pipeline(src, "--table", "iceberg", dest), "is not a table kafkaspec wrote", "id")
    assert catalog.load_table(("kafka", "orders")).current_snapshot().snapshot_id == snapshot


def test_delta_table_whose_columns_are_not_ours(tmp_path):
    import pyarrow as pa
    from deltalake import DeltaTable, write_deltalake

    src, dest = tmp_path / "logs", tmp_path / "lake"
    write_orders(src, 2)
    write_deltalake(str(dest / "orders"), pa.table({"id": [1, 2, 3]}))
    _one_line_exit_2(_pipeline(src, "--table", "delta", dest), "is not a table kafkaspec wrote")
    assert DeltaTable(str(dest / "orders")).version() == 0


def test_catalog_that_cannot_be_reached(tmp_path):
    src = tmp_path / "logs"
    write_orders(src, 1)
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    line = _one_line_exit_2(
        _pipeline(src, "--table", "iceberg", "--catalog-uri", f"http://127.0.0.1:{port}", tmp_path / "w"),
        "cannot be reached",
    )
    assert str(port) in line


def test_catalog_that_never_answers_is_a_bounded_wait(tmp_path):
    src = tmp_path / "logs"
    write_orders(src, 1)
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    held = []
    stop = threading.Event()

    def accept():
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])  # accepted, never answered
            except OSError:
                pass

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        started = time.monotonic()
        uri = f"http://127.0.0.1:{server.getsockname()[1]}"
        done = _pipeline(
            src,
            "--table",
            "iceberg",
            "--catalog-uri",
            uri,
            tmp_path / "w",
            env={"KAFKASPEC_STORAGE_TIMEOUT": "2"},
        )
        _one_line_exit_2(done, "cannot be reached")
        assert time.monotonic() - started < 60
    finally:
        stop.set()
        thread.join()
        for c in held:
            c.close()
        server.close()


def test_source_that_does_not_exist_and_spark_options(tmp_path):
    _one_line_exit_2(_pipeline(tmp_path / "nope", "--table", "delta", tmp_path / "lake"))
    assert not (tmp_path / "lake").exists() or not os.listdir(tmp_path / "lake")
    src = tmp_path / "logs"
    write_orders(src, 1)
    _one_line_exit_2(
        _pipeline(src, "--table", "delta", tmp_path / "l2", "--engine", "local", "--master", "local[1]"),
        "--master",
    )
    _one_line_exit_2(
        _pipeline(src, "--table", "delta", tmp_path / "l3", "--catalog-uri", "http://x"), "Iceberg"
    )
    _one_line_exit_2(_pipeline(src, "--table", "delta", tmp_path / "l4", "--partition-by", "bogus"), "bogus")


def test_a_run_after_a_refusal_still_works(tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    write_orders(src, 3)
    assert _pipeline(src, "--table", "iceberg", dest).returncode == 0
    assert len(table_rows("iceberg", dest, "orders")) == 3


def _tree(root):
    """Every file under ``root`` with its size and mtime: what "the table unchanged" compares."""
    out = {}
    for folder, _, files in os.walk(root):
        for f in files:
            st = os.stat(os.path.join(folder, f))
            out[os.path.join(folder, f)] = (st.st_size, st.st_mtime_ns)
    return out


def test_delta_destination_that_is_a_folder_of_other_things(tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    write_orders(src, 2)
    (dest / "reports").mkdir(parents=True)
    (dest / "reports" / "q1.parquet").write_bytes(b"keep")
    (dest / "canary").write_text("keep")
    before = _tree(dest)
    _one_line_exit_2(_pipeline(src, "--table", "delta", dest), "not a folder of Delta tables")
    assert _tree(dest) == before


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_destination_of_the_other_table_format(fmt, tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    write_orders(src, 2)
    other = "delta" if fmt == "iceberg" else "iceberg"
    assert _pipeline(src, "--table", other, dest).returncode == 0
    before = _tree(dest)
    line = _one_line_exit_2(_pipeline(src, "--table", fmt, dest), "--table " + other)
    assert ("Delta" if other == "delta" else "Iceberg") in line, line
    assert _tree(dest) == before


def _without_root_powers():
    """The command prefix that makes a root test process subject to file modes as its owner (no
    CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER); [] for any other user."""
    if os.geteuid() != 0:
        return []
    import shutil

    if shutil.which("setpriv") is None:
        pytest.skip(
            "running as root without setpriv: file modes do not bind root, so no permission is denied"
        )
    return ["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner", "--"]


@pytest.mark.parametrize(
    "fmt, what",
    # a Delta table has no catalog: its folder is the table
    [
        (fmt, what)
        for fmt in FORMATS
        for what in ("table", "warehouse", "catalog")
        if (fmt, what) != ("delta", "catalog")
    ],
)
def test_permission_denied_on_the_warehouse(fmt, what, tmp_path):
    prefix = _without_root_powers()
    src, dest = tmp_path / "logs", tmp_path / "lake"
    write_orders(src, 2)
    assert _pipeline(src, "--table", fmt, dest).returncode == 0
    write_orders(src, 3, tag=b"b")
    locked = {
        "table": dest / ("orders" if fmt == "delta" else "kafka"),
        "warehouse": dest,
        "catalog": dest / "catalog.db",
    }[what]
    modes = {}
    for folder, _, files in [(str(locked), [], [])] if locked.is_file() else os.walk(locked):
        for p in [folder, *(os.path.join(folder, f) for f in files)]:
            modes[p] = os.stat(p).st_mode
            os.chmod(p, modes[p] & ~0o222)
    try:
        before = _tree(dest)
        done = subprocess.run(
            [*prefix, sys.executable, "-m", "kafkaspec.cli", "pipeline", src, "--table", fmt, dest],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert "permission denied" in _one_line_exit_2(done).lower()
        assert _tree(dest) == before
    finally:
        for p, mode in modes.items():
            os.chmod(p, mode)
    assert len(table_rows(fmt, dest, "orders")) == 2


def _corrupt_orders(src, n=5):
    """``orders`` with its first batch's bytes flipped (a CRC mismatch at byte 0's batch)."""
    write_orders(src, n)
    seg = src / "orders-0" / "00000000000000000000.log"
    data = bytearray(seg.read_bytes())
    data[100] ^= 0xFF
    seg.write_bytes(bytes(data))
    return seg


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_corrupt_batch_stops_a_table_run_naming_file_and_byte(fmt, tmp_path):
    """A table commits the offsets it holds, so it never skips: a corrupt batch is the data's error (exit
    1, one line naming the segment and byte), nothing committed. Delta said it as delta-rs's error with
    our traceback inside it, exit 2."""
    src, dest = tmp_path / "logs", tmp_path / "lake"
    write_orders(tmp_path / "good", 5)
    seg = _corrupt_orders(src)
    for extra in ((), ("--on-corruption", "fail")):
        done = _pipeline(src, "--table", fmt, dest, *extra)
        assert done.returncode == 1, (done.returncode, done.stderr)
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
        assert f"at {seg}, byte " in lines[-1] and "DeltaError" not in lines[-1], lines[-1]
    seg.write_bytes((tmp_path / "good" / "orders-0" / seg.name).read_bytes())  # mended: all of it, once
    assert _pipeline(src, "--table", fmt, dest).returncode == 0
    assert len(table_rows(fmt, dest, "orders")) == 5


@pytest.mark.parametrize("engine", ["local", "spark"])
def test_on_corruption_skip_is_refused_with_a_table(engine, tmp_path):
    """``--on-corruption skip`` was ignored by ``--table``: a table does not skip (its commit stores the
    offsets after the batch, for good), so asking for it is refused before anything starts."""
    src, dest = tmp_path / "logs", tmp_path / "lake"
    _corrupt_orders(src)
    done = _pipeline(src, "--table", "delta", dest, "--on-corruption", "skip", "--engine", engine)
    _one_line_exit_2(done, "--on-corruption skip")
    assert not dest.exists()


def test_an_sql_catalog_warehouse_is_checked_as_a_destination(tmp_path):
    """With ``--catalog-uri`` naming an SQL catalog, DEST (the warehouse) was not checked: a file gave a
    raw 'Not a directory', a folder of other things was written into."""
    src = tmp_path / "logs"
    write_orders(src, 2)
    (tmp_path / "catalogs").mkdir()
    afile = tmp_path / "afile"
    afile.write_text("keep")
    uri = f"sqlite:///{tmp_path / 'catalogs' / 'a.db'}"
    _one_line_exit_2(_pipeline(src, "--table", "iceberg", afile, "--catalog-uri", uri), "not a folder")
    assert afile.read_text() == "keep"
    other = tmp_path / "other"
    other.mkdir()
    (other / "canary").write_text("keep")
    uri = f"sqlite:///{tmp_path / 'catalogs' / 'b.db'}"
    _one_line_exit_2(_pipeline(src, "--table", "iceberg", other, "--catalog-uri", uri), "not empty")
    assert sorted(os.listdir(other)) == ["canary"]
    lake = tmp_path / "lake"
    uri = f"sqlite:///{tmp_path / 'catalogs' / 'c.db'}"
    for _ in range(2):  # the warehouse it wrote is its own the next time
        assert _pipeline(src, "--table", "iceberg", lake, "--catalog-uri", uri).returncode == 0
    write_orders(src, 1)
    assert _pipeline(src, "--table", "iceberg", lake, "--catalog-uri", uri).returncode == 0


def _in_small_tmpfs(mount, *command):
    """``command`` run with a 256 KiB tmpfs on ``mount``, in a mount namespace of its own (``unshare``: no
    root needed where user namespaces are allowed; the tmpfs goes with the namespace)."""
    import shlex
    import shutil

    if shutil.which("unshare") is None:
        pytest.skip("no unshare here to mount a small tmpfs")
    script = (
        f"mount -t tmpfs -o size=256k none {shlex.quote(str(mount))} || exit 99; exec {shlex.join(command)}"
    )
    done = subprocess.run(["unshare", "-rm", "sh", "-c", script], capture_output=True, text=True, timeout=180)
    if done.returncode == 99 or "unshare:" in done.stderr:
        pytest.skip(f"no tmpfs of our own here: {done.stderr.strip()[:200]}")
    return done


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_full_disk_is_our_one_line(fmt, tmp_path):
    """ENOSPC half-way through the data files: delta-rs's Rust thread printed a 4-line panic ("thread
    'tokio-rt-worker' panicked ... Already shut down") before our line."""
    from kafkaspec import Record, logdir

    src, full = tmp_path / "logs", tmp_path / "full"
    with logdir.PartitionWriter(src, "orders", 0) as w:
        for i in range(40):  # 800 KB that do not compress
            w.append([Record(key=b"k", value=os.urandom(20_000), timestamp=1_700_000_000_000 + i)])
    full.mkdir()
    (tmp_path / "canary").write_text("keep")
    done = _in_small_tmpfs(
        full, sys.executable, "-m", "kafkaspec.cli", "pipeline", str(src), "--table", fmt, str(full / "lake")
    )
    _one_line_exit_2(done, "No space left on device")
    assert (tmp_path / "canary").read_text() == "keep" and os.listdir(full) == []


def test_option_values_the_libraries_would_meet_are_refused_first(tmp_path):
    """Each was a library's error (OverflowError, ValueError, delta-rs's 'Duplicate partition column',
    'failed to read partition column value as Scalar') with the debug hint, or for --follow, after a
    first run; a file size past delta-rs's 64 bits was taken by Iceberg."""
    src = tmp_path / "logs"
    write_orders(src, 2)
    for i, (args, word) in enumerate(
        [
            (["--target-file-mb", "99999999999999"], "--target-file-mb"),
            (["--partition-by", "timestamp,timestamp"], "repeats"),
            (["--partition-by", "day(timestamp),hour(timestamp)"], "repeats"),
            (["--partition-by", "headers"], "headers"),
            (["--follow", "--interval", "nan"], "--interval"),
            (["--follow", "--interval", "inf"], "--interval"),
        ]
    ):
        for fmt in FORMATS:
            dest = tmp_path / f"lake{i}{fmt}"
            _one_line_exit_2(_pipeline(src, "--table", fmt, dest, *args), word)
            assert not dest.exists() or os.listdir(dest) == []


_NOISY_SPARK_RUN = """
import contextlib, os, sys
import kafkaspec.spark.run.pipeline as pipeline
from kafkaspec.tables.delta import DeltaSink


class Tasks:
    def __init__(self, tasks):
        self.tasks = tasks

    def map(self, fn):
        return Tasks([fn(t) for t in self.tasks])

    def collect(self):
        return self.tasks


class Spark:  # the executors' tasks run here, in turn: no JVM
    class sparkContext:
        parallelize = staticmethod(lambda tasks, n: Tasks(tasks))


def commit_files(*args, **kwargs):  # delta-rs's Rust thread on a full disk: straight to fd 2, then its error
    os.write(2, b"thread 'tokio-rt-worker' panicked at src/lib.rs:1:1:\\nAlready shut down\\n")
    raise RuntimeError("Generic LocalFileSystem error: Unable to write: No space left on device (os error 28)")


pipeline.quiet_session = lambda *args, **kwargs: Spark()
pipeline._stopping = lambda *args: contextlib.nullcontext()
DeltaSink.commit_files = commit_files
from kafkaspec.cli import main

sys.exit(main(sys.argv[1:]))
"""


def test_the_spark_engines_commit_is_under_the_stderr_hold(tmp_path):
    """The Spark engine's commit (on the driver) was not under the hold of fd 2 the local engine's is:
    delta-rs's panic on a full disk reached the terminal, and its error was no OSError but an unexpected
    one. Spark's part is stood in for (its tasks run in this process), the commit made to fail as
    delta-rs's does."""
    src, lake = tmp_path / "logs", tmp_path / "lake"
    write_orders(src, 3)
    (tmp_path / "canary").write_text("keep")
    args = ["pipeline", src, "--table", "delta", lake, "--master", "local[1]"]
    done = subprocess.run(
        [sys.executable, "-c", _NOISY_SPARK_RUN, *args],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert "panicked" not in done.stderr and "Traceback" not in done.stderr, done.stderr
    lines = [line for line in done.stderr.splitlines() if not line.startswith("starting Spark")]
    assert len(lines) == 1 and "No space left on device" in lines[0], done.stderr
    assert (tmp_path / "canary").read_text() == "keep"
