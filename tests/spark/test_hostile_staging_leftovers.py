"""A local ``kafkalog`` commit SIGKILLed half-way left ``OUT/_kafkalog_staging/<job>/`` behind for good
(readers pass it over, nothing deleted it). The next commit to OUT deletes the staging of every job it
can prove dead (its owner process, named in ``_owner``, gone: :mod:`kafkaspec.logdir.store.job_owners`),
and nothing else: a job whose owner lives, or one that names no owner, is kept. Real subprocesses
(``support/commit_victim.py``, the writer driven as Spark drives it, without a session), a canary beside."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kafkaspec import Record, logdir
from kafkaspec.logdir.store import job_owners
from kafkaspec.logdir.store.publish import STAGING

pytestmark = pytest.mark.hostile

VICTIM = Path(__file__).resolve().parent.parent / "support" / "commit_victim.py"


def _victim(src, out, step, n, signal_file):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    return subprocess.Popen(
        [sys.executable, str(VICTIM), str(src), str(out), "true", step, str(n), str(signal_file)], env=env
    )


def _rows(path):
    with logdir.open_log(str(path)) as log:
        return {p.name: [(r.offset, r.value) for _, r in p.records()] for p in log.partitions()}


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="no /proc: a death cannot be proven here")
def test_the_next_commit_deletes_the_staging_of_a_killed_job_only(tmp_path):
    old, new, out = tmp_path / "old", tmp_path / "new", tmp_path / "out"
    for root, tag in ((old, b"old"), (new, b"new")):
        for p in range(3):
            with logdir.PartitionWriter(root, "orders", p) as w:
                w.append(
                    [Record(key=b"k", value=tag + b"%d" % i, timestamp=1_700_000_000_000) for i in range(5)]
                )
    shutil.copytree(old, out)
    (out / "canary.txt").write_text("keep me")

    signal_file = tmp_path / "signal-killed"
    proc = _victim(new, out, "rename", 2, signal_file)
    try:
        deadline = time.monotonic() + 180
        while not (signal_file.exists() and signal_file.read_text()):
            assert proc.poll() is None and time.monotonic() < deadline, "the writer never reached its rename"
            time.sleep(0.05)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    killed = [d for d in (out / STAGING).iterdir()]
    assert len(killed) == 1 and (killed[0] / job_owners.OWNER).is_file()

    alive = out / STAGING / "alive-job"  # claimed by this test's process, which lives
    job_owners.claim(alive)
    (alive / "piece").write_text("x")
    unowned = out / STAGING / "older-version-job"  # no _owner: not provably dead
    unowned.mkdir()
    (unowned / "piece").write_text("x")

    done_file = tmp_path / "signal-done"
    finisher = _victim(new, out, "rename", 10**6, done_file)
    assert finisher.wait(timeout=180) == 0 and done_file.read_text() == "finished"

    assert not killed[0].exists()
    assert sorted(d.name for d in (out / STAGING).iterdir()) == ["alive-job", "older-version-job"]
    assert (alive / "piece").read_text() == "x" and (unowned / "piece").read_text() == "x"
    assert (out / "canary.txt").read_text() == "keep me"
    assert _rows(out) == _rows(new)


def test_an_owner_from_another_host_or_boot_or_a_reused_pid(tmp_path):
    job = tmp_path / "job"
    job_owners.claim(job)
    host, boot, pid, start = (job / job_owners.OWNER).read_text().split()
    assert not job_owners.is_dead(job)
    (job / job_owners.OWNER).write_text(f"elsewhere {boot} {pid} {start}\n")
    assert not job_owners.is_dead(job)  # another machine's process: not ours to judge
    (job / job_owners.OWNER).write_text(f"{host} another-boot {pid} {start}\n")
    assert job_owners.is_dead(job)
    (job / job_owners.OWNER).write_text(f"{host} {boot} {pid} {int(start) + 1}\n")
    assert job_owners.is_dead(job)  # the same id, another process
    (job / job_owners.OWNER).write_text("garbage\n")
    assert not job_owners.is_dead(job)
