"""The peak memory of one CLI command, measured in a fresh interpreter of its own.

The child sets ``RLIMIT_AS`` (2 GiB: a runaway allocation fails there instead of swapping the
machine), runs ``kafkaspec.cli.main(argv)`` with its output going to /dev/null, and reports its own
``VmHWM`` (peak resident set), and how far that peak rose over the resident set just before ``main``.
``VmHWM`` rather than ``getrusage``'s ``ru_maxrss``: Linux carries the parent's peak into the latter
across exec, so a child of a large pytest process would report the parent.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from typing import NamedTuple

__all__ = ["CliMemory", "cli_memory"]

_PROBE = textwrap.dedent("""
    import contextlib, json, os, resource, sys

    def status(key):
        with open("/proc/self/status") as fh:
            return next(int(line.split()[1]) * 1024 for line in fh if line.startswith(key + ":"))

    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
    from kafkaspec.cli import main

    before = status("VmRSS")
    with open(os.devnull, "w") as out, contextlib.redirect_stdout(out):
        code = main(sys.argv[1:])
    print(json.dumps({"code": code, "peak": status("VmHWM"), "before": before}))
""")


class CliMemory(NamedTuple):
    code: int
    peak: int  #: bytes: the child's VmHWM after the command
    grew: int  #: bytes: that peak over the child's VmRSS just before the command ran


def cli_memory(*argv: object, timeout: float = 600) -> CliMemory:
    """Run ``kafkaspec ARGV`` in a child; its exit code and memory. A traceback in the child fails."""
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE, *map(str, argv)],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    return CliMemory(out["code"], out["peak"], out["peak"] - out["before"])
