"""Where a log directory's bytes live: local paths, or object-store URIs read through each store's client.

``s3://bucket/prefix/`` (also ``s3a://``), ``gs://``, ``abfs://``/``abfss://``/``az://`` and
``hdfs://`` name a location in an object store; anything else is a local path and stays a
:class:`pathlib.Path`. A :class:`RemotePath` behaves like the part of ``pathlib.Path`` the
log-directory code uses (``name``, ``parent``, ``/``, ``exists``, ``is_file``, ``is_dir``,
``iterdir``, ``glob``, ``stat().st_size``), so the readers above are the same for both.

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
with read-ahead: ``logdir.ranged``; whole-segment scans through a bounded window: ``logdir.window``).

A reader never mixes two versions of an object (a writer may republish a partition while it is
read): each object is pinned to what was first seen of it: the listing's size and modification
time, then the opening request's size, modification time and version (S3's and Azure's ``ETag``,
GCS's ``generation``). Opening an object that no longer matches its listing, and every ranged GET
followed by a look at the object (one HEAD request) that finds it changed, fail the read naming the
object. The look comes after the GET because the clients keep a GET's response headers to
themselves: a check before it would leave the time between the two unguarded, a check after covers
every GET before it. Limit: a listing gives no version (pyarrow's file information has no field for
it), so an object replaced between the listing and its opening by one of the very same size within
the same second (the stores keep modification times to the second) is not told from the listed one;
once opened, any replacement is.
Credentials are never part of a ``repr``, a message or an error: errors name the URI and what
went wrong (missing bucket or container, missing object, access denied, no answer, an object shorter
than its listing), in the same words on every store.

Why one module of this size: its one job is "bytes from a location", and its parts are one unit
(``Store`` does the requests and error mapping; ``RemotePath`` is the ``pathlib``-like face the
readers use on it; ``as_path``/``parse_uri`` pick between them); no part is used without the
others. Cutting large ranges into pieces fetched ahead is ``logdir.ranged``'s job; which client each
store gets, configured how, is ``logdir.store_clients``'s.
"""

from __future__ import annotations

import errno
import fnmatch
import os
import re
import threading
import urllib.parse
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any, Protocol, TypeVar

from . import clients as store_clients
from . import ranged
from .clients import StorageOptions, azure_env
from .ranged import Get

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


class StorageError(OSError):
    """An object store refused or failed a request; the message names the URI, never a credential."""


def _env_secrets() -> tuple[str, ...]:
    found = [
        v
        for k in (
            "AWS_ACCESS_KEY_ID",
            "AWS_SECRET_ACCESS_KEY",
            "AWS_SESSION_TOKEN",
            "AZURE_STORAGE_ACCOUNT_KEY",
            "AZURE_STORAGE_KEY",
        )
        if (v := os.environ.get(k))
    ]
    key = azure_env().get("key") if os.environ.get("AZURE_STORAGE_CONNECTION_STRING") else None
    if key:
        found.append(key)
    return tuple(found)


#: the user-info part of a URI: ``s3://KEY:SECRET@bucket`` (any user info for the object-store schemes
#: that have no user part; for the others, an ``abfs://container@account`` or ``hdfs://user@host``, only
#: one holding a password). One slash is enough: a URI that went through ``pathlib.Path`` shows ``s3:/``.
_USERINFO = re.compile(
    r"\b(?:((?:s3a?|gs|gcs):/{1,2})[^/@\s]+@|([A-Za-z][A-Za-z0-9+.-]*:/{1,2})[^/@\s:]*:[^/@\s]*@)",
    re.IGNORECASE,
)


def redact(text: str, options: StorageOptions | None = None) -> str:
    """``text`` with every credential it may hold replaced by ``***``: the user info of every URI in it
    (``s3://KEY:SECRET@bucket`` shows as ``s3://***@bucket``) and every known credential value (the
    options', the environment's). The one helper every message showing a URI or a storage error goes
    through."""
    text = _USERINFO.sub(lambda m: f"{m[1] or m[2]}***@", text)
    for secret in (*(options.secrets() if options else ()), *_env_secrets()):
        if len(secret) >= 4:
            text = text.replace(secret, "***")
            quoted = urllib.parse.quote(secret, safe="")
            if quoted != secret:
                text = text.replace(quoted, "***")
    return text


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


