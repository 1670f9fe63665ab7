"""The issue-16 ratios counted in CPU instructions (``perf stat -e instructions:u``), not seconds.

On a shared, loaded machine timings swing by 2x between runs; instruction counts do not. Each
workload runs in its own process ``n`` times and once with ``n = 0``; the difference divided by
``n`` is the work itself (start-up and set-up cancel out). Instructions are not time (a C-level loop
retires more per cycle than the interpreter), so ``make bench``'s timings stay the measure of the
targets; this is the tie-breaker when the machine is noisy. ``python -m bench.instructions``
(needs ``perf``; prints a note and nothing else without it). A "floor" row counts a strict subset
of its workload done the cheapest way known (``bench.v2``'s floors), so its ratio is the best any
pure-Python build can reach.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys

from bench.v2 import N, header_build_floor, make_records, standard_build_floor

#: (name, what, kafkaspec workload, kafka-python workload, records per call)
PAIRS = [
    ("3 headers build", "build_batch(records), 3 headers/record", "ks_build_h3", "kp_build_h3"),
    ("3 headers parse", "iter_batches + every field, 3 headers/record", "ks_parse_h3", "kp_parse_h3"),
    (
        "3 headers parse, varied",
        "the same, values of 30-90 bytes (no two consecutive alike)",
        "ks_parse_h3v",
        "kp_parse_h3v",
    ),
    (
        "build, Record objects",
        "Record(key=, value=, timestamp=) each + build_batch",
        "ks_build_users",
        "kp_build_0",
    ),
    ("build, columns", "build_batch(keys=, values=, timestamps=)", "ks_build_columns", "kp_build_0"),
    (
        "3 headers build, floor",
        "bench.v2.header_build_floor: the records region, cheapest known",
        "floor_build_h3",
        "kp_build_h3",
    ),
    (
        "Record objects, floor",
        "the Records alone + bench.v2's standard build floor",
        "floor_build_users",
        "kp_build_0",
    ),
    ("legacy magic 0 parse", "iter_batches, 100 plain messages", "ks_legacy_0", "kp_legacy_0"),
    ("legacy magic 1 parse", "iter_batches, 100 plain messages", "ks_legacy_1", "kp_legacy_1"),
]
#: (the varied parse has no target of its own: it shows records the decoder cannot take in runs of one shape)
TARGETS = {
    "3 headers build": 3,
    "3 headers parse": 3,
    "3 headers parse, varied": None,
    "build, Record objects": 4,
    "build, columns": 4,
    "3 headers build, floor": 3,
    "Record objects, floor": 4,
    "legacy magic 0 parse": 2,
    "legacy magic 1 parse": 2,
}


def _workload(name: str):
    """The function to repeat for workload ``name`` (imports happen here, outside the counted loop)."""
    import kafka.record.default_records as kp
    from kafka.record.memory_records import MemoryRecords

    import kafkaspec
    from bench.legacy import _parse_ks, _parse_other

    headers = 3 if name.endswith(("h3", "h3v")) else 0
    raw = make_records(N, headers)
    if name.endswith("h3v"):  # values of varied lengths: consecutive records never share a layout
        rnd = random.Random(2)
        raw = [(k, rnd.randbytes(30 + (i * 37) % 61), t, h) for i, (k, _, t, h) in enumerate(raw)]
    records = [kafkaspec.Record(key=k, value=v, timestamp=t, headers=h) for k, v, t, h in raw]
    keys, values, timestamps = [r[0] for r in raw], [r[1] for r in raw], [r[2] for r in raw]
    data = bytes(kafkaspec.build_batch(records))

    def ks_parse():
        for batch in kafkaspec.iter_batches(data):
            for r in batch.records:
                r.offset, r.timestamp, r.key, r.value, r.headers  # noqa: B018

    def kp_parse():
        b = kp.DefaultRecordBatch(data)
        assert b.validate_crc()
        for r in b:
            r.offset, r.timestamp, r.key, r.value, r.headers  # noqa: B018

    def kp_build():
        b = kp.DefaultRecordBatchBuilder(2, 0, 0, -1, -1, -1, 1 << 22)
        for i, (k, v, t, h) in enumerate(raw):
            b.append(i, timestamp=t, key=k, value=v, headers=h)
        return b.build()

    record = kafkaspec.Record
    if name == "floor_build_h3":  # a floor: kafka-python / this is the best ratio any build can reach
        return header_build_floor(records)
    if name == "floor_build_users":
        floor = standard_build_floor(keys, values, timestamps)
        return lambda: ([record(key=k, value=v, timestamp=t) for k, v, t, _ in raw], floor())
    if name.startswith(("ks_legacy", "kp_legacy")):
        legacy = bytes(kafkaspec.build_batch(records, magic=int(name[-1])))
        if name.startswith("ks"):
            return lambda: _parse_ks(legacy)
        return lambda: _parse_other(MemoryRecords, legacy)
    return {
        "ks_build_h3": lambda: kafkaspec.build_batch(records),
        "kp_build_h3": kp_build,
        "ks_parse_h3": ks_parse,
        "kp_parse_h3": kp_parse,
        "ks_parse_h3v": ks_parse,
        "kp_parse_h3v": kp_parse,
        "ks_build_users": lambda: kafkaspec.build_batch(
            [record(key=k, value=v, timestamp=t) for k, v, t, _ in raw]
        ),
        "ks_build_columns": lambda: kafkaspec.build_batch(keys=keys, values=values, timestamps=timestamps),
        "kp_build_0": kp_build,
    }[name]


def _count(name: str, n: int) -> int:
    out = subprocess.run(
        [
            "perf",
            "stat",
            "-x,",
            "-e",
            "instructions:u",
            sys.executable,
            "-m",
            "bench.instructions",
            "--loop",
            name,
            str(n),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    line = next(x for x in out.stderr.splitlines() if "instructions" in x)
    count = line.split(",")[0]
    if not count.isdigit():  # "<not supported>" (a virtual machine without the counter), "<not counted>"
        raise Unavailable(f"perf stat cannot count instructions:u here ({count})")
    return int(count)


class Unavailable(Exception):
    """The instruction counter cannot be read on this machine."""


def per_call(name: str, n: int = 200) -> float:
    """Instructions one call of workload ``name`` takes."""
    return (_count(name, n) - _count(name, 0)) / n


def run(quick: bool = False) -> list[dict] | str:
    """The instruction counts per pair, or why they cannot be measured here."""
    if shutil.which("perf") is None:
        return "perf is not installed"
    n = 50 if quick else 200
    try:
        return [
            {"name": name, "what": what, "kafkaspec": per_call(ks, n), "kafka-python": per_call(other, n)}
            for name, what, ks, other in PAIRS
        ]
    except Unavailable as exc:
        return str(exc)


def report(results: list[dict] | str) -> str:
    if isinstance(results, str):
        return f"instruction counts: {results}; skipped"
    lines = [
        f"Instructions per record ({N} records per call; perf stat -e instructions:u, n calls minus 0 calls)",
        f"{'workload':<24} {'kafkaspec':>10} {'kafka-py':>10} {'kp/ks':>6}  target",
    ]
    for r in results:
        ks, other = r["kafkaspec"] / N, r["kafka-python"] / N
        target = TARGETS[r["name"]]
        goal = f"{'at best; ' if 'floor' in r['name'] else ''}>= {target}x" if target else "(none)"
        lines.append(
            f"{r['name']:<24} {ks:>10,.0f} {other:>10,.0f} {other / ks:>5.2f}x  {goal}   ({r['what']})"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--loop"]:
        fn, count = _workload(sys.argv[2]), int(sys.argv[3])
        for _ in range(count):
            fn()
    else:
        print(report(run(quick=bool(os.environ.get("BENCH_QUICK")))))
