"""Tables: the demo data dir into Iceberg and into Delta (``kafkaspec.tables.write_table``, a backfill,
one table per topic, partitioned by day) against the same records into plain Parquet files.

Entry point: ``run(quick=False) -> dict`` and ``report(results) -> str`` (as in bench/v2.py);
``python -m bench.tables`` runs it alone.

Data: the ``kafkaspec synth`` directory of ``BENCH_TABLES_MB`` MB (default 300, ``make demo``'s size;
20 with ``BENCH_QUICK``), cached in ``build/bench/`` between runs (:func:`bench.logdir.dataset`).

The plain-Parquet baseline reads the same spans (:func:`kafkaspec.tables.source.plan`, read_committed)
and writes each topic's batches with ``pyarrow.parquet`` into one folder per topic and day, in files of
the same target size, with no table commit: what the table formats add is the difference (the codecs
are each writer's default: pyarrow's and delta-rs's snappy, Iceberg's zstd). Each of the three writes
into a fresh folder; the order alternates over ``BENCH_TABLES_REPEAT`` rounds (default 2) and the best
of each counts, in CPU seconds of the process (every thread: pyarrow's and delta-rs's too) and in wall
seconds. After each table's backfill the same run again, with nothing new (``--incremental``), is timed:
it reads no records, so its time does not grow with the table. Targets: each table within 1.15x of plain
Parquet (CPU seconds: wall time is the machine's load as much as ours), the run with nothing new under 5 s.
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
NOTHING_NEW_TARGET = 5.0
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


def _timed(kind: str, src: Path, work: Path) -> dict[str, float | int]:
    """One write of ``kind`` into a fresh folder (and for a table the run with nothing new after it)."""
    dest = work / kind
    shutil.rmtree(dest, ignore_errors=True)
    cpu, start = time.process_time(), time.perf_counter()
    if kind == "parquet":
        rows = _parquet(src, dest)
    else:
        rows = write_table(
            str(src), str(dest), format=kind, mode="append", target_file_mb=TARGET_FILE_MB
        ).rows
    out: dict[str, float | int] = {
        "wall": time.perf_counter() - start,
        "cpu": time.process_time() - cpu,
        "rows": rows,
    }
    if kind != "parquet":
        cpu, start = time.process_time(), time.perf_counter()
        again = write_table(str(src), str(dest), format=kind, mode="append", target_file_mb=TARGET_FILE_MB)
        assert again.rows == 0, f"{kind}: {again.rows} rows appended by a run with nothing new"
        out["again_wall"], out["again_cpu"] = time.perf_counter() - start, time.process_time() - cpu
    return out


def run(quick: bool = False) -> dict:
    size = int(os.environ.get("BENCH_TABLES_MB", "20" if quick else "300"))
    repeat = int(os.environ.get("BENCH_TABLES_REPEAT", "2"))
    src = dataset(size)
    best: dict[str, dict[str, float | int]] = {}
    kinds = ["parquet", "iceberg", "delta"]
    load = [os.getloadavg()[0]]
    with tempfile.TemporaryDirectory(prefix="bench-tables-") as work:
        for i in range(repeat):
            for kind in kinds if i % 2 == 0 else kinds[::-1]:
                got = _timed(kind, src, Path(work))
                mine = best.setdefault(kind, dict(got))
                for k, v in got.items():
                    mine[k] = min(mine[k], v) if k != "rows" else v
                shutil.rmtree(Path(work) / kind, ignore_errors=True)
    load.append(os.getloadavg()[0])
    return {"mb": size, "best": best, "repeat": repeat, "load": load}


def report(r: dict) -> str:
    base = r["best"]["parquet"]
    lines = [
        f"Tables: a {r['mb']} MB synth data dir, best of {r['repeat']} (alternating order), "
        f"load average {r['load'][0]:.1f} -> {r['load'][1]:.1f}",
        f"{'':<20} {'CPU s':>8} {'wall s':>8} {'MB/CPU-s':>9} {'rows':>12} {'CPU x':>7} {'wall x':>7}"
        f" {'nothing new: wall s':>20} {'CPU s':>6}",
    ]
    for kind in ("parquet", "iceberg", "delta"):
        b = r["best"][kind]
        ratios = (
            f"{b['cpu'] / base['cpu']:>6.2f}x {b['wall'] / base['wall']:>6.2f}x"
            if kind != "parquet"
            else " " * 15
        )
        again = f" {b['again_wall']:>20.2f} {b['again_cpu']:>6.2f}" if "again_wall" in b else ""
        lines.append(
            f"{'into ' + kind:<20} {b['cpu']:>8.2f} {b['wall']:>8.2f} {r['mb'] / b['cpu']:>9.1f} "
            f"{b['rows']:>12,} {ratios}{again}"
        )
    over = [k for k in ("iceberg", "delta") if r["best"][k]["cpu"] > TARGET * base["cpu"]]
    slow = [k for k in ("iceberg", "delta") if r["best"][k]["again_wall"] > NOTHING_NEW_TARGET]
    lines.append(
        f"target: each table within {TARGET}x of plain Parquet (CPU s) -> "
        f"{'OK' if not over else 'OVER: ' + ', '.join(over)}; "
        f"a run with nothing new under {NOTHING_NEW_TARGET:.0f} s -> {'OK' if not slow else 'OVER: ' + ', '.join(slow)}"
    )
    return "\n".join(lines)


if __name__ == "__main__":
    print(report(run(quick=bool(os.environ.get("BENCH_QUICK")))))