class Store:
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

    def missing_bucket(self, key: str) -> StorageError:
        """The error for a missing bucket (S3, GCS) or container (Azure), naming it and the URI."""
        bucket = key.split("/", 1)[0]
        what = "container" if self.scheme in ("abfs", "abfss", "az") else "bucket"
        return StorageError(errno.ENOENT, f"{what} {bucket!r} does not exist", self.uri(key))

    def credentials_hint(self) -> str:
        if self.scheme in ("gs", "gcs"):
            return "Google's default credentials: GOOGLE_APPLICATION_CREDENTIALS or gcloud auth"
        if self.scheme in ("abfs", "abfss", "az"):
            return "AZURE_STORAGE_CONNECTION_STRING, AZURE_STORAGE_ACCOUNT_KEY, or the reader's options"
        return "AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, a profile, or the reader's options"

    def endpoint_hint(self) -> str:
        if self.scheme in ("gs", "gcs"):
            return "STORAGE_EMULATOR_HOST sets a private endpoint"
        if self.scheme in ("abfs", "abfss", "az"):
            return "the connection string's BlobEndpoint sets a private endpoint"
        return "set AWS_ENDPOINT_URL for an S3-compatible server"

    def endpoint(self) -> str:
        """The endpoint requests go to, for messages: the configured one, else the store's default."""
        if self.scheme in ("gs", "gcs"):
            return (
                self.options.gcs_endpoint
                or os.environ.get("STORAGE_EMULATOR_HOST")
                or "storage.googleapis.com"
            )
        if self.scheme in ("abfs", "abfss", "az"):
            return (
                self.options.azure_endpoint
                or azure_env().get("endpoint")
                or self.authority
                or "the account's blob endpoint"
            )
        return (
            self.options.endpoint
            or os.environ.get("AWS_ENDPOINT_URL_S3")
            or os.environ.get("AWS_ENDPOINT_URL")
            or "the default endpoint"
        )

    # -- requests ----------------------------------------------------------------
    def fail(self, exc: BaseException, key: str, doing: str) -> StorageError:
        """A :class:`StorageError` naming the URI and the cause, credentials redacted."""
        uri = self.uri(key)
        text = redact(str(exc), self.options)
        low = text.lower()
        if (
            "no_such_bucket" in low
            or "nosuchbucket" in low
            or "bucket does not exist" in low
            or "containernotfound" in low
        ):
            return self.missing_bucket(key)
        if any(
            s in low
            for s in (
                "access_denied",
                "accessdenied",
                "invalidaccesskeyid",
                "signaturedoesnotmatch",
                "http response code: 403",
                "forbidden",
                "invalid_access_key",
                "authenticationfailed",
                "authorizationfailure",
                "authorizationpermissionmismatch",
                "403 server failed to authenticate",
            )
        ) or isinstance(exc, PermissionError):
            return StorageError(
                errno.EACCES,
                f"access denied (HTTP 403) while {doing}: check the credentials ({self.credentials_hint()})",
                uri,
            )
        if (
            "could not resolve" in low
            or "curlcode: 6," in low
            or "name or service not known" in low
            or ("cannot connect to host" in low and "name" in low)
        ):
            return StorageError(
                errno.EHOSTUNREACH,
                f"cannot resolve the storage endpoint's host name while {doing}: "
                f"{_first_line(text)} ({self.endpoint_hint()})",
                uri,
            )
        if any(
            s in low
            for s in (
                "timeout",
                "timed out",
                "curlcode: 28",
                "network_connection",
                "curlcode: 7",
                "couldn't connect",
                "could not connect",
                "connection refused",
                "curlcode: 52",
                "curlcode: 56",
                "empty reply",
                "cannot connect to host",
                "connection reset",
                "server disconnected",
                "connection aborted",
            )
        ) or isinstance(exc, (TimeoutError, ConnectionError)):
            return StorageError(
                errno.ETIMEDOUT,
                f"no answer from {self.endpoint()} while {doing} (timeout "
                f"{self.timeout:g} s, retried; KAFKASPEC_STORAGE_TIMEOUT sets it): {_first_line(text)}",
                uri,
            )
        if (
            isinstance(exc, (FileNotFoundError, IsADirectoryError))
            or "path does not exist" in low
            or "nosuchkey" in low
        ):
            return StorageError(errno.ENOENT, "no such object or prefix", uri)
        if isinstance(exc, ValueError):  # pyarrow's ArrowInvalid: a key it refuses
            return StorageError(
                errno.EINVAL, f"not a valid object key while {doing}: {_first_line(text)}", uri
            )
        return StorageError(errno.EIO, f"storage error while {doing}: {_first_line(text)}", uri)

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

    def _open(self, key: str, *, check: bool = False) -> tuple[Any, Identity]:
        """A new input file on ``key`` (one HEAD request) and the identity it saw."""
        self.stats.add(1, checks=int(check), kind="check" if check else "open", key=key)
        try:
            if self.scheme in (*store_clients.GCS_SCHEMES, *store_clients.AZURE_SCHEMES):
                # an fsspec client (gcsfs, adlfs), whose file hides from pyarrow what its opening saw: open
                # it here, keep that, and let pyarrow read it; no cache of the client's own (a read is one
                # ranged GET of what was asked, as on S3: the readers fetch ahead themselves, logdir.ranged)
                from pyarrow import PythonFile

                opened = self.fs.handler.fs.open(key, "rb", cache_type="none")
                return PythonFile(opened, mode="r"), Identity.of_fsspec(opened.details)
            handle = self.fs.open_input_file(key)
        except _pyarrow_errors() as exc:
            raise self.fail(exc, key, "opening the object") from None
        return handle, Identity.of(handle)

    def _handle(self, key: str) -> tuple[Any, Identity]:
        with self._handles_lock:
            held = self._handles.get(key)
        if held is None:
            held = self._open(key)
            with self._handles_lock:
                if len(self._handles) >= 256:
                    self._handles.pop(next(iter(self._handles)))[0].close()
                self._handles[key] = held
        return held

    def _check_unchanged(self, key: str, pinned: Identity, doing: str) -> None:
        """Raise when ``key`` is no longer the object ``pinned`` describes (one HEAD request)."""
        handle, now = self._open(key, check=True)
        handle.close()
        if not pinned.same(now):
            raise StorageError(
                errno.ESTALE,
                f"the object changed while being read ({pinned} when first read, "
                f"{now} after {doing}): it was replaced (republished) meanwhile; read it again "
                "from a new listing",
                self.uri(key),
            )

    def getter(self, key: str) -> tuple[Get, int]:
        """``(get, size)``: ``get(a, b)`` fetches bytes [a, b) of the object by one ranged GET, and
        ``size`` is the object's size. The object is pinned (see the module docstring): one that no
        longer matches its listing, or that changed by the time a GET is done, is a
        :class:`StorageError` naming it, at once or from ``get``."""
        from pyarrow import fs as pafs

        handle, pinned = self._handle(key)
        if key.rpartition("/")[0] in self._listings:  # listed: its size and time are known, check them
            info = self.info(key)
            if info.type == pafs.FileType.NotFound:
                raise StorageError(errno.ENOENT, "no such object", self.uri(key))
            if info.type != pafs.FileType.File:
                raise StorageError(errno.EISDIR, "not an object but a prefix (a directory)", self.uri(key))
            size = info.size
            if pinned.size < size:
                raise StorageError(
                    errno.EIO,
                    f"the object is shorter than its listing said ({size} bytes listed, "
                    f"{pinned.size} stored): it was replaced or truncated while being read",
                    self.uri(key),
                )
            listed = Identity(size, _seconds(info.mtime), None)
            if not listed.same(pinned):
                raise StorageError(
                    errno.ESTALE,
                    f"the object changed since it was listed ({listed} listed, "
                    f"{pinned} stored): it was replaced (republished) meanwhile; read it again "
                    "from a new listing",
                    self.uri(key),
                )
        size = pinned.size

        def get(a: int, b: int) -> bytes:
            try:
                data = handle.read_at(b - a, a)
            except _pyarrow_errors() as exc:
                if "invalidrange" in str(exc).lower() or "416" in str(exc):
                    data = b""
                else:
                    raise self.fail(exc, key, f"reading bytes {a}..{b}") from None
            self.stats.add(1, len(data), kind="get", key=key)
            self._check_unchanged(key, pinned, f"reading bytes {a}..{b}")
            if len(data) < b - a:
                raise StorageError(
                    errno.EIO,
                    f"the object is shorter than its listing said ({size} bytes): "
                    f"reading bytes {a}..{b} gave {len(data)}; it was replaced or truncated "
                    "while being read",
                    self.uri(key),
                )
            return bytes(data)

        return get, size

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


