"""``dump --skip-corrupt`` decodes a batch's records once.

Recovery mode (``on_corrupt="skip"``) decodes each batch's records before yielding it, so that a
batch whose records do not decode is skipped like any corrupt entry; a batch of more than
``STREAM_CHUNK`` records was streamed for that check and its records thrown away, and ``dump`` then
decoded them all again to print them. The check now keeps what it decoded for the printing (up to
``CHECK_KEEP_BYTES``, a bounded list), so each record is decoded once; the output and the skip
reports are those of a dump without the check's list.

The decoders are spied on: every record the decoding functions return is counted by its batch's
base offset.
"""

from __future__ import annotations

import json
import struct
from collections import Counter

import crc32c
import pytest
from test_cli_logdir import run

import kafkaspec
import kafkaspec.record_batch
import kafkaspec.records
from kafkaspec.generated import record_batch_v2 as v2
from kafkaspec.records import STREAM_CHUNK

LARGE = 20_000
TS = 1_700_000_000_000


def _records_cut(base_offset: int, n: int) -> bytes:
    """A batch of ``n`` records whose records region ends inside its last record (its CRC made right):
    its framing is good, its records do not decode."""
    good = kafkaspec.build_batch(values=[b"value"] * n, timestamps=[TS] * n, base_offset=base_offset)
    out = bytearray(good[:-4])
    out[8:12] = struct.pack(">i", len(out) - 12)
    return bytes(out[:17]) + struct.pack(">I", crc32c.crc32c(bytes(out[21:]))) + bytes(out[21:])


@pytest.fixture
def segment(tmp_path):
    """A partition: a large good batch, a batch whose records do not decode, a batch whose CRC is wrong,
    a small good batch. Returns (partition dir, positions of the two bad batches, end of the file)."""
    part = tmp_path / "logs" / "t-0"
    part.mkdir(parents=True)
    (tmp_path / "canary").write_text("stays")
    large = kafkaspec.build_batch(
        keys=[b"k%d" % i for i in range(LARGE)],
        values=[b"v" * (i % 40) for i in range(LARGE)],
        timestamps=[TS + i for i in range(LARGE)],
        compression="zstd",
    )
    cut = _records_cut(LARGE, STREAM_CHUNK * 2 + 3)
    bad_crc = bytearray(
        kafkaspec.build_batch(values=[b"x"] * 5, timestamps=[TS] * 5, base_offset=LARGE + 5000)
    )
    bad_crc[-1] ^= 0xFF
    small = kafkaspec.build_batch(values=[b"s"] * 3, timestamps=[TS] * 3, base_offset=LARGE + 6000)
    data = large + cut + bytes(bad_crc) + small
    (part / "00000000000000000000.log").write_bytes(data)
    return part, (len(large), len(large) + len(cut)), len(large) + len(cut) + len(bad_crc)


@pytest.fixture
def decoded(monkeypatch) -> Counter:
    """Records returned by the record decoders, counted by their batch's base offset."""
    counts: Counter = Counter()
    streamed = kafkaspec.record_batch.decode_record_array
    whole = v2.decode_record_batch_rest

    def spy_array(data, at, n, base_offset, *rest):
        records, end = streamed(data, at, n, base_offset, *rest)
        counts[base_offset] += len(records)
        return records, end

    def spy_whole(buf, position, head, *rest, **kw):
        got = whole(buf, position, head, *rest, **kw)
        counts[head.base_offset] += len(got[0])
        return got

    monkeypatch.setattr(kafkaspec.record_batch, "decode_record_array", spy_array)
    monkeypatch.setattr(v2, "decode_record_batch_rest", spy_whole)
    return counts


@pytest.mark.parametrize(
    "flags", [[], ["--print-data"], ["--json"], ["--json", "--print-data"]], ids=" ".join
)
def test_dump_skip_corrupt_decodes_a_large_batch_once(segment, decoded, flags):
    part, (cut_at, crc_at), small_at = segment
    code, out, err = run("dump", part, "--skip-corrupt", *flags)
    assert code == 1
    assert (
        decoded[0] == LARGE
    )  # each record of the large batch decoded once (twice before: check, then print)
    assert decoded[LARGE + 6000] == 3
    if "--json" in flags:
        rows = [json.loads(line) for line in out.splitlines()]
        offsets = [r["offset"] for r in rows if r["type"] == "record"]
        positions = [r["position"] for r in rows if r["type"] == "batch"]
    else:
        offsets = [int(line.split()[2]) for line in out.splitlines() if line.startswith("| offset:")]
        positions = [
            int(line.split("position: ")[1].split()[0])
            for line in out.splitlines()
            if line.startswith("baseOffset:")
        ]
    assert offsets == [*range(LARGE), LARGE + 6000, LARGE + 6001, LARGE + 6002]
    assert positions == [0, small_at]
    reports = err.splitlines()
    assert len(reports) == 2 and all(str(part / "00000000000000000000.log") in r for r in reports)
    assert f" at byte {cut_at}: " in reports[0] and f"(bytes {cut_at}..{crc_at} skipped;" in reports[0]
    assert f" at byte {crc_at}: " in reports[1] and f"(bytes {crc_at}..{small_at} skipped;" in reports[1]
    assert (part.parent.parent / "canary").read_text() == "stays"


