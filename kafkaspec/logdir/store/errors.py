"""What a failed object-store request is called: one :class:`StorageError` in the same words on every store.

Each store's client raises its own errors (pyarrow's, gcsfs's, the Azure SDK's), in its own words;
:meth:`Failures.fail` maps them onto a few causes (missing bucket or container, missing object, access
denied, a host name that does not resolve, no answer, a key the client refuses) and names the URI and
what was being done. Credentials are never part of a message: :func:`redact` takes out the user info of
every URI and every credential value known (the options', the environment's) from any text shown.
"""

from __future__ import annotations

import errno
import os
import re
import urllib.parse

from .clients import StorageOptions, azure_env


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


class Failures:
    """The messages of a store's failures (:class:`~.objects.Store` is one): what it needs of the store
    is its ``scheme``, ``options``, ``authority``, ``timeout`` and ``uri(key)``."""

    scheme: str
    options: StorageOptions
    authority: str

    @property
    def timeout(self) -> float:
        raise NotImplementedError

    def uri(self, key: str) -> str:
        raise NotImplementedError

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
        if isinstance(exc, ConnectionRefusedError) or any(
            s in low for s in ("connection refused", "connect call failed", "could not connect to server")
        ):
            return StorageError(
                errno.ECONNREFUSED,
                f"{self.endpoint()} refused the connection while {doing} (is the server running there? "
                f"{self.endpoint_hint()}): {_first_line(text)}",
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


def _first_line(text: str) -> str:
    line = text.strip().splitlines()[0] if text.strip() else "unknown error"
    return re.sub(r"\s*\(Request ID: [^)]*\)", "", line)[:300]


__all__ = ["Failures", "StorageError", "redact"]
