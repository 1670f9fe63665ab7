"""Log directories: reading segments through kafkaspec.logdir (files read, not mapped) vs from memory, ``dump --json``, and seek cost.

Entry point: ``run(quick=False) -> dict`` and ``report(results) -> str`` (as in
bench/v2.py); ``python -m bench.logdir`` runs it alone.

Data: a ``kafkaspec synth`` directory of ``BENCH_LOGDIR_MB`` MB (default 1000;
100 with ``BENCH_QUICK``), cached in ``build/bench/`` between runs.

1. Plain record iteration (offset, timestamp, key, value, headers of every
   record, CRCs checked) over every segment through :mod:`kafkaspec.logdir`
   (which reads each segment file), vs iterating the same batches from the segment's bytes already in
   memory (read before timing). Target: within 1.3x of memory.
2. ``kafkaspec dump --json`` of the whole directory to /dev/null, vs the same
   rendering (:mod:`kafkaspec.render`) of the in-memory batches. Target 1.3x.
3. Seek: for random offsets in the largest segment, the log bytes scanned from
   the index position to the end of the target batch. Target: at most one index
   interval (plus the target batch); the index file itself is read whole.
"""

from __future__ import annotations

import os
import random
import sys
import time
from contextlib import redirect_stdout
from pathlib import Path

import kafkaspec
from kafkaspec import render
from kafkaspec.cli import main as cli_main
from kafkaspec.logdir import open_log, synth

ROOT = Path(__file__).resolve().parent.parent
INDEX_INTERVAL = 4096
SEED = 7


def dataset(size_mb: int) -> Path:
    """The synth directory for this size (made once and reused)."""
    root = ROOT / "build" / "bench" / f"logdir-{size_mb}mb-seed{SEED}"
    marker = root / ".complete"
    if not marker.exists():
        print(f"bench.logdir: writing a {size_mb} MB synth directory to {root} ...", file=sys.stderr)
        synth(root, size_mb=size_mb, seed=SEED, force=True)
        marker.write_text("ok\n")
    return root


def _touch_records(batches) -> int:
    n = 0
    for batch in batches:
        for r in batch:
            r.offset, r.timestamp, r.key, r.value, r.headers  # noqa: B018
            n += 1
    return n


def _iterate_logdir(root: Path) -> tuple[float, int]:
    start = time.perf_counter()
    n = 0
    log = open_log(root)
    for part in log.partitions():
        for seg in part.segments():
            n += _touch_records(seg.iter_batches())
            seg.close()
    return time.perf_counter() - start, n


def _iterate_memory(root: Path) -> tuple[float, int]:
    elapsed = 0.0
    n = 0
    for seg in open_log(root).segments():
        data = seg.path.read_bytes()  # outside the timed region
        start = time.perf_counter()
        n += _touch_records(kafkaspec.iter_batches(data))
        elapsed += time.perf_counter() - start
    return elapsed, n


def _dump_json_cli(root: Path) -> float:
    with open(os.devnull, "w") as devnull:
        start = time.perf_counter()
        with redirect_stdout(devnull):
            code = cli_main(["dump", str(root), "--json"])
        elapsed = time.perf_counter() - start
    assert code == 0, f"dump failed with exit code {code}"
    return elapsed


def _dump_json_memory(root: Path) -> float:
    to_json = render.to_json
    elapsed = 0.0
    with open(os.devnull, "w") as devnull:
        for seg in open_log(root).segments():
            data = seg.path.read_bytes()
            src = str(seg.path)
            start = time.perf_counter()
            lines = []
            for batch in kafkaspec.iter_batches(data):
                lines.append(to_json(render.batch_fields(batch, src)))
                control = render.control_fields(batch) if batch.is_control else None
                for r in batch:
                    lines.append(to_json(render.record_fields(batch, r, False, control)))
                if len(lines) >= 2048:
                    lines.append("")
                    devnull.write("\n".join(lines))
                    lines.clear()
            lines.append("")
            devnull.write("\n".join(lines))
            elapsed += time.perf_counter() - start
    return elapsed


