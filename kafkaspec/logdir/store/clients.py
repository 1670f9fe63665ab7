"""Which client reads each object store, configured how: the filesystem a :class:`~.objects.Store` uses.

One function per store, each from the store's standard settings (the environment) or the explicit
:class:`StorageOptions` (here: the clients' settings; ``storage`` re-exports them) that override them, each with ``KAFKASPEC_STORAGE_TIMEOUT``'s bound
on the connect and every request. What the requests return, the errors they raise and how they map
to messages are ``storage``'s job (this module names the exception types the clients raise:
:func:`client_errors`); it only picks and configures the client:

- ``s3://``/``s3a://``: pyarrow's ``S3FileSystem`` (the AWS SDK for C++): timeouts, three attempts.
- ``gs://``: gcsfs (fsspec) behind pyarrow's ``FSSpecHandler`` (see :func:`gcs_filesystem` for why not
  pyarrow's own GCS client).
- ``abfs://``/``abfss://``/``az://``: adlfs (fsspec, on the Azure SDK for Python) behind the same handler,
  its SDK client made with the timeout and three attempts whose waits stay under half the timeout
  (see :func:`azure_filesystem` for why not pyarrow's own Azure client).
- ``hdfs://``: pyarrow's ``HadoopFileSystem`` (libhdfs).

No secret is put in an error of this module: a :class:`SetupError` says what setting is missing or
wrong; ``storage`` redacts the client library's own text before showing it.
"""

from __future__ import annotations

import errno
import functools
import logging
import os
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class StorageOptions:
    """Explicit settings for an object store; None (the default) means "from the environment".

    Secrets are kept out of ``repr`` (and so out of logs, plans and errors).
    """

    endpoint: str | None = None
    region: str | None = None
    access_key: str | None = field(default=None, repr=False)
    secret_key: str | None = field(default=None, repr=False)
    session_token: str | None = field(default=None, repr=False)
    timeout: float | None = None
    #: gs://: the endpoint of a private or emulated GCS (``STORAGE_EMULATOR_HOST``'s ``host:port``, no
    #: credentials then); None: Google's own, with Google's default credentials
    gcs_endpoint: str | None = None
    #: abfs:// and az://: the storage account, its access key and its blob endpoint (``http://host:port``
    #: for an emulator); None: from the URI and the environment (see the module docstring)
    azure_account: str | None = None
    azure_key: str | None = field(default=None, repr=False)
    azure_endpoint: str | None = None

    @classmethod
    def from_env(cls) -> StorageOptions:
        """This process's standard AWS environment as explicit settings, to ship to Spark executors that
        may not have it. Keys only when both are set (a profile or instance role stays each process's own)."""
        env = os.environ.get
        access, secret = env("AWS_ACCESS_KEY_ID"), env("AWS_SECRET_ACCESS_KEY")
        keys = bool(access and secret)
        timeout = env("KAFKASPEC_STORAGE_TIMEOUT")
        try:
            seconds = float(timeout) if timeout else None
        except ValueError:
            seconds = None
        azure = azure_env()
        return cls(
            endpoint=env("AWS_ENDPOINT_URL_S3") or env("AWS_ENDPOINT_URL"),
            region=env("AWS_REGION") or env("AWS_DEFAULT_REGION"),
            access_key=access if keys else None,
            secret_key=secret if keys else None,
            session_token=env("AWS_SESSION_TOKEN") if keys else None,
            timeout=seconds,
            gcs_endpoint=env("STORAGE_EMULATOR_HOST") or None,
            azure_account=azure.get("account"),
            azure_key=azure.get("key"),
            azure_endpoint=azure.get("endpoint"),
        )

    def secrets(self) -> tuple[str, ...]:
        return tuple(s for s in (self.access_key, self.secret_key, self.session_token, self.azure_key) if s)


#: the storage emulator's published development account key (``UseDevelopmentStorage=true``); not a secret
AZURITE_KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="

AZURE_SCHEMES = ("abfs", "abfss", "az")
GCS_SCHEMES = ("gs", "gcs")


