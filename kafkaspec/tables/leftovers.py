"""Data files a killed run left behind (written, never committed), deleted by the next run of the same
table, on a local warehouse or an object store, Iceberg's and Delta's alike.

Each run marks its writing of a table with a marker of its own, ``<dest>/.kafkaspec-runs/<table>/<run>``
(a file, or an object on a store), holding its owner's proof (:mod:`kafkaspec.logdir.store.runs`), and
names the data files it writes with its run id (:func:`run_tag`: ``...-run-<run>.parquet``). A run that
commits removes its marker; a run that fails says it ended; a killed one leaves it, and its death is
proven by the process it names. The next run of the table, once its own marker is in place, deletes
each unreferenced data file named with the id of a run proven dead (references read then, not when the
run began: runs may have committed since); a file of a live run, of a run not proven dead (another
host's), of no marker (a run that committed since the references were read), or that a version of the
table references, stays.

Files not named with a run id (those delta-rs and pyiceberg write themselves: typed values, upserts,
Delta on Azure and GCS, and runs of older versions) are told by time: when every other run of the table
is provably dead, each such unreferenced file written after the oldest dead marker is a dead run's
(every run marks before it writes, and none is alive), and goes, then the dead markers (those found
dead: a run that marked meanwhile keeps its own); a file written after this run's own marker is not
looked at (a run that started meanwhile). The times compared are the store's own (file times, or
objects' last-modified times), one clock. While a run is not proven dead, the dead markers stay, so
that their unnamed files are still bounded when it is.

A run killed before the first commit of a new Delta table leaves the table's folder with no log in it:
it is still the table's folder (:func:`made_by_runs`) when a marker of the table is there and nothing
in the folder is older than the oldest marker, and its files are cleaned as any dead run's.

Why not Delta's ``vacuum``, Iceberg's orphan removal or an age window: vacuum's retention (a week by
default) keeps a killed run's files that long, and with no retention it would also delete the files of
older versions (time travel) and of a run writing at that moment; the marker tells a dead run from a
live one at once, and its id or time says which files are its. On an object store a run of another host
is never proven dead: its files stay (for ``kafkaspec table expire-snapshots`` or the store's own
lifecycle rules), and only its. On S3 a run killed while a file was uploading leaves an incomplete
multipart upload: those of dead runs' files under the table's prefix are aborted too.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import uuid
from collections.abc import Iterator
from typing import Any
from urllib.parse import unquote

from ..logdir.store import runs

#: the folder of the destination holding each table's run markers
MARKERS = ".kafkaspec-runs"

_RUN_ID = re.compile(r"-run-([0-9a-f]{32})\.(?:[a-z0-9]+\.)?parquet$")


def run_tag(run: str | None) -> str:
    """What a data file's name carries, before its extension, to say which run wrote it ("" for none)."""
    return f"-run-{run}" if run else ""


def file_run(path: str) -> str | None:
    """The id of the run that wrote the data file ``path`` (:func:`run_tag`); None: not named so."""
    found = _RUN_ID.search(path.rpartition("/")[2].rpartition(os.sep)[2])
    return found.group(1) if found else None


def _filesystem(dest: str) -> tuple[Any, str]:
    """The pyarrow filesystem of an object-store ``dest`` and its path there; (None, ``dest``) locally."""
    if "://" not in dest:
        return None, dest
    from ..logdir.store.storage import parse_uri

    where = parse_uri(dest)
    return where.store.fs, where.key


def store_path(uri: str) -> str:
    """The path of the object-store ``uri`` on its pyarrow filesystem (``bucket/key``): not always the
    URI without its scheme (``abfs://container@account.dfs.core.windows.net/key`` is ``container/key``)."""
    return _filesystem(uri)[1]


def _entries(fs: Any, folder: str) -> list[tuple[str, str]]:
    """``(name, path)`` of each marker in ``folder`` (hidden names are temporary files, or say that a
    run ended)."""
    if fs is None:
        try:
            names = os.listdir(folder)
        except (FileNotFoundError, NotADirectoryError):
            return []
        return [(n, os.path.join(folder, n)) for n in names if not n.startswith(".")]
    from pyarrow import fs as pafs

    found = fs.get_file_info(pafs.FileSelector(folder, allow_not_found=True))
    return [(i.base_name, i.path) for i in found if i.is_file and not i.base_name.startswith(".")]


def _born(fs: Any, path: str) -> int | None:
    """The time ``path`` was written (nanoseconds, by the clock of what holds it); None: gone."""
    if fs is None:
        try:
            return os.stat(path).st_mtime_ns
        except FileNotFoundError:
            return None
    info = fs.get_file_info(path)
    return info.mtime_ns if info.is_file else None


