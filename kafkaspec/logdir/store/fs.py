"""The file-system interface the log-directory readers and writers use: one set of calls for a local
path and an object-store one (:class:`~.storage.RemotePath`).

What a reader needs of a path is :class:`StoragePath`: name, parent and joining, ``exists``,
``is_file``, ``is_dir``, ``iterdir``, ``glob``, ``stat().st_size``. :class:`pathlib.Path` and
:class:`~.storage.RemotePath` both have those, with the same meaning. What they do not share (a
ranged read, the error for a missing path, writing an object whose folder need not exist, whether
scans go through a bounded window) are the functions here, each the one place where a local file and
an object part ways. Readers call these and never ask which kind of path they hold; a new kind of
storage implements :class:`StoragePath` and gets a branch here, not in every reader.
"""

from __future__ import annotations

import errno
import os
import stat
import weakref
from collections.abc import Iterable
from pathlib import Path
from typing import Protocol

from ...errors import KafkaFormatError
from .ranged import Get
from .storage import RemotePath, StorageOptions, as_path


def open_regular(path: str | Path) -> int:
    """A file descriptor of ``path`` opened for reading, which must be a regular file.

    A FIFO, a device (``/dev/zero``), a socket or a directory at a log file's name is a
    :class:`KafkaFormatError` naming it, raised before anything is read from it (a FIFO is
    opened without blocking, so a missing writer cannot hang the reader).
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise KafkaFormatError(f"not a regular file but {file_kind(mode)}", None, str(path))
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def file_kind(mode: int) -> str:
    """What a file that is not a regular one is, from its ``st_mode`` ("a FIFO", "a directory", ...)."""
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "a socket or other special file"


def local_entry_problem(path: StoragePath) -> KafkaFormatError | None:
    """Why the local directory entry ``path`` cannot be read as a regular file, found by ``stat`` alone
    (nothing is opened, so a FIFO cannot hang the caller): a dangling or looping symbolic link, an entry
    that cannot be looked up, or a FIFO, device, socket or directory (after following symbolic links: a
    link to a regular file is that file). None for a regular file, and for an object in a store (a
    listing holds objects only)."""
    if isinstance(path, RemotePath):
        return None
    local = _local(path)
    try:
        mode = local.stat().st_mode
    except OSError as exc:
        if exc.errno == errno.ENOENT and local.is_symlink():
            target = os.readlink(local)
            shown = target if target.isprintable() else repr(target)
            return KafkaFormatError(
                f"a dangling symbolic link (to {shown}, which does not exist)", None, str(path)
            )
        return KafkaFormatError(f"cannot be read: {(exc.strerror or str(exc)).lower()}", None, str(path))
    if not stat.S_ISREG(mode):
        return KafkaFormatError(f"not a regular file but {file_kind(mode)}", None, str(path))
    return None


class _Stat(Protocol):
    @property
    def st_size(self) -> int: ...


class StoragePath(Protocol):
    """What the readers use of a path, local (:class:`pathlib.Path`) or remote (:class:`RemotePath`)."""

    @property
    def name(self) -> str: ...

    @property
    def parent(self) -> StoragePath: ...

    def __truediv__(self, name: str) -> StoragePath: ...

    def with_name(self, name: str) -> StoragePath: ...

    def exists(self) -> bool: ...

    def is_file(self) -> bool: ...

    def is_dir(self) -> bool: ...

    def iterdir(self) -> Iterable[StoragePath]: ...

    def glob(self, pattern: str) -> Iterable[StoragePath]: ...

    def stat(self) -> _Stat: ...


def _conforms(local: Path, remote: RemotePath) -> tuple[StoragePath, StoragePath]:
    """Never called: mypy checks here that both kinds of path implement :class:`StoragePath`."""
    return local, remote


def storage_path(
    path: str | os.PathLike[str] | StoragePath, options: StorageOptions | None = None
) -> StoragePath:
    """``path`` as a :class:`StoragePath`: text is an object-store URI or a local path (:func:`~.storage.as_path`),
    a path of either kind is kept, and any other :class:`StoragePath` is used as it is."""
    if isinstance(path, (str, os.PathLike, RemotePath)):
        return as_path(path, options)
    return path


def reads_are_requests(path: object) -> bool:
    """Whether every read of ``path`` is a request (an object in a store): scans read it through a
    bounded window, a find reads one index interval, and reads in order go in large blocks."""
    return isinstance(path, RemotePath)


#: the old name of :func:`reads_are_requests`, which said the kind of path, not what a reader needs of it
is_remote = reads_are_requests


def getter(path: StoragePath) -> tuple[Get, int]:
    """``(get, size)`` for reading ``path`` in pieces: ``get(a, b)`` fetches bytes [a, b). An object is
    pinned to its version at opening (:meth:`~.objects.Store.getter`); a local file is read by ``pread``
    on a descriptor opened now and closed when ``get`` is dropped."""
    if isinstance(path, RemotePath):
        return path.store.getter(path.key)
    reader = RangeReader(path)

    def get(a: int, b: int, reader: RangeReader = reader) -> bytes:
        return reader.read(a, b - a)

    weakref.finalize(get, reader.close)
    return get, reader.size


def bucket_root(path: StoragePath) -> StoragePath:
    """The root that keys "from the bucket's root" are under: an object's bucket (or container; an HDFS
    path's file-system root), a local path itself (a folder given as the bucket)."""
    return path.bucket() if isinstance(path, RemotePath) else path


