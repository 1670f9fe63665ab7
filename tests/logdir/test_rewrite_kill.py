"""A ``rewrite`` killed half-way is never mistaken for a complete copy (issue 30 item 4).

The rewrite runs as a real ``kafkaspec`` subprocess and is killed with SIGKILL. To kill it at a
known point, the child (this file's own script, not production code) wraps one function of
kafkaspec: after the N-th batch appended, or the N-th rename, it creates a "ready" file and waits
to be killed. Then DST must show no partition to a reader, ``verify DST`` and ``dump DST`` must
report the interruption (exit 1), and a re-run must say what it found: it removes the stale
staging dir it recognises (and says so) and writes the copy; it refuses (exit 2) where it cannot
tell what the leftovers are. Every test works in its own ``tmp_path`` with canaries beside DST
and inside SRC that must survive every run.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from kafkaspec import Record
from kafkaspec.logdir import PartitionWriter, open_log

pytestmark = pytest.mark.hostile

REPO = Path(__file__).resolve().parents[2]

#: the child: run ``kafkaspec ARGS`` with one function paused at its N-th call (the test's own knob)
CHILD = textwrap.dedent("""
    import os, sys, time
    what, stop_at, ready = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    calls = 0
    def pause():
        open(ready, "w").close()
        time.sleep(600)  # the test kills us here
    if what == "append":
        from kafkaspec.logdir.write import writer
        original = writer.PartitionWriter._append
        def paused(self, *args, **kwargs):
            global calls
            calls += 1
            if calls == stop_at:
                pause()
            return original(self, *args, **kwargs)
        writer.PartitionWriter._append = paused
    else:  # "rename": pause after the N-th rename has happened
        original_rename = os.rename
        def paused_rename(a, b, **kwargs):
            global calls
            original_rename(a, b, **kwargs)
            calls += 1
            if calls == stop_at:
                pause()
        os.rename = paused_rename
    from kafkaspec.cli import main
    sys.exit(main(sys.argv[4:]))
