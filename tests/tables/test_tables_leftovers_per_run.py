"""A killed run's leftovers are cleaned per run: the data files a run writes carry its run id
(:func:`kafkaspec.tables.leftovers.run_tag`), so the next run deletes exactly those of runs proven dead,
whatever other markers say. A stale marker of another host (never proven dead) used to block a whole
table's cleanup; now it keeps only its own run's files."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import uuid

import pytest
from support.tables import FORMATS, consumer_rows, referenced_files, table_rows, write_orders

from kafkaspec import Record, logdir
from kafkaspec.tables.leftovers import MARKERS

pytestmark = pytest.mark.hostile


def _run(src, dest, fmt, *args, **env):
    cmd = [sys.executable, "-m", "kafkaspec.cli", "pipeline", str(src), "--table", fmt, str(dest), "--quiet"]
    return subprocess.Popen(
        [*cmd, "--target-file-mb", "1", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **env},
    )


def _data_files(dest):
    return {
        os.path.join(root, f)
        for root, dirs, files in os.walk(dest)
        for f in files
        if f.endswith(".parquet") and MARKERS not in root
    }


def _several_mb(src):
    """Records of random-looking values: with ``--target-file-mb 1`` a run writes data files before it
    has read them all, so a kill at ``written`` leaves files."""
    with logdir.PartitionWriter(src, "orders", 0) as w:
        for i in range(0, 12_000, 500):
            w.append(
                [
                    Record(key=b"k%d" % j, value=os.urandom(200), timestamp=1_700_000_000_000)
                    for j in range(i, i + 500)
                ]
            )


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_stale_marker_of_another_host_keeps_its_own_files_only(fmt, tmp_path):
    src, dest, canary = tmp_path / "logs", tmp_path / "lake", tmp_path / "canary"
    canary.write_text("keep")
    write_orders(src, 50)
    assert _run(src, dest, fmt).wait(timeout=120) == 0
    table_dir = dest / "kafka" / "orders" / "data" if fmt == "iceberg" else dest / "orders"
    other = uuid.uuid4().hex  # a run of another host, its marker left behind: never proven dead
    (dest / MARKERS / "orders").mkdir(parents=True, exist_ok=True)
    (dest / MARKERS / "orders" / other).write_text(f"elsewhere@pid:[1] {uuid.uuid4()} 4242 777\n")
    theirs = table_dir / f"00000-0-{uuid.uuid4()}-run-{other}.parquet"
    theirs.write_bytes(b"another host's, maybe still writing")
    _several_mb(src)
    killed = _run(src, dest, fmt, KAFKASPEC_TABLES_PAUSE="written")
    line = killed.stderr.readline()
    assert line.strip() == "paused at written", line + killed.stderr.read()
    killed.send_signal(signal.SIGKILL)
    killed.wait(timeout=30)
    dead = _data_files(dest) - set(referenced_files(fmt, dest, "orders")) - {str(theirs)}
    assert dead  # written by the killed run, never committed
    assert _run(src, dest, fmt).wait(timeout=120) == 0
    assert table_rows(fmt, dest, "orders") == consumer_rows(src)
    assert not dead & _data_files(dest)  # the dead run's files went
    assert theirs.read_bytes() == b"another host's, maybe still writing"
    assert (dest / MARKERS / "orders" / other).exists()
    assert _data_files(dest) == {*referenced_files(fmt, dest, "orders"), str(theirs)}
    assert canary.read_text() == "keep"
