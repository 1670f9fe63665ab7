"""One recovery policy: after the same corrupt bytes, every reader resumes at the same byte.

``iter_batches(on_corrupt="skip")``, ``logdir.verify``, ``kafkaspec dump --skip-corrupt``
and the Spark source (``kafkalog`` with skip_corrupt) must skip the same byte
ranges and keep the same records.
"""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout

import pytest

import kafkaspec
from kafkaspec import Record, logdir
from kafkaspec.cli import main

TS = 1_700_000_000_000


def _stream() -> tuple[bytes, list[tuple[int, int]]]:
    """Batch A (offsets 0-1), batch B (offset 2) with a bad CRC whose record value is itself a
    valid batch (offset 100, as when a log is copied into a topic), then batch D (offset 3)."""
    a = kafkaspec.build_batch([Record(value=b"a0", timestamp=TS), Record(value=b"a1", timestamp=TS)])
    ghost = kafkaspec.build_batch([Record(value=b"ghost", timestamp=TS)], base_offset=100)
    b = bytearray(kafkaspec.build_batch([Record(value=ghost, timestamp=TS)], base_offset=2))
    b[17] ^= 0xFF  # the CRC: B's length is right, its checksum is not
    d = kafkaspec.build_batch([Record(value=b"d", timestamp=TS)], base_offset=3)
    data = a + bytes(b) + d
    return data, [(len(a), len(a) + len(b))]


EXPECTED_OFFSETS = [0, 1, 3]


def _segment(tmp_path, data: bytes):
    part = tmp_path / "logs" / "t-0"
    part.mkdir(parents=True)
    seg = part / "00000000000000000000.log"
    seg.write_bytes(data)
    return seg


def test_iter_batches_skips_the_corrupt_batch_whole():
    data, skipped = _stream()
    it = kafkaspec.iter_batches(data, on_corrupt="skip")
    offsets = [r.offset for batch in it for r in batch]
    assert offsets == EXPECTED_OFFSETS
    assert [(s.start, s.end, s.rule) for s in it.skipped] == [(a, b, "length") for a, b in skipped]


def test_dump_skip_corrupt_resumes_at_the_same_byte(tmp_path):
    data, skipped = _stream()
    seg = _segment(tmp_path, data)
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["dump", str(seg.parent), "--json", "--skip-corrupt"])
    rows = [json.loads(line) for line in out.getvalue().splitlines()]
    assert code == 1
    assert [r["offset"] for r in rows if r["type"] == "record"] == EXPECTED_OFFSETS
    start, end = skipped[0]
    assert f"at byte {start}:" in err.getvalue()
    assert f"(bytes {start}..{end} skipped; its length field was intact)" in err.getvalue()


def test_verify_reports_the_same_range(tmp_path):
    data, skipped = _stream()
    seg = _segment(tmp_path, data)
    problems = [p for p in logdir.verify(seg.parent) if "corrupt entry" in p.message]
    start, end = skipped[0]
    assert [
        (p.position, f"bytes {start}..{end} skipped (its length field was intact)" in p.message)
        for p in problems
    ] == [(start, True)]


def test_spark_source_resumes_at_the_same_byte(tmp_path):
    pytest.importorskip("pyarrow")
    from kafkaspec.arrow.ranges import RangeReport, ReadRange, read_records

    data, skipped = _stream()
    seg = _segment(tmp_path, data)
    task = ReadRange(str(seg), "t", 0, 0, len(data), skip_corrupt=True)
    report = RangeReport()
    offsets = [o for rb in read_records(task, report) for o in rb.column("offset").to_pylist()]
    assert offsets == EXPECTED_OFFSETS
    assert [(s.start, s.end, s.rule) for s in report.skipped] == [(a, b, "length") for a, b in skipped]


def test_resync_trusts_a_length_that_leads_to_the_end_or_a_valid_entry():
    from kafkaspec.recovery import resync

    data, [(start, stop)] = _stream()
    assert resync(data, start, len(data)) == stop  # B's length points at D, which is valid: D
    assert resync(data[:stop], start, stop) == stop  # B's length reaches exactly the end: the end


