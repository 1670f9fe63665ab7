"""Decompression per batch: ``kafkaspec.codec.compression.decompress`` against the library call alone.

The batches are issue 28's (``bench/java.py``): 100 records each, 6-byte keys, 60-byte JSON-like
values, 300,000 records (``BENCH_QUICK``: 60,000), so 3,000 batches of about 7.5 KB decompressed,
written with ``build_batch`` for each of Kafka's four codecs (snappy in the Java client's xerial
framing). Each batch's records region is decompressed as the columnar engine does it: a memoryview
into the segment's bytes, ``max_size`` the default bound, the region's position for errors.

The floor is the cheapest library call that turns one region into its bytes, with none of our checks
and no bound on the output: ``lz4.frame.decompress``, a reused ``zstandard.ZstdDecompressor``'s
``decompress``, ``zlib.decompress`` with gzip's window bits, ``cramjam``'s raw snappy on each xerial
block. "per-batch+join" adds the ``b"".join`` of a run's outputs, as the engine joins them
(decompressing a run into one preallocated buffer measured slower for lz4, zstd and gzip: lz4
frames state no size and python-zstandard cannot decode into a buffer).

Times are CPU seconds (``time.process_time``: user and system, so page faults count), best of several passes
run in turns, as microseconds per batch.

``BENCH_ONLY=compression make bench``; ``python -m bench.compression [--quick]``. On a loaded machine
the times swing (the lz4 floor between 2.8 and 6.5 µs from run to run); ``python -m bench.compression
--instructions`` counts instructions per call instead (valgrind's cachegrind, 100 batches 200 times
less the same loop doing nothing), the same from run to run to a percent.
"""

from __future__ import annotations

import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Callable

import cramjam
import lz4.frame
import zstandard

import kafkaspec
from bench.java import BASE_TS, PER_BATCH, _value
from kafkaspec.codec.compression import CODEC_IDS, DEFAULT_MAX_DECOMPRESSED, decompress

CODECS = ("lz4", "zstd", "gzip", "snappy")
_REGION = 61  # a v2 batch's records region starts after its 61-byte header


def segment(codec: str, records: int) -> tuple[bytes, list[tuple[int, int]]]:
    """One segment's bytes, issue 28's batches compressed with ``codec``, and each records region's span."""
    rnd = random.Random(1)
    parts, spans, pos = [], [], 0
    for base in range(0, records, PER_BATCH):
        batch = [
            kafkaspec.Record(key=rnd.randbytes(6), value=_value(rnd, True), timestamp=BASE_TS + n)
            for n in range(PER_BATCH)
        ]
        data = kafkaspec.build_batch(batch, base_offset=base, compression=codec)
        parts.append(data)
        spans.append((pos + _REGION, pos + len(data)))
        pos += len(data)
    return b"".join(parts), spans


def _xerial_floor(region: memoryview) -> bytes:
    pos, end, out = 16, len(region), []
    while pos < end:
        (n,) = struct.unpack_from(">i", region, pos)
        out.append(bytes(cramjam.snappy.decompress_raw(region[pos + 4 : pos + 4 + n])))
        pos += 4 + n
    return out[0] if len(out) == 1 else b"".join(out)


def floors() -> dict[str, Callable[[memoryview], bytes]]:
    dctx = zstandard.ZstdDecompressor()
    return {
        "lz4": lz4.frame.decompress,
        "zstd": dctx.decompress,
        "gzip": lambda r: zlib.decompress(r, 31),
        "snappy": _xerial_floor,
    }


def best(fns: list[Callable[[], object]], passes: int) -> list[float]:
    """The best CPU time of each function, run in turns: the allocator's state (whether a pass's large
    buffers come back from the OS, page faults and all) then weighs on each alike."""
    times = [float("inf")] * len(fns)
    for _ in range(passes):
        for i, fn in enumerate(fns):
            start = time.process_time()
            fn()
            times[i] = min(times[i], time.process_time() - start)
    return times