class SetupError(OSError):
    """A store's client could not be made: a missing package or setting (no URI yet: the caller names it)."""


def filesystem(scheme: str, authority: str, options: StorageOptions, timeout: float) -> Any:
    """A new pyarrow filesystem for ``scheme`` (``authority``: ``hdfs://``'s host:port, ``abfs://``'s
    ``account.dfs.core.windows.net``), configured from ``options`` and else the environment."""
    try:
        from pyarrow import fs as pafs
    except ImportError:  # pragma: no cover - pyarrow comes with the spark extra
        raise SetupError(
            errno.ENOPKG, f"reading {scheme}:// needs pyarrow: pip install 'kafkaspec[spark]'"
        ) from None
    if scheme in ("s3", "s3a"):
        return s3_filesystem(pafs, options, timeout)
    if scheme in GCS_SCHEMES:
        return gcs_filesystem(pafs, scheme, options, timeout)
    if scheme in AZURE_SCHEMES:
        return azure_filesystem(pafs, scheme, authority, options, timeout)
    if scheme == "hdfs":
        fs, _ = pafs.FileSystem.from_uri(f"hdfs://{authority}/")
        return fs
    raise SetupError(errno.EINVAL, f"unsupported storage scheme {scheme}://")


def s3_filesystem(pafs: Any, o: StorageOptions, timeout: float) -> Any:
    """s3:// and s3a://: the AWS environment (``AWS_ENDPOINT_URL``/``AWS_ENDPOINT_URL_S3``, the region,
    the credential chain) unless ``o`` says otherwise; a request that gets no answer is retried twice."""
    kwargs: dict[str, Any] = {
        "connect_timeout": timeout,
        "request_timeout": timeout,
        "retry_strategy": pafs.AwsStandardS3RetryStrategy(max_attempts=3),
    }
    endpoint = o.endpoint or os.environ.get("AWS_ENDPOINT_URL_S3") or os.environ.get("AWS_ENDPOINT_URL")
    if endpoint:
        kwargs["endpoint_override"] = endpoint
    region = o.region or os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION")
    if region:
        kwargs["region"] = region
    if o.access_key or o.secret_key:
        if not (o.access_key and o.secret_key):
            raise SetupError(errno.EINVAL, "an access key id needs its secret access key (and the reverse)")
        kwargs.update(access_key=o.access_key, secret_key=o.secret_key, session_token=o.session_token)
    return pafs.S3FileSystem(**kwargs)


def gcs_filesystem(pafs: Any, scheme: str, o: StorageOptions, timeout: float) -> Any:
    """gs://: through gcsfs (fsspec), not pyarrow's ``GcsFileSystem``: that one lists a prefix's
    objects but not the prefixes under it (it reads GCS's ``items``, not its ``prefixes``), so a log
    directory that no pyarrow client wrote (no empty "folder" objects) would list as empty. pyarrow
    reads gcsfs through its fsspec handler; requests, retries and credentials are gcsfs's (Google's
    default credentials; anonymous for an emulator's endpoint)."""
    try:  # its JSON-API client (gcsfs's default class first asks a gRPC control API no emulator serves)
        GCSFileSystem = _bounded_gcsfs()
    except ImportError:
        raise SetupError(
            errno.ENOPKG,
            f"reading {scheme}:// needs gcsfs, which is not installed: pip install 'kafkaspec[spark]'",
        ) from None
    endpoint = o.gcs_endpoint or os.environ.get("STORAGE_EMULATOR_HOST")
    kwargs: dict[str, Any] = {
        "requests_timeout": timeout,
        "skip_instance_cache": True,
        "use_listings_cache": False,
    }  # listings are storage's to cache (Store.list)
    if endpoint and endpoint != "default":
        kwargs["endpoint_url"] = endpoint if "://" in endpoint else f"http://{endpoint}"
        kwargs["token"] = "anon"  # an emulator takes no credentials
    return pafs.PyFileSystem(pafs.FSSpecHandler(GCSFileSystem(**kwargs)))


