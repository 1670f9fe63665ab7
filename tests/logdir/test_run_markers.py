"""One proof that a run is dead (:mod:`kafkaspec.logdir.store.runs`), used by the ``kafkalog`` staging,
the tables' leftovers and the pipeline's staging: a marker names its owner process, and only a run
whose owner is provably gone, or that said it ended, is dead; a live one, one on another host, one
whose marker is being written, are never taken for dead. Real subprocesses; each test in its own
``tmp_path`` with a canary beside what may be removed."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from kafkaspec.logdir.store import runs

pytestmark = [
    pytest.mark.hostile,
    pytest.mark.skipif(
        not Path("/proc/self/stat").exists(), reason="no /proc: a death cannot be proven here"
    ),
]

#: a process that marks a run as its own, says so, and lives until its stdin closes
_OWNER = "import sys; from kafkaspec.logdir.store import runs; runs.mark(sys.argv[1]); print('marked', flush=True); sys.stdin.read()"


def _owner(marker: Path) -> subprocess.Popen:
    proc = subprocess.Popen(
        [sys.executable, "-c", _OWNER, str(marker)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout.readline().strip() == "marked"
    return proc


def _state(pid: int) -> str:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


def test_a_run_is_dead_once_its_owner_is_gone_even_unreaped(tmp_path):
    marker = tmp_path / "runs" / "r1"
    proc = _owner(marker)
    try:
        assert not runs.is_dead(marker)
        proc.kill()
        deadline = time.monotonic() + 60  # bounded: on a loaded machine the kill takes its time
        while _state(proc.pid) != "Z" and time.monotonic() < deadline:
            time.sleep(0.02)
        assert _state(proc.pid) == "Z"  # killed, not reaped (no wait yet): it never runs again
        assert runs.is_dead(marker)
    finally:
        proc.kill()
        proc.wait(timeout=30)
    assert runs.is_dead(marker)


def test_what_is_never_taken_for_dead(tmp_path):
    marker = tmp_path / "r"
    assert not runs.is_dead(marker)  # no marker (yet): a run between its folder and its marker
    runs.mark(marker)
    assert not runs.is_dead(marker)  # this process: alive
    host, boot, pid, start = marker.read_text().split()
    for text in (
        f"elsewhere {boot} {pid} {start}",  # another host's, or another pid namespace's, process
        f"{host.split('@')[0]}@pid:[1] {boot} {pid} {start}",
        runs.UNPROVEN,
        "",
        "garbage",
    ):
        marker.write_text(text + "\n")
        assert not runs.is_dead(marker), text
    marker.write_text(f"{host} another-boot {pid} {start}\n")
    assert runs.is_dead(marker)  # the machine restarted since
    marker.write_text(f"{host} {boot} {pid} {int(start) + 1}\n")
    assert runs.is_dead(marker)  # the same id, another process
    runs.mark(marker)
    runs.end(marker)
    assert runs.is_dead(marker)  # it let go, its process lives on
    runs.unmark(marker)
    assert not marker.exists() and not list(tmp_path.iterdir())


def test_remove_dead_removes_only_dead_runs_folders(tmp_path):
    out = tmp_path / "out"
    canary = tmp_path / "canary"
    canary.write_text("keep")
    dead, live, claiming, unmarked = (out / f"_run-{n}" for n in ("dead", "live", "claiming", "old"))
    for d in (dead, live, claiming, unmarked):
        d.mkdir(parents=True)
    (dead / "_owner").write_text("ended\n")
    runs.mark(live / "_owner")  # this process: alive
    (claiming / "._owner.tmp").write_text("half")  # its owner being written: not provably dead
    other = out / "other"  # a name the caller does not own
    other.mkdir()
    (other / "_owner").write_text("ended\n")
    link = out / "_run-link"
    link.symlink_to(tmp_path)
    theirs = lambda name: name.startswith("_run-")  # noqa: E731
    assert runs.remove_dead(out, theirs, marker="_owner") == [dead]
    assert {p.name for p in out.iterdir()} == {"_run-live", "_run-claiming", "_run-old", "other", "_run-link"}
    assert sorted(runs.remove_dead(out, theirs, locked=True)) == [
        claiming,
        live,
        unmarked,
    ]  # under OUT's lock
    assert {p.name for p in out.iterdir()} == {"other", "_run-link"}
    assert canary.read_text() == "keep"
