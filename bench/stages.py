"""Where ``to_arrow_batches()`` spends its CPU time, stage by stage, on issue 28's workloads.

The workloads and segment files are ``bench.java``'s (300,000 records in 100-record batches, 6-byte
keys, 60-byte values; ``--quick``: 60,000). Each stage is the CPU time (``time.process_time``) of
the functions doing it, summed over a pass; the pass shown is the one with the least total time of
several. Stages: the segment read; the batch walk (heads and CRCs, ``arrow.walk``); decompression;
the record walk (each record's span and first bytes); the fields (varints); headers; copying keys
and values into Arrow; and the rest (columns assembled, per-run work, Python overhead).

``BENCH_ONLY=stages make bench``; ``python -m bench.stages [--quick]``.
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.java import WORKLOADS, write_segments

#: (stage, module attribute paths timed for it); nested calls are not counted twice (outermost wins)
STAGES = [
    ("read", ["kafkaspec.logdir.segment.read_regular"]),
    ("batch walk", ["kafkaspec.arrow.partitions.v2_heads", "kafkaspec.arrow.partitions.crc_mismatch"]),
    ("decompress", ["kafkaspec.arrow.engine.decompress"]),
    ("record walk", ["kafkaspec.arrow.engine._record_spans"]),
    ("fields", ["kafkaspec.arrow.engine._Fields.varint", "kafkaspec.arrow.engine._Fields.bytes_field"]),
    ("headers", ["kafkaspec.arrow.engine._header_spans", "kafkaspec.arrow.engine._header_arrays"]),
    ("key/value copy", ["kafkaspec.arrow.engine._gather"]),
]


def _resolve(path: str) -> tuple[Any, str]:
    import importlib

    parts = path.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            owner: Any = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for name in parts[cut:-1]:
            owner = getattr(owner, name)
        return owner, parts[-1]
    raise ModuleNotFoundError(path)


def _instrument(spent: Counter) -> Callable[[], None]:
    """Wrap every stage's functions to add their CPU time to ``spent``; returns the undo."""
    undo = []
    depth = [0]
    for stage, paths in STAGES:
        for path in paths:
            owner, name = _resolve(path)
            real = getattr(owner, name)

            def timed(*args: Any, _real: Callable = real, _stage: str = stage, **kwargs: Any) -> Any:
                if depth[0]:
                    return _real(*args, **kwargs)
                depth[0] += 1
                start = time.process_time()
                try:
                    return _real(*args, **kwargs)
                finally:
                    spent[_stage] += time.process_time() - start
                    depth[0] -= 1

            setattr(owner, name, timed)
            undo.append((owner, name, real))

    def restore() -> None:
        for owner, name, real in undo:
            setattr(owner, name, real)
    return restore


def profile(part: Path, passes: int) -> tuple[int, dict[str, float]]:
    """(records, stage -> CPU seconds) of the fastest of ``passes`` reads of the partition dir."""
    from kafkaspec.logdir import open_log

    spent: Counter = Counter()
    restore = _instrument(spent)
    best: dict[str, float] = {}
    rows = 0
    try:
        for _ in range(passes):
            spent.clear()
            log = open_log(part)
            start = time.process_time()
            rows = sum(b.num_rows for b in log.to_arrow_batches())
            total = time.process_time() - start
            log.close()
            if not best or total < best["total"]:
                best = {**spent, "total": total}
    finally:
        restore()
    best["rest"] = best["total"] - sum(v for k, v in best.items() if k != "total")
    return rows, best


def run(quick: bool = False) -> dict:
    records = 60_000 if quick else 300_000
    with tempfile.TemporaryDirectory(prefix="bench-stages-") as tmp:
        parts = write_segments(Path(tmp), records)
        rows = [(label, *profile(part, 3 if quick else 7)) for (label, *_), part in zip(WORKLOADS, parts, strict=True)]
    return {"rows": rows}


def report(results: dict) -> str:
    names = [stage for stage, _ in STAGES] + ["rest", "total"]
    lines = ["## to_arrow_batches by stage: CPU ms per workload (the fastest pass)", "",
             "  " + f"{'workload':<30}" + "".join(f"{n:>15}" for n in names) + "   records/s"]
    for label, count, stages in results["rows"]:
        cells = "".join(f"{stages.get(n, 0.0) * 1000:15.1f}" for n in names)
        lines.append(f"  {label:<30}{cells}   {count / stages['total'] / 1e6:.2f}M")
    return "\n".join(lines)


if __name__ == "__main__":
    print(report(run(quick="--quick" in sys.argv)))
