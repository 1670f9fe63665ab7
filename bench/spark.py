"""The Spark side: columnar decoding into pyarrow.RecordBatch, and the kafkalog job on a big directory.

1. Columnar decode, one process, standard workload (100-record batches, 6-byte
   keys, 60-byte values, uncompressed): records/s of ``kafkaspec.arrow.ranges``
   (the lockstep engine, as Spark reads; ``bench.engine`` compares it with the per-record decoder) vs the
   per-record object path (``iter_batches`` -> ``Record`` tuples -> the same
   RecordBatch). Targets: >= 1.0 M records/s per core and >= 1.5x the object path.
2. The Spark job on a generated directory of the same workload (default 1024 MB,
   ``KAFKASPEC_BENCH_SPARK_MB`` to change, 200 MB with ``BENCH_QUICK``): records/s
   of a full read (``count``) and of the pipeline's records stage (``run_pipeline``: one
   pass writing the records and the audit as Parquet) in local[1] and local[2], each after a warm-up
   (the pipeline's on a 2 MB directory, whose time is printed: the first pass's fixed cost). Targets: per
   core >= 70% of the single-process columnar rate on the same directory (issue 16: the records stage
   >= 60% on local[1]); local[2] >= 1.7x local[1]. The floor printed with them: the one pass's own work
   (decode, Parquet encoding, audit rows) in one process without Spark, and its decode + Parquet part,
   as shares of the columnar rate: what the records stage cannot exceed per core.

``python -m bench.spark`` runs both; ``run(quick)`` / ``report(results)`` for ``make bench``;
``python -m bench.spark --profile DIR OUT [MASTER]`` times each step of the pipeline on DIR.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
import timeit
from datetime import UTC
from pathlib import Path
from typing import Any

import kafkaspec
from bench.proc_tree import in_tree, processes

N = 100
BATCHES = 2000
BASE_TS = 1_700_000_000_000


def standard_batch(seed: int = 1, base_offset: int = 0) -> bytes:
    rnd = random.Random(seed)
    records = [
        kafkaspec.Record(key=rnd.randbytes(6), value=rnd.randbytes(60), timestamp=BASE_TS + i)
        for i in range(N)
    ]
    return kafkaspec.build_batch(records, base_offset=base_offset)


def _segment(batches: int) -> bytes:
    from kafkaspec.logdir.kafka.batch_surgery import restamp_batch

    one = standard_batch()
    return b"".join(bytes(restamp_batch(bytearray(one), base_offset=i * N)) for i in range(batches))


def object_path(buf, builder):
    """The per-record path: Record objects, then the same Arrow batch built from them."""
    from kafkaspec.arrow.ranges.read import _Meta
    from kafkaspec.generated.record_v2 import RecordColumns

    out = []
    cols, meta = RecordColumns(), _Meta()
    for batch in kafkaspec.iter_batches(buf):
        records = batch.records
        h = batch.head
        if records:
            cols.add_run(len(cols.offset) + len(records), 0, 0)  # absolute values: bases 0
        cols.offset.extend([r.offset for r in records])
        cols.timestamp.extend([r.timestamp for r in records])
        cols.key.extend([r.key for r in records])
        cols.value.extend([r.value for r in records])
        total = cols.headers_offsets[-1]
        for r in records:
            for k, v in r.headers:
                cols.headers.key.append(k)
                cols.headers.value.append(v)
            total += len(r.headers)
            cols.headers_offsets.append(total)
        meta.add(
            len(records),
            2,
            h.attributes & 7,
            h.producer_id,
            h.producer_epoch,
            h.base_sequence,
            h.is_transactional,
            h.is_control,
            h.partition_leader_epoch,
            batch.position,
            (h.attributes >> 3) & 1,
        )
        if len(cols.offset) >= 65536:
            out.append(builder.build(cols, meta))
            cols, meta = RecordColumns(), _Meta()
    if cols.offset:
        out.append(builder.build(cols, meta))
    return out


def row_path(buf, topic: str = "bench", partition: int = 0, segment: str = "bench.log"):
    """What a Python data source yields without a columnar decoder: one row tuple per record,
    turned into Arrow by PySpark's own converter (the data source worker's tuple path)."""
    from datetime import datetime, timedelta

    from pyspark.sql.worker.plan_data_source_read import records_to_arrow_batches

    from kafkaspec.spark.read.schema import RECORD_COLUMNS, struct_type
    from kafkaspec.spark.read.source import KafkaLogDataSource

    epoch = datetime(1970, 1, 1, tzinfo=UTC)
    ms = timedelta(milliseconds=1)

    def rows():
        for batch in kafkaspec.iter_batches(buf):
            h = batch.head
            fixed = (
                2,
                batch.compression,
                h.producer_id,
                h.producer_epoch,
                h.base_sequence,
                h.is_transactional,
                h.is_control,
                h.partition_leader_epoch,
                segment,
                batch.position,
            )
            tstype = h.timestamp_type
            for r in batch.records:
                yield (
                    r.key,
                    r.value,
                    topic,
                    partition,
                    r.offset,
                    epoch + r.timestamp * ms,
                    tstype,
                    [{"key": k, "value": v} for k, v in r.headers],
                    *fixed,
                )

    return list(records_to_arrow_batches(rows(), 65536, struct_type(RECORD_COLUMNS), KafkaLogDataSource))


def run_columnar(quick: bool = False) -> dict:
    from kafkaspec.arrow.ranges import ReadRange, RecordBatchBuilder, read_records

    buf = _segment(BATCHES // 4 if quick else BATCHES)
    n = len(buf) // len(standard_batch()) * N
    task = ReadRange("bench.log", "bench", 0, 0, len(buf))
    builder = RecordBatchBuilder("bench", 0, "bench.log")

    def columnar():
        return list(read_records(task, buf=buf))

    def objects():
        return object_path(buf, builder)

    assert sum(b.num_rows for b in columnar()) == n == sum(b.num_rows for b in objects())
    import pyarrow as pa

    expected = pa.Table.from_batches(columnar())
    assert pa.Table.from_batches(objects()).equals(expected)
    assert pa.Table.from_batches(row_path(buf)).equals(expected)
    repeat = 3 if quick else 7
    col = min(timeit.repeat(columnar, number=1, repeat=repeat))
    obj = min(timeit.repeat(objects, number=1, repeat=repeat))
    row = min(timeit.repeat(lambda: row_path(buf), number=1, repeat=max(2, repeat // 2)))
    return {"records": n, "columnar_rps": n / col, "object_rps": n / obj, "row_rps": n / row}


# -- the Spark job -------------------------------------------------------------------


def make_dir(out: Path, size_mb: int, partitions: int = 4) -> Path:
    """A directory of ``partitions`` partitions of the standard workload, 256 MB segments with indexes."""
    from kafkaspec.logdir import PartitionWriter
    from kafkaspec.logdir.kafka.batch_surgery import restamp_batch

    one = standard_batch()
    per_part = size_mb * (1 << 20) // len(one) // partitions
    for p in range(partitions):
        with PartitionWriter(out, "bench", p, segment_bytes=256 << 20) as w:
            for i in range(per_part):
                w.append_batch(restamp_batch(bytearray(one), base_offset=i * N))
    return out


def tree_cpu_seconds(root: int) -> dict[str, float]:
    """CPU seconds (user + system) used so far by ``root`` and its descendants, from /proc,
    split into the JVM and the Python processes (this driver and Spark's Python workers)."""
    procs = processes()
    totals = {"jvm": 0.0, "python": 0.0}
    for pid in in_tree(procs, root):
        totals["jvm" if procs[pid].name == "java" else "python"] += procs[pid].cpu
    return totals


def _timed(action) -> tuple[object, float, dict[str, float]]:
    """Run ``action``; return its result, wall seconds and the CPU seconds of the process tree."""
    me = os.getpid()
    c0, t0 = tree_cpu_seconds(me), time.perf_counter()
    result = action()
    wall, c1 = time.perf_counter() - t0, tree_cpu_seconds(me)
    return result, wall, {k: c1[k] - c0[k] for k in c0}


def _spark_child(master: str, path: str, out: str, warm: str) -> dict:
    """Runs in a child process: one session, a full read and the pipeline's records stage, each timed
    warm (after a warm-up: the single-process rates are measured warm too). The pipeline's warm-up is
    its one pass on the small directory ``warm``: its time is the first pass's fixed cost (the workers
    import the task code, the JVM compiles the job's path), reported apart."""
    from kafkaspec.spark.session import build_session

    spark = build_session(master, "kafkaspec-bench", memory="2g")
    df = spark.read.format("kafkalog").load(path)
    df.limit(1).collect()  # warm up the JVM and the Python workers
    n, count_s, count_cpu = _timed(df.count)
    from kafkaspec.spark.run.pipeline import run_pipeline

    first, first_s, _ = _timed(lambda: run_pipeline(spark, warm, out))
    # the pipeline's records stage as the CLI runs it: one pass writing records + audit Parquet
    summary, write_s, write_cpu = _timed(lambda: run_pipeline(spark, path, out))
    tasks = df.rdd.getNumPartitions()
    spark.stop()
    return {
        "records": n,
        "count_s": count_s,
        "pipeline_s": write_s,
        "tasks": tasks,
        "count_cpu": count_cpu,
        "pipeline_cpu": write_cpu,
        "first_pass_s": first_s,
        "first_pass_records": first.records,
        "task_seconds": summary.task_seconds,
    }


def one_pass_alone(path: Path, out: Path) -> dict:
    """The records stage's work without Spark: every planned range through the pipeline's task
    (``onepass.run_range``: decode, Parquet encoding, audit rows) in this one process, in turn."""
    from kafkaspec.spark.read.options import ReadOptions
    from kafkaspec.spark.read.planning import plan
    from kafkaspec.spark.run.onepass import run_range

    t0, c0 = time.perf_counter(), time.process_time()
    tasks = plan(str(path), ReadOptions.parse({"view": "batches"}))
    results = [run_range(i, task, str(out / f"{i}"), False) for i, task in enumerate(tasks)]
    took, cpu = time.perf_counter() - t0, time.process_time() - c0
    shutil.rmtree(out, ignore_errors=True)
    audit = sum(r.audit_seconds for r in results)
    return {
        "records": sum(r.records for r in results),
        "seconds": took,
        "cpu_s": cpu,
        "audit_s": audit,
        "parquet_s": sum(r.parquet_seconds for r in results),
    }


def run_spark(quick: bool = False) -> dict:
    from kafkaspec.arrow.ranges import read_records
    from kafkaspec.spark.read.options import ReadOptions
    from kafkaspec.spark.read.planning import plan

    size_mb = int(os.environ.get("KAFKASPEC_BENCH_SPARK_MB", "200" if quick else "1024"))
    root = Path(tempfile.mkdtemp(prefix="kafkaspec-bench-"))
    try:
        t0 = time.perf_counter()
        path = make_dir(root / "logs", size_mb)
        warm = make_dir(root / "warm", 2, partitions=1)
        made = time.perf_counter() - t0

        def columnar() -> tuple[int, float, float]:
            t0, c0 = time.perf_counter(), time.process_time()
            n = sum(b.num_rows for t in plan(str(path), ReadOptions.parse({})) for b in read_records(t))
            return n, time.perf_counter() - t0, time.process_time() - c0

        (n, took, cpu), alone = columnar(), one_pass_alone(path, root / "alone")  # warm-up runs
        _, took2, cpu2 = columnar()
        took, cpu = min(took, took2), min(cpu, cpu2)
        alone = min(alone, one_pass_alone(path, root / "alone"), key=lambda a: a["seconds"])
        result = {
            "size_mb": size_mb,
            "records": n,
            "make_s": made,
            "single_rps": n / took,
            "runs": {},
            "alone": alone,
            "single_cpu_s": cpu,
        }
        for cores in (1, 2):
            child = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "bench.spark",
                    "--child",
                    f"local[{cores}]",
                    str(path),
                    str(root / f"out{cores}"),
                    str(warm),
                ],
                capture_output=True,
                text=True,
                check=True,
                env=dict(os.environ, PYSPARK_PYTHON=sys.executable),
            )
            result["runs"][cores] = json.loads(child.stdout.strip().splitlines()[-1])
        return result
    finally:
        shutil.rmtree(root, ignore_errors=True)


