"""One object store's requests: a :class:`Store` (scheme and settings) listing, reading and writing keys.

Each :class:`Store` makes its client's filesystem on first use (one per process for each scheme and
settings, :mod:`.clients`), caches listings (``exists``/``stat`` of a listed object cost nothing more),
pins every object it reads (:mod:`.pinned`), counts its requests (:mod:`.stats`) and turns every
failure into a :class:`~.errors.StorageError` naming the URI (:mod:`.errors`). Paths on it are
:class:`~.remote_path.RemotePath`; URIs are parsed into them by :mod:`.storage`.
"""

from __future__ import annotations

import os
import threading
from typing import Any

from . import clients as store_clients
from . import ranged
from .clients import StorageOptions
from .errors import Failures, StorageError, redact
from .pinned import Identity, PinnedReads
from .stats import Stats

DEFAULT_TIMEOUT = 30.0


def _pyarrow_errors() -> tuple[type[BaseException], ...]:
    """What a filesystem call raises: OSError, pyarrow's own errors and the store clients' (see
    :func:`.clients.client_errors`)."""
    return store_clients.client_errors()


class Store(Failures, PinnedReads):
    """One object store (scheme + settings), its pyarrow filesystem made on first use.

    Picklable (Spark ships it to executors): the filesystem is made again on the other side,
    from the same options, or from that machine's environment when there are none.
    """

    def __init__(self, scheme: str, options: StorageOptions | None = None, authority: str = ""):
        self.scheme = scheme.lower()
        self.options = options or StorageOptions()
        self.authority = authority  # hdfs://host:port
        self._fs: Any = None
        self._listings: dict[str, dict[str, Any]] = {}
        # keys looked up one at a time (a root whose parent is not listed): asked once, until a write
        self._infos: dict[str, Any] = {}
        #: key -> (open pyarrow input file, its pinned identity): the HEAD request of opening done once
        self._handles: dict[str, tuple[Any, Identity]] = {}
        self._handles_lock = threading.Lock()
        self.stats = Stats()

    def __getstate__(self) -> dict[str, Any]:
        return {"scheme": self.scheme, "options": self.options, "authority": self.authority}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["scheme"], state["options"], state["authority"])  # type: ignore[misc]

    def __repr__(self) -> str:
        return f"Store({self.scheme!r}, {self.options!r})"

    @property
    def timeout(self) -> float:
        if self.options.timeout is not None:
            return self.options.timeout
        try:
            return float(os.environ.get("KAFKASPEC_STORAGE_TIMEOUT", DEFAULT_TIMEOUT))
        except ValueError:
            return DEFAULT_TIMEOUT

    @property
    def fs(self) -> Any:
        """The pyarrow filesystem, one per process for each scheme and settings (stores share it)."""
        if self._fs is None:
            key = (self.scheme, self.authority, self.options, _env_key())
            with _STORES_LOCK:
                fs = _FILESYSTEMS.get(key)
            if fs is None:
                try:
                    fs = store_clients.filesystem(self.scheme, self.authority, self.options, self.timeout)
                except store_clients.SetupError as exc:
                    raise StorageError(exc.errno, redact(str(exc.strerror), self.options)) from None
                with _STORES_LOCK:
                    fs = _FILESYSTEMS.setdefault(key, fs)
            self._fs = fs
        return self._fs

    def uri(self, key: str) -> str:
        if self.scheme == "hdfs":
            return f"hdfs://{self.authority}/{key}"
        if self.scheme in ("abfs", "abfss", "az") and self.authority:  # abfs://container@host/path
            container, _, rest = key.partition("/")
            return f"{self.scheme}://{container}@{self.authority}/{rest}"
        return f"{self.scheme}://{key}"

    def info(self, key: str) -> Any:
        """The pyarrow ``FileInfo`` of ``key``: from a cached listing of its parent, or one request."""
        parent, _, name = key.rpartition("/")
        listing = self._listings.get(parent)
        if listing is not None:
            found = listing.get(name)
            if found is not None:
                return found
            from pyarrow import fs as pafs

            return pafs.FileInfo(key, pafs.FileType.NotFound)
        found = self._infos.get(key)
        if found is not None:
            return found
        self.stats.add(1, kind="head", key=key)
        try:
            found = self.fs.get_file_info(key)
        except _pyarrow_errors() as exc:
            raise self.fail(exc, key, "looking the object up") from None
        self._infos[key] = found
        return found

    def list(self, key: str) -> dict[str, Any]:
        """{name: FileInfo} of the objects and prefixes directly under ``key`` (listed once, then cached)."""
        listing = self._listings.get(key)
        if listing is None:
            from pyarrow import fs as pafs

            self.stats.add(1, kind="list", key=key)
            try:
                infos = self.fs.get_file_info(pafs.FileSelector(key, recursive=False))
            except _pyarrow_errors() as exc:
                raise self.fail(exc, key, "listing") from None
            listing = {i.path.rstrip("/").rpartition("/")[2]: i for i in infos}
            self._listings[key] = listing
        return listing

    def forget(self, key: str) -> None:
        """Drop the cached listing of ``key`` (after writing under it)."""
        self._listings.pop(key, None)
        self._infos.clear()  # a write under key may have made any looked-up prefix appear

    def clear(self) -> None:
        """Forget every cached listing and open object (a new look at the store)."""
        self._listings.clear()
        self._infos.clear()
        with self._handles_lock:
            handles, self._handles = self._handles, {}
        for h, _ in handles.values():
            h.close()

    def read(self, key: str, start: int = 0, end: int | None = None) -> bytes:
        """Bytes [start, end) of the object (fewer only at its end), by ranged GETs of at most
        :data:`~kafkaspec.logdir.store.ranged.READ_PIECE` bytes, a few in flight (see :meth:`getter`)."""
        get, size = self.getter(key)
        stop = size if end is None else min(end, size)
        if start >= stop:
            return b""
        return ranged.fetch(get, start, stop)

    def write(self, key: str, data: bytes) -> None:
        """Put one object (whole: an object store shows it completely or not at all)."""
        self.stats.add(1, len(data), kind="put", key=key)
        try:
            with self.fs.open_output_stream(key) as out:
                out.write(data)
        except _pyarrow_errors() as exc:
            raise self.fail(exc, key, "writing the object") from None
        self.forget(key.rpartition("/")[0])

    def copy(self, src: str, dst: str) -> None:
        """Copy an object server-side (S3 CopyObject)."""
        self.stats.add(1, kind="copy", key=dst)
        try:
            self.fs.copy_file(src, dst)
        except _pyarrow_errors() as exc:
            raise self.fail(exc, dst, "copying an object") from None
        self.forget(dst.rpartition("/")[0])

    def delete(self, key: str) -> None:
        self.stats.add(1, kind="delete", key=key)
        try:
            self.fs.delete_file(key)
        except FileNotFoundError:
            pass
        except _pyarrow_errors() as exc:
            raise self.fail(exc, key, "deleting an object") from None
        self.forget(key.rpartition("/")[0])

    def delete_prefix(self, key: str) -> None:
        self.stats.add(1, kind="delete", key=key)
        try:
            self.fs.delete_dir(key)
        except FileNotFoundError:
            pass
        except _pyarrow_errors() as exc:
            raise self.fail(exc, key, "deleting a prefix") from None
        self.forget(key)
        self.forget(key.rpartition("/")[0])


