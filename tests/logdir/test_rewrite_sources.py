"""``rewrite`` (``logdir.copy``) never loses source data silently (issue 30 items 2 and 3).

Item 2: a backup holding two nested data dirs with the same topic-partition (two brokers'
replicas) was copied into one partition of DST, the second overwriting the first. Copies of one
partition cannot be merged without choosing an order that neither copy states, so ``copy``
refuses, naming both sources, before it writes anything (exit 1).

Item 3: a segment cut short in the middle of a partition, a torn tail and a corrupt batch were
left out without a word. Each is now exit 1 naming the file and byte, unless the caller asked to
skip them (``skip_corrupt=True``, ``--skip-corrupt``); then the report lists every byte range left
out, per partition.

Every test writes in its own ``tmp_path`` with a canary file beside DST that must survive.
"""

from __future__ import annotations

import contextlib
import io
import struct
import subprocess
from pathlib import Path

import pytest

from kafkaspec import Record
from kafkaspec.cli import main
from kafkaspec.codec.crc import crc32c
from kafkaspec.errors import KafkaFormatError
from kafkaspec.logdir import PartitionWriter, copy, open_log, verify_path

pytestmark = pytest.mark.hostile


def _cli(*args: object) -> subprocess.CompletedProcess:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in args])
    return subprocess.CompletedProcess(list(args), code, out.getvalue(), err.getvalue())


def _one_line(proc: subprocess.CompletedProcess) -> str:
    assert "Traceback" not in proc.stderr, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    return lines[0]


@pytest.fixture
def canary(tmp_path: Path):
    """A file beside every DST of the test; it must survive whatever the test runs."""
    path = tmp_path / "canary.txt"
    path.write_text("still here")
    yield path
    assert path.read_text() == "still here"


def _write(
    root: Path, values: list[bytes], *, topic: str = "t", segment_bytes: int = 1 << 30, base: int = 0
) -> Path:
    with PartitionWriter(
        root, topic, 0, segment_bytes=segment_bytes, index_interval_bytes=100, start_offset=base
    ) as w:
        for i, v in enumerate(values):
            w.append([Record(key=b"k%d" % i, value=v, timestamp=1_700_000_000_000 + i)])
    return root / f"{topic}-0"


def _offsets(path: Path) -> list[int]:
    with open_log(path) as log:
        return [r.offset for p in log.partitions() for _, r in p.records()]


# -- item 2: two copies of one partition ------------------------------------------------


def test_two_nested_copies_of_a_partition_are_refused_naming_both(tmp_path, canary):
    backup = tmp_path / "backup"
    one = _write(backup / "broker0", [b"a", b"b"])
    two = _write(backup / "broker1", [b"c", b"d", b"e"])
    _write(backup / "broker1", [b"x"], topic="other")
    dst = tmp_path / "dst"
    proc = _cli("rewrite", backup, dst)
    line = _one_line(proc)
    assert proc.returncode == 1 and proc.stdout == ""
    assert str(one) in line and str(two) in line and "t-0" in line, line
    assert not dst.exists()  # nothing written: the check comes before the first byte
    with pytest.raises(KafkaFormatError, match="two copies") as info:
        copy(backup, dst)
    assert str(one) in str(info.value) and str(two) in str(info.value)
    assert not dst.exists()


def test_refused_copies_leave_an_empty_existing_dst_as_it_was(tmp_path, canary):
    backup = tmp_path / "backup"
    _write(backup / "a", [b"1"])
    _write(backup / "b" / "deeper", [b"2"])
    dst = tmp_path / "dst"
    dst.mkdir()
    proc = _cli("rewrite", backup, dst)
    assert proc.returncode == 1 and "t-0" in _one_line(proc)
    assert dst.is_dir() and list(dst.iterdir()) == []


def test_one_copy_selected_by_topics_is_copied(tmp_path, canary):
    """The refusal is about what would be written: a duplicate of a topic not selected is no conflict."""
    backup = tmp_path / "backup"
    _write(backup / "broker0", [b"a", b"b"])
    _write(backup / "broker1", [b"c", b"d", b"e"])
    _write(backup / "broker1", [b"x", b"y"], topic="other")
    proc = _cli("rewrite", backup, tmp_path / "dst", "--topics", "other")
    assert proc.returncode == 0, proc.stderr
    assert _offsets(tmp_path / "dst") == [0, 1]