def test_resync_scans_when_the_length_is_corrupt_and_says_none_when_nothing_follows():
    from kafkaspec.recovery import resync

    data, [(start, stop)] = _stream()
    broken = bytearray(data)
    broken[start + 8 : start + 12] = (1 << 30).to_bytes(4, "big")  # B's length now runs far past the end
    # scanning finds the valid batch inside B's record value first: the length gave no better place
    ghost = resync(bytes(broken), start, len(broken))
    assert start < ghost < stop and bytes(broken[ghost + 16 : ghost + 17]) == b"\x02"
    assert resync(bytes(broken[: start + 20]), start, start + 20) is None


def _fake_stream(corrupt_length: bool = False) -> tuple[bytes, list[tuple[int, int]]]:
    """Issue 12 item 5b: good A (offsets 0-1), three corrupt batches whose record value is a valid-looking
    batch (offset 999999, key FAKE), good D (offset 3). ``corrupt_length``: their lengths are broken too."""
    a = kafkaspec.build_batch([Record(value=b"a0", timestamp=TS), Record(value=b"a1", timestamp=TS)])
    fake = kafkaspec.build_batch([Record(key=b"FAKE", value=b"x", timestamp=TS)], base_offset=999_999)
    data, ranges = bytearray(a), []
    for i in range(3):
        b = bytearray(kafkaspec.build_batch([Record(value=fake, timestamp=TS)], base_offset=2))
        b[17 + i] ^= 0xFF  # the CRC
        if corrupt_length:
            b[8:12] = (len(b) - 12 + 1000 * (i + 1)).to_bytes(4, "big")  # reaches into what follows
        ranges.append((len(data), len(data) + len(b)))
        data += b
    data += kafkaspec.build_batch([Record(value=b"d", timestamp=TS)], base_offset=3)
    return bytes(data), ranges


def test_a_valid_looking_batch_inside_a_corrupt_one_is_never_yielded_by_any_reader(tmp_path):
    data, ranges = _fake_stream()
    it = kafkaspec.iter_batches(data, on_corrupt="skip")
    records = [r for batch in it for r in batch]
    assert [r.offset for r in records] == EXPECTED_OFFSETS and all(r.key != b"FAKE" for r in records)
    assert [(s.start, s.end, s.rule) for s in it.skipped] == [(a, b, "length") for a, b in ranges]

    seg = _segment(tmp_path, data)
    problems = [p for p in logdir.verify(seg.parent) if "corrupt entry" in p.message]
    assert [p.position for p in problems] == [a for a, _ in ranges]
    assert all("its length field was intact" in p.message for p in problems)

    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["dump", str(seg.parent), "--json", "--skip-corrupt", "--print-data"])
    assert code == 1 and "FAKE" not in out.getvalue() and "999999" not in out.getvalue()
    assert [
        json.loads(line)["offset"]
        for line in out.getvalue().splitlines()
        if json.loads(line)["type"] == "record"
    ] == EXPECTED_OFFSETS
    assert err.getvalue().count("its length field was intact") == 3


def test_spark_source_never_yields_the_fake_batch(tmp_path):
    pytest.importorskip("pyarrow")
    from kafkaspec.arrow.ranges import RangeReport, ReadRange, read_records

    data, ranges = _fake_stream()
    seg = _segment(tmp_path, data)
    report = RangeReport()
    task = ReadRange(str(seg), "t", 0, 0, len(data), skip_corrupt=True)
    offsets = [o for rb in read_records(task, report) for o in rb.column("offset").to_pylist()]
    assert offsets == EXPECTED_OFFSETS
    assert [(s.start, s.end, s.rule) for s in report.skipped] == [(a, b, "length") for a, b in ranges]


def test_a_corrupt_length_is_reported_as_scanned():
    """When the length is broken too, nothing says where the entry ended: the scan may find the fake batch
    (it is a valid entry), and says so: rule "scan"."""
    data, ranges = _fake_stream(corrupt_length=True)
    it = kafkaspec.iter_batches(data, on_corrupt="skip")
    list(it)
    assert it.skipped and all(s.rule == "scan" for s in it.skipped)
    assert it.skipped[0].start == ranges[0][0]


