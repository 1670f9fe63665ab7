"""The Arrow reader's fast paths (kafkaspec.arrow.walk and the engine's) against the per-record decoder.

``Partition.to_arrow()`` walks a segment's v2 batch heads at once (``walk.v2_heads``), hands runs of
them to the engine, and goes back to the batch iterator at the first entry the walk does not vouch
for. Each case below builds a segment that takes one of those paths (a header layout sliced out of
windows, a layout that is not, record lengths of three varint bytes, legacy entries between v2
batches, a corrupt batch in the middle) and checks that the table is the per-record decoder's, or
that the error is the batch iterator's, at the same byte.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pytest

import kafkaspec
from kafkaspec import logdir
from kafkaspec.arrow import partitions
from kafkaspec.arrow.engine import chain, headers
from kafkaspec.arrow.schema import SCHEMA
from kafkaspec.codec.crc import crc32c
from kafkaspec.errors import KafkaFormatError
from kafkaspec.records import BatchIterator

TS = 1_700_000_000_000


def _segment(tmp_path: Path, data: bytes) -> logdir.Partition:
    (tmp_path / "canary").write_text("keep")
    part = tmp_path / "t-0"
    part.mkdir()
    (part / "00000000000000000000.log").write_bytes(data)
    return logdir.open_log(part).partitions()[0]


def _reference(data: bytes, segment: str) -> pa.Table:
    """The same columns, one record object at a time."""
    rb = partitions._per_record(list(BatchIterator(data)), topic="t", partition=0, segment=segment)
    return pa.Table.from_batches([rb], schema=SCHEMA)


def _same(tmp_path: Path, data: bytes, monkeypatch: pytest.MonkeyPatch | None = None) -> pa.Table:
    """The partition's table is the per-record decoder's; with ``monkeypatch``, the engine read every
    batch itself (no run declined to the per-record decoder)."""
    part = _segment(tmp_path, data)
    declined: list[int] = []
    if monkeypatch is not None:
        real = partitions._per_record
        monkeypatch.setattr(partitions, "_per_record", lambda *a, **k: declined.append(1) or real(*a, **k))
    got = part.to_arrow()
    assert not declined
    expected = _reference(data, str(part.segments()[0].path))
    assert got.num_rows == expected.num_rows
    assert got.combine_chunks().equals(expected.combine_chunks())
    assert (tmp_path / "canary").read_text() == "keep"
    return got


def _same_error(tmp_path: Path, data: bytes) -> None:
    """The partition's table is refused with the per-record decoder's error, at the same byte."""
    part = _segment(tmp_path, data)
    with pytest.raises(KafkaFormatError) as got:
        part.to_arrow()
    with pytest.raises(KafkaFormatError) as expected:
        _reference(data, "x")
    assert got.value.reason == expected.value.reason
    assert got.value.position == expected.value.position


def _batches(n_batches: int, per_batch: int, make) -> bytes:
    out = []
    for b in range(n_batches):
        records = [make(b * per_batch + i) for i in range(per_batch)]
        out.append(kafkaspec.build_batch(records, base_offset=b * per_batch))
    return b"".join(out)


@pytest.fixture
def sliced(monkeypatch) -> list[int]:
    """How many times header bytes were sliced out of the headers windows (the uniform layout path)."""
    calls: list[int] = []
    real = headers._sliced

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(headers, "_sliced", counting)
    return calls


def test_headers_at_the_same_places_are_sliced_from_the_windows(tmp_path, sliced, monkeypatch):
    data = _batches(
        20,
        30,
        lambda i: kafkaspec.Record(
            key=b"k%05d" % i,
            value=b"v" * (i % 90),
            timestamp=TS + i * 37,
            headers=[("trace", b"%016d" % i), ("ct", b"json"), ("é", b"")],
        ),
    )
    table = _same(tmp_path, data, monkeypatch)
    assert sliced  # the layout path ran
    assert table.column("headers")[5].as_py() == [
        {"key": "trace", "value": b"%016d" % 5},
        {"key": "ct", "value": b"json"},
        {"key": "é", "value": b""},
    ]


def test_headers_of_the_same_lengths_are_sliced_whatever_their_bytes(tmp_path, sliced, monkeypatch):
    """The layout is taken from the first record's headers and checked on every record by the bytes of
    its length varints alone: names and values that differ but keep their lengths still slice."""
    data = _batches(
        16,
        25,
        lambda i: kafkaspec.Record(
            key=b"k",
            value=b"v%d" % i,
            timestamp=TS + i * 1000,
            headers=[(f"h{i % 10}", b"%08d" % i), ("x", b"\x80\xff" * (i % 2) or b"ab")],
        ),
    )
    table = _same(tmp_path, data, monkeypatch)
    assert sliced
    assert table.column("headers")[7].as_py() == [
        {"key": "h7", "value": b"00000007"},
        {"key": "x", "value": b"\x80\xff"},
    ]


@pytest.mark.parametrize(
    "case",
    [
        "a null value",
        "every value null",
        "values of two sizes",
        "past the window",
        "counts differ",
        "the first record differs",
    ],
)
def test_headers_not_at_the_same_places_take_the_general_path(tmp_path, sliced, case, monkeypatch):
    def make(i: int) -> kafkaspec.Record:
        headers = [("a", b"xy"), ("b", b"12345678")]
        if case == "a null value" and i % 7 == 3:
            headers[1] = ("b", None)
        elif case == "every value null":
            headers[1] = ("b", None)
        elif case == "values of two sizes" and i % 5 == 0:
            headers[0] = ("a", b"xyz")
        elif case == "past the window":
            headers.append(("long", b"L" * 80))
        elif case == "counts differ" and i % 3 == 0:
            headers = headers[:1]
        elif case == "the first record differs" and i == 0:
            headers[1] = ("b", b"123")
        return kafkaspec.Record(key=None, value=b"%d" % i, timestamp=TS + i, headers=headers)

    _same(tmp_path, _batches(12, 25, make), monkeypatch)
    assert not sliced


@pytest.fixture
def packed(monkeypatch) -> list[bool]:
    """Per call of the header-index copy (:func:`headers._packed`): whether it copied (or left the
    headers to the general path)."""
    calls: list[bool] = []
    real = headers._packed

    def recording(*args, **kwargs):
        got = real(*args, **kwargs)
        calls.append(got is not None)
        return got

    monkeypatch.setattr(headers, "_packed", recording)
    return calls


SOURCES = [b"orders", b"billing", b"checkout", b"inventory", b"search-api", b"payments-v2", b"web-frontend"]


def _producer(i: int) -> kafkaspec.Record:
    """Headers as producers write them: the same names on every record, a value of varied length."""
    return kafkaspec.Record(
        key=b"k%d" % i,
        value=b"v" * (i % 50),
        timestamp=TS + i,
        headers=[("trace-id", b"%016x" % (i * 7919)), ("source", SOURCES[i * 5 % 7]), ("v", b"%d" % (i % 3))],
    )


def test_producer_headers_are_copied_a_header_index_at_a_time(tmp_path, sliced, packed, monkeypatch):
    table = _same(tmp_path, _batches(20, 30, _producer), monkeypatch)
    assert not sliced  # not one layout: the source values differ in length
    assert packed == [True, True]  # keys, then values
    assert table.column("headers")[9].as_py() == [
        {"key": "trace-id", "value": b"%016x" % (9 * 7919)},
        {"key": "source", "value": SOURCES[45 % 7]},
        {"key": "v", "value": b"0"},
    ]


@pytest.mark.parametrize(
    ("case", "copied"),
    [
        ("the last value varied", [True, True]),
        ("the first value varied", [True, True]),
        ("only one header, varied", [True, True]),
        ("two varied side by side", [True, True]),
        ("varied much", [True, True]),
        ("varied keys", [True, True]),
        ("varied past the window", [True, True]),
        ("a null value", [True, False]),
        ("empty values", [True, True]),
    ],
)
def test_header_indexes_of_varied_lengths(tmp_path, packed, monkeypatch, case, copied):
    def make(i: int) -> kafkaspec.Record:
        varied = SOURCES[i * 3 % 7]
        if case == "the last value varied":
            headers = [("trace-id", b"%016d" % i), ("v", b"1"), ("source", varied)]
        elif case == "the first value varied":
            headers = [("source", varied), ("trace-id", b"%016d" % i), ("v", b"1")]
        elif case == "only one header, varied":
            headers = [("source", varied)]
        elif case == "two varied side by side":
            headers = [("trace-id", b"%016d" % i), ("source", varied), ("target", varied[: 1 + i % 5])]
        elif case == "varied much":
            headers = [("s", b"x" * (i % 30)), ("v", b"1")]
        elif case == "varied keys":
            headers = [("k" * (1 + i % 4), b"12345678"), ("v", b"1")]
        elif case == "varied past the window":
            headers = [("trace-id", b"%070d" % i), ("source", varied), ("v", b"2")]
        elif case == "a null value":
            headers = [("source", varied), ("v", None if i % 4 == 1 else b"1")]
        else:
            headers = [("a", b""), ("source", varied[: i % 3]), ("b", b"")]
        return kafkaspec.Record(key=None, value=b"%d" % i, timestamp=TS + i, headers=headers)

    _same(tmp_path, _batches(12, 25, make), monkeypatch)
    assert packed == copied


@pytest.mark.parametrize("per_batch", [1, 7])
def test_a_varied_header_value_up_to_the_segments_last_byte(tmp_path, packed, per_batch):
    """The longest value's copy of the last record reads past the data (zeros there, copied over)."""
    data = _batches(
        9,
        per_batch,
        lambda i: kafkaspec.Record(
            key=None, value=None, timestamp=TS, headers=[("t", b"%040d" % i), ("s", b"x" * (40 + i % 5))]
        ),
    )
    _same(tmp_path, data)
    assert packed == [True, True]


