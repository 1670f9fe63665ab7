"""What native libraries do on a failure, told as ours: delta-rs's Rust threads print a panic's lines
straight to file descriptor 2 (held while a run writes, :func:`native_stderr_held`) and carry a full
disk's errno only in their error's text (:func:`full_disk`)."""

from __future__ import annotations

import errno
import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager


def full_disk(exc: Exception) -> int | None:
    """The errno of a full disk or quota that a native library's error carries only in its text (delta-rs:
    Rust's ``(os error 28)``), said then as the OSError it is."""
    found = None if isinstance(exc, OSError) else re.search(r"\(os error (\d+)\)", str(exc))
    if found is not None and int(found.group(1)) in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        return int(found.group(1))
    return None


@contextmanager
def native_stderr_held() -> Iterator[None]:
    """Hold what native code writes straight to file descriptor 2 while the block runs: delta-rs's Rust
    threads print a panic's lines there when a write fails (a full disk), before the error the CLI says in
    one line (either engine's run: Spark's commits are the driver's). Ended normally, the block's held
    output is given back; ended by an error, it is dropped and fd 2 stays on the hold (a Rust thread may
    still be printing) while ``sys.stderr``, our one line's way, goes to the real stderr, as it did all
    along. ``KAFKASPEC_DEBUG=1`` holds nothing."""
    ours = sys.stderr
    if os.environ.get("KAFKASPEC_DEBUG") or ours is None:  # None: started with stderr closed
        yield
        return
    try:
        held = os.memfd_create("kafkaspec-native-stderr")  # in memory: a full disk cannot refuse it
    except (AttributeError, OSError):
        yield
        return
    real = os.dup(2)
    ours.flush()
    sys.stderr = open(real, "w", encoding=ours.encoding, errors=ours.errors, buffering=1, closefd=False)
    os.dup2(held, 2)
    yield
    sys.stderr.flush()
    os.dup2(real, 2)
    sys.stderr = ours
    os.close(real)
    os.lseek(held, 0, os.SEEK_SET)
    while chunk := os.read(held, 1 << 16):
        os.write(2, chunk)
    os.close(held)
