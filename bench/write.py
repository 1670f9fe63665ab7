"""Writing log directories (issue 15): batch-preserving copies through the API and Spark, against reading the same data.

Entry point: ``run(quick=False) -> dict`` and ``report(results) -> str``; ``python -m bench.write``
runs it alone.

Data: a ``kafkaspec synth`` directory of ``BENCH_WRITE_MB`` MB (default 200; 30 with ``BENCH_QUICK``):
every codec, magic 0/1, transactions, compaction. All rates are records per second over its
records (control records included), measured in this run:

1. API: reading every record through :mod:`kafkaspec.logdir` (CRCs checked, records decoded), vs
   ``logdir.copy`` unchanged (batches copied byte for byte, indexes and snapshots rebuilt),
   ``copy(where=...)`` dropping one key in a hundred (every record decoded, the batches that lose a
   record rebuilt) and ``copy(compression="lz4")`` (every data batch rebuilt).
2. Spark ``local[1]``: ``df.count()`` of a ``kafkalog`` read with ``includeControl``, vs writing the same
   DataFrame back with ``format("kafkalog")`` (batch-preserving: rows back into their batches on the
   executor, the partition assembled in source order on the driver).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from kafkaspec.logdir import copy, open_log, synth

ROOT = Path(__file__).resolve().parent.parent
SEED = 7


def dataset(size_mb: int) -> Path:
    """The synth directory for this size (made once and reused)."""
    root = ROOT / "build" / "bench" / f"write-{size_mb}mb-seed{SEED}"
    marker = root / ".complete"
    if not marker.exists():
        print(f"bench.write: writing a {size_mb} MB synth directory to {root} ...", file=sys.stderr)
        synth(root, size_mb=size_mb, seed=SEED, force=True)
        marker.write_text("ok\n")
    return root


def _read(path: Path) -> tuple[float, int]:
    t0 = time.perf_counter()
    n = 0
    with open_log(path) as log:
        for part in log.partitions():
            for _, batch in part.batches():
                n += len(batch.records)
    return time.perf_counter() - t0, n


def _copy(path: Path, out: Path, **kwargs) -> float:
    shutil.rmtree(out, ignore_errors=True)
    t0 = time.perf_counter()
    copy(path, out, **kwargs)
    return time.perf_counter() - t0


def _drop_one_in_a_hundred(row) -> bool:  # a kafkaspec.logdir.Row
    return row.key is None or hash(row.key) % 100 != 0


def run_api(path: Path, scratch: Path) -> dict:
    read_s, n = min(_read(path) for _ in range(2))
    return {
        "records": n,
        "read_s": read_s,
        "copy_s": min(_copy(path, scratch / "copy") for _ in range(2)),
        "where_s": _copy(path, scratch / "where", where=_drop_one_in_a_hundred),
        "recompress_s": _copy(path, scratch / "lz4", compression="lz4"),
    }


def _spark_child(path: str, out: str) -> dict:
    """Runs in a child process: one local[1] session, a count and a batch-preserving write of the same read."""
    from kafkaspec.spark.session import build_session

    spark = build_session("local[1]", "kafkaspec-bench-write", memory="2g")
    df = spark.read.format("kafkalog").option("includeControl", "true").load(path)
    df.limit(1).collect()  # warm up the JVM and the Python worker
    t0 = time.perf_counter()
    n = df.count()
    count_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    df.write.format("kafkalog").mode("overwrite").save(out)
    write_s = time.perf_counter() - t0
    spark.stop()
    return {"records": n, "count_s": count_s, "write_s": write_s}


def run_spark(path: Path, scratch: Path) -> dict:
    child = subprocess.run(
        [sys.executable, "-m", "bench.write", "--child", str(path), str(scratch / "spark")],
        capture_output=True,
        text=True,
        check=True,
        env=dict(os.environ, PYSPARK_PYTHON=sys.executable),
    )
    return json.loads(child.stdout.strip().splitlines()[-1])


def run(quick: bool = False) -> dict:
    size_mb = int(os.environ.get("BENCH_WRITE_MB", "30" if quick else "200"))
    path = dataset(size_mb)
    scratch = Path(tempfile.mkdtemp(prefix="kafkaspec-bench-write-"))
    try:
        return {"size_mb": size_mb, "api": run_api(path, scratch), "spark": run_spark(path, scratch)}
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def report(results: dict) -> str:
    api, spark = results["api"], results["spark"]
    n = api["records"]
    read = n / api["read_s"]
    lines = [
        f"Writing: batch-preserving copies of a {results['size_mb']} MB synth directory ({n:,} records), "
        "records/s, against reading the same data in this run",
        f"  API    {'read (records decoded)':<34}{read:>12,.0f}",
    ]
    for label, key in (
        ("copy, unchanged", "copy_s"),
        ("copy, where= drops 1%", "where_s"),
        ("copy, recompressed (lz4)", "recompress_s"),
    ):
        rate = n / api[key]
        lines.append(f"  API    {label:<34}{rate:>12,.0f}   {rate / read:5.2f}x read")
    m = spark["records"]
    count, write = m / spark["count_s"], m / spark["write_s"]
    lines.append(f"  Spark  {'local[1] count':<34}{count:>12,.0f}")
    lines.append(
        f"  Spark  {'local[1] write back (kafkalog)':<34}{write:>12,.0f}   {write / count:5.2f}x count"
    )
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    if argv[:1] == ["--child"]:
        print(json.dumps(_spark_child(argv[1], argv[2])))
        return 0
    print(report(run(quick=bool(os.environ.get("BENCH_QUICK")))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