@pytest.mark.parametrize("where", [(0, 0), (4, 7)])
@pytest.mark.parametrize("key_length", [0x7E, 0x01, 0x80])
def test_a_header_key_length_past_its_record_negative_or_running_on(tmp_path, where, key_length):
    """Every record with one header ("k": "v") but one, whose key length byte is made 63 (past its
    record), -1 (a null key, which a header cannot have) or a varint that goes on (CRC fixed): in the
    run's first record (the layout's template) or another. The record decoder's error, at its byte."""
    pieces = [
        bytearray(
            kafkaspec.build_batch(
                [
                    kafkaspec.Record(key=None, value=b"v", timestamp=TS, headers=[("k", b"v")])
                    for _ in range(20)
                ],
                base_offset=b * 20,
            )
        )
        for b in range(10)
    ]
    batch_index, record = where
    batch = pieces[batch_index]
    at = (
        61 + 12 * record + 8
    )  # records of 12 bytes: length, attributes, deltas, key, value, count, then the key length
    assert batch[at] == 0x02
    batch[at] = key_length
    batch[17:21] = crc32c(bytes(batch[21:])).to_bytes(4, "big")
    _same_error(tmp_path, b"".join(map(bytes, pieces)))


def test_a_header_key_not_utf8_is_the_record_decoders_error(tmp_path):
    good = _batches(10, 10, lambda i: kafkaspec.Record(value=b"v", timestamp=TS, headers=[("hk", b"v")]))
    bad = bytearray(good)
    at = bad.index(b"hk", len(bad) // 2)
    bad[at] = 0xFF  # the key's first byte: not UTF-8 (the CRC is fixed below, so only the key is wrong)
    batch = next(b for b in BatchIterator(good) if b.position <= at < b.end)
    bad[batch.position + 17 : batch.position + 21] = crc32c(
        bytes(bad[batch.position + 21 : batch.end])
    ).to_bytes(4, "big")
    part = _segment(tmp_path, bytes(bad))
    with pytest.raises(KafkaFormatError) as got:
        part.to_arrow()
    with pytest.raises(KafkaFormatError) as expected:
        _reference(bytes(bad), "x")
    assert got.value.reason == expected.value.reason


def test_records_of_three_length_bytes_among_short_ones(tmp_path, monkeypatch):
    """Records of 8 KiB and more have a length of three varint bytes: the lockstep walk stops on them
    and those batches are walked again one record at a time."""
    _same(
        tmp_path,
        _batches(
            30,
            12,
            lambda i: kafkaspec.Record(
                key=b"k" * (i % 3), value=b"x" * (9000 if i % 11 == 0 else i), timestamp=TS - i * 10_000
            ),
        ),
        monkeypatch,
    )


def test_varied_widths_keys_and_timestamps(tmp_path, monkeypatch):
    """Timestamp deltas of one to five varint bytes, keys of many lengths and none, tombstones."""
    _same(
        tmp_path,
        _batches(
            40,
            17,
            lambda i: kafkaspec.Record(
                key=None if i % 4 == 0 else b"k" * (i % 23),
                value=None if i % 9 == 0 else b"v" * (i % 70),
                timestamp=TS + (i % 17) ** 6,
            ),
        ),
        monkeypatch,
    )


def test_legacy_entries_between_v2_batches(tmp_path):
    """An upgraded topic: v2 batches, then magic 0 and 1 messages, then v2 again (the walk resumes)."""
    v2 = _batches(5, 10, lambda i: kafkaspec.Record(key=b"a", value=b"%d" % i, timestamp=TS + i))
    legacy0 = kafkaspec.build_batch([kafkaspec.Record(key=b"k", value=b"old")] * 3, magic=0, base_offset=50)
    legacy1 = kafkaspec.build_batch(
        [kafkaspec.Record(key=b"k", value=b"older", timestamp=TS)] * 2, magic=1, base_offset=53
    )
    later = kafkaspec.build_batch([kafkaspec.Record(value=b"new", timestamp=TS)] * 4, base_offset=55)
    table = _same(tmp_path, v2 + legacy0 + legacy1 + later)
    assert table.column("magic").to_pylist() == [2] * 50 + [0] * 3 + [1] * 2 + [2] * 4


def test_a_corrupt_batch_in_the_middle_is_the_batch_iterators_error(tmp_path):
    data = bytearray(_batches(40, 10, lambda i: kafkaspec.Record(value=b"v%d" % i, timestamp=TS + i)))
    starts = [b.position for b in BatchIterator(bytes(data))]
    data[starts[23] + 70] ^= 0x40  # inside batch 23's records: its CRC no longer holds
    part = _segment(tmp_path, bytes(data))
    with pytest.raises(KafkaFormatError) as got:
        part.to_arrow()
    with pytest.raises(KafkaFormatError) as expected:
        list(BatchIterator(bytes(data)))
    assert got.value.reason == expected.value.reason
    assert got.value.position == expected.value.position == starts[23]
    assert str(part.segments()[0].path) in str(got.value)


@pytest.mark.parametrize("bad", [0, 23, 39])
def test_the_records_before_a_corrupt_batch_are_read_then_its_error(tmp_path, bad):
    """CRCs are checked a run at a time, right before the run is decoded: a batch failing its CRC
    inside a run ends the run there; the records before it come out, then the batch iterator's error."""
    data = bytearray(_batches(40, 10, lambda i: kafkaspec.Record(value=b"v%d" % i, timestamp=TS + i)))
    starts = [b.position for b in BatchIterator(bytes(data))]
    data[starts[bad] + 70] ^= 0x40
    part = _segment(tmp_path, bytes(data))
    values: list[bytes] = []
    with pytest.raises(KafkaFormatError) as got:
        for rb in partitions.partition_batches(part):
            values += rb.column("value").to_pylist()
    assert values == [b"v%d" % i for i in range(bad * 10)]
    assert got.value.position == starts[bad]
    assert "CRC" in got.value.reason


@pytest.mark.parametrize("base", [2**63 - 200, 2**63 - 50, -(2**63)])
def test_offsets_near_the_int64_limits(tmp_path, base):
    """Base offsets near int64's ends (the base offset is not under the CRC, so a bit flip can put it
    there): where base + delta still fits, the same offsets; where it does not, the per-record decoder's
    answer, never a wrapped-around offset."""
    pieces = []
    for b in range(10):
        batch = bytearray(
            kafkaspec.build_batch(
                [kafkaspec.Record(value=b"v%d" % i, timestamp=TS + i) for i in range(100)],
                base_offset=b * 100,
            )
        )
        batch[0:8] = base.to_bytes(8, "big", signed=True)
        pieces.append(bytes(batch))
    data = b"".join(pieces)
    part = _segment(tmp_path, data)
    try:
        expected = _reference(data, str(part.segments()[0].path))
    except (KafkaFormatError, OverflowError, pa.ArrowInvalid) as exc:
        with pytest.raises(type(exc)):
            part.to_arrow()
        return
    got = part.to_arrow()
    assert got.combine_chunks().equals(expected.combine_chunks())
    assert got.column("offset")[99].as_py() == base + 99


def test_a_partial_tail_is_left_out(tmp_path):
    whole = _batches(8, 10, lambda i: kafkaspec.Record(value=b"v%d" % i, timestamp=TS + i))
    cut = whole + kafkaspec.build_batch([kafkaspec.Record(value=b"torn", timestamp=TS)], base_offset=80)[:-5]
    table = _same(tmp_path, cut)
    assert table.num_rows == 80


@pytest.mark.parametrize("codec", ["none", "lz4"])
def test_tiny_records_up_to_the_segments_last_byte(tmp_path, monkeypatch, codec):
    """Records of seven bytes, the last ending at the file's last byte: the windows past the end of the
    data read zeros, not the bytes of another record, and the run is not copied to pad it."""
    data = _batches(
        9, 40, lambda i: kafkaspec.Record(key=None, value=None, timestamp=TS)
    ) + kafkaspec.build_batch(
        [kafkaspec.Record(value=b"", timestamp=TS, headers=[("h", b"")])] * 3,
        base_offset=360,
        compression=codec,
    )
    assert _same(tmp_path, data, monkeypatch).num_rows == 363


@pytest.mark.parametrize("next_bytes", [b"\x80\x80\x01", b"\x01", b"\x00"])
def test_a_records_count_past_the_records_is_the_record_decoders_error(tmp_path, next_bytes):
    """A batch claiming one record more than it holds: the record walk reaches the batch's end with a
    record still to read, and what follows (the next batch's first bytes, here made to read as a
    three-byte, a negative or a zero length) must not be taken for that record."""
    pieces = []
    for b in range(10):  # enough batches for the lockstep walk (LOCKSTEP_MIN_BATCHES) to take the extra step
        batch = bytearray(
            kafkaspec.build_batch(
                [kafkaspec.Record(value=b"v%d" % i, timestamp=TS + i) for i in range(20)], base_offset=b * 100
            )
        )
        batch[57:61] = (21).to_bytes(4, "big")  # records_count
        batch[17:21] = crc32c(bytes(batch[21:])).to_bytes(4, "big")
        pieces.append(batch)
    last = bytearray(_batches(1, 20, lambda i: kafkaspec.Record(value=b"w%d" % i, timestamp=TS + i)))
    for piece in pieces[1:] + [last]:
        piece[: len(next_bytes)] = next_bytes  # the base offset's first bytes (no CRC covers them)
    data = b"".join(map(bytes, pieces + [last]))
    _same_error(tmp_path, data)


@pytest.mark.parametrize("last_byte", [0x02, 0x01, 0x80])
def test_a_records_last_byte_is_its_header_count_even_when_the_rest_has_none(tmp_path, last_byte):
    """No record has headers, and the fields end one byte before each record's end: the engine takes
    the header counts from each record's last byte (the byte leading the next record's window) instead
    of reading them. One record's last byte made 1 header, -1 headers or a varint going on (CRC fixed):
    that byte is a header count, not skipped: the record decoder's error, at its byte."""
    pieces = [
        bytearray(
            kafkaspec.build_batch(
                [kafkaspec.Record(value=b"v%d" % i, timestamp=TS + i) for i in range(20)], base_offset=b * 20
            )
        )
        for b in range(10)
    ]
    batch = pieces[4]
    end = 61  # past the batch head: each record is its length (one zigzag byte here) and that many bytes
    for _ in range(8):
        end += 1 + (batch[end] >> 1)
    assert batch[end - 1] == 0  # record 7's header count
    batch[end - 1] = last_byte
    batch[17:21] = crc32c(bytes(batch[21:])).to_bytes(4, "big")
    data = b"".join(map(bytes, pieces))
    _same_error(tmp_path, data)


@pytest.mark.parametrize("headers", [[], [("h", b"")]])
def test_a_run_shorter_than_a_window(tmp_path, monkeypatch, headers):
    """One compressed batch of one empty record: the joined data (its 7 or 11 bytes and the padding)
    is shorter than a record's window, so every window comes from a padded copy of the data."""
    data = kafkaspec.build_batch(
        [kafkaspec.Record(key=None, value=b"", timestamp=TS, headers=headers)], compression="lz4"
    )
    assert _same(tmp_path, data, monkeypatch).num_rows == 1


@pytest.mark.parametrize("codec", ["gzip", "zstd"])
def test_compressed_runs_whose_first_record_starts_the_joined_data(tmp_path, monkeypatch, codec):
    """Every batch compressed: the records regions are joined from byte 0, so the first record's window
    (which starts a byte before it) reaches before the data: zeros there, the same table."""
    data = b"".join(
        kafkaspec.build_batch(
            [kafkaspec.Record(key=b"k%d" % i, value=b"v%d" % i, timestamp=TS + i) for i in range(30)],
            base_offset=b * 30,
            compression=codec,
        )
        for b in range(12)
    )
    assert _same(tmp_path, data, monkeypatch).num_rows == 360


_HUGE_COUNT_CHILD = """
import resource, sys, kafkaspec
from kafkaspec import logdir
from kafkaspec.errors import KafkaFormatError
resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))  # 1 GiB: the arrays a 2^31 count asked for were 16
batch = kafkaspec.iter_batches(open(sys.argv[1] + "/t-0/00000000000000000000.log", "rb").read())
for what in ("list", "to_arrow"):
    try:
        list(next(batch)) if what == "list" else logdir.open_log(sys.argv[1] + "/t-0").partitions()[0].to_arrow()
        print(what, "read")
    except KafkaFormatError as exc:
        print(what, "refused", exc.position)
"""


def test_a_records_count_near_2_31_is_an_error_in_bounded_memory(tmp_path):
    """A head claiming 2^31 - 1 records (CRC fixed) in ten batches of five: both the engine and
    ``list(batch)`` sized arrays by the claim (16 GiB) before reading a record; now the record
    decoder's error, under a 1 GiB address-space limit."""
    pieces = []
    for b in range(10):
        batch = bytearray(
            kafkaspec.build_batch([kafkaspec.Record(value=b"v", timestamp=TS)] * 5, base_offset=b * 10)
        )
        batch[57:61] = (2**31 - 1).to_bytes(4, "big")
        batch[17:21] = crc32c(bytes(batch[21:])).to_bytes(4, "big")
        pieces.append(bytes(batch))
    _segment(tmp_path, b"".join(pieces))
    proc = subprocess.run(
        [sys.executable, "-c", _HUGE_COUNT_CHILD, str(tmp_path)], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split("\n")[:2] == ["list refused 61", "to_arrow refused 61"]
    assert (tmp_path / "canary").read_text() == "keep"


@pytest.fixture
def guesses(monkeypatch) -> list[bool]:
    """What each guess of a run's record chain (the first batch's, :func:`kafkaspec.arrow.engine.chain._chain_template`) came to."""
    seen: list[bool] = []
    real = chain._Template.holds
    monkeypatch.setattr(chain._Template, "holds", lambda self, *a: seen.append(real(self, *a)) or seen[-1])
    return seen


def _fixed(i: int) -> kafkaspec.Record:
    return kafkaspec.Record(key=b"k%05d" % i, value=b"%060d" % i, timestamp=TS + i % 100)


@pytest.mark.parametrize("per_batch", [1, 9, 100])
def test_batches_of_one_chain_are_walked_by_the_first_ones(tmp_path, monkeypatch, guesses, per_batch):
    """Fixed-size keys and values, the deltas' widths alike in every batch: the first batch's chain
    holds for every batch, and the columns are the per-record decoder's."""
    _same(tmp_path, _batches(30, per_batch, _fixed), monkeypatch)
    assert guesses == [True]


def test_a_batch_of_the_same_size_and_another_chain_is_walked_again(tmp_path, monkeypatch, guesses):
    """Batch 5 has the first batch's records count and size, its values' lengths swapped: the guess
    fails on it, and the run is walked in lockstep instead, its columns the per-record decoder's."""
    sizes = [10, 20] * 5

    def make(i: int) -> kafkaspec.Record:
        size = sizes[i % 10] if i // 10 != 5 else sizes[::-1][i % 10]
        return kafkaspec.Record(key=b"k", value=b"v" * size, timestamp=TS + i % 10)

    _same(tmp_path, _batches(12, 10, make), monkeypatch)
    assert guesses == [False]


@pytest.mark.parametrize("length", [b"\xfe\x7f", b"\x01\x00", b"\x80\x80"])
def test_a_record_length_changed_in_a_batch_the_guess_covers(tmp_path, guesses, length):
    """Record 3's length in batch 7 (of batches whose chain is the first's) made 8,191 bytes, -1, or a
    varint of three bytes (CRC fixed): the guess fails there, and the error is the record decoder's,
    at its byte."""
    pieces = [
        bytearray(kafkaspec.build_batch([_fixed(b * 20 + i) for i in range(20)], base_offset=b * 20))
        for b in range(12)
    ]
    batch = pieces[7]
    at = 61  # past the batch head: each record is its length (two zigzag varint bytes here) and that many bytes
    for _ in range(3):
        u = (batch[at] & 127) | batch[at + 1] << 7
        at += 2 + (u >> 1)
    batch[at : at + 2] = length
    batch[17:21] = crc32c(bytes(batch[21:])).to_bytes(4, "big")
    _same_error(tmp_path, b"".join(map(bytes, pieces)))
    assert guesses == [False]


@pytest.mark.parametrize(("first_key", "width"), [(0, 16), (8, 24), (20, 32)])
def test_fields_past_a_window_sized_by_the_first_record(tmp_path, monkeypatch, first_key, width):
    """The records' windows are as wide as the first record's fields before its value need; later
    records with keys of 40 bytes have their value lengths past the window: read from the data."""
    widths: list[int] = []
    real = chain._window_width
    monkeypatch.setattr(chain, "_window_width", lambda *a: widths.append(real(*a)) or widths[-1])
    _same(
        tmp_path,
        _batches(
            12,
            10,
            lambda i: kafkaspec.Record(
                key=b"k" * (first_key if i == 0 else 40 - i % 3), value=b"v" * (i % 5), timestamp=TS + i
            ),
        ),
        monkeypatch,
    )
    assert widths == [width]


def _alike_then(case: str) -> bytes:
    """20 batches of one size (their chain found at once by ``walk._alike``), then what ``case`` says."""
    pieces = [
        bytearray(kafkaspec.build_batch([_fixed(b * 10 + i) for i in range(10)], base_offset=b * 10))
        for b in range(20)
    ]
    if case == "other sizes":
        pieces += [
            bytearray(
                kafkaspec.build_batch(
                    [kafkaspec.Record(value=b"v" * (b + i), timestamp=TS) for i in range(10)],
                    base_offset=200 + b * 10,
                )
            )
            for b in range(5)
        ]
    elif case == "a length changed":
        pieces[7][8:12] = (int.from_bytes(pieces[7][8:12], "big") + 1).to_bytes(4, "big")
    elif case == "a legacy entry":
        pieces.append(
            bytearray(
                kafkaspec.build_batch([kafkaspec.Record(key=b"k", value=b"old")], magic=1, base_offset=200)
            )
        )
        pieces += [bytearray(kafkaspec.build_batch([_fixed(i)], base_offset=201 + i)) for i in range(3)]
    elif case == "a partial tail":
        pieces[-1] = pieces[-1][:-10]
    elif case == "a negative records count":
        pieces[9][57:61] = (-1).to_bytes(4, "big", signed=True)
        pieces[9][17:21] = crc32c(bytes(pieces[9][21:])).to_bytes(4, "big")
    return b"".join(map(bytes, pieces))


@pytest.mark.parametrize("case", ["nothing", "other sizes", "a legacy entry", "a partial tail"])
def test_batches_of_one_size_then_others(tmp_path, case):
    """The batch walk finds batches of the first one's size at once, then walks on a batch at a time:
    the same batches as the batch iterator, and the per-record decoder's columns."""
    from kafkaspec.arrow import walk

    data = _alike_then(case)
    found = walk.v2_heads(data, 0)
    iterated = [b.position for b in BatchIterator(data) if isinstance(b, kafkaspec.records.Batch)]
    assert found.positions.tolist() == [p for p in iterated if p < found.stop]
    assert len(found.positions) >= 19  # (the partial tail: the last batch is not whole)
    _same(tmp_path, data)


@pytest.mark.parametrize("case", ["a length changed", "a negative records count"])
def test_batches_of_one_size_with_a_bad_one_among_them(tmp_path, case):
    """Batch 7's length one byte more (not under the CRC), or batch 9's records count -1 (CRC fixed):
    the walk stops there, and the error is the batch iterator's, at its byte."""
    _same_error(tmp_path, _alike_then(case))
