"""Where a writer's output goes, a local folder or an object-store prefix, behind one interface.

A writer asks a :class:`Location` (:meth:`Location.of` a path or URI) for what it needs and never which
kind of place it holds: the entries there (:meth:`~Location.entries`), a ranged read of one
(:meth:`~Location.open`), one directory to write and then make visible whole (:meth:`~Location.output`,
the partition writer), and a job's staging and commit (:meth:`~Location.task_folder`,
:meth:`~Location.stage`, :meth:`~Location.apply` a :class:`CommitPlan`, :meth:`~Location.abort`: the
``kafkalog`` Spark writer). The two kinds keep their own crash safety, unchanged:

* :class:`LocalLocation`: a job stages under ``<root>/_kafkalog_staging/<job>/``; a commit makes every
  directory whole in ``<job>/_ready/`` (every refusal comes first), then moves each into ``<root>`` by one
  rename, exchanged in one step with the one it replaces (so a kill leaves each directory old or new,
  whole), then moves the others an overwrite replaces aside into ``<job>/_replaced/``, deleted last;
* :class:`StoreLocation`: a prefix has no rename, so a task stages in a local folder and uploads to
  ``<root>/_kafkalog_staging/<job>/<task>/``; a commit puts every directory's new version complete under
  the job's staging prefix, then publishes each by :mod:`.publish` (never half-visible, never lost to a
  kill: the marker names the complete new version).

What is the kind's own is a capability here, not a question a writer asks: an :class:`Output` that is
``whole`` (published whole: a store's) cannot be continued in place.
"""

from __future__ import annotations

import errno
import os
import shutil
import tempfile
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from . import job_owners
from .fs import RangeReader, StoragePath
from .publish import (
    STAGING,
    drop_staging,
    publish,
    publish_partition,
    read_marker_or_none,
    stage_partition,
    unpublish,
)
from .storage import RemotePath, StorageError, StorageOptions, as_path, listdir

#: under a job's local staging folder: its directories made whole, and those they replace, moved aside
READY, REPLACED = "_ready", "_replaced"


@dataclass(frozen=True)
class DirPlan:
    """One directory a commit makes: its name under the location's root, and where its new version comes
    from: ``taken``, the files already staged (a task's, taken as they are), or ``make``, which writes
    ``<folder>/<name>/`` (and may write files of the whole folder beside it) into the local ``folder``
    it is given."""

    name: str
    taken: Callable[[], list[StoragePath]] | None = None
    make: Callable[[Path], None] | None = None


@dataclass(frozen=True)
class CommitPlan:
    """What :meth:`Location.apply` does, decided by the caller: ``dirs`` in order; ``refuse`` is called
    with each one's final path before anything is switched (it raises to refuse the commit);
    ``replaces`` says which other entries of the root the commit removes (an overwrite; None: none);
    ``settle``, when given, runs once the directories are in place, with the local folder they were made
    in and the root (a local location keeps the files a ``make`` wrote beside the directories there;
    a store location publishes directories only, and calls no ``settle``)."""

    job: str
    dirs: Sequence[DirPlan]
    refuse: Callable[[StoragePath], None] = lambda final: None
    replaces: Callable[[str], bool] | None = None
    settle: Callable[[Path, StoragePath], None] | None = None


class Output(ABC):
    """One directory a writer writes in a local folder (``path``, after :meth:`open`) and the location
    then holds: :meth:`finish` makes it visible, :meth:`discard` drops what was written."""

    #: published whole when finished (it cannot be continued in place: a store has no append)
    whole: bool = False
    #: where the directory becomes visible (for messages; the local folder for a local location)
    destination: StoragePath

    @abstractmethod
    def open(self) -> Path:
        """The local folder to write the directory in (not made yet)."""

    def exists(self) -> bool:
        """Whether the destination holds anything already."""
        return False

    def finish(self) -> None:
        """Make the directory visible at :attr:`destination` (nothing to do where it was written in place)."""
        return None

    def discard(self) -> None:
        """Drop the local copy this output made (never a folder it did not make)."""
        return None


