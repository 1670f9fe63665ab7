"""The Parquet pipeline's commit to kill mid-way: ``python onepass_victim.py SRC OUT N SIGNAL``.

Runs :func:`kafkaspec.spark.run.onepass.run_range` over the planned ranges of the data dir ``SRC`` as the
pipeline's tasks do (no Spark session), then :func:`~kafkaspec.spark.run.onepass.commit` into ``OUT``, and
stops for good right after the commit's ``N``-th move (``os.replace``, ``Path.replace`` or an exchange
of two directories), having written ``SIGNAL``; the test kills it there (SIGKILL). The pause lives here,
in test support; production code has no hook for it.
"""

from __future__ import annotations

import os
import sys
import time
import uuid
from pathlib import Path

from kafkaspec.logdir.store import location
from kafkaspec.spark.read.options import ReadOptions
from kafkaspec.spark.read.planning import plan
from kafkaspec.spark.run import onepass


def main() -> None:
    src, out, n, signal = sys.argv[1:5]
    output = Path(out)
    staging = output / f"_temporary-{uuid.uuid4().hex}"
    tasks = plan(src, ReadOptions.parse({"view": "batches", "splitSize": "64k"}))
    results = [onepass.run_range(i, t, str(staging), True) for i, t in enumerate(tasks) if t.unused is None]
    moves: list[object] = []

    def pausing(original):
        def paused(*args, **kwargs):
            result = original(*args, **kwargs)
            moves.append(args)
            if len(moves) == int(n):
                Path(signal).write_text(repr(args))
                while True:
                    time.sleep(60)
            return result

        return paused

    os.replace = pausing(os.replace)
    Path.replace = pausing(Path.replace)  # type: ignore[method-assign]
    location.exchange_directories = pausing(location.exchange_directories)
    onepass.commit(results, output, staging)
    Path(signal).write_text("finished")


if __name__ == "__main__":
    main()
