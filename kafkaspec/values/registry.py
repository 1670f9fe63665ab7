"""A Schema Registry reached over HTTP, as a second source of schemas: ``GET /schemas/ids/{id}`` and,
for references, ``GET /subjects/{subject}/versions/{version}``. Each answer (a miss too) is cached,
so a topic of a million records costs one request per schema id. One module because the client, its
cache and the origin, deadline and budget rules guard one request path.

Optional: the ``_schemas`` topic of the log directory is the first source. No credentials are taken
but a URL's ``user:password@`` part, sent as HTTP basic auth and never printed (errors name the
registry by host and path). A ``/``, ``?`` or ``#`` in them must be percent-encoded: a URL with an ``@``
past its host part is refused, as a parser would split the password there.

What a registry (or whoever answers in its name) can make a client do is bounded:

* credentials go to the configured origin only: a redirect to another scheme, host or port is refused,
  an error naming both URLs (followed, urllib would copy the ``Authorization`` header);
* each request has a total deadline, ``KAFKASPEC_REGISTRY_TIMEOUT`` (seconds, default 10), for the
  name lookup, the connect and the whole answer, not for each read: a server dripping a byte at a
  time is cut off at the deadline; all requests of a client together get
  ``KAFKASPEC_REGISTRY_BUDGET`` (seconds, default 60);
* a registry that failed (no answer in time, refused connection, an HTTP status other than 404, a
  refused redirect, the budget spent) is not asked again by that client: every later look-up is an
  error naming it and the first failure, at no cost;
* an answer is at most :data:`MAX_ANSWER_BYTES`.
"""

from __future__ import annotations

import base64
import http.client
import json
import math
import os
import re
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from typing import Any, NoReturn

from .schemas_topic import SCHEMA_TYPES, Reference, Schema

__all__ = [
    "DEFAULT_BUDGET",
    "DEFAULT_TIMEOUT",
    "RegistryClient",
    "RegistryError",
    "referenced",
    "registry_env",
]

#: a schema answer larger than this is refused (the registry's own default limit is far below)
MAX_ANSWER_BYTES = 16 << 20
#: seconds a request may take from start to its last byte (``KAFKASPEC_REGISTRY_TIMEOUT``)
DEFAULT_TIMEOUT = 10.0
#: seconds all the requests of one client may take together (``KAFKASPEC_REGISTRY_BUDGET``)
DEFAULT_BUDGET = 60.0
#: same-origin redirects followed for one request
MAX_REDIRECTS = 5


class RegistryError(Exception):
    """The registry could not be asked, or answered with something that is not a schema."""


def referenced(resolve: Callable[[str, int], Schema | None], schema_id: int, ref: Reference) -> Schema:
    """The schema a reference of schema ``schema_id`` names, by ``resolve`` (``_schemas``, then the
    registry). Neither holding it, or a registry that fails, is a ValueError: an error of that schema,
    which its records report, not of the run. The three value readers (Avro, JSON Schema, Protobuf)
    resolve their references through this, so each says it alike."""
    try:
        got = resolve(ref.subject, ref.version)
    except RegistryError as exc:
        raise ValueError(
            f"schema id {schema_id} references {ref.subject[:80]!r} version {ref.version}: {exc}"
        ) from None
    if got is None:
        raise ValueError(
            f"schema id {schema_id} references {ref.subject[:80]!r} version {ref.version}, "
            "which no source holds"
        )
    return got


class _Down(RegistryError):
    """A failure of the registry as a whole (not of one answer): it is not asked again."""