def azure_filesystem(pafs: Any, scheme: str, authority: str, o: StorageOptions, timeout: float) -> Any:
    """abfs://, abfss:// and az://: through adlfs (fsspec, on the Azure SDK for Python), not pyarrow's
    ``AzureFileSystem``: that one takes no timeout, so a blob endpoint that stops answering hung a read
    for minutes (246 s measured). The account comes from the settings or the URI's host
    (``account.dfs.core.windows.net``), the key from the settings (none: the SDK's
    ``DefaultAzureCredential``, ``AZURE_CLIENT_ID``/``AZURE_TENANT_ID``/..., managed identity), the
    blob endpoint from the settings for a private or emulated one (``https://ACCOUNT.blob.core.windows.net``
    otherwise). pyarrow reads adlfs through its fsspec handler."""
    env = azure_env()
    account = o.azure_account or env.get("account") or (authority.split(".", 1)[0] if authority else "")
    if not account:
        raise SetupError(
            errno.EINVAL,
            f"{scheme}:// needs a storage account: abfs://CONTAINER@ACCOUNT"
            ".dfs.core.windows.net/PATH, or AZURE_STORAGE_ACCOUNT_NAME, or "
            "AZURE_STORAGE_CONNECTION_STRING",
        )
    key = o.azure_key or (
        env.get("key") if not o.azure_account or o.azure_account == env.get("account") else None
    )
    endpoint = o.azure_endpoint or env.get("endpoint") or f"https://{account}.blob.core.windows.net"
    if "://" not in endpoint:
        endpoint = f"https://{endpoint}"
    try:
        cls = _bounded_adlfs()
    except ImportError:
        raise SetupError(
            errno.ENOPKG,
            f"reading {scheme}:// needs adlfs, which is not installed: pip install 'kafkaspec[spark]'",
        ) from None
    try:
        fs = cls(
            account=account, key=key, endpoint=endpoint.rstrip("/"), timeout=timeout, skip_instance_cache=True
        )
    except (ValueError, ImportError) as exc:  # adlfs: "unable to connect to account for ..."
        first = (str(exc).strip().splitlines() or ["unknown error"])[0]
        raise SetupError(errno.EINVAL, f"cannot set up {scheme}:// (account {account}): {first}") from None
    return pafs.PyFileSystem(pafs.FSSpecHandler(fs))


@functools.cache
def _bounded_gcsfs() -> type:
    """gcsfs's JSON-API ``GCSFileSystem`` whose requests make :data:`AZURE_ATTEMPTS` attempts, the waits
    between them capped as Azure's are (under half the timeout in all). gcsfs tries a request six times,
    1, 2, 4, 8 and 16 s apart whatever the timeout (a refused connection took 35 s at a 2 s timeout), and
    logs each request that ran out of tries, traceback included, at error level: on stderr when no
    logging is set up, beside the one-line error. Its ``_request`` (the one request method; undecorated
    here) is the one method changed; what is retried is gcsfs's rule (``is_retriable``), 404 never."""
    import asyncio
    import random

    from gcsfs.core import GCSFileSystem  # type: ignore[import-untyped]
    from gcsfs.retry import is_retriable  # type: ignore[import-untyped]

    logging.getLogger("gcsfs").addHandler(logging.NullHandler())  # as for "azure" (see _bounded_adlfs)
    wrapped = getattr(GCSFileSystem._request, "__wrapped__", None)
    if wrapped is None:  # a gcsfs whose request is not decorated as 2024-2026 releases do: left as it is
        return GCSFileSystem
    request: Any = wrapped

    class BoundedGCSFileSystem(GCSFileSystem):
        async def _request(self, *args: Any, **kwargs: Any) -> Any:
            max_wait = AZURE_MAX_WAIT * (self.requests_timeout or 30)
            for attempt in range(AZURE_ATTEMPTS):
                if attempt:
                    await asyncio.sleep(random.uniform(max_wait / 2, max_wait))
                try:
                    return await request(self, *args, **kwargs)
                except Exception as exc:
                    status = getattr(exc, "code", None) or getattr(exc, "status", None)
                    if attempt == AZURE_ATTEMPTS - 1 or status == 404 or not is_retriable(exc):
                        raise
            raise AssertionError("unreachable")  # pragma: no cover

    return BoundedGCSFileSystem


