"""Checking that time grows linearly with the input, on a shared machine.

A linear-time check compares two inputs, the large one ``GROWTH`` times the small one. Linear work
takes ``GROWTH`` times as long, quadratic work ``GROWTH ** 2`` times; the bound sits between them
on a log scale (``GROWTH ** 1.5``: 8x for 4x the input), so a run must be off by a factor of two
either way before the check gives the wrong answer. Each input is run several times in turns and
the best CPU time of each kept: other processes on a shared machine delay a run without adding to
its CPU time, and a burst of load hits both sizes alike.
"""

from __future__ import annotations

import time
from collections.abc import Callable

GROWTH = 4
RUNS = 5


def best_cpu_times(*fns: Callable[[], object], runs: int = RUNS) -> list[float]:
    """The best CPU time of each function over ``runs`` rounds, the functions run in turns."""
    best = [float("inf")] * len(fns)
    for _ in range(runs):
        for i, fn in enumerate(fns):
            started = time.process_time()
            fn()
            best[i] = min(best[i], time.process_time() - started)
    return best


def assert_linear(
    small: Callable[[], object],
    large: Callable[[], object],
    *,
    growth: float = GROWTH,
    slack: float = 0.01,
    what: str = "",
) -> None:
    """``large`` does ``growth`` times the work of ``small``: its time must stay below
    ``growth ** 1.5`` times the small one's (plus ``slack`` seconds for timer resolution)."""
    t_small, t_large = best_cpu_times(small, large)
    bound = growth**1.5
    assert t_large < bound * t_small + slack, (
        f"{what + ': ' if what else ''}{growth:g}x the input took {t_large / max(t_small, 1e-9):.1f}x the time "
        f"({t_small:.3f}s, {t_large:.3f}s; linear is {growth:g}x, the bound {bound:g}x)"
    )
