"""Data files a killed run left behind (written, never committed), deleted by the next run of the same
table, on a local warehouse.

Each run marks its writing of a table with a file of its own, ``<dest>/.kafkaspec-runs/<table>/<id>``,
held under an exclusive ``flock`` while the run lives (created under a temporary name, locked, then
renamed into place, so a marker is never seen unlocked by a live run). A run that commits removes its
marker before it lets the lock go; a run that fails or is killed leaves it, and the kernel drops its
lock. The next run of the table, once its own marker is in place, looks at the others: if any is still
locked, a run is writing now and nothing is touched (its files are unreferenced until it commits);
otherwise every data file of the table that no version of the table references (read then, not when
the run began: runs may have committed since) and that was written after the oldest dead marker
is a dead run's file (every run marks before it writes, and none is alive), and goes, then the markers;
a file written after this run's own marker is not looked at (a run that started meanwhile).

A run killed before the first commit of a new Delta table leaves the table's folder with no log in it:
it is still the table's folder (:func:`made_by_runs`) when a marker of the table is there and nothing
in the folder is older than the oldest marker, and its files are cleaned as any dead run's.

Why not Delta's ``vacuum`` or an age window: vacuum's retention (a week by default) keeps a killed
run's files that long, and with no retention it would also delete the files of older versions (time
travel) and of a run writing at that moment; the lock tells a dead run from a live one at once, and
the marker's time bounds what can be its. An object-store warehouse has no such lock: there an
Iceberg table's commit deletes the files of runs that can no longer commit
(:meth:`.iceberg.IcebergSink.orphans`); a Delta table's leftovers stay for ``kafkaspec table
expire-snapshots`` (vacuum) or the store's own lifecycle rules.
"""

from __future__ import annotations

import fcntl
import os
import uuid

#: the folder of the destination holding each table's run markers
MARKERS = ".kafkaspec-runs"


def _markers(dest: str, table: str) -> list[str]:
    folder = os.path.join(dest, MARKERS, table)
    try:
        names = os.listdir(folder)
    except (FileNotFoundError, NotADirectoryError):
        return []
    return [os.path.join(folder, n) for n in names if not n.startswith(".")]


def made_by_runs(dest: str, table: str, folder: str) -> bool:
    """Whether ``folder``, where the table ``table`` of ``dest`` is to be but whose format's metadata
    is not there, was made by runs of that table: one marked it, and no file in it is older than the
    oldest marker (every run marks before it writes; anything older is someone else's)."""
    born = []
    for path in _markers(dest, table):
        try:
            born.append(os.stat(path).st_mtime_ns)
        except FileNotFoundError:
            continue  # a run finished meanwhile
    if not born:
        return False
    since = min(born)
    for root, _, files in os.walk(folder):
        for f in files:
            try:
                if os.lstat(os.path.join(root, f)).st_mtime_ns < since:
                    return False
            except FileNotFoundError:
                continue
    return True


class RunMarker:
    """This run's marker for one table, locked until :meth:`close` (the run's writer removes the marker
    once its commit is in, :meth:`done`, before it lets the lock go)."""

    def __init__(self, dest: str, table: str):
        self.folder = os.path.join(dest, MARKERS, table)
        os.makedirs(self.folder, exist_ok=True)
        run = uuid.uuid4().hex
        staged = os.path.join(self.folder, f".{run}.tmp")
        self.path = os.path.join(self.folder, run)
        self._fd: int | None = os.open(staged, os.O_CREAT | os.O_EXCL | os.O_RDWR, 0o644)
        fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        os.rename(staged, self.path)

    def dead_since(self) -> int | None:
        """The time of the oldest marker of a dead run, if every other run of the table is dead and
        one at least left a marker (None: nothing to clean, or a run is alive)."""
        oldest = None
        for name in os.listdir(self.folder):
            path = os.path.join(self.folder, name)
            if path == self.path or name.startswith("."):
                continue
            try:
                fd = os.open(path, os.O_RDONLY)
            except FileNotFoundError:
                continue  # another run finished meanwhile
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return None
            finally:
                os.close(fd)
            born = os.stat(path).st_mtime_ns
            oldest = born if oldest is None else min(oldest, born)
        return oldest

    def clean(self, data_dir: str, referenced: set[str], skip: tuple[str, ...] = ()) -> int:
        """Delete the unreferenced data files (``*.parquet`` under ``data_dir``, not under ``skip``
        folders) written since the oldest dead marker, and the dead markers; the number deleted."""
        since = self.dead_since()
        if since is None:
            return 0
        until = os.stat(self.path).st_mtime_ns
        deleted = 0
        emptied = []
        for root, dirs, files in os.walk(data_dir):
            dirs[:] = [d for d in dirs if d not in skip]
            for f in files:
                path = os.path.join(root, f)
                if (
                    f.endswith(".parquet")
                    and path not in referenced
                    and since <= os.stat(path).st_mtime_ns < until
                ):
                    os.unlink(path)
                    deleted += 1
                    if root != data_dir:
                        emptied.append(root)
        for root in sorted(set(emptied), reverse=True):  # a partition folder only the dead run wrote to
            try:
                os.rmdir(root)
            except OSError:
                pass  # not empty: other files live there
        for name in os.listdir(self.folder):
            if name.startswith(".") and name.endswith(".tmp"):
                continue
            path = os.path.join(self.folder, name)
            if path != self.path:
                os.unlink(path)
        return deleted

    def done(self) -> None:
        """The run committed: its marker goes while still locked, so that no other run ever sees it
        unlocked and takes the files of this commit for a dead run's."""
        os.unlink(self.path)

    def close(self) -> None:
        """The lock released, the marker kept: the run failed, and its files are for the next run."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