class RegistryClient:
    """Schemas by id (and subject-version) from ``url``, each asked once.

    ``timeout`` bounds each request as a whole, ``budget`` all of them; None: from
    ``KAFKASPEC_REGISTRY_TIMEOUT`` / ``KAFKASPEC_REGISTRY_BUDGET``, else the defaults."""

    def __init__(self, url: str, timeout: float | None = None, budget: float | None = None) -> None:
        _check_userinfo(url)
        try:
            parts = urllib.parse.urlsplit(url)
            self._origin = _origin(url)
        except ValueError as exc:  # a port that is not a number, a bracketed host that is not IPv6
            raise RegistryError(f"registry URL {_safe_text(url)!r} does not parse: {exc}") from None
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise RegistryError(f"registry URL must be http(s)://host[:port][/path], not {_safe_text(url)!r}")
        self._base = self._name = _safe(url)
        self._headers = {"Accept": "application/vnd.schemaregistry.v1+json"}
        if (
            parts.username is not None
        ):  # user:password@ in the URL: HTTP basic auth, as the registry's clients do
            token = f"{urllib.parse.unquote(parts.username)}:{urllib.parse.unquote(parts.password or '')}"
            self._headers["Authorization"] = "Basic " + base64.b64encode(token.encode()).decode()
        self.timeout: float = _seconds(timeout, "KAFKASPEC_REGISTRY_TIMEOUT", DEFAULT_TIMEOUT)
        self.budget: float = _seconds(budget, "KAFKASPEC_REGISTRY_BUDGET", DEFAULT_BUDGET)
        self._by_id: dict[int, Schema | None] = {}
        self._by_version: dict[tuple[str, int], Schema | None] = {}
        self._failed: dict[int, RegistryError] = {}
        self._failed_versions: dict[tuple[str, int], RegistryError] = {}
        #: the first failure of the registry as a whole (then nothing more is asked)
        self._down: str | None = None
        #: seconds spent in requests
        self.spent = 0.0
        #: HTTP requests made (the cache's test)
        self.requests = 0

    @property
    def name(self) -> str:
        """The registry's URL without credentials."""
        return self._name

    @property
    def failure(self) -> str | None:
        """Why the registry is no longer asked (its first failure), or None."""
        return self._down

    def by_id(self, schema_id: int) -> Schema | None:
        """The schema with ``schema_id``, or None when the registry answers 404."""
        if schema_id in self._failed:
            raise self._failed[schema_id]
        if schema_id not in self._by_id:
            try:
                body = self._get(f"/schemas/ids/{schema_id}")
                self._by_id[schema_id] = None if body is None else _schema(schema_id, body, self._name)
            except _Down:
                raise  # the registry's failure, not this id's: the message names the request that failed
            except RegistryError as exc:  # asked once: a million records of this id make one request
                self._failed[schema_id] = exc
                raise
        return self._by_id[schema_id]

    def version(self, subject: str, version: int) -> Schema | None:
        """A subject-version (a reference), or None when the registry answers 404; asked once, as by_id."""
        key = (subject, version)
        if key in self._failed_versions:
            raise self._failed_versions[key]
        if key not in self._by_version:
            try:
                body = self._get(f"/subjects/{urllib.parse.quote(subject, safe='')}/versions/{version}")
                if body is None:
                    self._by_version[key] = None
                else:
                    sid = body.get("id")
                    if not isinstance(sid, int):
                        raise RegistryError(
                            f"{self._name}: subject {subject[:80]!r} version {version} has no id"
                        )
                    self._by_version[key] = _schema(sid, body, self._name)
            except _Down:
                raise
            except RegistryError as exc:
                self._failed_versions[key] = exc
                raise
        return self._by_version[key]

    def _get(self, path: str) -> dict[str, Any] | None:
        where = self._name + path
        if self._down is not None:
            raise _Down(f"{where}: not asked: the registry failed earlier in this run ({self._down})")
        limit = min(self.timeout, self.budget - self.spent)
        if limit <= 0:
            self._fail(
                f"{where}: not asked: the run's registry time is spent ({self.budget:g} s, "
                "KAFKASPEC_REGISTRY_BUDGET sets it)"
            )
        self.requests += 1
        started = time.monotonic()
        try:
            status, data = _within(limit, lambda watch: self._open(self._base + path, watch, limit))
        except _Timeout:
            if limit < self.timeout:
                self._fail(
                    f"{where}: no complete answer within the run's remaining registry time ({limit:.3g} s "
                    f"of {self.budget:g} s, KAFKASPEC_REGISTRY_BUDGET sets it)"
                )
            self._fail(f"{where}: no complete answer within {limit:g} s (KAFKASPEC_REGISTRY_TIMEOUT sets it)")
        except _Redirected as exc:
            self._fail(
                f"{where}: redirected to {exc.target}, another origin than the registry's {self._origin}: "
                "not followed (credentials go to the configured registry only)"
            )
        except urllib.error.HTTPError as exc:
            self._fail(f"{where}: HTTP {exc.code}")
        except (urllib.error.URLError, OSError, http.client.HTTPException, ValueError) as exc:
            reason = getattr(exc, "reason", None) or exc
            self._fail(f"{where}: {_first_line(str(reason)) or type(exc).__name__}")
        finally:
            self.spent += min(time.monotonic() - started, limit)
        if status == 404:
            return None
        if len(data) > MAX_ANSWER_BYTES:
            raise RegistryError(f"{where}: answer larger than {MAX_ANSWER_BYTES} bytes")
        try:
            body = json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            raise RegistryError(f"{where}: the answer is not JSON") from None
        if not isinstance(body, dict):
            raise RegistryError(f"{where}: the answer is not a JSON object")
        return body

    def _open(self, url: str, watch: _Watch, limit: float) -> tuple[int, bytes]:
        """GET ``url`` (in :func:`_within`'s thread): the status and at most MAX_ANSWER_BYTES + 1 bytes."""
        opener = urllib.request.build_opener(
            _SameOrigin(self._origin), _WatchedHTTP(watch), _WatchedHTTPS(watch)
        )
        req = urllib.request.Request(url, headers=self._headers)
        try:
            with opener.open(
                req, timeout=limit + 1
            ) as resp:  # the deadline is _within's; this one a backstop
                return resp.status, resp.read(MAX_ANSWER_BYTES + 1)
        except urllib.error.HTTPError as exc:
            if exc.code == 404:
                exc.close()
                return 404, b""
            raise

    def _fail(self, message: str) -> NoReturn:
        self._down = message
        raise _Down(message)