def run(quick: bool = False) -> dict:
    return {"columnar": run_columnar(quick), "spark": run_spark(quick)}


def report(results: dict) -> str:
    c = results["columnar"]
    lines = [
        f"Columnar decode to pyarrow.RecordBatch, one process, {N}-record batches, 6-byte keys, "
        "60-byte values, uncompressed",
        f"  columnar      {c['columnar_rps'] / 1e6:6.2f} M records/s   (target >= 1.00)",
        f"  object path   {c['object_rps'] / 1e6:6.2f} M records/s   Record tuples, columnised by hand, same builder",
        f"  row path      {c['row_rps'] / 1e6:6.2f} M records/s   row tuples + PySpark's converter (read() yielding rows)",
        f"  columnar / object path {c['columnar_rps'] / c['object_rps']:5.2f}x, columnar / row path "
        f"{c['columnar_rps'] / c['row_rps']:5.2f}x   (target >= 1.50x)",
    ]
    s = results.get("spark")
    if s:
        single = s["single_rps"]
        lines += [
            f"Spark job on {s['size_mb']} MB ({s['records']:,} records) of the same workload; "
            f"single-process columnar on it: {single / 1e6:.2f} M records/s",
            f"  {'master':<9} {'tasks':>5} {'count rec/s':>12} {'per core':>9} {'vs single':>9}"
            f" {'pipeline rec/s':>15} {'per core':>9} {'vs single':>9}",
        ]
        for cores, r in sorted(s["runs"].items(), key=lambda kv: int(kv[0])):
            k = int(cores)
            cnt, pipe = r["records"] / r["count_s"], r["records"] / r["pipeline_s"]
            lines.append(
                f"  local[{k}]  {r['tasks']:>5} {cnt:>12,.0f} {cnt / k:>9,.0f} {cnt / k / single:>8.0%} "
                f"{pipe:>15,.0f} {pipe / k:>9,.0f} {pipe / k / single:>8.0%}"
            )
        a = s["alone"]
        alone = a["records"] / a["seconds"]
        records_only = a["records"] / (a["seconds"] - a["audit_s"])
        lines += [
            "  the floor: the records stage's own work in one process, no Spark (plan, then each range's one-pass "
            "task in turn):",
            f"    decode + Parquet + audit {alone / 1e6:5.2f} M records/s = {alone / single:.0%} of single; "
            f"decode + Parquet alone {records_only / 1e6:5.2f} M/s = {records_only / single:.0%} "
            f"(of its {a['seconds']:.1f} s: Parquet {a['parquet_s']:.1f} s, audit {a['audit_s']:.1f} s)",
            "    a records stage that must write Parquet cannot pass these shares per core",
        ]
        for cores, r in sorted(s["runs"].items(), key=lambda kv: int(kv[0])):
            pipe = r["records"] / r["pipeline_s"] / int(cores)
            ts = r["task_seconds"]
            lines.append(
                f"    local[{int(cores)}] pipeline per core = {pipe / alone:.0%} of the floor; tasks' time "
                f"{sum(ts.values()):.1f} s of {r['pipeline_s'] * int(cores):.1f} core-seconds (Parquet "
                f"{ts['parquet']:.1f}, audit {ts['audit']:.1f}); the first pass (warm-up, "
                f"{r['first_pass_records']:,} records) {r['first_pass_s']:.1f} s: workers start and import"
            )
        r1 = s["runs"][1]
        pipe_cpu = r1["records"] / sum(r1["pipeline_cpu"].values())
        single_cpu, alone_cpu = s["records"] / s["single_cpu_s"], a["records"] / a["cpu_s"]
        lines.append(
            f"  per CPU-second (steadier than wall time on a busy machine): single {single_cpu / 1e6:.2f} M records, "
            f"one pass alone {alone_cpu / 1e6:.2f} M ({alone_cpu / single_cpu:.0%}), local[1] pipeline "
            f"(JVM + Python) {pipe_cpu / 1e6:.2f} M ({pipe_cpu / single_cpu:.0%}; {pipe_cpu / alone_cpu:.0%} of the floor)"
        )
        lines.append("  CPU busy while timed (cores: JVM + Python processes):")
        for cores, r in sorted(s["runs"].items(), key=lambda kv: int(kv[0])):
            parts = []
            for stage in ("count", "pipeline"):
                c = r[f"{stage}_cpu"]
                wall = r[f"{stage}_s"]
                parts.append(
                    f"{stage} {(c['jvm'] + c['python']) / wall:.2f} "
                    f"({c['jvm'] / wall:.2f} + {c['python'] / wall:.2f})"
                )
            lines.append(f"    local[{int(cores)}]  " + ", ".join(parts))
        r1, r2 = s["runs"][1], s["runs"][2]
        lines.append(
            f"  local[2] / local[1]: count {r1['count_s'] / r2['count_s']:.2f}x, "
            f"pipeline {r1['pipeline_s'] / r2['pipeline_s']:.2f}x   (targets: per core >= 70%, 2 vs 1 >= 1.7x)"
        )
    return "\n".join(lines)


