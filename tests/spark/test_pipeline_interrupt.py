"""SIGINT or SIGTERM on ``kafkaspec pipeline`` at any moment: one line, exit 130, and no process of the run
left behind (the JVM, the Python workers' daemon and workers), for a full run and for ``--follow``.

Each run is a real subprocess in its own session, signalled at a moment the process tree or the output
folder shows: once OUT exists (no JVM yet), while the JVM starts, while tasks run (a Python worker
exists); ``--follow`` once a micro-batch is in ``records/``: one signal is its documented clean end (the
summary, exit 0), a second one while it stops ends it at once. After it ends, no process of its session
may remain. Before kafkaspec.spark.run.interrupts, these moments gave "Spark did not start" (exit 2),
py4j tracebacks, or a JVM left running.
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

pytestmark = pytest.mark.spark


def _source(root: Path) -> Path:
    for p in range(2):
        with logdir.PartitionWriter(root, "orders", p, segment_bytes=20000) as w:
            for b in range(300):
                w.append([Record(key=b"k%d" % i, value=b"v" * 40, timestamp=b) for i in range(10)])
    return root


def _session(sid: int) -> list[tuple[int, str]]:
    """(pid, command line) of every live process in session ``sid``."""
    out = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry.name}/stat").read_bytes()
            cmd = (
                Path(f"/proc/{entry.name}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            )
        except OSError:
            continue
        fields = stat[stat.rindex(b")") + 2 :].split()
        if int(fields[3]) == sid and fields[0] not in (b"Z", b"X"):
            out.append((int(entry.name), cmd))
    return out


def _has(sid: int, word: str) -> bool:
    return any(word in cmd for _, cmd in _session(sid))


def _run_and_signal(
    tmp_path: Path, sig: int, ready, *extra: str, again: int | None = None
) -> tuple[int, list[str], Path]:
    """Run the pipeline, send ``sig`` once ``ready(pid, out)``, and ``again`` (if given) 0.1 s later."""
    src = _source(tmp_path / "src")
    out = tmp_path / "out"
    canary = tmp_path / "canary"
    canary.write_text("keep")
    proc = subprocess.Popen(
        [sys.executable, "-m", "kafkaspec.cli", "pipeline", str(src), str(out), "--master", "local[1]",
         "--split-size", "8k", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 240
        while not ready(proc.pid, out):
            assert proc.poll() is None, f"the run ended first: {proc.communicate()}"
            assert time.monotonic() < deadline, "the moment never came"
            time.sleep(0.02)
        os.kill(proc.pid, sig)
        if again is not None:
            time.sleep(0.1)
            os.kill(proc.pid, again)
        _, err = proc.communicate(timeout=90)
        gone = time.monotonic() + 15
        while _session(proc.pid) and time.monotonic() < gone:
            time.sleep(0.1)
        left = _session(proc.pid)
        assert not left, f"processes left behind: {left}"
    finally:
        for pid, _ in _session(proc.pid):
            os.kill(pid, signal.SIGKILL)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert canary.read_text() == "keep"
    return proc.returncode, err.splitlines(), out


def _one_line(code: int, lines: list[str]) -> None:
    assert code == 130, lines
    assert lines and lines[-1] == "kafkaspec pipeline: interrupted", lines
    assert lines[:-1] in ([], ["starting Spark (local[1]) ..."]), lines


def test_sigint_before_spark_starts(tmp_path):
    """OUT exists (the run holds its lock), the JVM is not started yet."""
    code, lines, _ = _run_and_signal(tmp_path, signal.SIGINT, lambda pid, out: out.exists())
    _one_line(code, lines)


def test_sigint_while_the_jvm_starts(tmp_path):
    code, lines, _ = _run_and_signal(tmp_path, signal.SIGINT, lambda pid, out: _has(pid, "java"))
    _one_line(code, lines)


def test_sigterm_while_tasks_run(tmp_path):
    code, lines, out = _run_and_signal(tmp_path, signal.SIGTERM, lambda pid, out: _has(pid, "pyspark.daemon"))
    _one_line(code, lines)
    assert not (out / "summary.json").exists()


def _committed(pid: int, out: Path) -> bool:
    return (out / "records").exists() and any((out / "records").rglob("*.parquet"))


def test_sigint_ends_follow_cleanly(tmp_path):
    """--follow's documented end: the running micro-batch committed or left to the next run, the summary."""
    code, lines, out = _run_and_signal(tmp_path, signal.SIGINT, _committed, "--follow", "--interval", "1")
    assert code == 0 and not any("Traceback" in line for line in lines), lines
    assert (out / "summary.json").exists()


def test_a_second_signal_ends_follow_at_once(tmp_path):
    code, lines, _ = _run_and_signal(
        tmp_path, signal.SIGINT, _committed, "--follow", "--interval", "1", again=signal.SIGTERM
    )
    _one_line(code, lines)
