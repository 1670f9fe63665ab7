"""Requests and bytes an object store was asked for: :class:`Stats`, kept by each :class:`~.objects.Store`."""

from __future__ import annotations

import threading
from collections import Counter


class Stats:
    """Requests and bytes a :class:`~.objects.Store` asked for (for tests and benchmarks); ``checks`` counts
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


__all__ = ["Stats"]
