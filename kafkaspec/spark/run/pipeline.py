"""The pipeline job: a Kafka log directory to Parquet, a batch-audit table and a summary.

``OUTPUT/records/``  the records (Kafka source columns + batch columns), Parquet,
                     partitioned by topic and partition
``OUTPUT/batches/``  the batch audit: one row per batch or skipped byte range
``OUTPUT/summary.json`` and the printed summary: records per topic-partition,
                     committed vs aborted, codec mix, corrupt ranges, records/s

Run it as ``kafkaspec pipeline INPUT OUTPUT [--master URL]`` or ``spark-submit kafkaspec/spark/job.py``.

One Spark job does it all: the driver plans the ranges, each task decodes its range once and
writes its records and audit rows with pyarrow (:mod:`.onepass`), the driver moves the files of
the tasks that succeeded into place and sums their counts into the summary. The output folders
must be where the driver and every executor can write (a local or shared file system).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (pyarrow and the task code are imported when the job runs: the CLI starts without them)
    from collections.abc import Iterator

    from pyspark.sql import SparkSession

    from ...arrow.ranges import ReadRange
    from ..read.values import ValueColumns
    from .incremental import OutputLock
    from .onepass import RangeResult
    from .planned import Planned

import argparse
import contextlib
import errno
import os
import shutil
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from kafkaspec import logdir
from kafkaspec.errors import KafkaFormatError, UsageError

from ...logdir.store.storage import is_uri
from ...logdir.tiered.key_dir import add_key_dir_argument, private_keys
from ..session import PIPELINE_CONF, quiet_session
from .interrupts import leave_out
from .planned import PlanAhead, typed_topics
from .status import StageProgress
from .summary import Group, Summary, format_summary, summarise, write_summary

__all__ = [
    "PIPELINE_CONF",
    "Summary",
    "add_arguments",
    "format_summary",
    "main",
    "quiet_session",
    "run_args",
    "run_pipeline",
    "summarise",
    "typed_topics",
    "write_summary",
]


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "input",
        help="broker data dir, <topic>-<partition> dir, or one .log segment; local or an "
        "object-store URI (s3://bucket/prefix/, configured by the AWS_* environment variables)",
    )
    p.add_argument("output", help="output folder (records/, batches/, summary.json); replaced if present")
    p.add_argument(
        "--master", default=None, help="Spark master URL (default local[*]; under spark-submit, its --master)"
    )
    p.add_argument(
        "--isolation-level",
        choices=("read_committed", "read_uncommitted"),
        default="read_committed",
        help="read_committed (the default) leaves out the records of aborted and still-open "
        "transactions, as a consumer sees the topic; read_uncommitted writes every record",
    )
    p.add_argument(
        "--on-corruption",
        choices=("skip", "fail"),
        default=None,
        help="skip corrupt batches and report them (default) or fail the job (--table: always fail)",
    )
    p.add_argument("--no-verify-crc", action="store_true", help="do not check batch checksums")
    p.add_argument("--split-size", default="64m", help="target bytes per Spark task (default 64m)")
    p.add_argument("--memory", default="1g", help="driver/executor memory (default 1g)")
    p.add_argument(
        "--incremental",
        action="store_true",
        help="append to OUTPUT/records only what is new since the last run (offsets kept in "
        "OUTPUT/_checkpoint and OUTPUT/summary.json), then stop; no batch audit",
    )
    p.add_argument(
        "--follow",
        action="store_true",
        help="as --incremental, but keep running: a micro-batch every --interval until interrupted",
    )
    p.add_argument(
        "--interval", type=float, default=10.0, help="seconds between --follow's micro-batches (default 10)"
    )
    p.add_argument(
        "--decode-values",
        action="store_true",
        help="also write decoded/<topic>/: each topic whose values the _schemas topic of the input "
        "types (subject <topic>-value), with value_decoded in typed columns and value_error",
    )
    p.add_argument("--quiet", action="store_true", help="do not print the summary")
    p.add_argument(
        "--verbose",
        action="store_true",
        help="show Spark's own log lines and stage bars (by default they go to a log file, "
        "and a progress line of ours shows on a terminal)",
    )
    p.add_argument(
        "--topics",
        metavar="PATTERNS",
        type=_topics_argument,
        help="comma-separated topic names or shell patterns to read, a ! before one to leave it out: "
        "'orders*,payments' or '!__*' (default: every topic)",
    )
    add_key_dir_argument(p)


def topic_pattern(patterns: str) -> str:
    """The ``subscribePattern`` regular expression of ``--topics``: comma-separated names or shell patterns
    (``orders*``), each ``!``-prefixed one left out; with only exclusions, every other topic is read."""
    import fnmatch

    words = [w.strip() for w in patterns.split(",") if w.strip()]
    include = [fnmatch.translate(w) for w in words if not w.startswith("!")]
    exclude = [fnmatch.translate(w[1:].strip()) for w in words if w.startswith("!")]
    if not include and not exclude:
        raise ValueError("names no topic")
    kept = "|".join(include) if include else ".*"
    return f"(?!(?:{'|'.join(exclude)}))(?:{kept})" if exclude else f"(?:{kept})"


def _topics_argument(text: str) -> str:
    """``--topics``, checked when parsed (a usage error, exit 2): the regular expression it means."""
    try:
        return topic_pattern(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{text!r} {exc}") from None


def run_pipeline(
    spark: SparkSession,
    input_path: str,
    output: str,
    *,
    isolation_level: str = "read_committed",
    on_corruption: str = "skip",
    verify_crc: bool = True,
    split_size: str = "64m",
    progress: bool | None = False,
    decode_values: bool = False,
    private_key_dir: str | None = None,
    topics: str | None = None,
    planned: Planned | PlanAhead | None = None,
) -> Summary:
    """Run the job on an existing session; return the summary.

    One Spark job: a task per planned range (small ones packed together, :func:`packed`) decodes it once
    and writes its records and audit rows (:mod:`.onepass`); the summary is the sum of the tasks' counts
    (no query over the output).
    ``progress``: draw our progress line on stderr (None: when stderr is a terminal). ``private_key_dir``:
    the private keys of encrypted tiered segments (the ``tieredPrivateKeyDir`` option: read on the
    driver, shipped to the tasks, never shown). ``decode_values``: the tasks also write
    ``decoded/<topic>/`` (:func:`typed_topics` says which). ``topics``: a ``subscribePattern`` (from
    ``--topics``, :func:`topic_pattern`): only the topics it matches are read. ``planned``: the plan, made
    already or being made (:mod:`.planned`; by default made here, from the arguments above)."""
    from functools import partial

    from .onepass import commit
    from .planned import plan_pipeline

    out = Path(output)
    sc = spark.sparkContext
    summary = Summary(str(input_path), str(out), str(sc.master), sc.defaultParallelism, isolation_level)

    t0 = time.perf_counter()
    stages = summary.stage_seconds
    if isinstance(planned, PlanAhead):
        planned = planned.result()
    elif planned is None:
        planned = plan_pipeline(
            str(input_path),
            isolation_level=isolation_level,
            on_corruption=on_corruption,
            verify_crc=verify_crc,
            split_size=split_size,
            decode_values=decode_values,
            private_key_dir=private_key_dir,
            topics=topics,
        )
    summary.planning_seconds = planned.seconds
    opts, tasks, values = planned.opts, planned.tasks, planned.values
    # the plan's isolation is what the tasks read (a plan made ahead carries its own)
    isolation_level = summary.isolation_level = (
        "read_committed" if opts.read_committed else "read_uncommitted"
    )
    # segments the partitions do not serve are listed, not read (tiered storage's copies)
    summary.unused = planned.unused
    total = sum(t.end - t.start for t in tasks)
    staging = out / f"_temporary-{uuid.uuid4().hex}"
    run = partial(
        _run_indexed, staging=str(staging), read_committed=isolation_level == "read_committed", values=values
    )
    stages["planning"] = (t1 := time.perf_counter()) - t0
    try:
        with StageProgress(sc, "records", total, enabled=progress):
            # the largest first, so that no core is left with a long one at the end
            packs = packed(tasks, min(opts.split_size, max(total // (4 * sc.defaultParallelism), 1)))
            items = sorted(enumerate(packs), key=lambda item: -sum(t.end - t.start for t in item[1]))
            results = sc.parallelize(items, max(len(items), 1)).map(run).collect()
        failed = [r for r in results if r.error is not None]
        if failed:
            raise KafkaFormatError(min(failed, key=lambda r: r.index).error or "")
        t2 = time.perf_counter()
        stages["tasks"] = t2 - t1
        commit(results, out, staging)
        # a full run replaces an incremental one: its offsets no longer say what records/ holds
        for name in ("_checkpoint", "_published", "_staging"):
            shutil.rmtree(out / name, ignore_errors=True)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    t3 = time.perf_counter()
    stages["commit"] = t3 - t2
    summary.audit_seconds = sum(r.audit_seconds for r in results)
    parquet = sum(r.parquet_seconds for r in results)
    summary.task_seconds = {
        "read": sum(r.seconds for r in results) - parquet - summary.audit_seconds,
        "parquet": parquet,
        "audit": summary.audit_seconds,
    }

    groups: dict[tuple, list[int]] = {}
    for r in results:
        for key, (records, batches, size) in r.groups.items():
            counts = groups.setdefault(key, [0, 0, 0])
            counts[0] += records
            counts[1] += batches
            counts[2] += size
    summarise(summary, [Group(*key, *counts) for key, counts in groups.items()], isolation_level)
    summary.corrupt = [
        dict(zip(("segment", "position", "size", "status", "error"), c, strict=True))
        for c in sorted((c for r in results for c in r.corrupt), key=lambda c: (c[0], c[1]))
    ]
    if values is not None:
        summary.decoded = _decoded_summary(values, results)
    summary.seconds = time.perf_counter() - t0
    stages["summary"] = summary.seconds - (t3 - t0)
    write_summary(summary)
    return summary


def _decoded_summary(values: ValueColumns, results: list[RangeResult]) -> dict[str, dict[str, Any]]:
    from ...arrow.value_types import value_type

    dec = values.decoder()
    out: dict[str, dict[str, Any]] = {}
    for topic in values.topics:
        arrow_type, _ = value_type(dec, topic)
        out[topic] = {
            "type": str(arrow_type or "string (JSON text)"),
            "errors": sum(r.value_errors.get(topic, 0) for r in results),
        }
    return out


def packed(tasks: list[ReadRange], size: int) -> list[list[ReadRange]]:
    """The ranges as Spark tasks of about ``size`` bytes: a range of that size alone, smaller ones in plan
    order (a partition's in offset order) together, so that a partition of many small segments, or many
    small partitions, is a few tasks, not one (with its scheduling and two files) per range."""
    out: list[list[ReadRange]] = []
    held = 0
    for t in tasks:
        if out and held + (t.end - t.start) <= size:
            out[-1].append(t)
            held += t.end - t.start
        else:
            out.append([t])
            held = t.end - t.start
    return out


def _run_indexed(
    item: tuple[int, list[ReadRange]], staging: str, read_committed: bool, values: ValueColumns | None = None
) -> RangeResult:
    from .onepass import run_ranges

    return run_ranges(item[0], item[1], staging, read_committed, values)


def main(argv: list[str] | None = None, prog: str = "kafkaspec pipeline") -> int:
    """Entry point of the CLI command and of the spark-submit script."""
    parser = argparse.ArgumentParser(
        prog=prog, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    add_arguments(parser)
    return run_args(parser.parse_args(argv))


def run_args(args: argparse.Namespace) -> int:
    """Run the command line's pipeline; SIGINT or SIGTERM at any moment ends it, and the Spark it
    started, with one line and exit 130 (:mod:`.interrupts`)."""
    from .interrupts import interrupts

    with interrupts("kafkaspec pipeline"):
        return _run_args(args)


def _run_args(args: argparse.Namespace) -> int:
    from ...codec.extras import require_spark

    require_spark("kafkaspec pipeline")

    keys = private_keys(args)  # a missing or empty key directory fails here, before Spark starts
    if is_uri(args.input):
        logdir.open_log(
            args.input, keys=keys
        )  # a missing bucket, prefix or access fails here, in one line, before Spark starts
    elif not os.path.exists(args.input):
        raise FileNotFoundError(errno.ENOENT, "no such file or directory", args.input)
    incremental = args.incremental or args.follow
    if incremental:
        from .incremental import check_output

        if args.decode_values:
            raise UsageError(
                f"--decode-values goes with a full run, not {'--follow' if args.follow else '--incremental'}"
                " (an incremental run does not write decoded/)"
            )
        if args.interval <= 0:
            raise UsageError(f"--interval must be a positive number of seconds, got {args.interval}")
        check_output(args.output)  # before Spark starts
    from .incremental import OutputLock

    with OutputLock(args.output) as lock:  # a second run into OUTPUT refuses here, before Spark starts
        return _run_locked(args, incremental, lock)


def _run_locked(args: argparse.Namespace, incremental: bool, lock: OutputLock) -> int:
    from ..session import build_session

    started = time.perf_counter()
    ahead = None if incremental else PlanAhead.for_args(args)  # the plan is made while Spark starts
    master = args.master
    if master is None and "PYSPARK_GATEWAY_PORT" not in os.environ:
        master = "local[*]"  # not under spark-submit: embedded local Spark
    log_path = None
    print(f"starting Spark ({master or 'spark-submit'}) ...", file=sys.stderr, flush=True)
    if args.verbose:
        spark = build_session(master, "kafkaspec pipeline", memory=args.memory, extra=PIPELINE_CONF)
    else:  # Spark's log goes to a file, kept (and named) only when the job fails
        handle, log_path = tempfile.mkstemp(prefix="kafkaspec-spark-", suffix=".log")
        os.close(handle)
        leave_out(log_path)
        spark = quiet_session(master, log_path, memory=args.memory)
    up = time.perf_counter()
    if incremental:
        return _run_incremental(spark, args, log_path, lock)
    # (pyarrow: imported here, after Spark's start, or by the plan's thread during it; not before it)
    from .onepass import remove_dead_staging

    remove_dead_staging(Path(args.output))
    with _stopping(spark, log_path):
        summary = run_pipeline(
            spark,
            args.input,
            args.output,
            isolation_level=args.isolation_level,
            on_corruption=args.on_corruption,
            verify_crc=not args.no_verify_crc,
            split_size=args.split_size,
            progress=None if not args.verbose else False,
            decode_values=args.decode_values,
            private_key_dir=args.tiered_private_key_dir,
            topics=args.topics,
            planned=ahead,
        )
        ran = time.perf_counter()
    summary.wall_seconds = time.perf_counter() - started
    summary.stage_seconds = {
        "start": up - started,
        **summary.stage_seconds,
        "stop": started + summary.wall_seconds - ran,
    }
    write_summary(summary)
    if not args.quiet:
        print(format_summary(summary))
    return 1 if summary.corrupt else 0


@contextlib.contextmanager
def _stopping(spark: SparkSession, log_path: str | None) -> Iterator[None]:
    """Run a job, then stop Spark whatever happened. A data error (exit 1) is raised as it is, since it
    says what and where; any other names Spark's log, which is kept then (and deleted after a success)."""
    try:
        yield
    except KafkaFormatError:
        spark.stop()
        raise
    except Exception as exc:
        spark.stop()
        if log_path is None:
            raise
        raise RuntimeError(f"{exc} (Spark's log: {log_path})") from exc
    spark.stop()
    if log_path is not None:
        os.unlink(log_path)


def _run_incremental(
    spark: SparkSession, args: argparse.Namespace, log_path: str | None, lock: OutputLock
) -> int:
    from .incremental import format_summary as format_incremental
    from .incremental import run_incremental

    with _stopping(spark, log_path):
        summary = run_incremental(
            spark,
            args.input,
            args.output,
            isolation_level=args.isolation_level,
            on_corruption=args.on_corruption,
            verify_crc=not args.no_verify_crc,
            split_size=args.split_size,
            private_key_dir=args.tiered_private_key_dir,
            follow=f"{int(args.interval * 1000)} milliseconds" if args.follow else None,
            lock=lock,
            topics=args.topics,
            fail_on_data_loss=not getattr(args, "no_fail_on_data_loss", False),
        )
    if not args.quiet:
        print(format_incremental(summary))
    return 0
