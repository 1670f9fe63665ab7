"""One proof that a run is dead, for everything that deletes what killed runs left: the staging of a
``kafkalog`` job (:mod:`.job_owners`), the data files of a table run (:mod:`kafkaspec.tables.leftovers`),
the staging folders of a full pipeline run (:func:`kafkaspec.spark.run.onepass.remove_dead_staging`).

A run marks itself (:func:`mark`) before it writes anything: a file, or an object on a store, holding
its owner's proof, ``host boot pid start``: the host (its name and process-id namespace), the boot id,
and the process id and start time
of the process it lives in (given by the caller: a table run's own process; a ``kafkalog`` job's Spark
driver, since PySpark writes and commits in different processes). Written whole (a local file under a
temporary name, then renamed; an object in one put), so a marker is never seen without its owner.

A run is provably dead (:func:`is_dead`) when its marker says it ended without committing (it let go:
:func:`end`), or when the host is this one and, since the same boot, no live process has that id and
start time (process ids are reused, a start time with them is not; a zombie counts as dead: it never
runs again). Anything else (another host sharing the folder, a marker that cannot be read, a system
without ``/proc``) is not proven dead and is left alone. Under the destination's lock (a run holding
it is the only one alive there) every other run is dead: :func:`remove_dead` with ``locked``.

Why not ``flock``: a lock is held by the process that took it, not by the run (a Python worker of a
Spark job ends while its job lives); a store has no lock; and the proof is the same for all three.
"""

from __future__ import annotations

import os
import shutil
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: what a marker holds once its run let go without committing (:func:`end`)
ENDED = "ended"


def _stat(pid: int) -> list[str] | None:
    """``/proc/<pid>/stat``'s fields after the command name (which may hold spaces): state first."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[1].split()


def _start_time(pid: int) -> str | None:
    """The start time of the live process ``pid`` (clock ticks after boot, field 22); None: no such
    process, or a zombie (killed, not yet reaped: it never runs again)."""
    fields = _stat(pid)
    if fields is None or fields[0] in ("Z", "X"):
        return None
    return fields[19]


def _boot() -> str | None:
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        return None


def driver_pid() -> int:
    """The nearest ``java`` ancestor of this process (a Spark driver or executor), else this process."""
    pid = os.getpid()
    seen = 0
    while pid > 1 and seen < 64:
        try:
            if Path(f"/proc/{pid}/comm").read_text().strip() == "java":
                return pid
        except OSError:
            break
        fields = _stat(pid)
        if fields is None:
            break
        pid = int(fields[1])
        seen += 1
    return os.getpid()


def _host() -> str:
    """This host as the processes here see it: its name and the namespace its process ids are in (two
    containers of one machine may share a folder, a name and a boot, not their process ids)."""
    try:
        space = os.readlink("/proc/self/ns/pid")
    except OSError:
        space = ""
    return f"{socket.gethostname()}@{space}"


def owner(pid: int | None = None) -> str | None:
    """The proof of process ``pid`` (this one by default), ``host boot pid start``; None where the
    system says too little to prove its death later."""
    pid = os.getpid() if pid is None else pid
    boot, start = _boot(), _start_time(pid)
    if boot is None or start is None:
        return None
    return f"{_host()} {boot} {pid} {start}"


def proven_dead(proof: str) -> bool:
    """Whether the run whose marker holds ``proof`` is provably dead (see the module)."""
    if proof.strip() == ENDED:
        return True
    try:
        host, boot, pid, start = proof.split()
    except ValueError:
        return False
    here = _boot()
    if host != _host() or here is None:
        return False
    return boot != here or not pid.isdigit() or _start_time(int(pid)) != start


def _read(path: str, fs: Any) -> str | None:
    try:
        if fs is None:
            return Path(path).read_text()
        with fs.open_input_stream(path) as f:
            return bytes(f.read()).decode()
    except (OSError, UnicodeDecodeError):
        return None


def _write(path: str, text: str, fs: Any) -> None:
    if fs is not None:
        with fs.open_output_stream(path) as f:
            f.write(text.encode())
        return
    folder, name = os.path.split(path)
    os.makedirs(folder or ".", exist_ok=True)
    staged = os.path.join(folder, f".{name}.tmp")
    with open(staged, "w") as f:
        f.write(text)
    os.replace(staged, path)


def _ended(path: str) -> str:
    """Where a marker says its run ended: beside it, hidden (``.<name>.ended``), since rewriting the
    marker would change its time, which :mod:`kafkaspec.tables.leftovers` reads as the run's start."""
    folder, _, name = path.replace(os.sep, "/").rpartition("/")
    return f"{folder}/.{name}.ended" if folder else f".{name}.ended"


#: what a marker holds where the system says too little for a proof: its run is never taken for dead
UNPROVEN = "unproven"


def mark(path: str | os.PathLike[str], pid: int | None = None, fs: Any = None) -> bool:
    """Mark a run as ``pid``'s (this process by default): write its proof at ``path`` (on ``fs``, a
    pyarrow filesystem, when given; else a local path, its folder made); whether it holds one (else
    :data:`UNPROVEN`: the system says too little, :func:`owner`). An OSError where ``path`` cannot
    be written."""
    proof = owner(pid)
    _write(os.fspath(path), (proof or UNPROVEN) + "\n", fs)
    return proof is not None


def is_dead(path: str | os.PathLike[str], fs: Any = None) -> bool:
    """Whether the run marked at ``path`` is provably dead (see the module); a marker that cannot be
    read (missing, being written) is not."""
    path = os.fspath(path)
    if _read(_ended(path), fs) is not None:
        return True
    proof = _read(path, fs)
    return proof is not None and proven_dead(proof)


def end(path: str | os.PathLike[str], fs: Any = None) -> None:
    """The run marked at ``path`` lets go without committing: what it wrote is a dead run's now, even
    while its process lives on (a failed run in a notebook)."""
    _write(_ended(os.fspath(path)), ENDED + "\n", fs)


def unmark(path: str | os.PathLike[str], fs: Any = None) -> None:
    """Remove the marker at ``path`` (and what says it ended): its run committed, or was cleaned up."""
    path = os.fspath(path)
    for p in (_ended(path), path):
        try:
            if fs is None:
                os.unlink(p)
            else:
                fs.delete_file(p)
        except FileNotFoundError:
            continue
        except OSError:
            if fs is None:
                raise  # a store's client may say "not found" its own way: the marker is gone either way


def remove_dead(
    folder: Path, match: Callable[[str], bool], *, marker: str | None = None, locked: bool = False
) -> list[Path]:
    """Remove the folders in ``folder`` whose name ``match``es, each a run's, whose run is dead: under
    the destination's lock (``locked``: the caller holds it, so no other run is alive there) every
    one; else those whose ``marker`` file inside proves it. Never a symbolic link, never a file; the
    folders removed."""
    removed = []
    for entry in sorted(folder.iterdir()) if folder.is_dir() else []:
        if not match(entry.name) or entry.is_symlink() or not entry.is_dir():
            continue
        if locked or (marker is not None and is_dead(entry / marker)):
            shutil.rmtree(entry, ignore_errors=True)
            removed.append(entry)
    return removed
