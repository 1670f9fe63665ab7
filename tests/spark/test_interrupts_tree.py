"""kafkaspec.spark.run.interrupts.end_descendants ends every process below the caller, whatever it does with
SIGTERM and whichever process group it moved to (as PySpark's worker daemon does), and only those.
Run in a subprocess of its own: in the test process it would end the shared Spark JVM."""

from __future__ import annotations

import os
import subprocess
import sys
import time

CHILD = r"""
import os, subprocess, sys, time
from kafkaspec.spark.run.interrupts import descendants, end_descendants
plain = subprocess.Popen(["sleep", "300"])
stubborn = subprocess.Popen(["sh", "-c", "trap '' TERM; sleep 300 & wait"], start_new_session=True)
deep = subprocess.Popen(["sh", "-c", "sleep 300 & sleep 300 & wait"])
deadline = time.monotonic() + 20
while len(descendants(os.getpid())) < 6 and time.monotonic() < deadline:
    time.sleep(0.05)
tree = sorted(descendants(os.getpid()))
print(" ".join(map(str, tree)), flush=True)
start = time.monotonic()
end_descendants(grace=1.0)
print(round(time.monotonic() - start, 1), sorted(descendants(os.getpid())), flush=True)
"""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return False
    return stat[stat.rindex(b")") + 2 :].split()[0] not in (b"Z", b"X")


def test_every_descendant_ends_even_one_that_ignores_sigterm(tmp_path):
    outsider = subprocess.Popen(["sleep", "300"])  # a sibling of the caller: not below it, left alone
    try:
        done = subprocess.run(
            [sys.executable, "-c", CHILD],
            capture_output=True,
            text=True,
            timeout=120,
            cwd=tmp_path,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        first, second = done.stdout.splitlines()
        tree = [int(p) for p in first.split()]
        assert len(tree) >= 6, tree  # sleep, sh + sleep (own session), sh + 2 sleeps
        seconds, left = second.split(" ", 1)
        assert left == "[]"
        assert 1.0 <= float(seconds) < 10, "the one ignoring SIGTERM was killed after the grace period"
        time.sleep(0.2)
        assert [p for p in tree if _alive(p)] == []
        assert _alive(outsider.pid)
    finally:
        outsider.kill()
        outsider.wait()
    assert not os.path.exists(tmp_path / "nothing-written")
