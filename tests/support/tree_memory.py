"""The peak resident memory of each process of a Spark job, by kind, read from /proc.

Spark's JVM and its Python workers are processes of their own, so a bound on a job's memory is a bound
on each of them: the driver (the process that runs the job), the JVM, and every Python worker (the
daemon and the workers it forks). Linux keeps each process's peak resident set (``VmHWM``) and lets a
process of the same user reset it to the current one (``clear_refs`` 5), so a job's own peaks are read
without sampling: :func:`reset` before the job, :func:`peaks` after it. A worker that ends during the
job takes its peak with it (PySpark reuses its workers: they stay).
"""

from __future__ import annotations

import os
from typing import NamedTuple

__all__ = ["Peaks", "peaks", "reset", "tree"]


def _read(path: str) -> str | None:
    try:
        with open(path) as f:
            return f.read()
    except OSError:  # ended meanwhile
        return None


def tree(root: int | None = None) -> dict[int, str]:
    """pid -> kind (``driver``, ``jvm`` or ``worker``) of ``root`` (default this process) and its
    descendants; other programs (the shell that starts the JVM) are left out."""
    root = os.getpid() if root is None else root
    parent, name = {}, {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (stat := _read(f"/proc/{entry}/stat")) is not None:
            pid = int(entry)
            name[pid] = stat[stat.index("(") + 1 : stat.rindex(")")]
            parent[pid] = int(stat[stat.rindex(")") + 2 :].split()[1])
    out = {}
    for pid in parent:
        p = pid
        while p and p != root:
            p = parent.get(p, 0)
        if p != root:
            continue
        if pid == root:
            out[pid] = "driver"
        elif name[pid] == "java":
            out[pid] = "jvm"
        elif name[pid].startswith("python"):
            out[pid] = "worker"
    return out


def _status(pid: int, key: str) -> int:
    text = _read(f"/proc/{pid}/status") or ""
    return next((int(line.split()[1]) * 1024 for line in text.splitlines() if line.startswith(key + ":")), 0)


def reset(pids: dict[int, str]) -> None:
    """Each process's peak resident set back to its current one (``/proc/PID/clear_refs``)."""
    for pid in pids:
        try:
            with open(f"/proc/{pid}/clear_refs", "w") as f:
                f.write("5")
        except OSError:
            pass  # ended meanwhile


class Peaks(NamedTuple):
    driver: int  #: bytes: the driver's peak resident set
    jvm: int  #: bytes: the JVM's (the largest, were there several)
    worker: int  #: bytes: the largest Python worker's
    workers: int  #: how many Python workers were seen


def peaks(root: int | None = None) -> Peaks:
    """The peak resident sets of ``root``'s tree now (since the last :func:`reset` of each)."""
    by_kind: dict[str, list[int]] = {"driver": [], "jvm": [], "worker": []}
    for pid, kind in tree(root).items():
        by_kind[kind].append(_status(pid, "VmHWM"))
    return Peaks(
        max(by_kind["driver"], default=0),
        max(by_kind["jvm"], default=0),
        max(by_kind["worker"], default=0),
        len(by_kind["worker"]),
    )
