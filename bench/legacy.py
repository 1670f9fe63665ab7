"""Reading legacy message sets (magic 0 and 1): kafkaspec vs kafka-python and aiokafka (Cython).

The standard workload's 100 records (6-byte keys, 60-byte values) as one
message set: uncompressed (100 shallow messages) or one compressed wrapper.
"Parse" = check the CRCs and materialise offset, timestamp, key, value and
headers of every record. kafkaspec checks the CRC of every message, inner
ones included; the other two check a message's CRC only when asked
(``validate_crc()``, called here on every shallow message; it covers a
wrapper, not its inner messages). ``python -m bench.legacy`` runs it alone.
"""

from __future__ import annotations

import os
import timeit

from aiokafka.record.memory_records import MemoryRecords as AioMemoryRecords
from kafka.record.memory_records import MemoryRecords as KpMemoryRecords

import kafkaspec
from bench.v2 import N, make_records

WORKLOADS = [(0, "none"), (0, "gzip"), (1, "none"), (1, "gzip"), (1, "snappy"), (1, "lz4")]


def _parse_ks(data: bytes) -> None:
    for batch in kafkaspec.iter_batches(data):
        for r in batch.records:
            r.offset, r.timestamp, r.key, r.value, r.headers  # noqa: B018


def _parse_other(memory_records, data: bytes) -> None:
    records = memory_records(data)
    while records.has_next():
        batch = records.next_batch()
        assert batch.validate_crc()
        for r in batch:
            r.offset, r.timestamp, r.key, r.value, r.headers  # noqa: B018


def run(quick: bool = False) -> list[dict]:
    number, rounds = (20, 3) if quick else (200, 5)
    raw = make_records(N, 0)
    records = [kafkaspec.Record(key=k, value=v, timestamp=t) for k, v, t, _ in raw]
    out = []
    for magic, codec in WORKLOADS:
        data = bytes(kafkaspec.build_batch(records, magic=magic, compression=codec))
        fns = {
            "kafkaspec": lambda data=data: _parse_ks(data),
            "aiokafka": lambda data=data: _parse_other(AioMemoryRecords, data),
            "kafka-python": lambda data=data: _parse_other(KpMemoryRecords, data),
        }
        for fn in fns.values():
            fn()  # all three read it without an error
        out.append(
            {
                "magic": magic,
                "codec": codec,
                **{k: min(timeit.repeat(f, number=number, repeat=rounds)) / number for k, f in fns.items()},
            }
        )
    return out


def report(results: list[dict]) -> str:
    lines = [
        f"Legacy message sets, {N} records (6-byte keys, 60-byte values), parse incl. CRCs (µs per record)",
        f"{'magic':<6} {'codec':<7} {'kafkaspec':>10} {'aiokafka':>9} {'kafka-py':>9} {'ks/aio':>7} {'kp/ks':>7}",
    ]
    for r in results:
        us = {k: r[k] / N * 1e6 for k in ("kafkaspec", "aiokafka", "kafka-python")}
        lines.append(
            f"{r['magic']:<6} {r['codec']:<7} {us['kafkaspec']:>10.3f} {us['aiokafka']:>9.3f} {us['kafka-python']:>9.3f} "
            f"{r['kafkaspec'] / r['aiokafka']:>6.2f}x {r['kafka-python'] / r['kafkaspec']:>6.2f}x"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    print(report(run(quick=bool(os.environ.get("BENCH_QUICK")))))
