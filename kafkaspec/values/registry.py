"""A Schema Registry reached over HTTP, as a second source of schemas: ``GET /schemas/ids/{id}`` and,
for references, ``GET /subjects/{subject}/versions/{version}``. Each answer (a miss too) is cached,
so a topic of a million records costs one request per schema id.

Optional: the ``_schemas`` topic of the log directory is the first source. No credentials are taken
but a URL's ``user:password@`` part, sent as HTTP basic auth and never printed (errors name the
registry by host and path).
"""

from __future__ import annotations

import base64
import json
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

from .schemas_topic import SCHEMA_TYPES, Reference, Schema

__all__ = ["RegistryClient", "RegistryError"]

#: a schema answer larger than this is refused (the registry's own default limit is far below)
MAX_ANSWER_BYTES = 16 << 20


class RegistryError(Exception):
    """The registry could not be asked, or answered with something that is not a schema."""


class RegistryClient:
    """Schemas by id (and subject-version) from ``url``, each asked once."""

    def __init__(self, url: str, timeout: float = 10.0) -> None:
        parts = urllib.parse.urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise RegistryError(f"registry URL must be http(s)://host[:port][/path], not {_safe(url)!r}")
        self._base = self._name = _safe(url)
        self._headers = {"Accept": "application/vnd.schemaregistry.v1+json"}
        if parts.username is not None:  # user:password@ in the URL: HTTP basic auth, as the registry's clients do
            token = f"{urllib.parse.unquote(parts.username)}:{urllib.parse.unquote(parts.password or '')}"
            self._headers["Authorization"] = "Basic " + base64.b64encode(token.encode()).decode()
        self._timeout = timeout
        self._by_id: dict[int, Schema | None] = {}
        self._by_version: dict[tuple[str, int], Schema | None] = {}
        self._failed: dict[int, RegistryError] = {}
        #: HTTP requests made (the cache's test)
        self.requests = 0

    def by_id(self, schema_id: int) -> Schema | None:
        """The schema with ``schema_id``, or None when the registry answers 404."""
        if schema_id in self._failed:
            raise self._failed[schema_id]
        if schema_id not in self._by_id:
            try:
                body = self._get(f"/schemas/ids/{schema_id}")
                self._by_id[schema_id] = None if body is None else _schema(schema_id, body, self._name)
            except RegistryError as exc:  # asked once: a million records of this id make one request
                self._failed[schema_id] = exc
                raise
        return self._by_id[schema_id]

    def version(self, subject: str, version: int) -> Schema | None:
        key = (subject, version)
        if key not in self._by_version:
            body = self._get(f"/subjects/{urllib.parse.quote(subject, safe='')}/versions/{version}")
            if body is None:
                self._by_version[key] = None
            else:
                sid = body.get("id")
                if not isinstance(sid, int):
                    raise RegistryError(f"{self._name}: subject {subject!r} version {version} has no id")
                self._by_version[key] = _schema(sid, body, self._name)
        return self._by_version[key]

    def _get(self, path: str) -> dict[str, Any] | None:
        self.requests += 1
        req = urllib.request.Request(self._base + path, headers=self._headers)
        try:
            with urllib.request.urlopen(req, timeout=self._timeout) as resp:
                data = resp.read(MAX_ANSWER_BYTES + 1)
        except urllib.error.HTTPError as exc:
            if exc.code == 404:
                return None
            raise RegistryError(f"{self._name}{path}: HTTP {exc.code}") from None
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise RegistryError(f"{self._name}{path}: {reason}") from None
        if len(data) > MAX_ANSWER_BYTES:
            raise RegistryError(f"{self._name}{path}: answer larger than {MAX_ANSWER_BYTES} bytes")
        try:
            body = json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            raise RegistryError(f"{self._name}{path}: the answer is not JSON") from None
        if not isinstance(body, dict):
            raise RegistryError(f"{self._name}{path}: the answer is not a JSON object")
        return body


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
            raise RegistryError(f"{name}: schema id {schema_id}: a reference is not name, subject, version") from None
    return Schema(schema_id, text, schema_type, tuple(refs))


def _safe(url: str) -> str:
    """The URL without its user-info part (no credentials in messages)."""
    parts = urllib.parse.urlsplit(url)
    host = parts.hostname or ""
    if parts.port:
        host += f":{parts.port}"
    return urllib.parse.urlunsplit((parts.scheme, host, parts.path, "", "")).rstrip("/")
