"""``kafkaspec pipeline SRC --table iceberg|delta DEST``: the pipeline into lakehouse tables
(:mod:`kafkaspec.tables`), without Spark, or on Spark (:mod:`kafkaspec.spark.run.tables`: ``--engine spark``,
or ``--master``, or under spark-submit)."""

from __future__ import annotations

import argparse
import sys
import time

from ..errors import UsageError


def add_table_arguments(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("tables (OUTPUT is then the tables' destination)")
    g.add_argument(
        "--table",
        choices=("iceberg", "delta"),
        default=None,
        help="write Apache Iceberg (a warehouse folder with its SQLite catalog, or --catalog-uri) or Delta "
        "Lake tables, appending only what they do not hold yet (their commits store the offsets)",
    )
    g.add_argument(
        "--table-layout",
        choices=("per-topic", "single"),
        default="per-topic",
        help="one table per topic (default), or one table 'records' for all",
    )
    g.add_argument(
        "--catalog-uri",
        default=None,
        help="an Iceberg REST catalog (http(s)://...) or SQL catalog (a SQLAlchemy URL, such as "
        "sqlite:////var/lib/lake/catalog.db); default: OUTPUT/catalog.db",
    )
    g.add_argument(
        "--partition-by",
        default=None,
        help="comma-separated columns, or day(timestamp) (hour, month, year); '' for none "
        "(default: day(timestamp), after topic with --table-layout single)",
    )
    g.add_argument(
        "--table-mode",
        choices=("append", "upsert"),
        default=None,
        help="append every record, or keep the latest value per topic and key, a tombstone deleting it; "
        "default: upsert for a topic whose cleanup.policy is compact (as __cluster_metadata says), "
        "append elsewhere, each table's said on stderr",
    )
    g.add_argument(
        "--engine",
        choices=("local", "spark"),
        default=None,
        help="local: this process reads and writes (no Spark); spark: Spark's executors write the data "
        "files and this driver commits them; default: spark with --master or under spark-submit, "
        "local otherwise",
    )
    g.add_argument(
        "--target-file-mb", type=int, default=128, help="target size of a table's data files (default 128)"
    )
    g.add_argument(
        "--no-fail-on-data-loss",
        action="store_true",
        help="when a table's committed offset (or --incremental's checkpoint) lies below its partition's "
        "log start (retention or DeleteRecords removed offsets never read), append from the log start and "
        "say how many offsets were passed over; default: refuse, nothing appended (exit 1), as Spark's "
        "failOnDataLoss",
    )


def run_table(args: argparse.Namespace) -> int:
    """The ``--table`` run (``--follow``: again every ``--interval`` seconds until interrupted)."""
    from ..codec.extras import require

    for module in ("pyarrow", "pyiceberg" if args.table == "iceberg" else "deltalake"):
        require(module, "tables", "kafkaspec pipeline --table")
    if args.on_corruption == "skip":
        raise UsageError(
            "--on-corruption skip does not go with --table: a table run stops at a corrupt batch (exit 1, "
            "naming its file and byte), as its commit would store the offsets past a skipped batch for good"
        )
    if args.follow and args.interval <= 0:
        raise UsageError(f"--interval must be a positive number of seconds, got {args.interval}")
    if table_engine(args) == "spark":
        from ..spark.run.tables import run_table_args

        return run_table_args(args)
    from ..tables import format_run, write_table
    from ..tables.native import native_stderr_held
    from ..tables.write import run_keywords

    told = False
    while True:
        with native_stderr_held():
            run = write_table(args.input, args.output, decode_values=args.decode_values, **run_keywords(args))
        if run.modes and not told:
            from ..printable import escape

            for name, (mode, why) in sorted(run.modes.items()):  # why: a cleanup.policy from the data
                print(escape(f"table {name}: --table-mode {mode} ({why})"), file=sys.stderr, flush=True)
            told = True
        if not args.quiet:
            print(format_run(run), flush=True)
        if not args.follow:
            return 0
        time.sleep(args.interval)


def table_engine(args: argparse.Namespace) -> str:
    """``--engine``, or what it defaults to: Spark when a master is given or spark-submit runs us."""
    import os

    engine = args.engine
    if engine is None:
        engine = "spark" if args.master is not None or "PYSPARK_GATEWAY_PORT" in os.environ else "local"
    if engine == "local" and args.master is not None:
        raise UsageError("--engine local runs without Spark: --master does not go with it")
    return str(engine)
