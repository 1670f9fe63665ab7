"""A ``kafkalog`` job's commit (``Location.apply`` of its ``CommitPlan``) killed or out of disk at any step
leaves every partition of OUT as it was or as the job wrote it, whole: never neither, never a half.

A real subprocess (``support/commit_victim.py``) overwrites OUT, which holds an older version of the
same topics, and is killed (SIGKILL) right after a chosen step of its commit: a local folder's renames,
an object store's puts, copies and deletions. Afterwards each partition the old or the new version has
is read and must equal one of them; a partition missing from OUT must be one the new version no longer
has, or one a reader names as not read (``dump`` exit 1). A full disk (``RLIMIT_FSIZE`` in the child)
mid-commit fails with one line and leaves OUT as it was. Canaries beside OUT's partitions survive.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kafkaspec import Record, logdir
from kafkaspec.cli import main

VICTIM = Path(__file__).resolve().parent.parent / "support" / "commit_victim.py"

pytestmark = pytest.mark.hostile


@pytest.fixture(scope="module")
def versions(tmp_path_factory):
    """(old, new): two synth data dirs of the same partitions with different records, and one partition
    old has and new has not."""
    root = tmp_path_factory.mktemp("commit-kill")
    logdir.synth(root / "old", size_mb=0.3, seed=5)
    logdir.synth(root / "new", size_mb=0.2, seed=9)
    with logdir.PartitionWriter(root / "old", "gone", 0) as w:  # one an overwrite deletes
        w.append([Record(key=b"k", value=b"old only", timestamp=1_700_000_000_000)])
    return root / "old", root / "new"


def _rows(path: str) -> dict[str, list[tuple[int, bytes | None]]]:
    with logdir.open_log(path) as log:
        return {p.name: [(r.offset, r.value) for _, r in p.records()] for p in log.partitions()}


def _run(src: Path, dest: str, preserve: str, step: str, n: int, tmp_path: Path, env: dict) -> str:
    """Run the victim until its ``n``-th ``step`` and kill it there; what it was doing (or "finished")."""
    signal_file = tmp_path / f"signal-{step}-{n}"
    env = dict(os.environ, **env, PYTHONPATH=os.pathsep.join(sys.path))
    args = [sys.executable, str(VICTIM), str(src), dest, preserve, step, str(n), str(signal_file)]
    proc = subprocess.Popen(args, env=env)
    try:
        deadline = time.monotonic() + 180
        while not signal_file.exists() or not signal_file.read_text():
            assert proc.poll() is None, f"the writer ended (exit {proc.returncode}) before its {step} #{n}"
            assert time.monotonic() < deadline, "the writer never reached the step"
            time.sleep(0.05)
        return signal_file.read_text()
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()


def _check_each_partition_old_or_new(dest: str, old: dict, new: dict, capsys) -> None:
    capsys.readouterr()
    code = main(["dump", dest])
    err = capsys.readouterr().err
    assert code in (0, 1) and "Traceback" not in err, err
    now = _rows(dest)
    for name, rows in now.items():
        assert rows in (old.get(name), new.get(name)), f"{name}: neither the old version nor the new, whole"
    for name in set(old) & set(new) - set(now):
        assert code == 1 and name in err, f"{name} is gone: neither version is readable, and nothing says so"


def _local_out(tmp_path: Path, old: Path) -> Path:
    import shutil

    out = tmp_path / "out"
    shutil.copytree(old, out)
    (out / "canary.txt").write_text("keep me")
    return out


#: the local commit's moves: (preserveBatches false) the tasks' files into the ready folder, then one per
#: partition moved in (an exchange where it replaces one), one per partition an overwrite deletes
LOCAL_STEPS = [1, 2, 7, 13, 14, 30, 45]


@pytest.mark.parametrize("n", LOCAL_STEPS)
@pytest.mark.parametrize("preserve", ["true", "false"])
def test_a_local_commit_killed_at_any_rename_leaves_each_partition_whole(
    versions, tmp_path, capsys, preserve, n
):
    old, new = versions
    out = _local_out(tmp_path, old)
    reached = _run(new, str(out), preserve, "rename", n, tmp_path, {})
    if reached == "finished":
        pytest.skip(f"the commit has fewer than {n} renames")
    _check_each_partition_old_or_new(str(out), _rows(str(old)), _rows(str(new)), capsys)
    assert (out / "canary.txt").read_text() == "keep me"


#: puts (staging, then each partition's marker), copies into place, deletions
STORE_STEPS = [("write", 1), ("write", 12), ("copy", 1), ("copy", 9), ("delete", 2), ("delete_prefix", 1)]


@pytest.mark.parametrize(("step", "n"), STORE_STEPS, ids=[f"{s}{n}" for s, n in STORE_STEPS])
def test_a_store_commit_killed_at_any_request_leaves_each_partition_whole(
    versions, s3_env, s3_server, tmp_path, capsys, step, n
):
    old, new = versions
    bucket = s3_server.new_bucket()
    dest = s3_server.upload(old, bucket, "out")
    with s3_server.filesystem().open_output_stream(f"{bucket}/out/canary.txt") as f:
        f.write(b"keep me")
    reached = _run(new, dest, "true", step, n, tmp_path, s3_server.env())
    if reached == "finished":
        pytest.skip(f"the commit has fewer than {n} {step} requests")
    _check_each_partition_old_or_new(dest, _rows(str(old)), _rows(str(new)), capsys)
    assert s3_server.filesystem().open_input_file(f"{bucket}/out/canary.txt").read() == b"keep me"


def test_a_full_disk_mid_commit_is_one_line_and_leaves_out_as_it_was(versions, tmp_path):
    """Batch-preserving: the commit writes each partition again (a commit of the tasks' files as they
    are only renames, and writes nothing a full disk could stop)."""
    old, new = versions
    out = _local_out(tmp_path, old)
    before = {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
    signal_file = tmp_path / "signal"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    args = [sys.executable, str(VICTIM), str(new), str(out), "true", "fsize:4096", "0", str(signal_file)]
    proc = subprocess.run(args, env=env, capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0 and signal_file.read_text() == "failed", (proc.stdout, proc.stderr)
    assert proc.stdout.count("\n") == 1 and "File too large" in proc.stdout, proc.stdout
    after = {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
    assert after == before