@functools.cache
def _bounded_adlfs() -> type:
    """adlfs's ``AzureBlobFileSystem`` whose Azure SDK client has the connect and read timeout and
    three attempts on every request, the waits between them capped by the timeout (:func:`_bounded_retry`).
    adlfs makes its client with the SDK's defaults (300 s timeouts, retries 15 s apart: minutes on a
    silent endpoint) and passes its own timeout arguments only to uploads and downloads, not to the
    listings and lookups a reader mostly does; its ``do_connect`` (the documented place the client is
    made) is the one method changed."""
    from adlfs import AzureBlobFileSystem  # type: ignore[import-untyped]
    from azure.storage.blob.aio import BlobServiceClient

    # the SDK logs some failures as warnings besides raising them ("Unexpected return type ..." for an
    # error status without Azure's XML body, as a proxy sends); with no logging set up Python prints
    # those on stderr beside the one-line error the exception becomes. A handler of the SDK's own
    # keeps them off; a program that sets up logging still gets them through its root logger.
    logging.getLogger("azure").addHandler(logging.NullHandler())

    class BoundedAzureBlobFileSystem(AzureBlobFileSystem):
        def __init__(self, *, account: str, key: str | None, endpoint: str, timeout: float) -> None:
            self._endpoint, self._timeout = endpoint, timeout
            credential = None
            if not key:  # adlfs would make the same default chain; made here so the key-less case is explicit
                from azure.identity.aio import DefaultAzureCredential

                credential = DefaultAzureCredential()
            # adlfs also reads the environment's connection string and SAS token itself; do_connect below
            # uses only what was given here (the settings already hold what the standard environment says)
            super().__init__(
                account_name=account,
                account_key=key or None,
                credential=credential,
                anon=False,
                use_listings_cache=False,
            )  # listings are storage's to cache (Store.list)

        async def _find(
            self,
            path: str,
            withdirs: bool = False,
            prefix: str = "",
            maxdepth: int | None = None,
            **kwargs: Any,
        ) -> Any:
            """One level (pyarrow's non-recursive listing) as one delimited listing: adlfs's own ``find``
            ignores ``maxdepth`` and lists every object under the prefix, a whole log directory for one
            partition's folder, and names from every depth among the entries of one."""
            if maxdepth != 1 or prefix:
                return await super()._find(
                    path, withdirs=withdirs, prefix=prefix, maxdepth=maxdepth, **kwargs
                )
            entries = await self._ls(path, detail=True, invalidate_cache=True)
            found = {e["name"]: e for e in entries if withdirs or e["type"] != "directory"}
            return found if kwargs.get("detail") else sorted(found)

        async def _details(self, contents: Any, *args: Any, **kwargs: Any) -> Any:
            """adlfs's details, with ``mtime`` (what pyarrow's fsspec handler reads) = the blob's
            ``last_modified``: a listing then pins an object by its time as on the other stores."""
            out = await super()._details(contents, *args, **kwargs)
            for info in out:
                if info.get("last_modified") is not None:
                    info.setdefault("mtime", info["last_modified"])
            return out

        def do_connect(self) -> None:
            credential = self.credential or {
                "account_name": self.account_name,
                "account_key": self.account_key,
            }
            self.service_client = BlobServiceClient(
                account_url=self._endpoint,
                credential=credential,
                connection_timeout=self._timeout,
                read_timeout=self._timeout,
                retry_policy=_bounded_retry()(self._timeout),
            )

    return BoundedAzureBlobFileSystem


#: a request's attempts (the first and two retries), each bounded by the timeout
AZURE_ATTEMPTS = 3
#: the longest wait before a retry, as a fraction of the timeout: the waits of a request's retries
#: together stay under half the timeout, so a request that gets no answer fails within
#: ``AZURE_ATTEMPTS + 0.5`` timeouts
AZURE_MAX_WAIT = 0.25


