"""Index and snapshot codecs: generated from schemas/logdir, zero-filled tails, lookups."""

from __future__ import annotations

import pytest

from kafkaspec import CorruptRecordError, KafkaFormatError
from kafkaspec.generated import aborted_txn_entry_v0, offset_index_entry_v0, time_index_entry_v0
from kafkaspec.logdir.kafka import indexes
from kafkaspec.logdir.kafka.snapshot import ProducerSnapshotEntry, encode_snapshot, parse_snapshot


def test_entry_sizes():
    assert offset_index_entry_v0.OFFSET_INDEX_ENTRY_SIZE == 8
    assert time_index_entry_v0.TIME_INDEX_ENTRY_SIZE == 12
    assert aborted_txn_entry_v0.ABORTED_TXN_ENTRY_SIZE == 34


def test_offset_index_bytes_and_zero_tail():
    data = indexes.encode_offset_index([(100, 0), (107, 4096)], 100)
    assert data == bytes.fromhex("00000000 00000000 00000007 00001000")
    preallocated = data + bytes(8 * 50)
    assert indexes.parse_offset_index(preallocated, 100) == [(100, 0), (107, 4096)]
    assert indexes.parse_offset_index(data + b"\x00\x00\x01", 100) == [(100, 0), (107, 4096)]  # partial tail


def test_time_index_bytes_and_zero_tail():
    data = indexes.encode_time_index([(1_700_000_000_000, 5)], 0)
    assert data == (1_700_000_000_000).to_bytes(8, "big") + (5).to_bytes(4, "big")
    assert indexes.parse_time_index(data + bytes(120), 0) == [(1_700_000_000_000, 5)]


def test_an_active_segments_preallocated_indexes_hold_no_entries():
    """A running broker preallocates the active segment's indexes (10 MB of zeros by default) and writes
    its first entry only after index.interval.bytes: until then every entry, the first too, is padding."""
    assert indexes.parse_offset_index(bytes(8 * 1000), 100) == []
    assert indexes.parse_time_index(bytes(12 * 1000), 100) == []
    # one zero entry alone is an entry (a trimmed index of a single batch at position 0)
    assert indexes.parse_offset_index(bytes(8), 100) == [(100, 0)]
    assert indexes.parse_time_index(bytes(12), 100) == [(0, 100)]
    # a first entry at position 0 followed by others is kept
    data = indexes.encode_offset_index([(100, 0), (107, 4096)], 100) + bytes(8 * 10)
    assert indexes.parse_offset_index(data, 100) == [(100, 0), (107, 4096)]


def test_an_empty_active_segment_has_no_index_entries(tmp_path):
    """A running broker's empty active segment (a new topic, __transaction_state before any
    transaction): a 0-byte .log beside 10 MB indexes of zeros has no entries, and verify says so."""
    from kafkaspec.logdir import open_log
    from kafkaspec.logdir.verify.verifier import verify_path

    part = tmp_path / "data" / "t-0"
    part.mkdir(parents=True)
    (tmp_path / "canary").write_text("stays")
    (part / "00000000000000000000.log").write_bytes(b"")
    (part / "00000000000000000000.index").write_bytes(bytes(8 * 4096))
    (part / "00000000000000000000.timeindex").write_bytes(bytes(12 * 4096))
    seg = open_log(str(tmp_path / "data")).partitions()[0].segments()[0]
    assert seg.index_entries() == [] and seg.time_index_entries() == []
    assert verify_path(str(tmp_path / "data")) == []
    assert (tmp_path / "canary").read_text() == "stays"


def test_txn_index_bytes():
    data = indexes.encode_txn_index([indexes.AbortedTxn(7, 10, 20, 21)])
    assert len(data) == 34 and data[:2] == b"\x00\x00"
    assert indexes.parse_txn_index(data) == [(7, 10, 20, 21)]
    with pytest.raises(KafkaFormatError):
        indexes.parse_txn_index(b"\x00\x05" + data[2:])  # unknown entry version


def test_floor_lookups():
    entries = [indexes.IndexEntry(o, p) for o, p in [(10, 0), (20, 100), (30, 200)]]
    assert indexes.floor_offset(entries, 5) is None
    assert indexes.floor_offset(entries, 20) == (20, 100)
    assert indexes.floor_offset(entries, 29) == (20, 100)
    tentries = [indexes.TimeIndexEntry(t, o) for t, o in [(100, 1), (200, 5), (200, 6), (300, 9)]]
    assert indexes.floor_timestamp_below(tentries, 100) is None
    assert indexes.floor_timestamp_below(tentries, 200) == (100, 1)
    assert indexes.floor_timestamp_below(tentries, 201) == (200, 6)


def test_snapshot_round_trip_and_crc():
    entries = [ProducerSnapshotEntry(1000, 3, 41, 500, 9, 1_700_000_000_000, 2, -1)]
    data = encode_snapshot(entries)
    assert data[:2] == b"\x00\x01" and len(data) == 10 + 46
    assert parse_snapshot(data).producer_entries == entries
    bad = bytearray(data)
    bad[20] ^= 1
    with pytest.raises(CorruptRecordError):
        parse_snapshot(bytes(bad))


def test_corpus_snapshot(corpus):
    path = corpus / "files/segments/LDI-POC/__consumer_offsets-6/00000000000000000013.snapshot"
    snap = parse_snapshot(path.read_bytes())
    assert snap.version == 1 and snap.producer_entries == []
    assert encode_snapshot([]) == path.read_bytes()