def _seek(root: Path, samples: int) -> dict:
    segs = open_log(root).segments()
    seg = max(segs, key=lambda s: s.size)
    batches = [(b.base_offset, b.last_offset, b.position, b.end) for b in seg.iter_batches(verify=False)]
    largest_batch = max(e - p for _, _, p, e in batches)
    rng = random.Random(1)
    worst = 0
    worst_before_target = 0
    start = time.perf_counter()
    for _ in range(samples):
        target = rng.randint(seg.base_offset, batches[-1][1])
        pos = seg.position_for_offset(target)
        found = seg.find_offset(target)
        assert found.base_offset <= target <= found.last_offset
        worst = max(worst, found.end - pos)
        worst_before_target = max(worst_before_target, found.position - pos)
    elapsed = time.perf_counter() - start
    return {
        "segment": seg.path.name,
        "segment_bytes": seg.size,
        "index_bytes": seg.index_path.stat().st_size,
        "samples": samples,
        "worst_scanned": worst,
        "worst_before_target": worst_before_target,
        "largest_batch": largest_batch,
        "seek_us": elapsed / samples * 1e6,
    }


def run(quick: bool = False) -> dict:
    size_mb = int(os.environ.get("BENCH_LOGDIR_MB", "100" if quick else "1000"))
    root = dataset(size_mb)
    nbytes = sum(s.size for s in open_log(root).segments())
    _iterate_logdir(root)  # warm the page cache the same way for both sides
    repeat = 1
    mem = min(_iterate_memory(root) for _ in range(repeat))
    mm = min(_iterate_logdir(root) for _ in range(repeat))
    dump_mem = min(_dump_json_memory(root) for _ in range(repeat))
    dump_cli = min(_dump_json_cli(root) for _ in range(repeat))
    return {
        "size_mb": size_mb,
        "bytes": nbytes,
        "records": mem[1],
        "iterate_memory_s": mem[0],
        "iterate_logdir_s": mm[0],
        "dump_memory_s": dump_mem,
        "dump_cli_s": dump_cli,
        "seek": _seek(root, 200 if quick else 1000),
    }


def report(r: dict) -> str:
    mb = r["bytes"] / 1e6
    rec = r["records"]
    s = r["seek"]

    def line(name, t, base=None):
        ratio = f"{t / base:>6.2f}x" if base else " " * 7
        return f"{name:<38} {t:>8.2f} s {mb / t:>8.1f} MB/s {rec / t / 1e6:>7.2f} M rec/s {ratio}"

    within = s["worst_before_target"] <= INDEX_INTERVAL + s["largest_batch"]
    return "\n".join(
        [
            f"Log directory: {mb:,.0f} MB synth (seed {SEED}), {rec:,} records; page cache warm",
            line("iterate records, in-memory bytes", r["iterate_memory_s"]),
            line("iterate records, kafkaspec.logdir", r["iterate_logdir_s"], r["iterate_memory_s"]),
            line("dump --json render, in-memory bytes", r["dump_memory_s"]),
            line("kafkaspec dump --json > /dev/null", r["dump_cli_s"], r["dump_memory_s"]),
            f"seek in {s['segment']} ({s['segment_bytes'] / 1e6:.1f} MB, index {s['index_bytes']:,} B): "
            f"{s['samples']} random offsets, {s['seek_us']:.0f} µs each; log bytes read from the index position: "
            f"worst {s['worst_scanned']:,} (before the target batch {s['worst_before_target']:,}; "
            f"interval {INDEX_INTERVAL:,} + largest batch {s['largest_batch']:,}) -> {'OK' if within else 'OVER'}",
            "targets: logdir/memory <= 1.3x for iteration and dump --json; seek reads the index + one interval",
        ]
    )


if __name__ == "__main__":
    print(report(run(quick=bool(os.environ.get("BENCH_QUICK")))))