""")

TOPICS = ("t", "u", "v")
BATCHES = 120  # per partition


@pytest.fixture
def src(tmp_path: Path) -> Path:
    root = tmp_path / "src"
    for topic in TOPICS:
        with PartitionWriter(root, topic, 0, segment_bytes=3000, index_interval_bytes=300) as w:
            for i in range(BATCHES):
                w.append(
                    [Record(key=b"k%d" % i, value=bytes([i % 256]) * 50, timestamp=1_700_000_000_000 + i)]
                )
    (root / "canary.txt").write_text("source canary")
    return root


@pytest.fixture
def canary(tmp_path: Path):
    path = tmp_path / "canary.txt"
    path.write_text("still here")
    yield path
    assert path.read_text() == "still here"
    assert (tmp_path / "src" / "canary.txt").read_text() == "source canary"


def _kafkaspec(*args: object, timeout: float = 120) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.run(
        [sys.executable, "-m", "kafkaspec.cli", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


def _start_paused(tmp_path: Path, what: str, stop_at: int, *args: object) -> tuple[subprocess.Popen, Path]:
    ready = tmp_path / f"ready-{what}-{stop_at}"
    env = dict(os.environ, PYTHONPATH=str(REPO))
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, what, str(stop_at), str(ready), *map(str, args)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    deadline = time.monotonic() + 120
    while not ready.exists():
        if child.poll() is not None:
            out, err = child.communicate()
            pytest.fail(f"the child ended (exit {child.returncode}) before the pause: {out!r} {err!r}")
        assert time.monotonic() < deadline, "the child never reached the pause"
        time.sleep(0.05)
    return child, ready


def _kill(child: subprocess.Popen) -> None:
    child.send_signal(signal.SIGKILL)
    child.communicate(timeout=60)
    assert child.returncode == -signal.SIGKILL


def _records(path: Path) -> dict[str, list[tuple]]:
    with open_log(path) as log:
        return {p.name: [(r.offset, r.key, r.value) for _, r in p.records()] for p in log.partitions()}


def _kill_half_way(tmp_path: Path, src: Path, dst: Path) -> None:
    child, _ = _start_paused(tmp_path, "append", len(TOPICS) * BATCHES // 2, "rewrite", src, dst)
    _kill(child)


def test_killed_rewrite_is_reported_by_verify_and_dump(tmp_path, src, canary):
    dst = tmp_path / "dst"
    _kill_half_way(tmp_path, src, dst)
    assert dst.is_dir()
    with open_log(dst) as log:  # no partial partition is visible to a reader
        assert log.partitions() == []
    proc = _kafkaspec("verify", dst)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "rewrite that did not finish" in proc.stdout and "not a complete copy" in proc.stdout, proc.stdout
    proc = _kafkaspec("dump", dst)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "rewrite that did not finish" in proc.stderr and str(dst) in proc.stderr, proc.stderr
    proc = _kafkaspec("verify", dst, "--json")
    problems = [json.loads(line) for line in proc.stdout.splitlines()]
    assert proc.returncode == 1 and any(
        p["severity"] == "error" and p["path"].startswith(str(dst)) for p in problems
    )


def test_rerun_removes_its_stale_staging_dir_and_says_so(tmp_path, src, canary):
    dst = tmp_path / "dst"
    _kill_half_way(tmp_path, src, dst)
    stale = [p for p in dst.iterdir()]
    assert len(stale) == 1
    proc = _kafkaspec("rewrite", src, dst, "--where", "undefined_name")  # a re-run that fails keeps it
    assert proc.returncode == 2 and [p for p in dst.iterdir()] == stale
    proc = _kafkaspec("rewrite", src, dst)
    assert proc.returncode == 0, proc.stderr
    assert f"removed the staging dir of an interrupted rewrite: {stale[0]}" in proc.stdout, proc.stdout
    assert not stale[0].exists()
    assert _records(dst) == _records(src)
    proc = _kafkaspec("verify", dst)
    assert proc.returncode == 0 and " 0 errors, 0 warnings" in proc.stdout, proc.stdout


def test_killed_while_moving_into_place_is_reported_and_not_guessed(tmp_path, src, canary):
    dst = tmp_path / "dst"
    child, _ = _start_paused(
        tmp_path, "rename", 1, "rewrite", src, dst
    )  # one partition moved in, then killed
    _kill(child)
    with open_log(dst) as log:
        assert len(log.partitions()) == 1  # moved whole, by one rename: complete, but the copy is not
    proc = _kafkaspec("verify", dst)
    assert proc.returncode == 1 and "rewrite that did not finish" in proc.stdout, proc.stdout
    proc = _kafkaspec("dump", dst, "--batches-only")
    assert proc.returncode == 1 and "rewrite that did not finish" in proc.stderr, proc.stderr
    before = sorted(p.relative_to(dst) for p in dst.rglob("*"))
    proc = _kafkaspec("rewrite", src, dst)
    assert proc.returncode == 2 and "interrupted rewrite" in proc.stderr and "remove" in proc.stderr, (
        proc.stderr
    )
    assert len(proc.stderr.strip().splitlines()) == 1
    assert sorted(p.relative_to(dst) for p in dst.rglob("*")) == before  # the re-run touched nothing


def test_rerun_leaves_a_live_rewrites_staging_dir_alone(tmp_path, src, canary):
    dst = tmp_path / "dst"
    child, _ = _start_paused(tmp_path, "append", 10, "rewrite", src, dst)
    try:
        staging = [p for p in dst.iterdir()]
        proc = _kafkaspec("rewrite", src, dst)
        assert proc.returncode == 2 and f"pid {child.pid}" in proc.stderr, proc.stderr
        assert [p for p in dst.iterdir()] == staging
    finally:
        _kill(child)


def test_a_lookalike_directory_is_not_removed(tmp_path, src, canary):
    """Only a staging dir the re-run recognises as a rewrite's (its owner file) is ever removed."""
    dst = tmp_path / "dst"
    _kill_half_way(tmp_path, src, dst)
    (stale,) = dst.iterdir()
    lookalike = dst / stale.name.replace(stale.name.split("-")[2], "1")
    lookalike.mkdir()
    (lookalike / "mine.txt").write_text("user data")
    proc = _kafkaspec("rewrite", src, dst)
    assert proc.returncode == 2 and "not an empty directory" in proc.stderr, proc.stderr
    assert (lookalike / "mine.txt").read_text() == "user data" and stale.exists()


def test_failed_rewrite_removes_only_its_own_staging_dir(tmp_path, src, canary):
    dst = tmp_path / "dst"
    dst.mkdir()
    proc = _kafkaspec("rewrite", src, dst, "--where", "offset < 100 or undefined_name")
    assert proc.returncode == 2 and "--where failed" in proc.stderr
    assert dst.is_dir() and list(dst.iterdir()) == []


def test_rewriting_an_interrupted_copy_is_refused_naming_it(tmp_path, src, canary):
    """An interrupted copy used as a source: its staged output is no partition, and copying the rest
    as if it were the whole would lose it without a word."""
    dst = tmp_path / "dst"
    _kill_half_way(tmp_path, src, dst)
    (stale,) = dst.iterdir()
    proc = _kafkaspec("rewrite", dst, tmp_path / "again")
    assert proc.returncode == 1 and str(stale) in proc.stderr and "did not finish" in proc.stderr, proc.stderr
    assert not (tmp_path / "again").exists()