class _Timeout(Exception):
    pass


class _Redirected(Exception):
    def __init__(self, target: str) -> None:
        super().__init__(target)
        self.target = target


class _Watch:
    """The sockets of one request, so that its deadline can cut them from another thread.

    Each socket is kept as a duplicate: ``shutdown`` of the duplicate ends the reads of the one the
    request uses (one socket, two descriptors), even once TLS has wrapped (and detached) the original."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._socks: list[socket.socket] = []
        self._cancelled = False

    def create_connection(
        self,
        address: tuple[str, int],
        timeout: Any = socket._GLOBAL_DEFAULT_TIMEOUT,  # type: ignore[attr-defined]
        source_address: Any = None,
        *args: Any,
        **kwargs: Any,
    ) -> socket.socket:
        if self._cancelled:
            raise OSError("the request's deadline passed")
        sock = socket.create_connection(address, timeout, source_address, *args, **kwargs)
        with self._lock:
            self._socks.append(sock.dup())
            if self._cancelled:
                _cut(self._socks[-1])
        return sock

    def connection(
        self, http_class: Callable[..., http.client.HTTPConnection]
    ) -> Callable[..., http.client.HTTPConnection]:
        def make(host: str, **kwargs: Any) -> http.client.HTTPConnection:
            conn = http_class(host, **kwargs)
            conn._create_connection = self.create_connection  # type: ignore[attr-defined]
            return conn

        return make

    def cancel(self) -> None:
        with self._lock:
            self._cancelled = True
            for s in self._socks:
                _cut(s)

    def close(self) -> None:
        with self._lock:
            for s in self._socks:
                s.close()
            self._socks.clear()


def _cut(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass


def _within(limit: float, request: Callable[[_Watch], tuple[int, bytes]]) -> tuple[int, bytes]:
    """``request`` run in a thread of its own and given ``limit`` seconds in all: past them, its sockets
    are shut down (the thread ends at its next read) and :class:`_Timeout` is raised. A thread, not
    socket timeouts: those bound each read, and a name lookup not at all."""
    watch = _Watch()
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["answer"] = request(watch)
        except BaseException as exc:  # handed to the caller's thread
            box["error"] = exc
        finally:
            watch.close()

    thread = threading.Thread(target=run, name="kafkaspec-registry", daemon=True)
    thread.start()
    thread.join(limit)
    if thread.is_alive():
        watch.cancel()
        raise _Timeout()
    if "error" in box:
        error = box["error"]
        if isinstance(error, TimeoutError) or isinstance(getattr(error, "reason", None), TimeoutError):
            raise _Timeout() from None  # a socket's own timeout, at the deadline too
        raise error
    answer: tuple[int, bytes] = box["answer"]
    return answer


class _WatchedHTTP(urllib.request.HTTPHandler):
    def __init__(self, watch: _Watch) -> None:
        super().__init__()
        self._watch = watch

    def do_open(self, http_class: Any, req: Any, **http_conn_args: Any) -> Any:
        return super().do_open(self._watch.connection(http_class), req, **http_conn_args)


class _WatchedHTTPS(urllib.request.HTTPSHandler):
    def __init__(self, watch: _Watch) -> None:
        super().__init__()
        self._watch = watch

    def do_open(self, http_class: Any, req: Any, **http_conn_args: Any) -> Any:
        return super().do_open(self._watch.connection(http_class), req, **http_conn_args)


class _SameOrigin(urllib.request.HTTPRedirectHandler):
    """Redirects followed within the registry's origin only (the credentials go with them)."""

    max_redirections = MAX_REDIRECTS

    def __init__(self, origin: str) -> None:
        self._registry_origin = origin

    def redirect_request(self, req: Any, fp: Any, code: int, msg: str, headers: Any, newurl: str) -> Any:
        try:
            target = _origin(newurl)
        except ValueError:
            target = None
        if target != self._registry_origin or urllib.parse.urlsplit(newurl).username is not None:
            fp.close()
            raise _Redirected(_safe_text(newurl))
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def _schema(schema_id: int, body: dict[str, Any], name: str) -> Schema:
    text = body.get("schema")
    schema_type = body.get("schemaType") or "AVRO"
    if not isinstance(text, str) or schema_type not in SCHEMA_TYPES:
        raise RegistryError(f"{name}: schema id {schema_id}: the answer holds no schema of a known type")
    refs = []
    for r in body.get("references") or []:
        try:
            refs.append(Reference(str(r["name"]), str(r["subject"]), int(r["version"])))
        except (KeyError, TypeError, ValueError):
            raise RegistryError(
                f"{name}: schema id {schema_id}: a reference is not name, subject, version"
            ) from None
    return Schema(schema_id, text, schema_type, tuple(refs))


