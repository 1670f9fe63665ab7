"""A benchmark's process tree as /proc shows it: Spark's JVM and its Python workers are processes of
their own, so the CPU and memory of a run are those of the whole tree, not of this process alone."""

from __future__ import annotations

import os
from dataclasses import dataclass

PAGE = os.sysconf("SC_PAGE_SIZE")
TICK = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Proc:
    parent: int
    name: str
    #: CPU seconds of the process itself (utime + stime)
    cpu: float
    #: CPU seconds of its children that ended and were waited for (cutime + cstime)
    waited: float
    #: resident bytes
    rss: int


def processes() -> dict[int, Proc]:
    """pid -> :class:`Proc` of every process /proc shows now."""
    out = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue  # ended meanwhile
        name = stat[stat.index("(") + 1 : stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2 :].split()
        out[int(entry)] = Proc(
            int(fields[1]),
            name,
            (int(fields[11]) + int(fields[12])) / TICK,
            (int(fields[13]) + int(fields[14])) / TICK,
            int(fields[21]) * PAGE,
        )
    return out


def in_tree(procs: dict[int, Proc], root: int) -> list[int]:
    """The pids of ``procs`` that are ``root`` or descend from it."""
    found = []
    for pid in procs:
        p = pid
        while p and p != root:
            p = procs[p].parent if p in procs else 0
        if p == root:
            found.append(pid)
    return found