def _markers(dest: str, table: str) -> list[str]:
    return [p for _, p in _entries(None, os.path.join(dest, MARKERS, table))]


def made_by_runs(dest: str, table: str, folder: str) -> bool:
    """Whether ``folder``, where the table ``table`` of ``dest`` is to be but whose format's metadata
    is not there, was made by runs of that table: one marked it, and no file in it is older than the
    oldest marker (every run marks before it writes; anything older is someone else's)."""
    born = [t for t in (_born(None, p) for p in _markers(dest, table)) if t is not None]
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


def _unlocked(path: str, fs: Any) -> bool:
    """Whether ``path`` is a marker of an older version (empty, held under ``flock`` while its run
    lived) whose lock is free: a dead run's."""
    if fs is not None:
        return False
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        if os.fstat(fd).st_size:
            return False
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False
    finally:
        os.close(fd)


class RunMarker:
    """This run's marker for one table (local, or on the destination's object store), in place until
    the run commits (:meth:`done`) or says it ended (:meth:`close`). ``run``: the run's id, which its
    data files carry (:func:`run_tag`); a new one by default."""

    def __init__(self, dest: str, table: str, run: str | None = None):
        self.run = run or uuid.uuid4().hex
        self._fs, root = _filesystem(dest)
        self.folder = (
            f"{root.rstrip('/')}/{MARKERS}/{table}" if self._fs else os.path.join(dest, MARKERS, table)
        )
        self.path = f"{self.folder}/{self.run}" if self._fs else os.path.join(self.folder, self.run)
        runs.mark(self.path, fs=self._fs)
        self._open = True

    def _others(self) -> tuple[dict[str, tuple[str, int]], bool]:
        """The other markers of the table whose runs are provably dead (run id -> path and time), and
        whether every other run is."""
        dead, all_dead = {}, True
        for name, path in _entries(self._fs, self.folder):
            if path == self.path:
                continue
            born = _born(self._fs, path)
            if born is None:
                continue  # another run finished meanwhile
            if runs.is_dead(path, self._fs) or _unlocked(path, self._fs):
                dead[name] = (path, born)
            else:
                all_dead = False
        return dead, all_dead

    def any_dead(self) -> bool:
        """Whether some other run of the table is provably dead (its files may be to clean)."""
        return bool(self._others()[0])

    def dead(self) -> tuple[int, list[str]] | None:
        """The time of the oldest marker of a dead run and the dead markers, if every other run of the
        table is provably dead and one at least left a marker (None: nothing to clean by time, or a run
        may be alive)."""
        dead, all_dead = self._others()
        if not dead or not all_dead:
            return None
        return min(born for _, born in dead.values()), [path for path, _ in dead.values()]

    def clean(self, data_dir: str, referenced: set[str], skip: tuple[str, ...] = ()) -> int:
        """Delete the unreferenced data files (``*.parquet`` under ``data_dir``, not under ``skip``
        folders) of dead runs: those named with a dead run's id, and, when every other run is dead,
        those named with none written since the oldest dead marker; then, in that case, the dead
        markers. The number deleted. On a store ``data_dir`` and ``referenced`` are the filesystem's
        paths (``bucket/key``). An unnamed file of the same tick as this run's marker may be a dead
        run's or a new one's: it stays, and so do the dead markers, so that the next run deletes it if
        it is a dead run's."""
        dead, all_dead = self._others()
        until = _born(self._fs, self.path)
        if not dead or until is None:
            return 0
        since = min(born for _, born in dead.values())
        deleted = 0
        emptied = []
        undecided = False
        for path, born in self._data_files(data_dir, skip):
            if not path.endswith(".parquet") or path in referenced:
                continue
            run = file_run(path)
            if run is not None:
                gone = run in dead  # else a live run's, one not proven dead, or one that committed since
            elif not all_dead or born < since:
                gone = False
            elif born == until:  # the clock's tick (a store's second) of this run's mark: not told apart
                gone, undecided = False, True
            else:
                gone = born < until
            if gone:
                self._delete(path)
                deleted += 1
                root = os.path.dirname(path)
                if root != data_dir.rstrip("/"):
                    emptied.append(root)
        if self._fs is None:
            for root in sorted(set(emptied), reverse=True):  # a partition folder only the dead run wrote to
                try:
                    os.rmdir(root)
                except OSError:
                    pass  # not empty: other files live there
        deleted += self._abort_uploads(data_dir, set(dead))
        if all_dead and not undecided:  # else kept, for a later run to decide on their unnamed files
            for path, _ in dead.values():
                runs.unmark(path, self._fs)
        return deleted

    def _abort_uploads(self, data_dir: str, dead: set[str]) -> int:
        """On S3: abort the incomplete multipart uploads under ``data_dir`` (``bucket/key``) of data
        files named with the id of a run in ``dead`` (a run killed while a file was uploading leaves
        one: no object, still stored); the number aborted. Through boto3 (pyarrow's file system does not
        list uploads), from the standard environment; none where it cannot list them (the run goes on:
        a bucket lifecycle rule aborts them too)."""
        if self._fs is None or self._fs.type_name != "s3":
            return 0
        try:
            import boto3
            from botocore.config import Config
            from botocore.exceptions import BotoCoreError, ClientError
        except ModuleNotFoundError:
            return 0
        from ..logdir.store.objects import DEFAULT_TIMEOUT

        bucket, _, prefix = data_dir.strip("/").partition("/")
        try:
            bounded = float(os.environ.get("KAFKASPEC_STORAGE_TIMEOUT", DEFAULT_TIMEOUT))
        except ValueError:
            bounded = DEFAULT_TIMEOUT
        aborted = 0
        try:
            client = boto3.client(
                "s3",
                config=Config(connect_timeout=bounded, read_timeout=bounded, retries={"max_attempts": 2}),
            )
            pages = client.get_paginator("list_multipart_uploads").paginate(
                Bucket=bucket, Prefix=prefix + "/" if prefix else ""
            )
            for page in pages:
                for upload in page.get("Uploads", []):
                    if file_run(upload["Key"]) in dead:
                        client.abort_multipart_upload(
                            Bucket=bucket, Key=upload["Key"], UploadId=upload["UploadId"]
                        )
                        aborted += 1
        except (BotoCoreError, ClientError):
            pass  # what is left stays for the next run, or the bucket's lifecycle rules
        return aborted

    def _data_files(self, data_dir: str, skip: tuple[str, ...]) -> Iterator[tuple[str, int]]:
        if self._fs is None:
            for root, dirs, files in os.walk(data_dir):
                dirs[:] = [d for d in dirs if d not in skip]
                for f in files:
                    path = os.path.join(root, f)
                    try:
                        yield path, os.stat(path).st_mtime_ns
                    except FileNotFoundError:
                        continue
            return
        from pyarrow import fs as pafs

        top = data_dir.rstrip("/") + "/"
        for info in self._fs.get_file_info(pafs.FileSelector(top, recursive=True, allow_not_found=True)):
            if info.is_file and not set(info.path[len(top) :].split("/")[:-1]) & set(skip):
                yield info.path, info.mtime_ns

    def _delete(self, path: str) -> None:
        if self._fs is None:
            os.unlink(path)
        else:
            self._fs.delete_file(path)

    def done(self) -> None:
        """The run committed: its marker goes, so that no later run takes this commit's files for a
        dead run's."""
        runs.unmark(self.path, self._fs)
        self._open = False

    def close(self) -> None:
        """The run let go without committing (if it did not commit): the marker says so and stays, and
        its files are for the next run."""
        if self._open:
            self._open = False
            runs.end(self.path, self._fs)


def delta_on_store(table_uri: str, table: Any) -> tuple[str, set[str], tuple[str, ...]]:
    """A Delta table on an object store as :meth:`RunMarker.clean` takes it: its folder and the data
    files any version of its log adds or removes (read now), with those of ``table`` (the
    ``DeltaTable`` as the run read it, None for a new table), as the filesystem's paths."""
    from pyarrow import fs as pafs

    fs, root = _filesystem(table_uri)
    root = root.rstrip("/")
    referenced = set()
    log = fs.get_file_info(pafs.FileSelector(f"{root}/_delta_log", allow_not_found=True))
    for info in log:
        if info.is_file and info.base_name.endswith(".json"):
            with fs.open_input_stream(info.path) as f:
                for line in bytes(f.read()).decode().splitlines():
                    action = json.loads(line) if line.strip() else {}
                    for kind in ("add", "remove"):
                        if kind in action:
                            referenced.add(f"{root}/{unquote(action[kind]['path'])}")
    prefix = table_uri.rstrip("/") + "/"
    for uri in table.file_uris() if table is not None else ():
        if uri.startswith(prefix):
            referenced.add(f"{root}/{unquote(uri[len(prefix) :])}")
    return root, referenced, ("_delta_log",)