def test_nested_data_dirs_with_different_partitions_still_copy(tmp_path, canary):
    backup = tmp_path / "backup"
    _write(backup / "broker0", [b"a", b"b"])
    _write(backup / "broker1", [b"c", b"d", b"e"], topic="u")
    proc = _cli("rewrite", backup, tmp_path / "dst")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("wrote 2 partitions, 5 batches, 5 records")
    assert _offsets(tmp_path / "dst") == [0, 1, 0, 1, 2]


# -- item 3: partial and corrupt source data ---------------------------------------------


def _segments(part: Path) -> list[Path]:
    return sorted(part.glob("*.log"))


@pytest.fixture
def three_segments(tmp_path: Path) -> Path:
    """One partition, three segments of several batches each."""
    part = _write(tmp_path / "src", [bytes([i]) * 40 for i in range(30)], segment_bytes=1000)
    assert len(_segments(part)) >= 3
    return part


def _batch_starts(log: Path) -> list[int]:
    with open_log(log) as opened:
        return [b.position for b in opened.partitions()[0].segments()[0].iter_batches()]


def _cut(log: Path, keep: int) -> None:
    with open(log, "r+b") as fh:
        fh.truncate(keep)


def test_middle_segment_cut_short_is_exit_1_naming_file_and_byte(three_segments, tmp_path, canary):
    middle = _segments(three_segments)[1]
    starts = _batch_starts(middle)
    _cut(middle, starts[-1] + 20)  # the last batch of the middle segment loses its end
    assert any(p.severity == "error" and p.path == str(middle) for p in verify_path(three_segments))
    dst = tmp_path / "dst"
    proc = _cli("rewrite", three_segments, dst)
    line = _one_line(proc)
    assert proc.returncode == 1 and proc.stdout == "", (proc.stdout, line)
    assert f"(at {middle}, byte {starts[-1]})" in line and "partial batch" in line, line
    assert not dst.exists()


def test_torn_tail_is_exit_1_naming_file_and_byte(three_segments, tmp_path, canary):
    last = _segments(three_segments)[-1]
    starts = _batch_starts(last)
    _cut(last, starts[-1] + 30)
    dst = tmp_path / "dst"
    proc = _cli("rewrite", three_segments, dst)
    line = _one_line(proc)
    assert proc.returncode == 1 and f"(at {last}, byte {starts[-1]})" in line and "partial batch" in line, (
        line
    )
    assert not dst.exists()
    with pytest.raises(KafkaFormatError, match="partial batch") as info:
        copy(three_segments, dst)
    assert info.value.source == str(last) and info.value.position == starts[-1]


def test_corrupt_batch_is_exit_1_naming_file_and_byte(three_segments, tmp_path, canary):
    first = _segments(three_segments)[0]
    starts = _batch_starts(first)
    data = bytearray(first.read_bytes())
    data[starts[2] + 70] ^= 0xFF  # a value byte: the CRC no longer matches
    first.write_bytes(bytes(data))
    dst = tmp_path / "dst"
    proc = _cli("rewrite", three_segments, dst)
    line = _one_line(proc)
    assert proc.returncode == 1 and f"(at {first}, byte {starts[2]})" in line, line
    assert not dst.exists()


def test_skip_corrupt_lists_every_range_left_out(three_segments, tmp_path, canary):
    segs = _segments(three_segments)
    all_offsets = _offsets(three_segments)
    # damage 1: a corrupt batch in the first segment; 2: the middle segment cut short; 3: a torn tail
    first_starts, middle_starts, last_starts = (_batch_starts(s) for s in segs[:2] + segs[-1:])
    data = bytearray(segs[0].read_bytes())
    data[first_starts[2] + 70] ^= 0xFF
    segs[0].write_bytes(bytes(data))
    middle_size, last_size = middle_starts[-1] + 20, last_starts[-1] + 30
    _cut(segs[1], middle_size)
    _cut(segs[-1], last_size)
    dst = tmp_path / "dst"
    proc = _cli("rewrite", three_segments, dst, "--skip-corrupt")
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    out = proc.stdout
    assert "left out (--skip-corrupt): 3 byte ranges" in out, out
    assert f"t-0: {segs[0]} bytes {first_starts[2]}..{first_starts[3]}: corrupt" in out, out
    assert f"t-0: {segs[1]} bytes {middle_starts[-1]}..{middle_size}: partial batch" in out, out
    assert f"t-0: {segs[-1]} bytes {last_starts[-1]}..{last_size}: partial batch" in out, out
    # what was written is every record outside those ranges, nothing else
    kept = _offsets(dst)
    assert set(kept) < set(all_offsets) and len(kept) == len(all_offsets) - 3
    assert [p for p in verify_path(dst) if p.severity == "error"] == []
    report = copy(three_segments, tmp_path / "api", skip_corrupt=True)
    assert [(s.partition, s.path, s.start, s.end) for s in report.left_out] == [
        ("t-0", str(segs[0]), first_starts[2], first_starts[3]),
        ("t-0", str(segs[1]), middle_starts[-1], middle_size),
        ("t-0", str(segs[-1]), last_starts[-1], last_size),
    ]


