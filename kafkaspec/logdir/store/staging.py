"""A rewrite's output staged inside its destination, and published by renames when complete.

``copy`` (``kafkaspec rewrite``) writes the whole output under a staging dir in the destination,
``DST/.kafkaspec-rewrite-<pid>-<token>.staging/`` (a data dir of its own), and only when every
partition, the offset checkpoints and ``meta.properties`` are complete moves them into DST, each
by one rename on the same file system (atomic), partitions first; the staging dir goes last. So:

* a run killed at any point (SIGKILL; power loss too: files are flushed before the renames) leaves the staging dir behind. Readers
  (:class:`kafkaspec.logdir.LogDir`) never read a staging dir as partitions: they list it in
  ``LogDir.interrupted``, and ``verify`` and ``dump`` report it (exit 1), so an interrupted
  run is never mistaken for a complete copy, even when it was killed between two renames (some
  partitions moved in, whole, the staging dir still there);
* a run that fails with an error removes its staging dir (by its own path) and nothing else.

The staging dir holds an owner file (``kafkaspec-rewrite.json``: process id, host, start time,
source) by which a later run recognises it (:func:`prepare`): a staging dir whose process is gone
is removed once the new copy is in place, and the run says so; one whose process still runs, or
that was written on another host, or that it cannot recognise, is left alone and the run refuses
to start. The destination directory is locked (``flock``) for the whole run, so a second run started
into it at the same instant refuses to start rather than publish beside the first. A destination
holding a stale staging dir beside other entries (a run killed while moving its output in) is
refused too: which entries that run moved is not recorded anywhere a re-run could trust.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import secrets
import shutil
import socket
import time
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from ...errors import KafkaFormatError
from .fs import open_regular

#: the owner file inside a staging dir
OWNER = "kafkaspec-rewrite.json"
_NAME = re.compile(r"\.kafkaspec-rewrite-([0-9]+)-([0-9a-f]{12})\.staging")
#: an owner file is a line of JSON; a larger one is not ours
_MAX_OWNER_BYTES = 1 << 16


def is_staging_name(name: str) -> bool:
    """Whether ``name`` is a staging dir's name (readers pass over such a directory and report it)."""
    return bool(_NAME.fullmatch(name))


class Owner(NamedTuple):
    """Who wrote a staging dir, as its owner file says."""

    path: Path  # the staging dir
    pid: int
    host: str
    started: str  # local time, ISO 8601
    source: str

    def describe(self) -> str:
        return f"{self.path} (pid {self.pid} on {self.host}, started {self.started}, from {self.source})"

    def running(self) -> bool:
        """Whether the writing process may still run: it does on this host, or the host is another
        one (which this process cannot look into, so it assumes it does)."""
        if self.host != socket.gethostname():
            return True
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:  # it exists, owned by someone else
            return True
        return True


def read_owner(path: Path) -> Owner | None:
    """The owner of the staging dir ``path``, or None when it is not one this module wrote (no owner
    file, or one that does not say what a staging dir's says)."""
    match = _NAME.fullmatch(path.name)
    if match is None or path.is_symlink() or not path.is_dir():
        return None
    try:  # opened without blocking and checked regular: a FIFO there would hang the run
        fd = open_regular(path / OWNER)
        with os.fdopen(fd, "rb") as fh:
            data = fh.read(_MAX_OWNER_BYTES + 1)
        if len(data) > _MAX_OWNER_BYTES:
            return None
        owner = json.loads(data.decode("utf-8"))
        fields = (int(owner["pid"]), str(owner["host"]), str(owner["started"]), str(owner["source"]))
    except (OSError, ValueError, KeyError, TypeError, RecursionError, KafkaFormatError):
        return None
    if fields[0] != int(match[1]) or owner.get("token") != match[2]:
        return None
    return Owner(path, *fields)


