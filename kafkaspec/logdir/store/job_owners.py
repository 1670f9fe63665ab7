"""Which process owns a ``kafkalog`` job's local staging, so that the staging of a job that died (a
driver killed during its commit, a machine that went down) can be told from one still running and
deleted by the next commit to the same folder.

A job writes ``<root>/_kafkalog_staging/<job>/_owner`` when it starts: the host, the boot, and the
process id and start time of the process it lives in, the Spark driver (the nearest ``java`` ancestor
of the Python worker that plans the write; the process itself when no JVM is above it, a writer driven
without Spark). The job is dead, provably, when that host is this one and, since the same boot, no
process has that id and start time: process ids are reused, a start time with them is not. Anything
else (another host sharing the folder, a job of an older version without ``_owner``, a system without
``/proc``) is not proven dead and is left alone, as it was before.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path

#: the owner file in a job's staging folder
OWNER = "_owner"


def _start_time(pid: int) -> str | None:
    """The start time of process ``pid`` (clock ticks after boot, ``/proc/<pid>/stat`` field 22)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[1].split()[19]  # after the command name, which may hold spaces


def _boot() -> str | None:
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        return None


def _owner_pid() -> int:
    """The nearest ``java`` ancestor of this process (the Spark driver), else this process."""
    pid = os.getpid()
    seen = 0
    while pid > 1 and seen < 64:
        try:
            if Path(f"/proc/{pid}/comm").read_text().strip() == "java":
                return pid
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            break
        pid = int(stat.rsplit(")", 1)[1].split()[1])
        seen += 1
    return os.getpid()


def _identity(pid: int) -> str | None:
    """``host boot pid start`` of ``pid``; None where the system says too little to prove a death later."""
    boot, start = _boot(), _start_time(pid)
    if boot is None or start is None:
        return None
    return f"{socket.gethostname()} {boot} {pid} {start}"


def claim(job_dir: Path) -> None:
    """Write ``job_dir``'s owner (the folder made here); nothing where :func:`_identity` says too little
    or the folder cannot be written."""
    me = _identity(_owner_pid())
    if me is None:
        return
    try:
        job_dir.mkdir(parents=True, exist_ok=True)
        staged = job_dir / f".{OWNER}.tmp"
        staged.write_text(me + "\n")
        staged.replace(job_dir / OWNER)
    except OSError:  # an output that cannot be written: the tasks say so, naming it
        return


def is_dead(job_dir: Path) -> bool:
    """Whether the job of ``job_dir`` is provably dead (see the module)."""
    try:
        host, boot, pid, start = (job_dir / OWNER).read_text().split()
    except (OSError, ValueError):
        return False
    if host != socket.gethostname() or _boot() is None:
        return False
    return boot != _boot() or not pid.isdigit() or _start_time(int(pid)) != start