def profile(path: str, out: str, master: str = "local[*]") -> list[str]:
    """Where the pipeline's seconds go on ``path``: Spark start, the one pass cold and warm (wall, CPU of the
    JVM and of the Python processes, the tasks' time split into load + decode, Parquet encoding and audit,
    and what is left per task: Spark's task path), stop, then without Spark: planning alone, the
    single-process columnar read, and the one pass's tasks run in turn in one process."""
    from kafkaspec.arrow.ranges import read_records
    from kafkaspec.spark.read.options import ReadOptions
    from kafkaspec.spark.read.planning import plan
    from kafkaspec.spark.run.pipeline import PIPELINE_CONF, run_pipeline
    from kafkaspec.spark.session import build_session

    def cpu(c: dict[str, float]) -> str:
        return f"CPU {c['jvm'] + c['python']:5.1f} s (JVM {c['jvm']:.1f} + Python {c['python']:.1f})"

    lines = []
    conf = {**PIPELINE_CONF, "spark.ui.showConsoleProgress": "false"}
    spark, took, c = _timed(lambda: build_session(master, "kafkaspec-profile", extra=conf))
    lines.append(f"Spark start (JVM, gateway)          {took:7.1f} s wall, {cpu(c)}")
    cores = spark.sparkContext.defaultParallelism  # type: ignore[attr-defined]
    ntasks = len(plan(path, ReadOptions.parse({"view": "batches"})))
    for label in ("one pass, cold (workers start)", "one pass, warm"):
        summary, took, c = _timed(lambda: run_pipeline(spark, path, out))
        ts = summary.task_seconds  # type: ignore[attr-defined]
        rest = took * cores - sum(ts.values())
        lines.append(
            f"{label:<35} {took:7.1f} s wall, {cpu(c)}; tasks' time: load + decode {ts['read']:.1f} s, "
            f"Parquet {ts['parquet']:.1f} s, audit {ts['audit']:.1f} s; outside the tasks "
            f"{rest:.1f} core-s ({rest / ntasks:.2f} s per task, {ntasks} tasks on {cores} cores)"
        )
    t0 = time.perf_counter()
    spark.stop()  # type: ignore[attr-defined]
    lines.append(f"Spark stop                          {time.perf_counter() - t0:7.1f} s")

    def here(
        action: Any,
    ) -> tuple[Any, float, dict[str, float]]:  # Spark's processes are gone: this one's CPU
        c0, t0 = time.process_time(), time.perf_counter()
        result = action()
        return result, time.perf_counter() - t0, {"jvm": 0.0, "python": time.process_time() - c0}

    tasks, took, c = here(lambda: plan(path, ReadOptions.parse({"view": "batches"})))
    lines.append(f"planning alone                      {took:7.1f} s wall, {cpu(c)}")
    n, took, c = here(lambda: sum(b.num_rows for task in tasks for b in read_records(task)))
    lines.append(
        f"single-process columnar read        {took:7.1f} s wall, {cpu(c)} ({n / took:,.0f} records/s)"
    )
    a, took, c = here(lambda: one_pass_alone(Path(path), Path(out) / "_alone"))
    lines.append(
        f"one pass's tasks in one process     {took:7.1f} s wall, {cpu(c)} ({a['records'] / took:,.0f} "
        f"records/s; Parquet {a['parquet_s']:.1f} s, audit {a['audit_s']:.1f} s)"
    )
    return lines


def main(argv: list[str]) -> int:
    if argv[:1] == ["--profile"]:  # python -m bench.spark --profile DIR OUT [MASTER]
        print("\n".join(profile(*argv[1:4])))
        return 0
    if argv[:1] == ["--child"]:
        print(json.dumps(_spark_child(*argv[1:5])))
        return 0
    quick = bool(os.environ.get("BENCH_QUICK"))
    if argv[:1] == ["--columnar"]:
        print(report({"columnar": run_columnar(quick)}))
        return 0
    print(report(run(quick)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
