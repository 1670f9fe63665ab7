"""A writer to kill mid-publish: ``python publish_victim.py DEST VERSION STEP N SIGNAL``.

Writes partition ``t-0`` (offsets 0-2 in one segment, 3-5 in the next, values ``VERSION-i``) to the
object-store URI ``DEST`` with :class:`kafkaspec.logdir.PartitionWriter`, and stops for good right
after its ``N``-th call of ``Store.STEP`` (``write``, ``delete`` or ``copy``), having created the
file ``SIGNAL``: the test then kills it with SIGKILL at that exact step. With a sixth argument
``sigint`` it interrupts itself there instead (SIGINT, as Ctrl-C does) and goes on as the interrupt
makes it (a seventh, the writer's mode: ``append`` onto a local partition); with ``fsize:<bytes>`` it writes under ``RLIMIT_FSIZE`` of that many bytes (a full disk)
and stops at nothing. ``STEP`` may also name a ``PartitionWriter`` method (``append``, ``roll``,
``close``). The pause lives here, in test support; production code has no hook for it.
"""

from __future__ import annotations

import os
import resource
import sys
import time
from pathlib import Path
from signal import SIGINT

from kafkaspec import Record, logdir
from kafkaspec.logdir.store.storage import Store


def main() -> None:
    dest, version, step, n, signal = (
        sys.argv[1],
        sys.argv[2].encode(),
        sys.argv[3],
        int(sys.argv[4]),
        sys.argv[5],
    )
    how = sys.argv[6] if len(sys.argv) > 6 else "pause"
    mode = sys.argv[7] if len(sys.argv) > 7 else "overwrite"
    if how.startswith("fsize:"):
        limit = int(how.split(":", 1)[1])
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))
    owner = logdir.PartitionWriter if step in ("append", "roll", "close") else Store
    original = getattr(owner, step)
    calls = []

    def paused(self, *args, **kwargs):
        result = original(self, *args, **kwargs)
        calls.append(args)
        if len(calls) == n:
            Path(signal).write_text(repr(args))
            if how == "sigint":
                os.kill(os.getpid(), SIGINT)  # raised here, in the main thread, as Ctrl-C
            elif how == "pause":
                while True:
                    time.sleep(60)
        return result

    setattr(owner, step, paused)
    try:
        with logdir.PartitionWriter(dest, "t", 0, mode=mode) as w:
            for i in range(6):
                if i == 3:
                    w.roll()
                w.append(
                    [Record(key=b"k%d" % i, value=version + b"-%d" % i, timestamp=1_700_000_000_000 + i)]
                )
    except (KeyboardInterrupt, OSError) as exc:  # what the CLI would make its one line of
        print(f"{type(exc).__name__}: {exc}")
        sys.exit(3)
    Path(signal).write_text("finished")


if __name__ == "__main__":
    main()
