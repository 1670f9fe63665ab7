"""The pipeline's own progress line: Spark's status tracker polled from a thread on the driver.

Spark's console stage bars say "(12 + 1) / 25" for every stage and query; this says what a user
wants to know about the job: which step runs, how many of the input's bytes are done, the rate and
the time left. Bytes are counted per finished task (a task reads one segment or one split of it, so
its share of the input is its share of the tasks); drawn on stderr only when it is a terminal.
"""

from __future__ import annotations

import sys
import threading
import time
from typing import TextIO


class StageProgress:
    """Draw ``label: done/total MB (tasks), rate, ETA`` for the running Spark jobs until :meth:`stop`."""

    def __init__(
        self,
        sc: object,
        label: str,
        total_bytes: int,
        stream: TextIO | None = None,
        enabled: bool | None = None,
        interval: float = 0.5,
    ):
        self.sc, self.label, self.total_bytes = sc, label, total_bytes
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.interval = interval
        self.started = time.monotonic()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._drawn = False

    def __enter__(self) -> StageProgress:
        if self.enabled:
            self._thread = threading.Thread(target=self._run, name="kafkaspec-progress", daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        if self._drawn:
            self.stream.write("\r\x1b[K")
            self.stream.flush()

    def fraction(self) -> float | None:
        """Finished tasks / tasks over the active stages (None when none is running)."""
        tracker = self.sc.statusTracker()  # type: ignore[attr-defined]
        done = total = 0
        for stage_id in tracker.getActiveStageIds():
            info = tracker.getStageInfo(stage_id)
            if info is not None:
                done, total = done + info.numCompletedTasks, total + info.numTasks
        return done / total if total else None

    def line(self, fraction: float, now: float) -> str:
        elapsed = max(now - self.started, 1e-9)
        done = fraction * self.total_bytes
        rate = done / elapsed
        eta = (self.total_bytes - done) / rate if rate > 0 else float("inf")
        eta_text = f"{eta:,.0f} s" if eta != float("inf") else "?"
        return (
            f"{self.label}: {done / 1e6:,.1f}/{self.total_bytes / 1e6:,.1f} MB ({fraction:.0%}), "
            f"{rate / 1e6:,.1f} MB/s, {elapsed:,.0f} s elapsed, ETA {eta_text}"
        )

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                fraction = self.fraction()
            except Exception:  # the session is stopping: nothing more to draw
                return
            if fraction is None:
                continue
            self.stream.write("\r\x1b[K" + self.line(fraction, time.monotonic()))
            self.stream.flush()
            self._drawn = True