def prepare(dst: Path) -> list[Owner]:
    """Make sure ``dst`` may receive a copy: it does not exist, is empty, or holds only staging dirs of
    earlier runs that were killed; return those (:meth:`Staging.publish` removes them once the new
    copy is in place, so a run that fails leaves them as they were). Raises :class:`FileExistsError`
    (saying what it found) otherwise."""
    if not dst.exists():
        return []
    if not dst.is_dir():
        raise FileExistsError(f"{dst} exists and is not an empty directory")
    entries = sorted(dst.iterdir())
    owners = [o for o in map(read_owner, entries) if o is not None]
    running = [o for o in owners if o.running()]
    if running:
        raise FileExistsError(
            f"{dst}: another rewrite may be writing it: {running[0].describe()}; wait for it to "
            "finish, or remove that staging dir if its process is gone"
        )
    others = len(entries) - len(owners)
    if others and owners:
        raise FileExistsError(
            f"{dst} exists and is not an empty directory: beside {others} other entries it holds "
            f"the staging dir of an interrupted rewrite, {owners[0].describe()}; if that rewrite "
            f"was killed while moving its output in, {dst} is not a complete copy: remove it and "
            "run again"
        )
    if others:
        raise FileExistsError(f"{dst} exists and is not an empty directory")
    return owners


class Lock:
    """An exclusive lock on the destination directory for one run, held from before :func:`prepare`
    until the run ends (``flock`` on the directory: the kernel releases it when the process dies, so
    a killed run never leaves a stale lock). Two runs started into one destination at the same
    instant would otherwise both find it empty and both publish into it."""

    def __init__(self, dst: Path):
        self.fd = os.open(dst, os.O_RDONLY | os.O_DIRECTORY)
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(self.fd)
            raise FileExistsError(
                f"{dst}: another rewrite is writing it (it holds the directory's lock); wait for it to finish"
            ) from None

    def release(self) -> None:
        os.close(self.fd)  # closing the last descriptor releases the flock

    def __enter__(self) -> Lock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


class Staging:
    """The staging dir of one run in ``dst`` (which must exist): write into :attr:`path`, then
    :meth:`publish`; or :meth:`discard` on failure."""

    def __init__(self, dst: Path, source: str):
        self.dst = dst
        token = secrets.token_hex(6)
        self.path = dst / f".kafkaspec-rewrite-{os.getpid()}-{token}.staging"
        self.path.mkdir()
        owner = {
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "token": token,
            "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "source": source,
        }
        (self.path / OWNER).write_text(json.dumps(owner) + "\n", encoding="utf-8")
        #: set once the first entry has been moved into ``dst``: from then on the staging dir is the
        #: only sign that the copy is not complete, so a failure leaves it (see :meth:`discard`)
        self.moving = False

    def publish(self, stale: Sequence[Owner] = ()) -> None:
        """Move every staged entry into ``dst``, partition directories first (a checkpoint names
        partitions), then remove the ``stale`` staging dirs of killed runs (found by :func:`prepare`;
        each by its own path) and last this one: the absence of staging dirs says the copy is complete.

        The staged files are flushed to disk first and ``dst`` after the moves, so that after a
        power loss too a copy either shows its staging dir or is complete (a rename can otherwise
        reach the disk before the data it names)."""
        sync_tree(self.path)
        entries = sorted(
            (p for p in self.path.iterdir() if p.name != OWNER), key=lambda p: (not p.is_dir(), p.name)
        )
        for p in entries:
            target = self.dst / p.name
            if target.exists() or target.is_symlink():  # DST was empty: someone else wrote there meanwhile
                raise FileExistsError(
                    f"{target} appeared while the rewrite was writing {self.dst}; the staged "
                    f"copy stays in {self.path}"
                )
            self.moving = True
            os.rename(p, target)
        sync(self.dst)
        for o in stale:
            shutil.rmtree(o.path)
        (self.path / OWNER).unlink()
        self.path.rmdir()
        sync(self.dst)

    def discard(self) -> None:
        """Remove the staging dir, unless entries were already moved out of it (then it stays, and
        readers report the destination as an interrupted copy)."""
        if not self.moving:
            shutil.rmtree(self.path, ignore_errors=True)


def sync(path: Path) -> None:
    """Flush a file, or a directory's entries, to disk (a rename can otherwise reach it before the data)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def sync_tree(root: Path) -> None:
    """Flush every file and directory under ``root`` (written by this run: no symlinks) to disk."""
    for directory, _, names in os.walk(root):
        for name in names:
            sync(Path(directory, name))
        sync(Path(directory))


__all__ = [
    "OWNER",
    "Lock",
    "Owner",
    "Staging",
    "is_staging_name",
    "prepare",
    "read_owner",
    "sync",
    "sync_tree",
]
