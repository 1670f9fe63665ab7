"""Where ``to_arrow_batches()`` spends its CPU time, stage by stage, on issue 28's workloads.

The workloads and segment files are ``bench.java``'s (300,000 records in 100-record batches, 6-byte
keys, 60-byte values; ``--quick``: 60,000). Each stage is the CPU time (``time.process_time``) of
the functions doing it, summed over a pass; the pass shown is the one with the least total time of
several. Stages: the segment read; the batch walk (heads and CRCs, ``arrow.walk``); decompression;
the record walk (each record's span and first bytes); the fields (varints); headers; copying keys
and values into Arrow; and the rest (columns assembled, per-run work, Python overhead). Then two floors
on the uncompressed workload (:func:`floor_subset`): strict subsets of the same work, done the
cheapest way, timed the same way.

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
    ("read", ["kafkaspec.logdir.kafka.segment.read_regular"]),
    ("batch walk", ["kafkaspec.arrow.partitions.v2_heads", "kafkaspec.arrow.partitions.crc_mismatch"]),
    ("decompress", ["kafkaspec.arrow.engine.heads.decompress"]),
    (
        "record walk",
        ["kafkaspec.arrow.engine.chain._record_spans", "kafkaspec.arrow.engine.assemble._record_spans"],
    ),
    (
        "fields",
        ["kafkaspec.arrow.engine.fields._Fields.varint", "kafkaspec.arrow.engine.fields._Fields.bytes_field"],
    ),
    (
        "headers",
        ["kafkaspec.arrow.engine.assemble._header_spans", "kafkaspec.arrow.engine.assemble._header_arrays"],
    ),
    ("key/value copy", ["kafkaspec.arrow.engine.assemble._gather", "kafkaspec.arrow.engine.headers._gather"]),
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


def floor_subset(part: Path, passes: int, fields: bool) -> tuple[int, float]:
    """(records, best CPU seconds) of a strict subset of ``to_arrow_batches``' work on an uncompressed
    segment of fixed-size records, done the cheapest way we know: the read, the batch walk and the CRCs
    (the readers' own functions), the record-length chain (the engine's guess from the first batch of a
    run, checked from one copy of each record's first 32 bytes) and a copy of 6 and of 60 bytes out of
    each record (what copying its key and value costs; where they are is not decoded). ``fields``: also
    the fields before the value read the cheapest way: the timestamp delta, offset
    delta, key length and value length each read as if at one place in every record (a strided view,
    two table lookups), offsets and timestamps as base plus delta. Nothing checked beyond the CRCs and
    the chain, no header count, no column assembled."""
    import numpy as np

    from kafkaspec.arrow import engine
    from kafkaspec.arrow.walk import crc_mismatch, v2_heads
    from kafkaspec.logdir.kafka.files import read_regular

    path = part / "00000000000000000000.log"
    best, rows = float("inf"), 0
    for _ in range(passes):
        start = time.process_time()
        buf = read_regular(path)
        found = v2_heads(buf, 0)
        data = np.frombuffer(buf, np.uint8)
        pairs = np.ndarray((len(data) - 1,), "<u2", data, 0, (1,))
        keys, values, windows = (
            np.ndarray((len(data) - n + 1,), f"V{n}", data, 0, (1,)) for n in (6, 60, 32)
        )
        per_run = 655  # batches: the engine's run of 65,536 records
        rows = 0
        for lo in range(0, len(found.positions), per_run):
            positions, heads = found.positions[lo : lo + per_run], found.heads[lo : lo + per_run]
            assert crc_mismatch(buf, positions, heads) is None
            counts = heads["records_count"].astype(np.int64)
            row_base = np.concatenate([[0], np.cumsum(counts)[:-1]])
            starts = np.empty(int(counts.sum()), np.int64)
            guess = engine.chain._chain_template(
                buf, pairs, counts, positions + 61, positions + 12 + heads["batch_length"], starts, row_base
            )
            window = windows[starts - 1].view(
                np.uint8
            )  # the records' first bytes (a byte before, as the engine)
            assert guess is not None and guess.holds(
                np.ndarray((len(starts),), "<u2", window, 1, (32,)), row_base
            )
            keys[starts + 8], values[starts + 15]  # a record's bytes after its first fields, not decoded
            if fields:
                deltas = []
                for place in (
                    3,
                    5,
                    7,
                    9,
                ):  # past the length varint and attributes: ts, offset, key and value lengths
                    pair = np.ndarray((len(starts),), "<u2", window, place + 1, (32,)).astype(np.intp)
                    engine.common._SIZE_2.take(pair)
                    deltas.append(engine.common._VALUE_2.take(pair).reshape(len(positions), -1))
                heads["base_timestamp"].astype(np.int64)[:, None] + deltas[0]
                heads["base_offset"].astype(np.int64)[:, None] + deltas[1]
            rows += len(starts)
        best = min(best, time.process_time() - start)
    return rows, best


def run(quick: bool = False) -> dict:
    records = 60_000 if quick else 300_000
    with tempfile.TemporaryDirectory(prefix="bench-stages-") as tmp:
        parts = write_segments(Path(tmp), records)
        rows = [
            (label, *profile(part, 3 if quick else 7))
            for (label, *_), part in zip(WORKLOADS, parts, strict=True)
        ]
        floors = [floor_subset(parts[0], 3 if quick else 7, fields) for fields in (False, True)]
    return {"rows": rows, "floors": floors}


def report(results: dict) -> str:
    names = [stage for stage, _ in STAGES] + ["rest", "total"]
    lines = [
        "## to_arrow_batches by stage: CPU ms per workload (the fastest pass)",
        "",
        "  " + f"{'workload':<30}" + "".join(f"{n:>15}" for n in names) + "   records/s",
    ]
    for label, count, stages in results["rows"]:
        cells = "".join(f"{stages.get(n, 0.0) * 1000:15.1f}" for n in names)
        lines.append(f"  {label:<30}{cells}   {count / stages['total'] / 1e6:.2f}M")
    if "floors" in results:
        lines += [
            "",
            f"  floors, {WORKLOADS[0][0]} (strict subsets: read, batch walk, CRCs, record chain, key/value copies)",
        ]
        for (count, secs), what in zip(
            results["floors"], ("nothing decoded", "and the fields before the value"), strict=True
        ):
            lines.append(f"    {what:<32} {secs * 1000:6.1f} ms = {count / secs / 1e6:.2f}M records/s")
    return "\n".join(lines)


if __name__ == "__main__":
    print(report(run(quick="--quick" in sys.argv)))
