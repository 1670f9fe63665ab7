"""Helpers for the log-directory tests: small partitions written with known contents."""

from __future__ import annotations

import random
from pathlib import Path

from kafkaspec import Record
from kafkaspec.logdir import PartitionWriter


def write_partition(
    root,
    *,
    batches=60,
    seed=1,
    segment_bytes=4000,
    index_interval_bytes=300,
    topic="t",
    partition=0,
    codecs=("none", "gzip", "zstd", "lz4", "snappy"),
):
    """Write a partition of plain batches; return the list of (offset, timestamp, key, value, headers) written."""
    rng = random.Random(seed)
    written = []
    ts = 1_700_000_000_000
    with PartitionWriter(
        root, topic, partition, segment_bytes=segment_bytes, index_interval_bytes=index_interval_bytes
    ) as w:
        for i in range(batches):
            n = rng.randint(1, 8)
            recs = []
            for j in range(n):
                ts += rng.randint(-30, 100)
                headers = [("h", b"1"), ("h", None)] if rng.random() < 0.3 else []
                value = None if rng.random() < 0.1 else rng.randbytes(rng.randint(0, 120))
                recs.append(Record(key=f"k{i}-{j}".encode(), value=value, timestamp=ts, headers=headers))
            if i % 17 == 5:
                w.leader_epoch += 1
            base, _ = w.append(recs, compression=codecs[i % len(codecs)])
            written += [(base + j, r.timestamp, r.key, r.value, r.headers) for j, r in enumerate(recs)]
    return written


#: what a canary file beside a test's target holds, and must still hold after the test
CANARY = b"must survive"


def twelve_records_in_segments(root) -> Path:
    """``root/data/t-0``: offsets 0..11, one record a batch, in segments of 300 bytes (three or more),
    with a canary file beside ``data`` (``root/canary``, holding :data:`CANARY`)."""
    data = Path(root) / "data"
    with PartitionWriter(data, "t", 0, segment_bytes=300) as w:
        for i in range(12):
            w.append([Record(key=b"k%d" % i, value=b"v%d" % i, timestamp=1_700_000_000_000 + i)])
    (Path(root) / "canary").write_bytes(CANARY)
    part = data / "t-0"
    assert len(list(part.glob("*.log"))) >= 3, sorted(p.name for p in part.iterdir())
    return part


def corrupt_middle_batch(folder: Path) -> tuple[Path, int, int, int]:
    """Flip the last byte of the middle v2 batch of ``folder``'s first segment: its CRC fails, its length
    holds. (The segment, the batch's position, the offset after the batch before it, how many segments
    follow the first.)"""
    segments = sorted(Path(folder).glob("*.log"))
    data = bytearray(segments[0].read_bytes())
    batches, pos = [], 0
    while pos + 61 <= len(data):
        size = 12 + int.from_bytes(data[pos + 8 : pos + 12], "big")
        last = int.from_bytes(data[pos : pos + 8], "big") + int.from_bytes(data[pos + 23 : pos + 27], "big")
        batches.append((pos, size, last))
        pos += size
    assert len(segments) > 1 and len(batches) > 2, f"{folder}: too few segments or batches"
    at, size, _ = batches[len(batches) // 2]
    data[at + size - 1] ^= 0xFF
    segments[0].write_bytes(bytes(data))
    return segments[0], at, batches[len(batches) // 2 - 1][2] + 1, len(segments) - 1