def test_skip_corrupt_on_clean_source_says_nothing_left_out(three_segments, tmp_path, canary):
    proc = _cli("rewrite", three_segments, tmp_path / "dst", "--skip-corrupt")
    assert proc.returncode == 0 and "left out" not in proc.stdout, proc.stdout
    assert _offsets(tmp_path / "dst") == _offsets(three_segments)


def test_clean_source_copies_every_record(three_segments, tmp_path, canary):
    """The baseline the refusals above protect: a clean source keeps every record."""
    proc = _cli("rewrite", three_segments, tmp_path / "dst")
    assert proc.returncode == 0, proc.stderr
    assert _offsets(tmp_path / "dst") == _offsets(three_segments)


def _undecodable_records(tmp_path: Path) -> tuple[Path, Path, int]:
    """A partition whose third batch has a valid CRC but gzip data that does not decompress."""
    part = tmp_path / "src" / "t-0"
    with PartitionWriter(tmp_path / "src", "t", 0) as w:
        for i in range(5):
            w.append([Record(key=b"k%d" % i, value=b"v" * 200, timestamp=i)] * 3, compression="gzip")
    log = _segments(part)[0]
    at = _batch_starts(log)[2]
    data = bytearray(log.read_bytes())
    end = at + 12 + struct.unpack_from(">i", data, at + 8)[0]
    for i in range(at + 61 + 10, end - 8):  # the deflate stream, past the gzip header
        data[i] ^= 0x5A
    struct.pack_into(">I", data, at + 17, crc32c(bytes(data[at + 21 : end])))
    log.write_bytes(bytes(data))
    return part, log, at


def test_filter_over_undecodable_records_names_file_and_byte(tmp_path, canary):
    part, log, at = _undecodable_records(tmp_path)
    proc = _cli("rewrite", part, tmp_path / "dst", "--where", "True")
    line = _one_line(proc)
    assert proc.returncode == 1 and f"(at {log}, byte {at})" in line, line
    assert not (tmp_path / "dst").exists()
    proc = _cli("rewrite", part, tmp_path / "dst", "--to-magic", "1")
    line = _one_line(proc)
    assert proc.returncode == 1 and str(log) in line and f"byte {at}" in line, line
    proc = _cli("rewrite", part, tmp_path / "dst", "--where", "True", "--skip-corrupt")
    assert proc.returncode == 0 and f"t-0: {log} bytes {at}.." in proc.stdout, proc.stdout
    assert _offsets(tmp_path / "dst") == [0, 1, 2, 3, 4, 5, 9, 10, 11, 12, 13, 14]


def test_skip_corrupt_time_is_linear_in_the_damage(tmp_path):
    """Every other batch corrupt: the copy, its recovery and its list of what was left out grow
    linearly with the source (4x the input under 8x the CPU time, tests/support/timing.py)."""
    from support.timing import GROWTH, assert_linear

    def damaged(name: str, batches: int) -> Path:
        part = _write(tmp_path / name, [bytes([i % 256]) * 40 for i in range(batches)])
        log = _segments(part)[0]
        data = bytearray(log.read_bytes())
        for at in _batch_starts(log)[::2]:
            data[at + 70] ^= 0xFF
        log.write_bytes(bytes(data))
        return part

    small, large = damaged("small", 400), damaged("large", 400 * GROWTH)
    runs = iter(range(1000))

    def rewrite(part: Path, expected: int):
        def run():
            report = copy(part, tmp_path / f"dst{next(runs)}", skip_corrupt=True)
            assert len(report.left_out) == expected

        return run

    assert_linear(rewrite(small, 200), rewrite(large, 200 * GROWTH), what="rewrite --skip-corrupt")
