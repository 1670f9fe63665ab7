"""Tables: the demo data dir into Iceberg and into Delta (``kafkaspec.tables.write_table``, a backfill,
one table per topic, partitioned by day) against the same records into plain Parquet files.

Entry point: ``run(quick=False) -> dict`` and ``report(results) -> str`` (as in bench/v2.py);
``python -m bench.tables`` runs it alone.

Data: the ``kafkaspec synth`` directory of ``BENCH_TABLES_MB`` MB (default 300, ``make demo``'s size;
20 with ``BENCH_QUICK``), cached in ``build/bench/`` between runs (:func:`bench.logdir.dataset`).

The plain-Parquet baseline reads the same spans (:func:`kafkaspec.tables.source.plan`, read_committed)
and writes each topic's batches with ``pyarrow.parquet`` into one folder per topic and day, in files of
the same target size, with no table commit: what the table formats add is the difference. Each of the
three writes into a fresh folder; the order alternates over ``BENCH_TABLES_REPEAT`` rounds (default 2)
and the best time of each counts. Target: each table within 1.15x of plain Parquet.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from bench.logdir import dataset
from kafkaspec.logdir import open_log
from kafkaspec.tables import write_table
from kafkaspec.tables.source import plan, span_batches

TARGET = 1.15
TARGET_FILE_MB = 128


def _parquet(src: Path, dest: Path) -> int:
    """The records into ``dest/<topic>/day=<date>/part-N.parquet``; the rows written."""
    rows = 0
    for span in plan(open_log(str(src)), {}):
        writers: dict[str, tuple[pq.ParquetWriter, int]] = {}
        for rb in span_batches(span):
            days = pc.cast(pc.cast(rb.column("timestamp"), pa.timestamp("us")), pa.date32())
            bounds = pc.min_max(days)
            one = bounds["min"] == bounds["max"]  # a batch of one day (nearly all) is written whole
            for day in [bounds["min"].as_py()] if one else pc.unique(days).to_pylist():
                part = rb if one else rb.filter(pc.equal(days, pa.scalar(day, pa.date32())))
                key = str(day)
                writer, size = writers.get(key, (None, 0))
                if writer is None or size >= TARGET_FILE_MB << 20:
                    if writer is not None:
                        writer.close()
                    folder = dest / span.topic / f"day={key}"
                    folder.mkdir(parents=True, exist_ok=True)
                    writer = pq.ParquetWriter(
                        folder / f"part-{span.partition}-{len(os.listdir(folder))}.parquet", rb.schema
                    )
                    size = 0
                writer.write_batch(part)
                writers[key] = (writer, size + part.nbytes)
                rows += part.num_rows
        for writer, _ in writers.values():
            writer.close()
    return rows


def _timed(kind: str, src: Path, work: Path) -> tuple[float, int]:
    dest = work / kind
    shutil.rmtree(dest, ignore_errors=True)
    start = time.perf_counter()
    if kind == "parquet":
        rows = _parquet(src, dest)
    else:
        rows = write_table(
            str(src), str(dest), format=kind, mode="append", target_file_mb=TARGET_FILE_MB
        ).rows
    return time.perf_counter() - start, rows


def run(quick: bool = False) -> dict:
    size = int(os.environ.get("BENCH_TABLES_MB", "20" if quick else "300"))
    repeat = int(os.environ.get("BENCH_TABLES_REPEAT", "2"))
    src = dataset(size)
    best: dict[str, float] = {}
    rows: dict[str, int] = {}
    kinds = ["parquet", "iceberg", "delta"]
    with tempfile.TemporaryDirectory(prefix="bench-tables-") as work:
        for i in range(repeat):
            for kind in kinds if i % 2 == 0 else kinds[::-1]:
                t, n = _timed(kind, src, Path(work))
                best[kind] = min(best.get(kind, t), t)
                rows[kind] = n
    return {"mb": size, "seconds": best, "rows": rows, "repeat": repeat}


def report(r: dict) -> str:
    base = r["seconds"]["parquet"]
    lines = [f"Tables: a {r['mb']} MB synth data dir, best of {r['repeat']} (alternating order)"]
    for kind in ("parquet", "iceberg", "delta"):
        t = r["seconds"][kind]
        ratio = f"{t / base:>6.2f}x" if kind != "parquet" else " " * 7
        lines.append(
            f"{'into ' + kind:<20} {t:>8.2f} s {r['mb'] / t:>8.1f} MB/s {r['rows'][kind]:>12,} rows {ratio}"
        )
    over = [k for k in ("iceberg", "delta") if r["seconds"][k] > TARGET * base]
    lines.append(
        f"target: each table within {TARGET}x of plain Parquet -> {'OK' if not over else 'OVER: ' + ', '.join(over)}"
    )
    return "\n".join(lines)


if __name__ == "__main__":
    print(report(run(quick=bool(os.environ.get("BENCH_QUICK")))))