def measure(name: str, records: int, passes: int) -> dict:
    """One codec's row: the floor, ``decompress`` per batch, and with the join."""
    codec = CODEC_IDS[name]
    buf, spans = segment(name, records)
    mv = memoryview(buf)
    regions = [mv[s:e] for s, e in spans]
    floor = floors()[name]
    expected = [decompress(codec, r) for r in regions]
    assert [floor(r) for r in regions] == expected, name

    def ours() -> list[bytes]:
        return [
            decompress(codec, mv[s:e], max_size=DEFAULT_MAX_DECOMPRESSED, position=s, magic=2)
            for s, e in spans
        ]

    def joined() -> bytes:
        return b"".join(
            [
                decompress(codec, mv[s:e], max_size=DEFAULT_MAX_DECOMPRESSED, position=s, magic=2)
                for s, e in spans
            ]
        )

    n = len(spans)
    times = [t / n for t in best([lambda: [floor(r) for r in regions], ours, joined], passes)]
    row = {
        "codec": name,
        "batches": n,
        "in": sum(e - s for s, e in spans) / n,
        "out": sum(map(len, expected)) / n,
        "floor": times[0],
        "ours": times[1],
        "joined": times[2],
    }
    return row


def run(quick: bool = False) -> dict:
    records = 60_000 if quick else 300_000
    passes = 5 if quick else 7
    return {"records": records, "rows": [measure(name, records, passes) for name in CODECS]}


def report(results: dict) -> str:
    lines = [
        f"## Decompression per batch ({results['records']:,} records, 100-record batches, JSON-like values): "
        "CPU µs per batch, best of several passes",
        "",
        "  codec   batches  in (B)  out (B)  library floor  decompress  ours/floor  per-batch+join",
    ]
    for r in results["rows"]:
        lines.append(
            f"  {r['codec']:<7} {r['batches']:7d} {r['in']:7.0f} {r['out']:8.0f} {r['floor'] * 1e6:14.2f} "
            f"{r['ours'] * 1e6:11.2f} {r['ours'] / r['floor']:10.2f}x {r['joined'] * 1e6:15.2f}"
        )
    return "\n".join(lines)


_COUNT = """
import pickle, sys
from bench.compression import floors
from kafkaspec.codec.compression import CODEC_IDS, decompress
name, path, stmt, passes = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
buf, spans = pickle.load(open(path, "rb"))
mv = memoryview(buf)
regions = [mv[s:e] for s, e in spans]
codec, floor = CODEC_IDS[name], floors()[name]
call = {"pass": lambda r: None, "floor": floor,
        "decompress": lambda r: decompress(codec, r, max_size=1 << 28, position=0, magic=2)}[stmt]
for _ in range(passes):
    for r in regions:
        call(r)
"""


def instructions(passes: int = 200) -> str:
    """Instructions per call of the floor and of ``decompress`` on 100 batches, each codec (needs valgrind)."""
    import pickle

    if shutil.which("valgrind") is None:
        return "valgrind is not installed: nothing counted"
    lines = [
        "## Decompression per batch, instructions per call (valgrind cachegrind; 100 batches x "
        f"{passes}, less the same loop calling nothing)",
        "",
        "  codec   library floor   decompress  ours/floor",
    ]
    with tempfile.TemporaryDirectory(prefix="bench-compression-") as tmp:
        for name in CODECS:
            path = os.path.join(tmp, name)
            with open(path, "wb") as f:
                pickle.dump(segment(name, 100 * PER_BATCH), f)

            def count(stmt: str, path: str = path, name: str = name) -> int:
                out = subprocess.run(
                    [
                        "valgrind",
                        "--tool=cachegrind",
                        "--cache-sim=no",
                        "--cachegrind-out-file=/dev/null",
                        sys.executable,
                        "-c",
                        _COUNT,
                        name,
                        path,
                        stmt,
                        str(passes),
                    ],
                    capture_output=True,
                    text=True,
                    check=True,
                )
                refs = [line for line in out.stderr.splitlines() if "I" in line and "refs:" in line]
                return int(refs[0].split("refs:")[1].replace(",", ""))

            base = count("pass")
            floor, ours = ((count(stmt) - base) / (100 * passes) for stmt in ("floor", "decompress"))
            lines.append(f"  {name:<7} {floor:13,.0f} {ours:12,.0f} {ours / floor:10.2f}x")
    return "\n".join(lines)


if __name__ == "__main__":
    print(instructions() if "--instructions" in sys.argv else report(run(quick="--quick" in sys.argv)))
