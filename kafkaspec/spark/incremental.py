"""``kafkaspec pipeline SRC OUT --incremental`` (and ``--follow``): append only what is new since the last run.

The job is a streaming query (:mod:`.streaming`) with Spark's Parquet file sink:
``OUT/records/`` gets the new records (the ``kafkalog`` columns, partitioned by topic and
partition), ``OUT/_checkpoint/`` is the query's checkpoint, which records the offsets read
per topic-partition (the Kafka source's JSON), and ``OUT/summary.json`` says them too, with
the records this run appended. ``--incremental`` runs once over what is there now
(``trigger(availableNow=True)``) and stops; ``--follow`` keeps running, one micro-batch every
``--interval`` (``trigger(processingTime=...)``), until it is interrupted (Ctrl-C or SIGTERM),
and then stops cleanly. The next run, of either kind, starts where the checkpoint ends: an
hourly job over a synced backup reads the new data only, and a run killed half way is
finished by the next one (the file sink and its checkpoint give each offset to ``records/``
once).

The batch audit (``OUT/batches/``) is the full pipeline's: an incremental OUT has none.
"""

from __future__ import annotations

import json
import signal
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pyspark.sql import SparkSession
    from pyspark.sql.streaming import StreamingQuery

CHECKPOINT = "_checkpoint"


class NotIncrementalError(ValueError):
    """OUT holds a full pipeline run, which has no checkpoint to continue from."""


@dataclass
class IncrementalSummary:
    input: str
    output: str
    mode: str  # incremental | follow
    isolation_level: str = "read_committed"
    records: int = 0  # appended to OUT/records by this run
    micro_batches: int = 0  # this run's micro-batches that read something
    offsets: dict = field(default_factory=dict)  # the next offset per topic-partition: {"orders": {"0": 23}}
    seconds: float = 0.0


def check_output(output: str) -> None:
    """Refuse (before Spark starts) an OUT that a full pipeline run wrote: it has no offsets to continue from."""
    out = Path(output)
    if (out / "records").exists() and not (out / CHECKPOINT).exists():
        raise NotIncrementalError(f"{output} holds a full pipeline run (no {CHECKPOINT}/ to continue from): give "
                                  "--incremental a new output folder, or run without --incremental to replace it")


def run_incremental(spark: SparkSession, input_path: str, output: str, *, isolation_level: str = "read_committed",
                    on_corruption: str = "skip", verify_crc: bool = True, split_size: str = "64m",
                    follow: str | None = None, private_key_dir: str | None = None) -> IncrementalSummary:
    """Append to ``output`` what ``input_path`` has beyond the checkpoint; ``follow``: a trigger interval
    (``"10 seconds"``) to keep going until interrupted; ``private_key_dir``: as for
    :func:`~.pipeline.run_pipeline`. Returns the summary, also written to summary.json."""
    check_output(output)
    out = Path(output)
    out.mkdir(parents=True, exist_ok=True)
    summary = IncrementalSummary(str(input_path), str(out), "follow" if follow else "incremental", isolation_level)
    started = time.perf_counter()
    stream = (spark.readStream.format("kafkalog").option("isolationLevel", isolation_level)
              .option("corruptionPolicy", on_corruption).option("verifyCrc", str(verify_crc).lower())
              .option("splitSize", split_size)
              .options(**({"tieredPrivateKeyDir": private_key_dir} if private_key_dir is not None else {}))
              .load(str(input_path)))
    writer = (stream.writeStream.format("parquet").partitionBy("topic", "partition")
              .option("checkpointLocation", str(out / CHECKPOINT)).option("path", str(out / "records")))
    writer = writer.trigger(processingTime=follow) if follow else writer.trigger(availableNow=True)
    query = writer.start()
    try:
        if follow:
            _until_interrupted(query)
        else:
            query.awaitTermination()
    finally:
        if query.isActive:
            query.stop()
    exc = query.exception()
    if exc is not None:
        raise RuntimeError(f"the incremental pipeline failed: {exc.desc if hasattr(exc, 'desc') else exc}")
    _progress(summary, query, out)
    summary.seconds = time.perf_counter() - started
    (out / "summary.json").write_text(json.dumps(asdict(summary), indent=2, sort_keys=True) + "\n")
    return summary


def _until_interrupted(query: StreamingQuery) -> None:
    """Wait for the query until Ctrl-C or SIGTERM, then stop it (the running micro-batch is committed or
    replayed by the next run). The signals set a flag the wait loop reads: raised in the middle of a call
    to the JVM, an exception would break the gateway's connection, and the stop with it."""
    stopping: list[int] = []

    def stop(signum: int, frame: FrameType | None) -> None:
        stopping.append(signum)

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        while query.isActive and not stopping:
            query.awaitTermination(1)
        if query.isActive:
            query.stop()
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _progress(summary: IncrementalSummary, query: StreamingQuery, out: Path) -> None:
    for p in query.recentProgress:
        rows = int(p.get("numInputRows") or 0)
        summary.records += rows
        summary.micro_batches += 1 if rows else 0
    summary.offsets = last_offsets(out / CHECKPOINT)


def last_offsets(checkpoint: Path) -> dict:
    """The offsets of the checkpoint's last committed micro-batch (``commits/N`` with ``offsets/N``):
    the Kafka source's JSON, or {} before the first (the batch marks beside the topics are the source's
    own business, not offsets)."""
    from .options import MARKS_KEY  # imports pyspark: only when a run has ended

    commits = [int(p.name) for p in (checkpoint / "commits").glob("[0-9]*") if p.name.isdigit()]
    if not commits:
        return {}
    lines = (checkpoint / "offsets" / str(max(commits))).read_text().splitlines()
    # offsets/N: a version line, the batch's metadata, then one line per source
    return {t: ps for t, ps in json.loads(lines[2]).items() if t != MARKS_KEY} if len(lines) > 2 else {}


def format_summary(s: IncrementalSummary) -> str:
    parts = ", ".join(f"{t}-{p} {o}" for t, ps in sorted(s.offsets.items()) for p, o in sorted(ps.items()))
    return "\n".join([
        f"kafkaspec pipeline --{s.mode}: {s.input} -> {s.output.rstrip('/')}",
        f"  appended {s.records:,} records in {s.micro_batches} micro-batch{'es' if s.micro_batches != 1 else ''} "
        f"to {s.output.rstrip('/')}/records/ ({s.isolation_level}) in {s.seconds:.1f} s",
        f"  next offsets: {parts or 'none yet'} (recorded in {s.output.rstrip('/')}/{CHECKPOINT}/ and summary.json)",
    ])
