"""Whole real segments from the corpus (files/segments: KRaft metadata logs, __consumer_offsets,
idempotent producers, bootstrap checkpoints), read by kafkaspec and by kafka-python side by side.
"""

from __future__ import annotations

from pathlib import Path

import crc32c
import pytest
from kafka.record.memory_records import MemoryRecords
from support.corpus import CORPUS

from kafkaspec import iter_batches

SEGMENTS = CORPUS / "files" / "segments" if CORPUS else Path("/nonexistent")
SEGMENT_FILES = sorted(p for p in SEGMENTS.rglob("*") if p.suffix in (".log", ".checkpoint") and p.is_file())


def test_segments_found(corpus):
    assert len(SEGMENT_FILES) >= 10


@pytest.mark.parametrize("path", SEGMENT_FILES, ids=[str(p.relative_to(SEGMENTS)) for p in SEGMENT_FILES])
def test_segment_matches_kafka_python(path, corpus):
    data = path.read_bytes()
    it = iter_batches(data)
    mine = list(it)
    assert it.partial is None, "a closed segment ends on a batch boundary"
    assert sum(b.size for b in mine) == len(data)

    theirs = []
    records = MemoryRecords(data)
    while records.has_next():
        theirs.append(records.next_batch())
    assert len(theirs) == len(mine)
    controls = 0
    for b, k in zip(mine, theirs):
        raw = b.raw()
        assert int.from_bytes(raw[17:21], "big") == crc32c.crc32c(raw[21:])
        assert (
            b.base_offset,
            b.last_offset_delta,
            b.partition_leader_epoch,
            b.attributes,
            b.base_timestamp,
            b.max_timestamp,
            b.producer_id,
            b.producer_epoch,
            b.base_sequence,
            b.records_count,
        ) == (
            k.base_offset,
            k.last_offset_delta,
            k.leader_epoch,
            k.attributes,
            k.first_timestamp,
            k.max_timestamp,
            k.producer_id,
            k.producer_epoch,
            k.base_sequence,
            k.records_count,
        )
        assert [(r.offset, r.timestamp, r.key, r.value, [tuple(h) for h in r.headers]) for r in b] == [
            (r.offset, r.timestamp, r.key, r.value, list(r.headers)) for r in k
        ]
        if b.is_control:
            controls += 1
            c = b.control
            assert (c.version, c.type) == (
                int.from_bytes(b.records[0].key[:2], "big"),
                int.from_bytes(b.records[0].key[2:4], "big"),
            )
            assert c.type_name != f"unknown({c.type})", "real brokers write known control types"
    if "cluster_metadata" in str(path) or path.suffix == ".checkpoint":
        assert controls, "KRaft logs and checkpoints hold control batches (leader change, snapshot header)"