class Location(ABC):
    """A local folder or an object-store prefix a writer writes to (see the module docstring)."""

    root: StoragePath

    @staticmethod
    def of(path: str | os.PathLike[str] | RemotePath, options: StorageOptions | None = None) -> Location:
        """The location of ``path``: an object-store URI (or :class:`~.storage.RemotePath`) or a local path."""
        root = as_path(path, options)
        return StoreLocation(root) if isinstance(root, RemotePath) else LocalLocation(root)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self.root)!r})"

    def path(self, text: str) -> StoragePath:
        """The path a staged piece's text names (as :meth:`stage` gave it)."""
        return as_path(text)

    def entries(self, directory: StoragePath | None = None) -> list[StoragePath]:
        """The entries of ``directory`` (default: the root), sorted by name."""
        return listdir(self.root if directory is None else directory)

    def open(self, path: StoragePath) -> RangeReader:
        """A ranged reader of the file or object ``path``."""
        return RangeReader(path)

    @abstractmethod
    def holds(self, path: str) -> bool:
        """Whether the file or object ``path`` (its text) is under the root."""

    @abstractmethod
    def output(self, name: str) -> Output:
        """The directory ``<root>/<name>``, to be written by one writer."""

    @abstractmethod
    def task_folder(self, job: str, task: str) -> Path:
        """The local folder a task of ``job`` writes its pieces in (each a directory of its own)."""

    @abstractmethod
    def stage(self, job: str, task: str, folder: Path, pieces: Sequence[Path]) -> list[str]:
        """Stage the directories ``pieces`` a task wrote in ``folder`` (:meth:`task_folder`), invisible
        until :meth:`apply`; return where each is staged, as text for the commit message."""

    def claim(self, job: str) -> None:
        """Mark ``job`` as this process's before its tasks stage anything (a local folder's staging of a
        job that dies is deleted by the next :meth:`apply` there, :mod:`.job_owners`)."""
        return None

    @abstractmethod
    def apply(self, plan: CommitPlan) -> None:
        """Carry out ``plan``: every directory complete in staging first (all refusals there), then
        switched into place; a failure before the switch leaves the root as it was."""

    @abstractmethod
    def abort(self, job: str, names: Iterable[str] = ()) -> None:
        """Delete ``job``'s staging: the root shows nothing of it (a store keeps what a publishing marker
        of the job among ``names`` still names, so that the publication can be finished)."""


# -- a local folder ---------------------------------------------------------------------------------
class _LocalOutput(Output):
    def __init__(self, root: Path, name: str):
        self.destination = self._path = root / name

    def open(self) -> Path:
        return self._path


