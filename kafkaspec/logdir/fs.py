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
from collections.abc import Iterable
from pathlib import Path
from typing import Protocol

from .files import open_regular
from .storage import AnyPath, RemotePath


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


def is_remote(path: object) -> bool:
    """Whether ``path`` is an object in a store: scans read it through a bounded window, a find reads one
    index interval, since every read is a request."""
    return isinstance(path, RemotePath)


def not_found(path: AnyPath) -> OSError:
    """The error for ``path`` not existing (in a store, a missing bucket is named as such)."""
    if isinstance(path, RemotePath):
        return path.not_found()
    return FileNotFoundError(errno.ENOENT, "no such file or directory", str(path))


def read_all(path: AnyPath) -> bytes:
    """The whole file or object at ``path`` (a small one: a marker, a manifest)."""
    return path.read_bytes()


def put(path: AnyPath, data: bytes) -> None:
    """Write ``data`` as the file or object ``path``; a local folder is made first (a store has none)."""
    if not isinstance(path, RemotePath):
        path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


class RangeReader:
    """Reads of one file or object at positions, its size taken once at opening: a local file is opened
    once (and must be regular, :func:`~.files.open_regular`), an object read by ranged GETs."""

    def __init__(self, path: AnyPath):
        self.path = path
        self._fd = -1
        if isinstance(path, RemotePath):
            self.size = path.stat().st_size
        else:
            self._fd = open_regular(path)
            self.size = os.fstat(self._fd).st_size

    def read(self, at: int, n: int) -> bytes:
        """Up to ``n`` bytes at ``at`` (fewer at the end)."""
        if self._fd >= 0:
            return os.pread(self._fd, n, at)
        assert isinstance(self.path, RemotePath)
        return self.path.read_bytes(at, min(at + n, self.size))

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> RangeReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["RangeReader", "StoragePath", "is_remote", "not_found", "put", "read_all"]