def test_a_batch_beyond_the_kept_size_is_streamed_twice(tmp_path, decoded):
    """Above CHECK_KEEP_BYTES (estimated) the check streams and keeps nothing, as before the list was
    kept: memory stays bounded by one chunk, and the printing decodes those records again."""
    part = tmp_path / "t-0"
    part.mkdir()
    n = kafkaspec.records.CHECK_KEEP_BYTES // kafkaspec.records.RECORD_COST + 1
    data = kafkaspec.build_batch(values=[b"v"] * n, timestamps=[TS] * n, compression="zstd")
    (part / "00000000000000000000.log").write_bytes(data + _records_cut(n, STREAM_CHUNK + 2))
    (batch,) = kafkaspec.iter_batches(data, on_corrupt="skip")
    assert batch._records is None
    decoded.clear()
    code, out, err = run("dump", part, "--skip-corrupt", "--json")
    assert code == 1 and out.count('"type":"record"') == n and f"at byte {len(data)}: " in err
    assert decoded[0] == 2 * n


def test_a_batch_of_many_headers_is_not_kept(tmp_path):
    """Headers count in the kept list's size as they are decoded: few bytes of empty headers would make
    a list many times their size, so the check drops what it gathered and keeps nothing."""
    n, each = STREAM_CHUNK * 2, 80
    headers = kafkaspec.records.HEADER_COST * n * each
    assert headers > kafkaspec.records.CHECK_KEEP_BYTES  # the headers put it over the bound
    data = kafkaspec.build_batch(values=[b"v"] * n, timestamps=[TS] * n, headers=[[("", b"")] * each] * n)
    assert (
        len(data) + kafkaspec.records.RECORD_COST * n < kafkaspec.records.CHECK_KEEP_BYTES
    )  # the rest does not
    (batch,) = kafkaspec.iter_batches(data, on_corrupt="skip")
    assert batch._records is None
    assert list(batch) == next(iter(kafkaspec.iter_batches(data))).records


def test_a_kept_list_is_what_the_batch_gives(decoded):
    """The list the check keeps is ``records`` (LogAppendTime applied), and iterating the batch gives it."""
    n = STREAM_CHUNK * 3 + 5
    data = kafkaspec.build_batch(
        keys=[b"k%d" % i if i % 3 else None for i in range(n)],
        values=[b"v" * (i % 50) for i in range(n)],
        timestamps=[1_000 + i for i in range(n)],
        headers=[[("h", b"%d" % i)] if i % 7 == 0 else [] for i in range(n)],
        compression="gzip",
        base_offset=100,
        timestamp_type="log_append",
    )
    (checked,) = kafkaspec.iter_batches(data, on_corrupt="skip")
    assert decoded[100] == n
    assert list(checked) == checked.records == next(iter(kafkaspec.iter_batches(data))).records
    assert decoded[100] == 2 * n  # the unchecked batch's decode, not the checked one's again


@pytest.mark.parametrize("flags", [["--where", "offset % 2 == 0"], ["--compression", "gzip"]], ids=" ".join)
def test_rewrite_skip_corrupt_decodes_a_large_batch_once(segment, decoded, tmp_path, flags):
    """``rewrite --skip-corrupt`` rebuilding batches (a filter, another codec) reads their records once too."""
    part, (cut_at, crc_at), small_at = segment
    _, out, err = run("rewrite", part.parent, tmp_path / "copy", "--skip-corrupt", *flags)
    assert decoded[0] == LARGE and decoded[LARGE + 6000] == 3
    assert "left out (--skip-corrupt): 2 byte ranges" in out, err
    assert f"bytes {cut_at}..{crc_at}: " in out and f"bytes {crc_at}..{small_at}: " in out
    code, out, _ = run("dump", tmp_path / "copy", "--json")
    offsets = [r["offset"] for r in map(json.loads, out.splitlines()) if r["type"] == "record"]
    expected = [*range(LARGE), LARGE + 6000, LARGE + 6001, LARGE + 6002]
    assert code == 0 and offsets == ([o for o in expected if o % 2 == 0] if "--where" in flags else expected)
    assert (part.parent.parent / "canary").read_text() == "stays"
