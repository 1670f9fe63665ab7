"""A location in an object store with the face of :class:`pathlib.Path` the log-directory code uses.

:class:`RemotePath` is a :class:`~.objects.Store` and a key: ``name``, ``parent``, ``/``, ``exists``,
``is_file``, ``is_dir``, ``iterdir``, ``glob``, ``stat().st_size``, ``read_bytes``, with the meaning
they have for a local path (:class:`~.fs.StoragePath`), so that readers are the same for both. Every
request goes through its store (listings cached, objects pinned: :mod:`.storage`).
"""

from __future__ import annotations

import errno
import fnmatch
from typing import TYPE_CHECKING, Any

from .errors import StorageError

if TYPE_CHECKING:
    from .objects import Store


class _Stat:
    __slots__ = ("st_size",)

    def __init__(self, size: int):
        self.st_size = size


class RemotePath:
    """A location in an object store, with the part of :class:`pathlib.Path`'s interface the
    log-directory code uses. ``str()`` is its URI; equal paths compare and sort by it."""

    __slots__ = ("store", "key")

    def __init__(self, store: Store, key: str):
        self.store = store
        self.key = key.strip("/")

    # -- names -------------------------------------------------------------------
    def __str__(self) -> str:
        return self.store.uri(self.key)

    def __repr__(self) -> str:
        return f"RemotePath({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RemotePath) and str(self) == str(other)

    def __hash__(self) -> int:
        return hash(str(self))

    def __lt__(self, other: RemotePath) -> bool:
        return self.key < other.key

    @property
    def name(self) -> str:
        return self.key.rpartition("/")[2]

    @property
    def parent(self) -> RemotePath:
        return RemotePath(self.store, self.key.rpartition("/")[0] if "/" in self.key else self.key)

    @property
    def suffix(self) -> str:
        name = self.name
        i = name.rfind(".")
        return name[i:] if 0 < i < len(name) - 1 else ""

    def with_name(self, name: str) -> RemotePath:
        return RemotePath(self.store, f"{self.key.rpartition('/')[0]}/{name}")

    def with_suffix(self, suffix: str) -> RemotePath:
        name = self.name
        stem = name[: -len(self.suffix)] if self.suffix else name
        return self.with_name(stem + suffix)

    def __truediv__(self, name: str) -> RemotePath:
        return RemotePath(self.store, f"{self.key}/{name}")

    def bucket(self) -> RemotePath:
        """The bucket (or container) this path is in: the first part of its key (an HDFS path has none)."""
        if self.store.scheme == "hdfs":
            return RemotePath(self.store, "")
        return RemotePath(self.store, self.key.split("/", 1)[0])

    # -- metadata ----------------------------------------------------------------
    def _type(self) -> Any:
        return self.store.info(self.key).type

    def exists(self) -> bool:
        from pyarrow import fs as pafs

        if "/" not in self.key:  # a bucket: exists if it can be listed
            self.store.list(self.key)
            return True
        return bool(self._type() != pafs.FileType.NotFound)

    def not_found(self) -> OSError:
        """The error for this path not existing: a missing bucket is named as such."""
        from pyarrow import fs as pafs

        bucket = self.key.split("/", 1)[0]
        if (
            self.store.scheme in ("s3", "s3a", "gs", "gcs", "abfs", "abfss", "az")
            and "/" in self.key
            and self.store.info(bucket).type == pafs.FileType.NotFound
        ):
            return self.store.missing_bucket(self.key)
        return FileNotFoundError(errno.ENOENT, "no such file or directory", str(self))

    def is_file(self) -> bool:
        from pyarrow import fs as pafs

        return bool(self._type() == pafs.FileType.File)

    def is_dir(self) -> bool:
        from pyarrow import fs as pafs

        if "/" not in self.key:
            return self.exists()
        return bool(self._type() == pafs.FileType.Directory)

    def stat(self) -> _Stat:
        info = self.store.info(self.key)
        if info.size is None:
            raise StorageError(errno.ENOENT, "no such object", str(self))
        return _Stat(info.size)

    def iterdir(self) -> list[RemotePath]:
        return [RemotePath(self.store, f"{self.key}/{name}") for name in sorted(self.store.list(self.key))]

    def glob(self, pattern: str) -> list[RemotePath]:
        """Names directly under this prefix matching ``pattern`` (no ``/`` or ``**``)."""
        return [p for p in self.iterdir() if fnmatch.fnmatchcase(p.name, pattern)]

    # -- bytes -------------------------------------------------------------------
    def read_bytes(self, start: int = 0, end: int | None = None) -> bytes:
        return self.store.read(self.key, start, end)

    def write_bytes(self, data: bytes) -> int:
        self.store.write(self.key, bytes(data))
        return len(data)


__all__ = ["RemotePath"]