def _origin(url: str) -> str:
    """``scheme://host:port`` with the scheme's default port spelled out (``ValueError`` for a bad port)."""
    parts = urllib.parse.urlsplit(url)
    scheme = parts.scheme.lower()
    port = parts.port or {"http": 80, "https": 443}.get(scheme, 0)
    host = (parts.hostname or "").lower()
    return f"{scheme}://{f'[{host}]' if ':' in host else host}:{port}"


def _check_userinfo(url: str) -> None:
    """Refuse a URL with an ``@`` past its host part: a user name or password holding ``/``, ``?`` or ``#``
    not percent-encoded, which a parser splits there, taking the password's start for a host or port and
    sending the rest as the path to it. The message shows only what follows the last ``@``."""
    scheme, sep, rest = url.partition("://")
    authority_end = min((i for i in (rest.find(c) for c in "/?#") if i >= 0), default=len(rest))
    if sep and "@" in rest[authority_end:]:
        shown = _first_line(f"{scheme}://{rest.rpartition('@')[2]}")[:300]
        raise RegistryError(
            f"registry URL {scheme}://…@{shown.partition('://')[2]!s} has an '@' after its host "
            "part: percent-encode a user name or password that holds '/', '?' or '#' "
            "(%2F, %3F, %23)"
        )


def _safe(url: str) -> str:
    """The URL without its user-info part (no credentials in messages)."""
    parts = urllib.parse.urlsplit(url)
    host = parts.netloc.rpartition("@")[2]  # as written: an IPv6 address keeps its brackets
    return urllib.parse.urlunsplit((parts.scheme, host, parts.path, "", "")).rstrip("/")


def _safe_text(url: str) -> str:
    """:func:`_safe` for any text (a URL given, or from an answer): one line, and no credentials even when
    it does not parse."""
    try:
        safe = _safe(url)
    except ValueError:
        safe = re.sub(r"//[^/?#]*@", "//", url.split("?")[0].split("#")[0])
    return _first_line(safe)[:300]


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else ""


def registry_env() -> tuple[float | None, float | None]:
    """This process's ``KAFKASPEC_REGISTRY_TIMEOUT`` and ``KAFKASPEC_REGISTRY_BUDGET`` where set and usable,
    to ship to processes that may not share its environment (Spark executors)."""
    got: list[float | None] = []
    for variable in ("KAFKASPEC_REGISTRY_TIMEOUT", "KAFKASPEC_REGISTRY_BUDGET"):
        try:
            value = float(os.environ.get(variable, "nan"))
        except ValueError:
            value = math.nan
        got.append(value if _usable(value) else None)
    return got[0], got[1]


def _usable(seconds: float) -> bool:
    return math.isfinite(seconds) and seconds > 0


def _seconds(given: float | None, variable: str, default: float) -> float:
    """``given``, else the environment's ``variable``, else ``default`` (unset, not a number, not positive)."""
    if given is not None and _usable(given):
        return given
    try:
        value = float(os.environ.get(variable, default))
    except ValueError:
        return default
    return value if _usable(value) else default
