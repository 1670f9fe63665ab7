"""The Parquet pipeline's commit (``kafkaspec.spark.run.onepass.commit``) killed at any move leaves each of
OUT's ``records/`` and ``batches/`` as the last run wrote it or as this one did, whole, with its
``_SUCCESS``: never a half, never gone.

A real subprocess (``support/onepass_victim.py``) runs the pipeline's tasks without Spark over a data
dir and commits into OUT, which holds an older run of another data dir, and is killed (SIGKILL) right
after its commit's N-th move. A canary beside OUT's folders survives.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from kafkaspec import logdir

VICTIM = Path(__file__).resolve().parent.parent / "support" / "onepass_victim.py"

pytestmark = pytest.mark.hostile


@pytest.fixture(scope="module")
def versions(tmp_path_factory):
    """(old, new): two synth data dirs, and OUT as a finished commit of ``old`` left it."""
    root = tmp_path_factory.mktemp("pipeline-commit-kill")
    logdir.synth(root / "old", size_mb=0.2, seed=5)
    logdir.synth(root / "new", size_mb=0.2, seed=9)
    assert _kill(root / "old", root / "old-out", 10_000, root) == "finished"
    return root / "old", root / "new", root / "old-out"


def _kill(src: Path, out: Path, n: int, tmp_path: Path) -> str:
    """Commit ``src``'s run into ``out``, killed right after the ``n``-th move; what it was doing."""
    signal_file = tmp_path / f"signal-{n}"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    proc = subprocess.Popen(
        [sys.executable, str(VICTIM), str(src), str(out), str(n), str(signal_file)], env=env
    )
    try:
        deadline = time.monotonic() + 180
        while not signal_file.exists() or not signal_file.read_text():
            assert proc.poll() is None, f"the victim ended (exit {proc.returncode}) before its move #{n}"
            assert time.monotonic() < deadline, "the victim never reached the move"
            time.sleep(0.05)
        return signal_file.read_text()
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()


def _folder(path: Path) -> list[tuple]:
    """The rows a folder of OUT holds, sorted; it must say it is whole (``_SUCCESS``)."""
    assert (path / "_SUCCESS").is_file(), f"{path}: no _SUCCESS"
    table = pq.read_table(path, partitioning="hive")
    names = [c for c in ("topic", "partition", "offset", "position", "segment") if c in table.column_names]
    return sorted(zip(*(table.column(c).to_pylist() for c in names), strict=True))


def _copy(src: Path, dest: Path) -> None:
    import shutil

    shutil.copytree(src, dest)


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, 13, 10_000])
def test_a_killed_commit_leaves_each_folder_old_or_new(versions, tmp_path, n):
    old, new, old_out = versions
    out = tmp_path / "out"
    _copy(old_out, out)
    (tmp_path / "canary").write_text("stays")
    finished = tmp_path / "finished"
    _copy(old_out, finished)
    assert _kill(new, finished, 10_000, tmp_path) == "finished"
    _kill(new, out, n, tmp_path)
    for name in ("records", "batches"):
        now = _folder(out / name)
        assert now in (_folder(old_out / name), _folder(finished / name)), f"{name}: neither run's, whole"
    assert _folder(finished / "records") != _folder(old_out / "records")  # the two runs differ
    assert (tmp_path / "canary").read_text() == "stays"
