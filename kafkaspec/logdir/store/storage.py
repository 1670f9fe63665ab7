"""Where a log directory's bytes live: local paths, or object-store URIs read through each store's client.

``s3://bucket/prefix/`` (also ``s3a://``), ``gs://``, ``abfs://``/``abfss://``/``az://`` and
``hdfs://`` name a location in an object store (a :class:`~.remote_path.RemotePath`, which behaves like
the part of ``pathlib.Path`` the log-directory code uses); anything else is a local path and stays a
:class:`pathlib.Path` (:func:`as_path`, :func:`parse_uri`). A :class:`Store` does the requests of one
store.

No client, signing or retry logic of our own: each store's well-kept client does the requests, picked
and configured by :mod:`.clients` (pyarrow's S3 client, the AWS SDK for C++; gcsfs for ``gs://``;
adlfs, on the Azure SDK for Python, for ``abfs://``/``abfss://``/``az://``; libhdfs). Configuration
comes from each store's standard environment: S3's ``AWS_ENDPOINT_URL`` (or ``AWS_ENDPOINT_URL_S3``;
``http://`` allowed, for S3-compatible servers), ``AWS_ACCESS_KEY_ID``/``AWS_SECRET_ACCESS_KEY``/
``AWS_SESSION_TOKEN``, ``AWS_DEFAULT_REGION``/``AWS_REGION``, ``AWS_PROFILE`` and the rest of the AWS
credential chain; GCS's ``STORAGE_EMULATOR_HOST`` (a private endpoint) or Google's default credentials;
Azure's ``AZURE_STORAGE_CONNECTION_STRING`` (or ``AZURE_STORAGE_ACCOUNT_NAME``/``_KEY``/
``AZURE_STORAGE_BLOB_ENDPOINT``), else the SDK's default credential chain. :class:`StorageOptions`
overrides it explicitly (the Spark reader's options, since executors may not share the driver's
environment). ``KAFKASPEC_STORAGE_TIMEOUT`` (seconds, default 30) bounds the connect and each attempt of
a request on every store, and on Azure the waits between its attempts too (``store_clients``), so a
server that stops answering is an error within a few timeouts, not a hang.

What is read: a directory listing once per directory (cached: ``exists``/``stat`` of a listed
object cost nothing more), objects or byte ranges of them by ranged GETs (large ranges as pieces
with read-ahead: :mod:`.ranged`; whole-segment scans through a bounded window: ``logdir.kafka.window``),
each object pinned to the version first seen of it (:mod:`.pinned`). Errors name the URI and what
went wrong in the same words on every store, never a credential (:mod:`.errors`).
"""

from __future__ import annotations

import os
import re
import threading
import urllib.parse
from collections import Counter
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol, TypeVar

from . import clients as store_clients
from . import ranged
from .clients import StorageOptions
from .errors import Failures, StorageError, redact
from .pinned import Identity, PinnedReads
from .remote_path import RemotePath

#: URI schemes read through pyarrow.fs (s3a: Hadoop's name for the same S3 buckets)
REMOTE_SCHEMES = ("s3", "s3a", "gs", "gcs", "abfs", "abfss", "az", "hdfs")
DEFAULT_TIMEOUT = 30.0

_URI = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://(.*)$")


def is_uri(path: object) -> bool:
    """Whether ``path`` names an object-store location (``s3://...`` and the other remote schemes)."""
    if isinstance(path, RemotePath):
        return True
    m = _URI.match(str(path)) if isinstance(path, str) else None
    return bool(m and m[1].lower() in REMOTE_SCHEMES)


def _pyarrow_errors() -> tuple[type[BaseException], ...]:
    """What a filesystem call raises: OSError, pyarrow's own errors and the store clients' (see
    :func:`.clients.client_errors`)."""
    return store_clients.client_errors()