_STORES: dict[tuple[Any, ...], Store] = {}
_STORES_LOCK = threading.Lock()
#: the environment variables a store's filesystem is made from: a change makes a new store
_ENV_KEYS = (
    "AWS_ENDPOINT_URL",
    "AWS_ENDPOINT_URL_S3",
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
    "AWS_REGION",
    "AWS_DEFAULT_REGION",
    "AWS_PROFILE",
    "KAFKASPEC_STORAGE_TIMEOUT",
    "STORAGE_EMULATOR_HOST",
    "GOOGLE_APPLICATION_CREDENTIALS",
    "AZURE_STORAGE_CONNECTION_STRING",
    "AZURE_STORAGE_ACCOUNT_NAME",
    "AZURE_STORAGE_ACCOUNT",
    "AZURE_STORAGE_ACCOUNT_KEY",
    "AZURE_STORAGE_KEY",
    "AZURE_STORAGE_BLOB_ENDPOINT",
)


_FILESYSTEMS: dict[tuple[Any, ...], Any] = {}


def _env_key() -> tuple[str | None, ...]:
    return tuple(os.environ.get(k) for k in _ENV_KEYS)


def store_for(scheme: str, authority: str = "", options: StorageOptions | None = None) -> Store:
    """The shared :class:`Store` of a scheme and settings, its listings kept between callers (a Spark
    task's reads of many segments of one prefix).

    :func:`~.storage.as_path` and :func:`~.storage.parse_uri` give each new top-level URI a store of its own instead
    (sharing the pyarrow filesystem): its listings and pinned objects are that reader's, so a writer
    or another reader in the same process never drops them.
    """
    key = (scheme, authority, options or StorageOptions(), _env_key())
    with _STORES_LOCK:
        store = _STORES.get(key)
        if store is None:
            store = _STORES[key] = Store(scheme, options, authority)
        return store


__all__ = ["DEFAULT_TIMEOUT", "Store", "store_for"]