@functools.cache
def _bounded_retry() -> type:
    """The Azure SDK's exponential retry (async), its waits capped by the timeout. The SDK waits
    seconds between tries whatever the timeout (here 3 s, then 5 s, each +-1 s), so at a 1 s timeout
    three tries on a silent endpoint took 11 s. A wait longer than a quarter of the timeout becomes a
    random part of that quarter (random, so that many clients do not retry in step): three tries then
    take at most 3.5 timeouts. A server that answers "busy" (HTTP 503, 500, 408, ...) or drops the
    connection is still retried, after the SDK's own waits when the timeout leaves room for them (from
    24 s on: the default 30 s keeps them)."""
    import random

    from azure.storage.blob.aio import ExponentialRetry

    class BoundedRetry(ExponentialRetry):
        def __init__(self, timeout: float) -> None:
            super().__init__(
                initial_backoff=1, increment_base=2, retry_total=AZURE_ATTEMPTS - 1, random_jitter_range=1
            )
            self.max_wait = AZURE_MAX_WAIT * timeout

        def get_backoff_time(self, settings: dict[str, Any]) -> float:
            wait = float(super().get_backoff_time(settings))
            return wait if wait <= self.max_wait else random.uniform(self.max_wait / 2, self.max_wait)

    return BoundedRetry


@functools.cache
def client_errors() -> tuple[type[BaseException], ...]:
    """What a call on one of these filesystems raises, for the caller to map to a message: OSError,
    pyarrow's own errors (``ArrowInvalid``, a ValueError, for a key it refuses, such as one with an empty
    component ``a//b``) and the Azure SDK's (``AzureError``: a request that timed out or was refused
    passes through adlfs as the SDK raised it)."""
    found: list[type[BaseException]] = [OSError]
    try:
        from pyarrow.lib import ArrowException

        found.append(ArrowException)
    except ImportError:  # pragma: no cover - pyarrow comes with the spark extra
        pass
    try:
        from azure.core.exceptions import AzureError

        found.append(AzureError)
    except ImportError:  # no adlfs: no Azure client either
        pass
    return tuple(found)


def azure_env() -> dict[str, str]:
    """The Azure SDK's standard settings of this process: ``AZURE_STORAGE_CONNECTION_STRING``
    (``AccountName``, ``AccountKey``, ``BlobEndpoint``; ``UseDevelopmentStorage=true``), else ``AZURE_STORAGE_ACCOUNT_NAME``/``AZURE_STORAGE_ACCOUNT``,
    ``AZURE_STORAGE_ACCOUNT_KEY``/``AZURE_STORAGE_KEY`` and ``AZURE_STORAGE_BLOB_ENDPOINT``; keys
    account, key, endpoint (absent when unset)."""
    env = os.environ.get
    out: dict[str, str] = {}
    text = env("AZURE_STORAGE_CONNECTION_STRING")
    if text:
        parts = dict(p.split("=", 1) for p in text.split(";") if "=" in p)
        if parts.get("UseDevelopmentStorage", "").lower() == "true":  # Azurite's well-known account
            parts = {
                "AccountName": "devstoreaccount1",
                "AccountKey": AZURITE_KEY,
                "BlobEndpoint": "http://127.0.0.1:10000/devstoreaccount1",
            }
        for name, key in (("AccountName", "account"), ("AccountKey", "key"), ("BlobEndpoint", "endpoint")):
            if parts.get(name):
                out[key] = parts[name]
        return out
    for key, names in (
        ("account", ("AZURE_STORAGE_ACCOUNT_NAME", "AZURE_STORAGE_ACCOUNT")),
        ("key", ("AZURE_STORAGE_ACCOUNT_KEY", "AZURE_STORAGE_KEY")),
        ("endpoint", ("AZURE_STORAGE_BLOB_ENDPOINT",)),
    ):
        value = next((v for n in names if (v := env(n))), None)
        if value:
            out[key] = value
    return out


__all__ = [
    "AZURE_SCHEMES",
    "AZURITE_KEY",
    "GCS_SCHEMES",
    "SetupError",
    "azure_env",
    "azure_filesystem",
    "client_errors",
    "filesystem",
    "gcs_filesystem",
    "s3_filesystem",
]