def check_entry(path: StoragePath) -> None:
    """Raise the error for ``path`` when it cannot be opened as a file or a directory: it does not exist
    (in a store, a missing bucket is named as such), or (local) it cannot be looked up or is a FIFO,
    socket or device (:class:`KafkaFormatError`: damaged data where a Kafka file should be)."""
    if isinstance(path, RemotePath):
        if not path.exists():
            raise path.not_found()
        return
    try:  # the real reason when it fails: missing, a symlink loop, no permission
        mode = _local(path).stat().st_mode
    except OSError as exc:
        raise type(exc)(exc.errno, (exc.strerror or "cannot be read").lower(), str(path)) from None
    if not (stat.S_ISDIR(mode) or stat.S_ISREG(mode)):
        raise KafkaFormatError(
            "not a file or directory (a FIFO, socket or device): Kafka writes none", None, str(path)
        )


def not_found(path: StoragePath) -> OSError:
    """The error for ``path`` not existing (in a store, a missing bucket is named as such)."""
    if isinstance(path, RemotePath):
        return path.not_found()
    return FileNotFoundError(errno.ENOENT, "no such file or directory", str(path))


def _local(path: StoragePath) -> Path:
    """A path that is not an object in a store is a local file, named by its text."""
    return path if isinstance(path, Path) else Path(str(path))


def read_all(path: StoragePath) -> bytes:
    """The whole file or object at ``path`` (a small one: a marker, a manifest)."""
    if isinstance(path, RemotePath):
        return path.read_bytes()
    return _local(path).read_bytes()


def put(path: StoragePath, data: bytes) -> None:
    """Write ``data`` as the file or object ``path``; a local folder is made first (a store has none)."""
    if isinstance(path, RemotePath):
        path.write_bytes(data)
        return
    local = _local(path)
    local.parent.mkdir(parents=True, exist_ok=True)
    local.write_bytes(data)


_READ_BLOCK = 1 << 20


class RangeReader:
    """Reads of one file or object at positions, its size taken once at opening: a local file is opened
    once (and must be regular, :func:`open_regular`), an object read by ranged GETs."""

    def __init__(self, path: str | StoragePath):
        self.path = path
        self._fd = -1
        self._size: int | None = None
        #: the size of one read when a file is read in order: a local file by blocks, an object in one
        #: GET (None: as much as is asked for), since every read of it is a request
        self.chunk: int | None = None
        if not isinstance(path, RemotePath):
            self._fd = open_regular(path if isinstance(path, str) else _local(path))
            self._size = os.fstat(self._fd).st_size
            self.chunk = _READ_BLOCK

    @property
    def size(self) -> int:
        """The size at opening (an object's is asked for at the first use, not before)."""
        if self._size is None:
            assert isinstance(self.path, RemotePath)
            self._size = self.path.stat().st_size
        return self._size

    def read(self, at: int, n: int) -> bytes:
        """Up to ``n`` bytes at ``at`` (fewer at the end)."""
        if self._fd >= 0:
            return os.pread(self._fd, n, at)
        assert isinstance(self.path, RemotePath)
        return self.path.read_bytes(at, min(at + n, self.size))

    def read_span(self, start: int, end: int | None) -> bytes:
        """Bytes [start, end) (to the end for None), read, not mapped: a file that shrinks meanwhile gives
        fewer bytes, never a SIGBUS; an object is one ranged GET of just those bytes."""
        if self._fd < 0:
            assert isinstance(self.path, RemotePath)
            return self.path.read_bytes(start, end)
        stop = self.size if end is None else min(end, self.size)
        chunks = []
        pos = start
        while pos < stop:
            chunk = os.pread(self._fd, min(stop - pos, 1 << 30), pos)
            if not chunk:  # the file shrank under us: what was there is what we read
                break
            chunks.append(chunk)
            pos += len(chunk)
        return chunks[0] if len(chunks) == 1 else b"".join(chunks)

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> RangeReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = [
    "RangeReader",
    "StoragePath",
    "bucket_root",
    "check_entry",
    "file_kind",
    "getter",
    "local_entry_problem",
    "not_found",
    "open_regular",
    "put",
    "read_all",
    "reads_are_requests",
    "storage_path",
]