class Stats:
    """Requests and bytes a :class:`Store` asked for (for tests and benchmarks); ``checks`` counts
    the requests among them that only look whether a read object changed (one after each GET).
    ``by_key`` counts them by ``(kind, key)`` (kind: list, head, open, get, check, put, copy, delete), so
    that a test or a benchmark can tell which object was asked for twice, not only how many requests."""

    def __init__(self) -> None:
        self.requests = 0
        self.bytes = 0
        self.checks = 0
        self.by_key: Counter[tuple[str, str]] = Counter()
        self._lock = threading.Lock()

    def add(self, requests: int, nbytes: int = 0, *, checks: int = 0, kind: str = "", key: str = "") -> None:
        with self._lock:
            self.requests += requests
            self.bytes += nbytes
            self.checks += checks
            if kind:
                self.by_key[kind, key] += requests

    def by_kind(self) -> Counter[str]:
        """Requests by kind (list, head, open, get, check, ...)."""
        with self._lock:
            kinds: Counter[str] = Counter()
            for (kind, _), n in self.by_key.items():
                kinds[kind] += n
            return kinds

    def reset(self) -> None:
        with self._lock:
            self.requests = self.bytes = self.checks = 0
            self.by_key.clear()


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

    :func:`as_path` and :func:`parse_uri` give each new top-level URI a store of its own instead
    (sharing the pyarrow filesystem): its listings and pinned objects are that reader's, so a writer
    or another reader in the same process never drops them.
    """
    key = (scheme, authority, options or StorageOptions(), _env_key())
    with _STORES_LOCK:
        store = _STORES.get(key)
        if store is None:
            store = _STORES[key] = Store(scheme, options, authority)
        return store


def parse_uri(uri: str, options: StorageOptions | None = None, *, fresh: bool = True) -> RemotePath:
    """The :class:`RemotePath` of an object-store URI (``s3://bucket/prefix``): on a store of its own
    (``fresh``: a new look at the store), or on the shared one (see :func:`store_for`)."""
    m = _URI.match(uri)
    if not m or m[1].lower() not in REMOTE_SCHEMES:
        raise ValueError(f"not an object-store URI: {redact(uri)!r} (schemes: {', '.join(REMOTE_SCHEMES)})")
    scheme, rest = m[1].lower(), m[2]
    if scheme in ("s3", "s3a", "gs", "gcs"):
        head, _, tail = rest.partition("/")
        if "@" in head:  # s3://KEY:SECRET@bucket/prefix: the keys, %-encoded, never shown again
            info, _, bucket = head.rpartition("@")
            user, _, password = info.partition(":")
            if scheme in ("gs", "gcs"):
                raise ValueError(
                    f"{redact(uri)}: credentials in a gs:// URI are not supported; "
                    "use the standard Google Cloud environment"
                )
            options = replace(
                options or StorageOptions(),
                access_key=urllib.parse.unquote(user) or None,
                secret_key=urllib.parse.unquote(password) or None,
            )
            rest = f"{bucket}/{tail}" if tail else bucket
    authority = ""
    if scheme == "hdfs":
        authority, _, rest = rest.partition("/")
    if scheme in (
        "abfs",
        "abfss",
        "az",
    ):  # abfs://container@account.dfs.core.windows.net/path, az://container/path
        head, _, tail = rest.partition("/")
        if "@" in head:
            container, _, authority = head.rpartition("@")
            if ":" in container:
                raise ValueError(
                    f"{redact(uri)}: credentials in an {scheme}:// URI are not supported; "
                    "use the Azure SDK's environment (AZURE_STORAGE_CONNECTION_STRING, ...)"
                )
            rest = f"{container}/{tail}" if tail else container
    if scheme in ("s3", "s3a", "gs", "gcs", "abfs", "abfss", "az") and not rest.split("/", 1)[0]:
        raise ValueError(f"{redact(uri)!r} names no bucket: {scheme}://BUCKET/PREFIX")
    store = Store(scheme, options, authority) if fresh else store_for(scheme, authority, options)
    return RemotePath(store, rest)


def as_path(
    path: str | os.PathLike[str] | RemotePath, options: StorageOptions | None = None
) -> Path | RemotePath:
    """A :class:`RemotePath` for an object-store URI (or one already), a :class:`pathlib.Path` otherwise."""
    if isinstance(path, RemotePath):
        return path
    if isinstance(path, str) and is_uri(path):
        return parse_uri(path, options)
    return Path(path)


#: either class of path this module makes (:func:`as_path`); code that only reads or lists a path takes
#: any :class:`~.fs.StoragePath` instead, so that it works for every kind of storage
AnyPath = Path | RemotePath


class _Listable(Protocol):
    """What :func:`listdir` uses of a path (any :class:`~.fs.StoragePath` has it)."""

    @property
    def name(self) -> str: ...

    def iterdir(self: _L) -> Iterable[_L]: ...


_L = TypeVar("_L", bound=_Listable)


def listdir(path: _L) -> list[_L]:
    """The entries of a local directory or an object-store prefix, sorted by name (of the kind of path
    given: a :class:`~.fs.StoragePath`'s are StoragePaths)."""
    return sorted(path.iterdir(), key=lambda p: p.name)


__all__ = [
    "AnyPath",
    "REMOTE_SCHEMES",
    "RemotePath",
    "StorageError",
    "StorageOptions",
    "Store",
    "as_path",
    "is_uri",
    "listdir",
    "parse_uri",
    "redact",
    "store_for",
]
