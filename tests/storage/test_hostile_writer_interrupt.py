"""Ctrl-C (SIGINT) at each step of a ``PartitionWriter``, and a full disk while it writes the copy it
publishes: the partition is the old version or the new one, whole (or, interrupted after the switch of
a store's publication, named as not read until finished), never a half; the interrupt or the error is
one line; nothing is left in the local temporary folder (its canary survives).

A real subprocess (``support/publish_victim.py``) writes the partition and interrupts itself (SIGINT,
raised in its main thread as Ctrl-C's is) right after the chosen call: a ``PartitionWriter`` method or
a store request of its publication.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from kafkaspec import Record, logdir
from kafkaspec.cli import main
from kafkaspec.logdir.store.publish import PUBLISHING

pytestmark = pytest.mark.hostile

VICTIM = Path(__file__).resolve().parent.parent / "support" / "publish_victim.py"
OLD = [b"A-%d" % i for i in range(6)]
NEW = [b"C-%d" % i for i in range(6)]


def _write_old(dest: str) -> None:
    with logdir.PartitionWriter(dest, "t", 0) as w:
        for i in range(6):
            if i == 3:
                w.roll()
            w.append([Record(key=b"k%d" % i, value=OLD[i], timestamp=1_700_000_000_000 + i)])


def _values(path: str) -> list[bytes]:
    with logdir.open_log(path) as log:
        return [r.value for p in log.partitions() for _, r in p.records()]


def _victim(dest: str, step: str, n: int, how: str, tmp_path: Path, env: dict, mode: str = "overwrite"):
    temp = tmp_path / "tmp"
    temp.mkdir(exist_ok=True)
    (temp / "canary").write_text("keep me")
    env = dict(os.environ, **env, TMPDIR=str(temp), PYTHONPATH=os.pathsep.join(sys.path))
    signal_file = tmp_path / f"signal-{step}-{n}"
    args = [sys.executable, str(VICTIM), dest, "C", step, str(n), str(signal_file), how, mode]
    return subprocess.run(args, env=env, capture_output=True, text=True, timeout=180)


STORE_STEPS = [("append", 2), ("roll", 1), ("write", 1), ("write", 11), ("copy", 3), ("delete", 1)]


@pytest.mark.parametrize(("step", "n"), STORE_STEPS, ids=[f"{s}{n}" for s, n in STORE_STEPS])
def test_ctrl_c_at_each_step_of_a_store_publication(s3_env, s3_server, tmp_path, capsys, step, n):
    bucket = s3_server.new_bucket()
    dest = s3_server.uri(bucket, "x")
    _write_old(dest)
    proc = _victim(dest, step, n, "sigint", tmp_path, s3_server.env())
    assert proc.returncode == 3 and proc.stdout.startswith("KeyboardInterrupt"), (proc.stdout, proc.stderr)
    assert proc.stdout.count("\n") == 1 and "Traceback" not in proc.stderr, proc.stderr
    capsys.readouterr()
    code = main(["dump", dest])
    err = capsys.readouterr().err
    if code == 0:
        assert _values(dest) in (OLD, NEW)
    else:  # interrupted after the switch: named, never an empty success
        assert code == 1 and f"{dest}/t-0/{PUBLISHING}" in err and "Traceback" not in err
    assert os.listdir(tmp_path / "tmp") == ["canary"]  # the local copy went with the interrupt


@pytest.mark.parametrize(("step", "n"), [("append", 1), ("append", 3), ("roll", 1), ("close", 1)])
def test_ctrl_c_at_each_step_of_a_local_append(tmp_path, step, n):
    out = tmp_path / "out"
    _write_old(str(out))
    (tmp_path / "canary").write_text("keep me")
    proc = _victim(str(out), step, n, "sigint", tmp_path, {}, mode="append")
    assert proc.returncode == 3 and proc.stdout.startswith("KeyboardInterrupt"), (proc.stdout, proc.stderr)
    values = _values(str(out))
    assert values[:6] == OLD and values[6:] == NEW[: len(values) - 6]  # what was appended, whole batches
    assert logdir.verify(out) == []
    assert (tmp_path / "canary").read_text() == "keep me"


def test_a_full_disk_while_writing_the_copy_to_publish_is_one_line(s3_env, s3_server, tmp_path):
    bucket = s3_server.new_bucket()
    dest = s3_server.uri(bucket, "x")
    _write_old(dest)
    proc = _victim(dest, "write", 10_000, "fsize:120", tmp_path, s3_server.env())
    assert proc.returncode == 3 and "File too large" in proc.stdout, (proc.stdout, proc.stderr)
    assert proc.stdout.count("\n") == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert _values(dest) == OLD
    assert os.listdir(tmp_path / "tmp") == ["canary"]
