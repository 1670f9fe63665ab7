"""Which process owns a ``kafkalog`` job's local staging, so that the staging of a job that died (a
driver killed during its commit, a machine that went down) can be told from one still running and
deleted by the next commit to the same folder.

A job writes ``<root>/_kafkalog_staging/<job>/_owner`` when it starts: its run marker
(:mod:`.runs`), naming the Spark driver as the owner (the nearest ``java`` ancestor of the Python
worker that plans the write; the process itself when no JVM is above it, a writer driven without
Spark). Whatever :mod:`.runs` cannot prove dead (another host sharing the folder, a job of an older
version without ``_owner``, a system without ``/proc``) is left alone.
"""

from __future__ import annotations

from pathlib import Path

from . import runs

#: the owner file in a job's staging folder
OWNER = "_owner"


def claim(job_dir: Path) -> None:
    """Write ``job_dir``'s owner (the folder made here); nothing where :mod:`.runs` has no proof to
    write or the folder cannot be written."""
    try:
        runs.mark(job_dir / OWNER, runs.driver_pid())
    except OSError:  # an output that cannot be written: the tasks say so, naming it
        return


def is_dead(job_dir: Path) -> bool:
    """Whether the job of ``job_dir`` is provably dead (:func:`.runs.is_dead`)."""
    return runs.is_dead(job_dir / OWNER)


def remove_dead(staging: Path, job: str) -> list[Path]:
    """Delete the staging of every job but ``job`` whose owner is provably dead."""
    return runs.remove_dead(staging, lambda name: name != job, marker=OWNER)
