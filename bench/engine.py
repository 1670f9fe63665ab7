"""The columnar engine (``kafkaspec.arrow.engine``) against the per-record decoders, one process, same data.

Workloads: the standard one of ``bench.v2`` (100-record batches, 6-byte keys, 60-byte values, no
headers, uncompressed) as a 2,000-batch segment (``BENCH_QUICK``: 500), then the same with 3 headers
per record and with zstd. Records/s per core of:

- ``engine``: ``read_records`` with the lockstep engine: the ``kafkalog`` RecordBatches Spark takes
  (CRC, batch iteration, every column);
- ``columnar``: the same with ``engine=records`` (today's generated per-record columnar decoder);
- ``engine decode``: ``lockstep.decode_batches`` alone (record columns of batches already iterated);
- ``aiokafka``: aiokafka's Cython ``DefaultRecordBatch``, CRC checked, each record's offset,
  timestamp, key, value and headers read (as ``bench.v2``'s parse; batches sliced beforehand);
- ``kafka-python``: the same with kafka-python's pure-Python batch.

Target (issue 16): engine >= 2.5x columnar on the standard workload. Rounds alternate between the
decoders and each keeps its best, so load spikes hit all of them.

``python -m bench.engine``; ``run(quick)`` / ``report(results)`` for ``make bench``.
"""

from __future__ import annotations

import random
import timeit

from aiokafka.record import default_records as aio
from kafka.record import default_records as kp

import kafkaspec

BASE_TS = 1_700_000_000_000
WORKLOADS = [("standard", "none", 0), ("3 headers", "none", 3), ("zstd", "zstd", 0)]
N = 100


def segment(batches: int, codec: str, headers: int) -> bytes:
    rnd = random.Random(1)
    out = []
    for b in range(batches):
        records = [
            kafkaspec.Record(
                key=rnd.randbytes(6),
                value=rnd.randbytes(60),
                timestamp=BASE_TS + i,
                headers=[(f"h{j}", rnd.randbytes(8)) for j in range(headers)],
            )
            for i in range(N)
        ]
        out.append(kafkaspec.build_batch(records, base_offset=b * N, compression=codec))
    return b"".join(out)


def _workload(name: str, codec: str, headers: int, batches: int, rounds: int) -> dict:
    import pyarrow as pa

    from kafkaspec.arrow import engine as lockstep
    from kafkaspec.arrow.ranges import ROWS_PER_ARROW_BATCH, ReadRange, read_records
    from kafkaspec.arrow.schema import HEADERS_TYPE
    from kafkaspec.records import BatchIterator

    data = segment(batches, codec, headers)
    n = batches * N
    fast = ReadRange("bench.log", "bench", 0, 0, len(data))
    slow = ReadRange("bench.log", "bench", 0, 0, len(data), lockstep=False)
    views = list(BatchIterator(data, check_records=False))
    per_run = ROWS_PER_ARROW_BATCH // N + 1
    runs = [views[i : i + per_run] for i in range(0, len(views), per_run)]
    slices = [data[b.position : b.end] for b in views]
    assert pa.Table.from_batches(list(read_records(fast, buf=data))).equals(
        pa.Table.from_batches(list(read_records(slow, buf=data)))
    )
    assert all(lockstep.decode_batches(data, run, HEADERS_TYPE) is not None for run in runs)  # no fallback

    def engine():
        for _ in read_records(fast, buf=data):
            pass

    def columnar():
        for _ in read_records(slow, buf=data):
            pass

    def decode_only():
        for run in runs:
            lockstep.decode_batches(data, run, HEADERS_TYPE)

    def per_record(module):
        def parse():
            for s in slices:
                b = module.DefaultRecordBatch(s)
                assert b.validate_crc()
                for r in b:
                    r.offset, r.timestamp, r.key, r.value, r.headers  # noqa: B018

        return parse

    fns = {
        "engine": engine,
        "columnar": columnar,
        "engine decode": decode_only,
        "aiokafka": per_record(aio),
        "kafka-python": per_record(kp),
    }
    best: dict[str, float] = {}
    for _ in range(rounds):  # alternating rounds: the best of each
        for label, fn in fns.items():
            t = min(timeit.repeat(fn, number=1, repeat=2))
            best[label] = min(best.get(label, float("inf")), t)
    return {"workload": name, "records": n, "rps": {k: n / t for k, t in best.items()}}


def floor(batches: int) -> dict:
    """What the lockstep walk costs whatever the data: numpy calls per step on arrays of one element
    per batch. Measured: one record-length step (gather, varint masks, bounds check, scatter) over
    ``batches`` batches, and a single numpy call on such an array."""
    import numpy as np

    from kafkaspec.arrow import engine as lockstep

    arr = np.zeros(1 << 16, np.uint8)
    arr[::2] = 0x96  # two-byte varints (record lengths of 75 bytes)
    arr[1::2] = 0x01
    pos = np.arange(0, 2 * batches, 2, dtype=np.int64)
    end = pos + 1000

    def step():
        length, size = lockstep.fields._varint(arr, pos, 5)
        e = pos + size + length
        if ((length < 0) | (e > end)).any():
            raise AssertionError
        return e

    one = min(timeit.repeat(lambda: pos + 1, number=2000, repeat=5)) / 2000
    per_step = min(timeit.repeat(step, number=500, repeat=5)) / 500
    return {
        "batches": batches,
        "numpy_call_us": one * 1e6,
        "step_us": per_step * 1e6,
        "walk_ns_per_record": per_step / batches * 1e9,
    }


def run(quick: bool = False) -> dict:
    batches, rounds = (500, 2) if quick else (2000, 4)
    return {
        "workloads": [_workload(name, codec, h, batches, rounds) for name, codec, h in WORKLOADS],
        "floor": floor(656),
    }


def report(results: dict) -> str:
    lines = [
        "## Columnar engine (kafkaspec.arrow.engine): records/s per core, one process, same segment",
        "",
        "  workload     engine  columnar  engine/columnar  engine decode  aiokafka  kafka-python  "
        "engine/aiokafka",
    ]
    for w in results["workloads"]:
        r = w["rps"]
        lines.append(
            f"  {w['workload']:<10} {r['engine'] / 1e6:6.2f}M {r['columnar'] / 1e6:7.2f}M "
            f"{r['engine'] / r['columnar']:11.2f}x {r['engine decode'] / 1e6:12.2f}M {r['aiokafka'] / 1e6:8.2f}M "
            f"{r['kafka-python'] / 1e6:11.2f}M {r['engine'] / r['aiokafka']:13.2f}x"
        )
    std = results["workloads"][0]["rps"]
    f = results["floor"]
    lines += [
        "",
        f"  target: engine >= 2.50x columnar on the standard workload: {std['engine'] / std['columnar']:.2f}x "
        f"({'met' if std['engine'] >= 2.5 * std['columnar'] else 'NOT met'})",
        f"  floor of the lockstep walk ({f['batches']} batches a run): one numpy call {f['numpy_call_us']:.2f} us, "
        f"one record-length step {f['step_us']:.1f} us = {f['walk_ns_per_record']:.0f} ns per record",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    import sys

    print(report(run(quick="--quick" in sys.argv)))
