"""``kafkaspec pipeline``: a log directory to Parquet, a batch audit and a summary, on Spark."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "pipeline",
        help="run the Spark pipeline: log directory to Parquet + batch audit + summary",
        description="Read a Kafka log directory with Spark (the kafkalog source) and write "
        "OUTPUT/records (Parquet, partitioned by topic and partition), OUTPUT/batches "
        "(one audit row per batch) and OUTPUT/summary.json; print the summary.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n  kafkaspec pipeline logs/ out/\n"
        "  kafkaspec pipeline logs/ out/ --master spark://127.0.0.1:7077\n"
        "  kafkaspec pipeline backup/ out/ --incremental     # only what is new since the last run\n"
        "  kafkaspec pipeline logs/ out/ --follow --interval 30\n"
        "  kafkaspec pipeline logs/ --table iceberg lake/   # Iceberg tables, no Spark; again: only what is new\n"
        "  kafkaspec pipeline logs/ --table delta lake/ --master 'local[4]'   # the same, files written by Spark\n"
        "exit codes: 0 ok, 1 corrupt ranges were skipped, 2 usage or input error",
    )
    from kafkaspec.spark.run.pipeline import add_arguments

    add_arguments(p)
    from ._tables import add_table_arguments

    add_table_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    refuse_output_inside(args.input, args.output)
    if args.follow and not 0 < args.interval < float("inf"):  # NaN too: time.sleep and Spark refuse it
        from kafkaspec.errors import UsageError

        raise UsageError(f"--interval must be a positive number of seconds, got {args.interval}")
    if args.table is not None:
        from ._tables import run_table

        return run_table(args)
    if args.on_corruption is None:
        args.on_corruption = "skip"
    from kafkaspec.spark.run.pipeline import run_args

    return run_args(args)


def refuse_output_inside(source: str, output: str) -> None:
    """Refuse an OUTPUT that is SOURCE or lies inside it (``pipeline bheem bheem``: records/ written into
    a broker's own data dir, which OUTPUT's replacement would delete), before anything starts."""
    import os

    from kafkaspec.errors import UsageError

    from ..logdir.store.storage import is_uri

    if is_uri(source) or is_uri(output) or not os.path.exists(source):
        return
    src, out = os.path.realpath(source), os.path.realpath(output)
    if out == src or out.startswith(src.rstrip(os.sep) + os.sep):
        raise UsageError(
            f"the output {output} lies inside the input {source} (it would be written into the data it "
            "reads, and replaced on the next run): give an output folder outside it"
        )