def test_a_batch_whose_records_fail_is_skipped_whole_by_its_length():
    a = kafkaspec.build_batch([Record(value=b"a", timestamp=TS)])
    fake = kafkaspec.build_batch([Record(key=b"FAKE", value=b"x", timestamp=TS)], base_offset=999_999)
    b = bytearray(kafkaspec.build_batch([Record(value=fake, timestamp=TS)], base_offset=1))
    b[57:61] = (2).to_bytes(4, "big")  # records_count 2: the records run out
    from kafkaspec.codec.crc import crc32c

    b[17:21] = crc32c(bytes(b[21:])).to_bytes(4, "big")  # ... under a valid CRC
    d = kafkaspec.build_batch([Record(value=b"d", timestamp=TS)], base_offset=2)
    it = kafkaspec.iter_batches(a + bytes(b) + d, on_corrupt="skip")
    assert [r.offset for batch in it for r in batch] == [0, 2]
    assert [(s.start, s.end, s.rule) for s in it.skipped] == [(len(a), len(a) + len(b), "length")]


def _corrupt_at_2(how: str) -> bytes:
    """Batch A (offsets 0-1), batch B (offset 2) made corrupt ``how``, batch D (offset 3)."""
    a = kafkaspec.build_batch([Record(value=b"a0", timestamp=TS), Record(value=b"a1", timestamp=TS)])
    b = bytearray(kafkaspec.build_batch([Record(value=b"b", timestamp=TS)], base_offset=2))
    if how == "crc":
        b[17] ^= 0xFF
    elif how == "magic":
        b[16] = 7
    else:  # a negative length
        b[8:12] = (0xFFFFFFF0).to_bytes(4, "big")
    return a + bytes(b) + kafkaspec.build_batch([Record(value=b"d", timestamp=TS)], base_offset=3)


@pytest.mark.hostile
@pytest.mark.parametrize("how", ["crc", "magic", "length"])
def test_records_ending_at_a_corrupt_batchs_first_offset_stop_before_it(tmp_path, how):
    """``records(end_offset=2)`` asks for nothing at or past B (offset 2): the records before it, no
    error, B not read. One offset further B is asked for, and its error names its segment."""
    seg = _segment(tmp_path, _corrupt_at_2(how))
    part = logdir.open_log(tmp_path / "logs").partition("t", 0)
    assert [r.offset for _, r in part.records(end_offset=2)] == [0, 1]
    assert [r.offset for _, r in part.records(start_offset=1, end_offset=2)] == [1]
    with pytest.raises(kafkaspec.KafkaFormatError, match=str(seg)):
        list(part.records(end_offset=3))


@pytest.mark.hostile
@pytest.mark.parametrize("how", ["crc", "magic", "length"])
def test_dump_ending_at_a_corrupt_batchs_first_offset_stops_before_it(tmp_path, how):
    seg = _segment(tmp_path, _corrupt_at_2(how))
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["dump", str(seg.parent), "--json", "--end-offset", "2"])
    rows = [json.loads(line) for line in out.getvalue().splitlines()]
    assert (code, err.getvalue()) == (0, "")
    assert [r["offset"] for r in rows if r["type"] == "record"] == [0, 1]
    with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
        assert main(["dump", str(seg.parent), "--json", "--end-offset", "3"]) == 1


@pytest.mark.hostile
def test_records_ending_after_a_commit_marker_do_not_read_the_corrupt_batch_past_it(tmp_path):
    """A transaction (offsets 0-1) and its commit marker (offset 2, skipped by the reader), then a corrupt
    batch at offset 3: ``records(end_offset=3)`` gives the transaction's records and reads no further."""
    txn = kafkaspec.build_batch(
        [Record(value=b"t0", timestamp=TS), Record(value=b"t1", timestamp=TS)],
        producer_id=7,
        producer_epoch=0,
        is_transactional=True,
    )
    marker = kafkaspec.build_control_batch("commit", producer_id=7, producer_epoch=0, base_offset=2)
    bad = bytearray(kafkaspec.build_batch([Record(value=b"b", timestamp=TS)], base_offset=3))
    bad[17] ^= 0xFF
    _segment(tmp_path, txn + marker + bytes(bad))
    part = logdir.open_log(tmp_path / "logs").partition("t", 0)
    assert [r.offset for _, r in part.records(end_offset=3)] == [0, 1]
    assert [r.offset for _, r in part.records(end_offset=3, isolation_level="read_uncommitted")] == [0, 1]
