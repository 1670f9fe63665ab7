"""Legacy (magic 0/1) entries in the Arrow readers: gathered into RecordBatches, not one each.

``Partition.to_arrow_batches()`` hands the entries the v2 walk does not vouch for to the batch
iterator. A topic of small legacy message sets made one RecordBatch per entry, which cost more than
their records (a fifth of the speed on the demo's directory); they are now gathered into
RecordBatches of about ``ROWS_PER_RUN`` records. Errors still come after every record before them.
"""

from __future__ import annotations

import gzip
import zlib
from pathlib import Path

import pyarrow as pa
import pytest

import kafkaspec
from kafkaspec import logdir
from kafkaspec.arrow import partitions
from kafkaspec.arrow.schema import SCHEMA
from kafkaspec.errors import KafkaFormatError
from kafkaspec.records import BatchIterator

TS = 1_700_000_000_000


def _partition(tmp_path: Path, data: bytes) -> logdir.Partition:
    (tmp_path / "canary").write_text("keep")
    part = tmp_path / "t-0"
    part.mkdir()
    (part / "00000000000000000000.log").write_bytes(data)
    return logdir.open_log(part).partitions()[0]


def _legacy(n: int, magic: int = 1, compression: str = "none", first: int = 0) -> list[bytearray]:
    return [
        bytearray(
            kafkaspec.build_batch(
                [kafkaspec.Record(key=b"k%d" % i, value=b"v%d" % i, timestamp=TS + i)],
                magic=magic,
                compression=compression,
                base_offset=first + i,
            )
        )
        for i in range(n)
    ]


def _values(part: logdir.Partition) -> tuple[list[bytes], KafkaFormatError | None]:
    """The values read before the readers stopped, and their error (None: none)."""
    values: list[bytes] = []
    try:
        for rb in partitions.partition_batches(part):
            values += rb.column("value").to_pylist()
    except KafkaFormatError as exc:
        return values, exc
    return values, None


@pytest.mark.parametrize("magic", [0, 1])
def test_small_legacy_entries_are_one_record_batch(tmp_path, magic):
    """3,000 message sets of one message each: one RecordBatch (there were 3,000), the per-record
    decoder's columns."""
    data = b"".join(map(bytes, _legacy(3000, magic)))
    part = _partition(tmp_path, data)
    batches = list(partitions.partition_batches(part))
    assert len(batches) == 1
    expected = partitions._per_record(
        list(BatchIterator(data)), topic="t", partition=0, segment=str(part.segments()[0].path)
    )
    assert (
        pa.Table.from_batches(batches, schema=SCHEMA)
        .combine_chunks()
        .equals(pa.Table.from_batches([expected], schema=SCHEMA).combine_chunks())
    )
    assert (tmp_path / "canary").read_text() == "keep"


def test_legacy_entries_past_a_run_are_several_record_batches(tmp_path, monkeypatch):
    monkeypatch.setattr(partitions, "ROWS_PER_RUN", 100)
    part = _partition(tmp_path, b"".join(map(bytes, _legacy(450))))
    sizes = [rb.num_rows for rb in partitions.partition_batches(part)]
    assert sizes == [100, 100, 100, 100, 50]


def test_the_records_before_a_corrupt_legacy_entry_come_out_then_its_error(tmp_path):
    """Entry 700's CRC broken: entries 0-699 come out, then the batch iterator's error at its byte."""
    pieces = _legacy(1000)
    bad = sum(map(len, pieces[:700]))
    pieces[700][-1] ^= 0x20
    data = b"".join(map(bytes, pieces))
    values, error = _values(_partition(tmp_path, data))
    assert values == [b"v%d" % i for i in range(700)]
    with pytest.raises(KafkaFormatError) as expected:
        list(BatchIterator(data))
    assert error is not None and error.position == expected.value.position == bad
    assert error.reason == expected.value.reason


def test_the_records_before_a_wrapper_that_does_not_decompress_come_out_then_its_error(tmp_path):
    """Entry 300, a gzip wrapper (magic 1) whose stream is cut short, its CRC fixed: the iterator takes
    it (its records are not decoded there), its records do not decompress. Entries 0-299 come out,
    then the record decoder's error at its byte."""
    pieces = _legacy(300) + _legacy(1, compression="gzip", first=300) + _legacy(50, first=301)
    wrapper = pieces[300]
    # magic 1 message: offset (8), size (4), crc (4), magic, attributes, timestamp (8), key (4 + n), value (4 + n)
    value_at = 8 + 4 + 4 + 1 + 1 + 8 + 4 + 0  # the wrapper has a null key (length -1, no bytes)
    value_len = int.from_bytes(wrapper[value_at : value_at + 4], "big")
    wrapper[value_at + 4 + value_len // 2] ^= 0xFF  # inside the gzip stream
    wrapper[12:16] = zlib.crc32(bytes(wrapper[16:])).to_bytes(4, "big")
    data = b"".join(map(bytes, pieces))
    values, error = _values(_partition(tmp_path, data))
    assert values == [b"v%d" % i for i in range(300)]
    assert error is not None and error.position == sum(map(len, pieces[:300]))


def _wrapper_of_one_offset(records: int, first: int) -> bytes:
    """A gzip wrapper (magic 1) of ``records`` messages whose relative offsets are all 0: every record
    reads as the wrapper's one offset, so its offsets claim one record while it holds ``records``."""
    wrapper = bytearray(
        kafkaspec.build_batch(
            [kafkaspec.Record(value=b"w%d" % i, timestamp=TS) for i in range(records)],
            magic=1,
            compression="gzip",
            base_offset=first,
        )
    )
    value_at = 8 + 4 + 4 + 1 + 1 + 8 + 4  # offset, size, crc, magic, attributes, timestamp, key length (-1)
    value_len = int.from_bytes(wrapper[value_at : value_at + 4], "big")
    inner = bytearray(gzip.decompress(bytes(wrapper[value_at + 4 : value_at + 4 + value_len])))
    pos = 0
    while pos < len(inner):  # each inner message: offset (8), size (4), the message
        inner[pos : pos + 8] = bytes(8)
        pos += 12 + int.from_bytes(inner[pos + 8 : pos + 12], "big")
    value = gzip.compress(bytes(inner))
    out = wrapper[:value_at] + len(value).to_bytes(4, "big") + value
    out[8:12] = (len(out) - 12).to_bytes(4, "big")
    out[12:16] = zlib.crc32(bytes(out[16:])).to_bytes(4, "big")
    return bytes(out)


def test_wrappers_whose_offsets_claim_fewer_records_are_counted_by_their_records(tmp_path, monkeypatch):
    """Ten wrappers of 50 records each, every record at its wrapper's one offset: gathered by their
    records (a RecordBatch of at most a run and one wrapper), not by what their offsets claim (one a
    wrapper: all 500 records in one RecordBatch, and a segment of such wrappers held whole)."""
    monkeypatch.setattr(partitions, "ROWS_PER_RUN", 100)
    data = b"".join(_wrapper_of_one_offset(50, first=i) for i in range(10))
    part = _partition(tmp_path, data)
    sizes = [rb.num_rows for rb in partitions.partition_batches(part)]
    assert sizes == [100] * 5
    assert sum(len(entry) for entry in BatchIterator(data)) == 500