class LocalLocation(Location):
    """A local folder: written in place, committed by renames (module docstring)."""

    def __init__(self, root: Path):
        self.root: Path = root

    def holds(self, path: str) -> bool:
        return Path(path).resolve().is_relative_to(self.root.resolve())

    def output(self, name: str) -> Output:
        return _LocalOutput(self.root, name)

    def task_folder(self, job: str, task: str) -> Path:
        return self.root / STAGING / job / task

    def stage(self, job: str, task: str, folder: Path, pieces: Sequence[Path]) -> list[str]:
        return [str(p) for p in pieces]  # written where the commit takes them from

    def claim(self, job: str) -> None:
        job_owners.claim(self.root / STAGING / job)

    def apply(self, plan: CommitPlan) -> None:
        job_dir = self.root / STAGING / plan.job
        ready = job_dir / READY
        self._drop_dead(plan.job)
        try:
            for d in plan.dirs:
                plan.refuse(self.root / d.name)
                self._prepare(ready, d)
        except BaseException:
            self.abort(plan.job)
            raise
        self._switch(ready, job_dir / REPLACED, plan)
        shutil.rmtree(job_dir, ignore_errors=True)
        _rmdir_if_empty(self.root / STAGING)

    def _drop_dead(self, job: str) -> None:
        """Delete the staging of every other job whose owner is provably dead (:mod:`.job_owners`)."""
        job_owners.remove_dead(self.root / STAGING, job)

    @staticmethod
    def _prepare(ready: Path, d: DirPlan) -> None:
        """Write ``ready/<name>`` whole as ``d`` says."""
        if d.make is not None:
            d.make(ready)
            return
        target = ready / d.name
        target.mkdir(parents=True, exist_ok=True)
        for f in d.taken() if d.taken is not None else ():
            Path(str(f)).replace(target / f.name)

    def _switch(self, ready: Path, old: Path, plan: CommitPlan) -> None:
        """Move the prepared directories into the root, each by one rename: one that replaces a directory
        is exchanged with it (:func:`exchange_directories`, the old version left in ``ready``), so that a kill at any
        moment leaves each directory old or new, whole, never absent. Then those the plan replaces and
        makes no new version of are moved aside into ``old``, and deleted with the staging."""
        old.mkdir(parents=True, exist_ok=True)
        made = sorted(d for d in ready.iterdir() if d.is_dir()) if ready.is_dir() else []
        for d in made:
            final = self.root / d.name
            if final.is_dir() and not final.is_symlink():
                exchange_directories(d, final)
            else:
                d.replace(final)
        if plan.replaces is not None:
            names = {d.name for d in made}
            for d in sorted(self.root.iterdir()):
                if d.name not in names and d.is_dir() and plan.replaces(d.name):
                    d.replace(old / d.name)
        if plan.settle is not None:
            plan.settle(ready, self.root)
        shutil.rmtree(old, ignore_errors=True)

    def abort(self, job: str, names: Iterable[str] = ()) -> None:
        shutil.rmtree(self.root / STAGING / job, ignore_errors=True)
        _rmdir_if_empty(self.root / STAGING)


#: renameat2's flag that swaps two paths in one step (Linux 3.15+, on ext4, xfs, btrfs, tmpfs, ...)
_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def exchange_directories(new: Path, final: Path) -> None:
    """Put the directory ``new`` at ``final`` and the directory there at ``new``, in one step where the
    system can (``renameat2`` with ``RENAME_EXCHANGE``): no moment without a ``final``. Elsewhere (or on a
    file system that cannot) by two renames, the old one aside first: a kill between the two leaves
    ``final`` absent, its old version in ``new``'s folder, the new one beside it."""
    if not _renameat2(new, final):
        aside = new.with_name(new.name + ".old")
        final.replace(aside)
        try:
            new.replace(final)
        except BaseException:
            aside.replace(final)
            raise
        aside.replace(new)


def _renameat2(a: Path, b: Path) -> bool:
    """Exchange ``a`` and ``b`` by ``renameat2``; False where the system or the file system has none."""
    import ctypes

    try:
        call = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return False
    call.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    if call(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP):
        return False
    raise OSError(err, os.strerror(err), str(a), None, str(b))


def _rmdir_if_empty(path: Path) -> None:
    try:
        path.rmdir()
    except OSError:
        pass


# -- an object-store prefix -------------------------------------------------------------------------
class _StoreOutput(Output):
    whole = True

    def __init__(self, root: RemotePath, name: str):
        self.destination = self._dest = root / name
        self.name = name
        #: the staging folder this output made (mkdtemp's own path), the only folder it ever removes
        self._staging: Path | None = None

    def exists(self) -> bool:
        try:
            return bool(listdir(self._dest))
        except OSError as exc:  # StorageError (an OSError) says ENOENT for a prefix that holds nothing
            if exc.errno == errno.ENOENT:
                return False
            raise

    def open(self) -> Path:
        self._staging = Path(tempfile.mkdtemp(prefix="kafkaspec-stage-"))
        return self._staging / self.name

    def finish(self) -> None:
        """Publish the local copy (:func:`~.publish.publish_partition`); the local copy goes once the store
        holds a complete one, before the switch."""
        assert self._staging is not None
        publish_partition(self._staging / self.name, self._dest, staged_hook=self.discard)

    def discard(self) -> None:
        if self._staging is not None:
            shutil.rmtree(self._staging, ignore_errors=True)
            self._staging = None


