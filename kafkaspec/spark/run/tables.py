"""The pipeline into Iceberg and Delta tables on Spark: the executors read the records and write the
Parquet data files, the driver commits each table once (:mod:`kafkaspec.tables.files`).

From Python or Spark code, :func:`write_table` on a session, as :func:`kafkaspec.spark.run.pipeline.run_pipeline`
runs the Parquet pipeline; from the command line, ``kafkaspec pipeline SRC --table iceberg|delta DEST``
with ``--engine spark`` (or ``--master``, or under spark-submit). The tables, their offsets and what a
re-run appends are those of the Spark-free :func:`kafkaspec.tables.write_table`: either may write a
table the other wrote.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from pyspark.sql import SparkSession

    from ...logdir import LogDir
    from ...tables import TableRun
    from ...tables.files import FileTask, Written


def write_table(
    spark: SparkSession,
    source: str | os.PathLike[str] | LogDir,
    dest: str | os.PathLike[str],
    *,
    format: str = "iceberg",
    layout: str = "per-topic",
    catalog_uri: str | None = None,
    partition_by: str | None = None,
    target_file_mb: int = 128,
    read_committed: bool = True,
    verify_crc: bool = True,
    mode: str | None = None,
    topics: str | None = None,
    fail_on_data_loss: bool = True,
) -> TableRun:
    """Append to the tables of ``dest`` the records of ``source`` they do not hold yet, the data files
    written by ``spark``'s executors (a task per ``target_file_mb`` of segments), each table committed
    once by the driver with its next offsets. The arguments are :func:`kafkaspec.tables.write_table`'s;
    a table in upsert mode (given, or a compacted topic's default) is read and merged by the driver, as
    without Spark; typed values (``decode_values``) are refused, saying why.
    ``dest`` must be where the driver and every executor can write."""
    from ...tables.files import write_table_tasks

    sc = spark.sparkContext

    def run_tasks(fn: Callable[[FileTask], Written], tasks: list[FileTask]) -> Sequence[Written]:
        return sc.parallelize(tasks, len(tasks)).map(fn).collect()

    return write_table_tasks(
        source,
        dest,
        run_tasks,
        format=format,
        layout=layout,
        catalog_uri=catalog_uri,
        partition_by=partition_by,
        target_file_mb=target_file_mb,
        read_committed=read_committed,
        verify_crc=verify_crc,
        mode=mode,
        topics=topics,
        fail_on_data_loss=fail_on_data_loss,
    )


def run_table_args(args: argparse.Namespace) -> int:
    """``kafkaspec pipeline SRC --table FORMAT DEST`` on Spark (``--follow``: again every ``--interval``
    seconds until interrupted); SIGINT or SIGTERM ends it and its Spark in one line, exit 130."""
    from .interrupts import interrupts

    with interrupts("kafkaspec pipeline"):
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    from ...codec.extras import require_spark
    from ...errors import UsageError
    from ...printable import escape
    from ...tables import TableError, format_run
    from ...tables.native import native_stderr_held
    from ...tables.write import run_keywords
    from ..session import build_session
    from .interrupts import leave_out
    from .pipeline import PIPELINE_CONF, _stopping, quiet_session

    require_spark("kafkaspec pipeline --table")
    if args.decode_values:
        raise UsageError(
            "--decode-values with --table is done without Spark (its dead letters are split from the "
            "records before the commit, on one machine): leave out --engine spark and --master"
        )
    master = args.master
    if master is None and "PYSPARK_GATEWAY_PORT" not in os.environ:
        master = "local[*]"
    print(f"starting Spark ({master or 'spark-submit'}) ...", file=sys.stderr, flush=True)
    log_path = None
    if args.verbose:
        spark = build_session(master, "kafkaspec pipeline", memory=args.memory, extra=PIPELINE_CONF)
    else:
        handle, log_path = tempfile.mkstemp(prefix="kafkaspec-spark-", suffix=".log")
        os.close(handle)
        leave_out(log_path)
        spark = quiet_session(master, log_path, memory=args.memory)
    refused: Exception | None = None
    told = False
    with _stopping(spark, log_path):
        while refused is None:
            try:
                with native_stderr_held():  # delta-rs's own lines on a failed commit (a full disk)
                    run: Any = write_table(spark, args.input, args.output, **run_keywords(args))
            except (UsageError, TableError) as exc:  # said in one line, not as Spark's failure
                refused = exc
                break
            if run.modes and not told:
                for name, (mode, why) in sorted(run.modes.items()):
                    print(escape(f"table {name}: --table-mode {mode} ({why})"), file=sys.stderr, flush=True)
                told = True
            if not args.quiet:
                print(format_run(run), flush=True)
            if not args.follow:
                break
            time.sleep(args.interval)
    if refused is not None:
        raise refused
    return 0
