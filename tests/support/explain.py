"""Helpers for tests/explain: run the ``kafkaspec`` command in-process, and check that an
explanation's spans tile every stream it covers.

Part of ``tests/support`` (``from support.explain import run, assert_tiles``).
"""

from __future__ import annotations

import io
import sys
from contextlib import redirect_stderr, redirect_stdout

from kafkaspec.cli import main


def run(*argv, stdin: str | None = None):
    """``kafkaspec *argv`` with ``stdin`` as standard input: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    if stdin is not None:
        sys.stdin = io.StringIO(stdin)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            try:
                code = main([str(a) for a in argv])
            except SystemExit as exc:
                code = exc.code
    finally:
        sys.stdin = saved
    return code, out.getvalue(), err.getvalue()


def assert_tiles(expl) -> int:
    """Every stream's bytes are covered by exactly one leaf each; return the number of leaves."""
    leaves: dict[int, list] = {s.id: [] for s in expl.streams}
    for entry in expl.entries:
        for leaf in entry.leaves():
            assert leaf.start <= leaf.end, f"{leaf.name}: span {leaf.start}..{leaf.end} is backwards"
            if leaf.size:
                leaves[leaf.stream].append(leaf)
    for stream in expl.streams:
        spans = sorted(leaves[stream.id], key=lambda n: n.start)
        at = spans[0].start if stream.id == 0 and spans else 0
        for leaf in spans:
            assert leaf.start == at, (
                f"stream {stream.id}: {'gap' if leaf.start > at else 'overlap'} at byte {at}: "
                f"next leaf {leaf.name} ({leaf.type}) starts at {leaf.start}"
            )
            assert bytes(stream.data[leaf.start : leaf.end]) == bytes(stream.data[at : leaf.end])
            at = leaf.end
        want = len(stream.data)
        assert at == want or (stream.id == 0 and not spans), (
            f"stream {stream.id}: leaves end at {at} of {want}"
        )
    return sum(map(len, leaves.values()))
