"""A progress bar on stderr for long CLI runs, shown only when stderr is a terminal."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    """Call with (done, total) bytes; draws at most ten times a second; :meth:`close` clears the line."""

    def __init__(self, label: str, stream: TextIO | None = None, enabled: bool | None = None):
        self.label = label
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.started = time.monotonic()
        self._last = 0.0
        self._drawn = False

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self._last < 0.1 and done < total:
            return
        self._last = now
        frac = min(1.0, done / total) if total else 1.0
        width = 30
        bar = "#" * int(frac * width) + "-" * (width - int(frac * width))
        rate = done / 1e6 / max(now - self.started, 1e-9)
        self.stream.write(
            f"\r{self.label} [{bar}] {frac:6.1%} {done / 1e6:,.0f}/{total / 1e6:,.0f} MB {rate:,.0f} MB/s"
        )
        self.stream.flush()
        self._drawn = True

    def close(self) -> None:
        if self._drawn:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
