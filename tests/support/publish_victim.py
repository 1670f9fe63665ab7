"""A writer to kill mid-publish: ``python publish_victim.py DEST VERSION STEP N SIGNAL``.

Writes partition ``t-0`` (offsets 0-2 in one segment, 3-5 in the next, values ``VERSION-i``) to the
object-store URI ``DEST`` with :class:`kafkaspec.logdir.PartitionWriter`, and stops for good right
after its ``N``-th call of ``Store.STEP`` (``write``, ``delete`` or ``copy``), having created the
file ``SIGNAL``: the test then kills it with SIGKILL at that exact step. The pause lives here, in
test support; production code has no hook for it.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

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
    original = getattr(Store, step)
    calls = []

    def paused(self, *args, **kwargs):
        result = original(self, *args, **kwargs)
        calls.append(args)
        if len(calls) == n:
            Path(signal).write_text(repr(args))
            while True:
                time.sleep(60)
        return result

    setattr(Store, step, paused)
    with logdir.PartitionWriter(dest, "t", 0, mode="overwrite") as w:
        for i in range(6):
            if i == 3:
                w.roll()
            w.append([Record(key=b"k%d" % i, value=version + b"-%d" % i, timestamp=1_700_000_000_000 + i)])
    Path(signal).write_text("finished")


if __name__ == "__main__":
    main()
