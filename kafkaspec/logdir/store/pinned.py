"""Which version of an object a reader holds: its :class:`Identity`, and the reads that pin it (:class:`PinnedReads`).

A reader never mixes two versions of an object (a writer may republish a partition while it is
read): each object is pinned to what was first seen of it: the listing's size and modification
time, then the opening request's size, modification time and version (S3's and Azure's ``ETag``,
GCS's ``generation``). Opening an object that no longer matches its listing, and every ranged GET
followed by a look at the object (one HEAD request) that finds it changed, fail the read naming the
object (:meth:`~.objects.Store.getter`). The look comes after the GET because the clients keep a GET's
response headers to themselves: a check before it would leave the time between the two unguarded, a
check after covers every GET before it. Limit: a listing gives no version (pyarrow's file information
has no field for it), so an object replaced between the listing and its opening by one of the very
same size within the same second (the stores keep modification times to the second) is not told from
the listed one; once opened, any replacement is.
"""

from __future__ import annotations

import errno
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING, Any

from . import clients as store_clients
from .errors import StorageError
from .ranged import Get

if TYPE_CHECKING:
    from .stats import Stats


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

        return cls(handle.size(), parse_time(text("last-modified")), text("etag"))

    @classmethod
    def of_fsspec(cls, info: dict[str, Any]) -> Identity:
        """The identity an fsspec client's ``info`` gives: gcsfs's size, ``updated`` time and
        ``generation`` (a new number at each write of a GCS object: its own version id, stronger than an
        ETag); adlfs's size, ``last_modified`` and ``etag``."""
        when = info.get("updated") or info.get("last_modified")
        version = str(info["generation"]) if info.get("generation") else info.get("etag")
        return cls(
            int(info["size"]), seconds(when) if isinstance(when, datetime) else parse_time(when), version
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


def seconds(when: Any) -> int | None:
    """A ``FileInfo.mtime`` as whole seconds since the epoch (None when the store gives none)."""
    return int(when.timestamp()) if isinstance(when, datetime) else None


def parse_time(text: str | None) -> int | None:
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


class PinnedReads:
    """The reads of a :class:`~.objects.Store` that pin each object (module docstring): what they need
    of the store is declared here."""

    scheme: str
    stats: Stats
    _handles: dict[str, tuple[Any, Identity]]
    _handles_lock: threading.Lock
    _listings: dict[str, dict[str, Any]]
    fs: Any
    info: Callable[[str], Any]
    fail: Callable[[BaseException, str, str], StorageError]
    uri: Callable[[str], str]

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
        except store_clients.client_errors() as exc:
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
            listed = Identity(size, seconds(info.mtime), None)
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
            except store_clients.client_errors() as exc:
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


__all__ = ["Identity", "PinnedReads", "parse_time", "seconds"]