class StoreLocation(Location):
    """An object-store prefix: written in local folders and published (module docstring)."""

    def __init__(self, root: RemotePath):
        self.root: RemotePath = root

    def path(self, text: str) -> StoragePath:
        return as_path(text, self.root.store.options)

    def holds(self, path: str) -> bool:
        return str(path).startswith(str(self.root).rstrip("/") + "/")

    def output(self, name: str) -> Output:
        return _StoreOutput(self.root, name)

    def task_folder(self, job: str, task: str) -> Path:
        return Path(tempfile.mkdtemp(prefix="kafkalog-task-"))

    def stage(self, job: str, task: str, folder: Path, pieces: Sequence[Path]) -> list[str]:
        """Put the task's pieces under ``<root>/_kafkalog_staging/<job>/<task>/``: invisible until the
        commit copies them to their final keys. A failed or retried attempt leaves only objects under its
        own task prefix, which no commit message names and the commit (or abort) deletes with the job's
        prefix: a retry never duplicates. The local folder goes in any case."""
        staging = self.root / STAGING / job / task
        try:
            out = []
            for local in pieces:
                dest = staging / local.name
                for f in sorted(local.iterdir()):
                    if f.is_file():
                        (dest / f.name).write_bytes(f.read_bytes())
                out.append(str(dest))
            return out
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def apply(self, plan: CommitPlan) -> None:
        root, store = self.root, self.root.store
        staged: dict[str, dict[str, RemotePath]] = {}
        switching = False
        try:
            existing = listdir(root) if root.exists() else []
            for d in plan.dirs:
                final = root / d.name
                store.forget(final.key)
                plan.refuse(final)
                staged[final.name] = self._prepare(final, d, plan.job)
            switching = True
            if plan.replaces is not None:
                for e in existing:  # entries this commit no longer holds are deleted behind a marker
                    if plan.replaces(e.name) and e.name not in staged:
                        unpublish(e, plan.job)
            for name in sorted(staged):
                publish(root / name, staged[name], plan.job)
        except BaseException:
            if not (switching and self._switched(staged, plan.job)):
                self._drop_staging(plan.job)
            raise
        self._drop_staging(plan.job)

    def _prepare(self, final: RemotePath, d: DirPlan, job: str) -> dict[str, RemotePath]:
        """{name: staged object} of the directory's new version, complete in the store, as ``d`` says."""
        if d.make is not None:  # made in a local folder here, then uploaded
            local = Path(tempfile.mkdtemp(prefix="kafkalog-commit-"))
            try:
                d.make(local)
                return stage_partition(local / final.name, final, job)
            finally:
                shutil.rmtree(local, ignore_errors=True)
        staged: dict[str, RemotePath] = {}
        for f in d.taken() if d.taken is not None else ():
            assert isinstance(f, RemotePath)  # a task's piece staged here (stage)
            staged[f.name] = f
        return staged

    def abort(self, job: str, names: Iterable[str] = ()) -> None:
        if not self._switched(names, job):
            self._drop_staging(job)

    def _switched(self, names: Iterable[str], job: str) -> bool:
        """Whether a directory of ``names`` under the root holds ``job``'s publishing marker."""
        return any(read_marker_or_none(self.root / name, job) is not None for name in names)

    def _drop_staging(self, job: str) -> None:
        """Delete this job's staging prefix, and the staging prefix itself once no other job uses it."""
        try:
            drop_staging(self.root, job)
        except StorageError as exc:
            if exc.errno != errno.ENOENT:
                raise


__all__ = [
    "READY",
    "REPLACED",
    "CommitPlan",
    "DirPlan",
    "LocalLocation",
    "Location",
    "Output",
    "StoreLocation",
]
