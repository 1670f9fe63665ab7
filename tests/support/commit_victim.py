"""A ``kafkalog`` job's commit to kill mid-apply: ``python commit_victim.py SRC DEST PRESERVE STEP N SIGNAL``.

Drives :class:`kafkaspec.spark.write.writer.KafkaLogWriter` as Spark does (``write()`` per task of a read of the
data dir ``SRC``, then ``commit()``), without a Spark session, overwriting ``DEST`` (a local folder or an
object-store URI); ``PRESERVE`` is the ``preserveBatches`` option. It stops for good right after its
``N``-th call of ``STEP``: ``rename`` (``Path.replace`` or an exchange of two directories, a local
commit's moves) or a ``Store`` method
(``write``, ``copy``, ``delete``, ``delete_prefix``), having created the file ``SIGNAL``, and the test
kills it there (SIGKILL). With ``STEP`` ``fsize:<bytes>`` it instead runs the commit under
``RLIMIT_FSIZE`` of that many bytes (a disk that fills up mid-commit) and prints the error's one line.
The pause lives here, in test support; production code has no hook for it.
"""

from __future__ import annotations

import resource
import sys
import time
from pathlib import Path

from kafkaspec.arrow.ranges import read_records
from kafkaspec.logdir.store import location
from kafkaspec.logdir.store.storage import Store
from kafkaspec.spark.read.options import ReadOptions
from kafkaspec.spark.read.planning import plan
from kafkaspec.spark.read.schema import RECORD_COLUMNS, struct_type
from kafkaspec.spark.write.writer import KafkaLogWriter


def _pause_after(targets: list[tuple[object, str]], n: int, signal: str) -> None:
    """Stop after the ``n``-th call of any of ``targets`` ((owner, attribute name), counted together)."""
    calls: list[object] = []

    def pausing(original):
        def paused(*args, **kwargs):
            result = original(*args, **kwargs)
            calls.append(args)
            if len(calls) == n:
                Path(signal).write_text(repr(args))
                while True:
                    time.sleep(60)
            return result

        return paused

    for owner, name in targets:
        setattr(owner, name, pausing(getattr(owner, name)))


def main() -> None:
    src, dest, preserve, step, n, signal = sys.argv[1:7]
    w = KafkaLogWriter(dest, {"preserveBatches": preserve}, struct_type(RECORD_COLUMNS), overwrite=True)
    tasks = plan(src, ReadOptions.parse({"includeControl": "true", "splitSize": "64k"}))
    messages = [w.write(read_records(t)) for t in tasks]
    if step.startswith("fsize:"):
        limit = int(step.split(":", 1)[1])
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))
        try:
            w.commit(messages)
        except OSError as exc:
            w.abort(messages)  # as Spark does after a failed commit
            print(f"{type(exc).__name__}: {exc}")
            Path(signal).write_text("failed")
            return
        Path(signal).write_text("finished")
        return
    renames = [(Path, "replace"), (location, "exchange_directories")]  # a local commit's moves, one step each
    _pause_after(renames if step == "rename" else [(Store, step)], int(n), signal)
    w.commit(messages)
    Path(signal).write_text("finished")


if __name__ == "__main__":
    main()