@dataclass(frozen=True)
class Identity:
    """What tells one version of an object from another: its size, its modification time (whole
    seconds, as S3 keeps it) and its ETag, the last two None where the store does not say."""

    size: int
    mtime: int | None
    etag: str | None

    @classmethod
    def of(cls, handle: Any) -> Identity:
        """The identity an open ``pyarrow`` input file saw (S3: its HEAD response's headers)."""
        try:
            meta = {k.lower(): v for k, v in (handle.metadata() or {}).items()}
        except (OSError, AttributeError, NotImplementedError):
            meta = {}

        def text(name: str) -> str | None:
            value = meta.get(name)
            return value.decode("latin-1") if isinstance(value, bytes) else value

        return cls(handle.size(), _parse_time(text("last-modified")), text("etag"))

    @classmethod
    def of_fsspec(cls, info: dict[str, Any]) -> Identity:
        """The identity an fsspec client's ``info`` gives: gcsfs's size, ``updated`` time and
        ``generation`` (a new number at each write of a GCS object: its own version id, stronger than an
        ETag); adlfs's size, ``last_modified`` and ``etag``."""
        when = info.get("updated") or info.get("last_modified")
        version = str(info["generation"]) if info.get("generation") else info.get("etag")
        return cls(
            int(info["size"]), _seconds(when) if isinstance(when, datetime) else _parse_time(when), version
        )

    def same(self, other: Identity) -> bool:
        """Equal where both say: a field one side lacks is not a difference."""
        if self.size != other.size:
            return False
        if None not in (self.mtime, other.mtime) and self.mtime != other.mtime:
            return False
        return None in (self.etag, other.etag) or self.etag == other.etag

    def __str__(self) -> str:
        parts = [f"{self.size} bytes"]
        if self.mtime is not None:
            parts.append("modified " + datetime.fromtimestamp(self.mtime, UTC).strftime("%Y-%m-%dT%H:%M:%SZ"))
        if self.etag is not None:
            parts.append(f"ETag {self.etag}")
        return ", ".join(parts)


def _seconds(when: Any) -> int | None:
    """A ``FileInfo.mtime`` as whole seconds since the epoch (None when the store gives none)."""
    return int(when.timestamp()) if isinstance(when, datetime) else None


def _parse_time(text: str | None) -> int | None:
    """``Last-Modified`` as pyarrow's S3 metadata gives it (ISO 8601) or as HTTP does, in whole seconds."""
    if not text:
        return None
    try:
        return int(datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp())
    except ValueError:
        try:
            return int(parsedate_to_datetime(text).timestamp())
        except (TypeError, ValueError):
            return None


def _first_line(text: str) -> str:
    line = text.strip().splitlines()[0] if text.strip() else "unknown error"
    return re.sub(r"\s*\(Request ID: [^)]*\)", "", line)[:300]


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
