"""Corpus files: fetch responses captured from real brokers.

- kafka-rust-test-data: FetchResponse v0 from Kafka 0.8.2.1, 0.8.2.2 and 0.9.0.0 (no size prefix):
  uncompressed, gzip and xerial snappy (4 KiB chunks) message sets; one with an invalid CRC.
- segmentio-kafka-go-fixtures/*.hex: FetchResponse v10 mixing magic 1 and magic 2, compressed or not.
The FetchResponse envelopes are parsed here by hand; the record sets go through kafkaspec.iter_batches.
"""

from __future__ import annotations

import struct

import pytest
from support.corpus import CORPUS, load_vectors

import kafkaspec
from kafkaspec import CorruptRecordError
from kafkaspec.codec.compression import decompress

RUST = sorted((CORPUS / "files" / "kafka-rust-test-data").glob("fetch*.kafka.*")) if CORPUS else []
GO = sorted((CORPUS / "files" / "segmentio-kafka-go-fixtures").glob("*.hex")) if CORPUS else []


class _Reader:
    def __init__(self, data: bytes):
        self.data, self.pos = data, 0

    def take(self, fmt: str):
        values = struct.unpack_from(fmt, self.data, self.pos)
        self.pos += struct.calcsize(fmt)
        return values if len(values) > 1 else values[0]

    def string(self) -> str:
        n = self.take(">h")
        self.pos += n
        return self.data[self.pos - n : self.pos].decode()

    def blob(self) -> bytes:
        n = self.take(">i")
        self.pos += max(n, 0)
        return self.data[self.pos - n : self.pos]


def _fetch_v0_record_sets(data: bytes) -> list[bytes]:
    r = _Reader(data)
    r.take(">i")  # correlation id
    sets = []
    for _ in range(r.take(">i")):
        r.string()
        for _ in range(r.take(">i")):
            r.take(">ihq")  # partition, error, high watermark
            sets.append(r.blob())
    assert r.pos == len(data)
    return sets


def _fetch_v10_record_sets(data: bytes) -> list[bytes]:
    r = _Reader(data)
    assert r.take(">i") == len(data) - 4
    r.take(">iihi")  # correlation id, throttle time, error, session id
    sets = []
    for _ in range(r.take(">i")):
        r.string()
        for _ in range(r.take(">i")):
            r.take(">ihqqq")  # partition, error, high watermark, last stable offset, log start offset
            aborted = r.take(">i")
            r.pos += 16 * max(aborted, 0)
            sets.append(r.blob())
    return sets


def _lines(name: str) -> list[bytes]:
    return (CORPUS / "files" / "kafka-rust-test-data" / name).read_bytes().splitlines()


@pytest.mark.parametrize("path", RUST, ids=[p.name for p in RUST])
def test_kafka_rust_fetch_responses(path, corpus):
    (records_set,) = _fetch_v0_record_sets(path.read_bytes())
    expected = _lines("fetch2.txt" if path.name.startswith("fetch2") else "fetch1.txt")
    if "invalid_crc" in path.name:
        with pytest.raises(CorruptRecordError, match="crc") as info:
            list(kafkaspec.iter_batches(records_set))
        assert info.value.position == 0
        batches = list(kafkaspec.iter_batches(records_set, verify=False))
    else:
        it = kafkaspec.iter_batches(records_set)
        batches = list(it)
        assert it.partial is None
    records = [r for b in batches for r in b]
    assert [r.value for r in records] == expected
    assert [r.offset for r in records] == list(range(len(expected)))
    assert {b.magic for b in batches} == {0}
    if "snappy" in path.name:
        assert {b.compression for b in batches} == {"snappy"}


def test_xerial_snappy_4k_chunks(corpus):
    data = (CORPUS / "files" / "kafka-rust-test-data" / "fetch1.snappy.chunked.4k").read_bytes()
    assert data.startswith(b"\x82SNAPPY\x00")
    assert decompress(2, data).splitlines() == _lines("fetch1.txt")


def _expected_go(stem: str):
    for v in load_vectors():
        if v["id"] == f"segmentio-fixture-{stem}-recordset":
            return [
                (m["key"].encode(), m["value"].encode())
                for m in v["expected"]["asserted"]["messages_in_order"]
            ]
    return None


@pytest.mark.parametrize("path", GO, ids=[p.stem for p in GO])
def test_segmentio_fetch_responses(path, corpus):
    (records_set,) = _fetch_v10_record_sets(bytes.fromhex(path.read_text().strip()))
    it = kafkaspec.iter_batches(records_set)
    batches = list(it)
    assert it.partial is None
    # the name lists the produced batches (v1 = magic 1, c = compressed): an uncompressed magic-1
    # batch is stored as one entry per message, so compare which magics appear, in order
    expected_magics = [1 if part.startswith("v1") else 2 for part in path.stem.split("-")]
    seen = [m for i, m in enumerate(b.magic for b in batches) if i == 0 or m != batches[i - 1].magic]
    assert seen == [m for i, m in enumerate(expected_magics) if i == 0 or m != expected_magics[i - 1]]
    compressed_v1 = any(p.startswith("v1") and p.endswith("c") for p in path.stem.split("-"))
    assert compressed_v1 == any(b.magic == 1 and b.compression != "none" for b in batches)
    records = [r for b in batches for r in b]
    offsets = [r.offset for r in records]
    assert offsets == sorted(offsets) and len(set(offsets)) == len(offsets)
    expected = _expected_go(path.stem)
    if expected is not None:
        assert [(r.key, r.value) for r in records] == expected
