"""Where a log directory's bytes live: local paths, or object-store URIs read through each store's client.

``s3://bucket/prefix/`` (also ``s3a://``), ``gs://``, ``abfs://``/``abfss://``/``az://`` and
``hdfs://`` name a location in an object store (a :class:`~.remote_path.RemotePath`, which behaves like
the part of ``pathlib.Path`` the log-directory code uses); anything else is a local path and stays a
:class:`pathlib.Path` (:func:`as_path`, :func:`parse_uri`). A :class:`~.objects.Store` does the requests of one
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
import urllib.parse
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import Protocol, TypeVar

from .clients import StorageOptions
from .errors import StorageError, redact
from .objects import DEFAULT_TIMEOUT, Store, store_for
from .remote_path import RemotePath
from .stats import Stats

#: URI schemes read through pyarrow.fs (s3a: Hadoop's name for the same S3 buckets)
REMOTE_SCHEMES = ("s3", "s3a", "gs", "gcs", "abfs", "abfss", "az", "hdfs")

_URI = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://(.*)$")


def is_uri(path: object) -> bool:
    """Whether ``path`` names an object-store location (``s3://...`` and the other remote schemes)."""
    if isinstance(path, RemotePath):
        return True
    m = _URI.match(str(path)) if isinstance(path, str) else None
    return bool(m and m[1].lower() in REMOTE_SCHEMES)


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
    "DEFAULT_TIMEOUT",
    "AnyPath",
    "REMOTE_SCHEMES",
    "RemotePath",
    "StorageError",
    "Stats",
    "StorageOptions",
    "Store",
    "as_path",
    "is_uri",
    "listdir",
    "parse_uri",
    "redact",
    "store_for",
]
