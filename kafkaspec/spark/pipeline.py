"""The pipeline job: a Kafka log directory to Parquet, a batch-audit table and a summary.

``OUTPUT/records/``  the records (Kafka source columns + batch columns), Parquet,
                     partitioned by topic and partition
``OUTPUT/batches/``  the batch audit: one row per batch or skipped byte range
``OUTPUT/summary.json`` and the printed summary: records per topic-partition,
                     committed vs aborted, codec mix, corrupt ranges, records/s

Run it as ``kafkaspec pipeline INPUT OUTPUT [--master URL]`` or
``spark-submit kafkaspec/spark/job.py INPUT OUTPUT``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

import argparse
import json
import os
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ..logdir import open_log
from ..logdir.storage import is_uri


@dataclass
class Summary:
    input: str
    output: str
    master: str
    cores: int
    records: int = 0
    batches: int = 0
    bytes: int = 0
    seconds: float = 0.0
    audit_seconds: float = 0.0
    per_partition: list = field(default_factory=list)  # [topic, partition, records, batches]
    transactions: dict = field(default_factory=dict)  # committed/aborted/open/none -> records
    codecs: dict = field(default_factory=dict)  # codec -> batches
    magics: dict = field(default_factory=dict)  # magic -> batches
    corrupt: list = field(default_factory=list)  # [segment, position, size, status, error]

    @property
    def records_per_second(self) -> float:
        return self.records / self.seconds if self.seconds else 0.0


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("input", help="broker data dir, <topic>-<partition> dir, or one .log segment; local or an "
                   "object-store URI (s3://bucket/prefix/, configured by the AWS_* environment variables)")
    p.add_argument("output", help="output folder (records/, batches/, summary.json); replaced if present")
    p.add_argument("--master", default=None,
                   help="Spark master URL (default local[*]; under spark-submit, its --master)")
    p.add_argument("--isolation-level", choices=("read_uncommitted", "read_committed"),
                   default="read_uncommitted", help="read_committed drops aborted transactions")
    p.add_argument("--on-corruption", choices=("skip", "fail"), default="skip",
                   help="skip corrupt batches and report them (default) or fail the job")
    p.add_argument("--no-verify-crc", action="store_true", help="do not check batch checksums")
    p.add_argument("--split-size", default="64m", help="target bytes per Spark task (default 64m)")
    p.add_argument("--memory", default="1g", help="driver/executor memory (default 1g)")
    p.add_argument("--quiet", action="store_true", help="do not print the summary")


def run_pipeline(spark: SparkSession, input_path: str, output: str, *, isolation_level: str = "read_uncommitted",
                 on_corruption: str = "skip", verify_crc: bool = True, split_size: str = "64m") -> Summary:
    """Run the job on an existing session (with ``kafkalog`` registered); return the summary."""
    from pyspark.sql import functions as F  # noqa: N812, PLC0415

    out = Path(output)
    options = {"isolationLevel": isolation_level, "corruptionPolicy": on_corruption,
               "verifyCrc": str(verify_crc).lower(), "splitSize": split_size}
    sc = spark.sparkContext
    summary = Summary(str(input_path), str(out), str(sc.master), sc.defaultParallelism)

    t0 = time.perf_counter()
    records = spark.read.format("kafkalog").options(**options).load(str(input_path))
    records.write.mode("overwrite").partitionBy("topic", "partition").parquet(str(out / "records"))
    summary.seconds = time.perf_counter() - t0

    t1 = time.perf_counter()
    audit = spark.read.format("kafkalog").options(**options, view="batches").load(str(input_path))
    audit.write.mode("overwrite").parquet(str(out / "batches"))
    audit = spark.read.parquet(str(out / "batches")).cache()
    summary.audit_seconds = time.perf_counter() - t1

    good = audit.where(F.col("crcStatus").isin("ok", "unchecked") & ~F.col("isControl"))
    if isolation_level == "read_committed":
        good = good.where(~F.col("transaction").isin("aborted", "open"))
    rows = (good.groupBy("topic", "partition")
            .agg(F.sum("recordCount").alias("records"), F.count("*").alias("batches"))
            .orderBy("topic", "partition").collect())
    summary.per_partition = [[r.topic, r.partition, int(r.records or 0), int(r.batches)] for r in rows]
    summary.records = sum(r[2] for r in summary.per_partition)
    totals = audit.agg(F.count("*").alias("n"), F.sum("size").alias("bytes")).collect()[0]
    summary.batches, summary.bytes = int(totals.n), int(totals.bytes or 0)
    data = audit.where(~F.col("isControl") & F.col("crcStatus").isin("ok", "unchecked"))
    summary.transactions = {r.transaction: int(r.records or 0) for r in
                            data.groupBy("transaction").agg(F.sum("recordCount").alias("records")).collect()}
    summary.codecs = {r.compression: int(r["count"]) for r in
                      audit.where(F.col("compression").isNotNull()).groupBy("compression").count().collect()}
    summary.magics = {str(r.magic): int(r["count"]) for r in
                      audit.where(F.col("magic").isNotNull()).groupBy("magic").count().collect()}
    summary.corrupt = [[r.segment, int(r.position), int(r.size), r.crcStatus, r.error] for r in
                       audit.where(~F.col("crcStatus").isin("ok", "unchecked"))
                       .orderBy("segment", "position").collect()]
    audit.unpersist()
    (out / "summary.json").write_text(json.dumps(asdict(summary), indent=2, sort_keys=True) + "\n")
    return summary


def format_summary(s: Summary) -> str:
    lines = [
        f"kafkaspec pipeline: {s.input} -> {s.output}  (master {s.master}, {s.cores} cores)",
        f"  {s.records:,} records in {s.batches:,} batches, {s.bytes / 1e6:,.1f} MB; "
        f"records stage {s.seconds:.1f} s = {s.records_per_second:,.0f} records/s "
        f"({s.records_per_second / max(s.cores, 1):,.0f} per core); audit {s.audit_seconds:.1f} s",
        "",
        f"  {'topic':<24} {'partition':>9} {'records':>12} {'batches':>9}",
    ]
    for topic, partition, records, batches in s.per_partition:
        lines.append(f"  {topic:<24} {partition:>9} {records:>12,} {batches:>9,}")
    tx = s.transactions
    lines += [
        "",
        f"  transactions (records): committed {tx.get('committed', 0):,}, aborted {tx.get('aborted', 0):,}, "
        f"open {tx.get('open', 0):,}, non-transactional {tx.get('none', 0):,}",
        "  codecs (batches): " + ", ".join(f"{k} {v:,}" for k, v in sorted(s.codecs.items())),
        "  magic (batches): " + ", ".join(f"v{k} {v:,}" for k, v in sorted(s.magics.items())),
    ]
    if s.corrupt:
        lines.append(f"  corrupt or incomplete ranges: {len(s.corrupt)}")
        for seg, pos, size, status, error in s.corrupt[:20]:
            lines.append(f"    {seg} bytes {pos}..{pos + size} ({status}): {error}")
        if len(s.corrupt) > 20:
            lines.append(f"    ... {len(s.corrupt) - 20} more in {s.output}/batches")
    else:
        lines.append("  corrupt ranges: none")
    return "\n".join(lines)


def main(argv: list[str] | None = None, prog: str = "kafkaspec pipeline") -> int:
    """Entry point of the CLI command and of the spark-submit script."""
    parser = argparse.ArgumentParser(prog=prog, description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(parser)
    return run_args(parser.parse_args(argv))


def run_args(args: argparse.Namespace) -> int:
    from .session import build_session  # noqa: PLC0415

    if is_uri(args.input):
        open_log(args.input)  # a missing bucket, prefix or access fails here, in one line, before Spark starts
    elif not os.path.exists(args.input):
        raise FileNotFoundError(f"no such file or directory: {args.input}")
    master = args.master
    if master is None and "PYSPARK_GATEWAY_PORT" not in os.environ:
        master = "local[*]"  # not under spark-submit: embedded local Spark
    spark = build_session(master, "kafkaspec pipeline", memory=args.memory)
    try:
        summary = run_pipeline(spark, args.input, args.output, isolation_level=args.isolation_level,
                               on_corruption=args.on_corruption, verify_crc=not args.no_verify_crc,
                               split_size=args.split_size)
    finally:
        spark.stop()
    if not args.quiet:
        print(format_summary(summary))
    return 1 if summary.corrupt else 0
