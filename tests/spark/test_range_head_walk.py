"""The range reader's head walk (``read_records`` with ``lockstep``) against its batch iterator (without).

With ``lockstep`` the range reader finds the v2 batches at the start of its range with the vectorised
head walk (``kafkaspec.arrow.walk``), checks their CRCs at once, selects them from their heads and
decodes them in runs; at the first entry the walk does not vouch for, the batch iterator takes over.
Without it every entry comes from the batch iterator. Here both read the same bytes, clean and broken
(a CRC that fails mid-range, a torn tail, a legacy entry after v2 batches, a timestamp the engine leaves
to the per-record decoder), under both corruption policies, with offset bounds and read_committed
(which stops at the last stable offset): the same rows, skips, torn tail or error, and the same walk
(:class:`~kafkaspec.arrow.ranges.Walk`: the entries the pipeline's audit is built from).
No Spark session.
"""

from __future__ import annotations

import struct
from dataclasses import replace
from pathlib import Path

import pyarrow as pa
import pytest

import kafkaspec
from kafkaspec import logdir
from kafkaspec.arrow.ranges import RangeReport, ReadRange, Walk, read_records
from kafkaspec.arrow.schema import SCHEMA
from kafkaspec.codec.crc import crc32c
from kafkaspec.errors import KafkaFormatError
from kafkaspec.generated import record_batch_v2 as v2
from kafkaspec.records import BatchIterator
from kafkaspec.spark.read import audit
from kafkaspec.spark.read.options import ReadOptions
from kafkaspec.spark.read.planning import plan


def _read(task: ReadRange, data: bytes) -> tuple:
    """What a read gives: rows, skips, torn tail and its walk; or the error (and the walk so far)."""
    report, walk = RangeReport(), Walk()
    try:
        table = pa.Table.from_batches(list(read_records(task, report, buf=data, walk=walk)), schema=SCHEMA)
    except KafkaFormatError as exc:
        return ("error", str(exc)), _walked(walk)
    skips = [(s.start, s.end, s.reason, s.rule) for s in report.skipped]
    return ("ok", table.to_pylist(), skips, report.partial), _walked(walk)


def _walked(walk: Walk) -> tuple:
    return [(e.position, e.end) for e in walk.entries], walk.complete, walk.clean


def _same(task: ReadRange, data: bytes) -> tuple:
    walked, walked_walk = _read(replace(task, lockstep=True), data)
    iterated, iterated_walk = _read(replace(task, lockstep=False), data)
    assert walked == iterated
    if walked[0] == "ok":  # (after an error the read's walk is not used: the task fails with the error)
        assert walked_walk == iterated_walk
    return walked


def _batches(n: int, *, first_offset: int = 0, codec: str = "zstd") -> list[bytes]:
    out = []
    for i in range(n):
        records = [
            kafkaspec.Record(key=b"k%d" % j, value=b"v%d-%d" % (i, j) * 5, timestamp=1_700_000_000_000 + i)
            for j in range(3)
        ]
        out.append(kafkaspec.build_batch(records, compression=codec, base_offset=first_offset + 3 * i))
    return out


def _task(data: bytes, **kw) -> ReadRange:
    return ReadRange("walk.log", "t", 0, 0, len(data), **kw)


@pytest.mark.parametrize("skip", [False, True])
@pytest.mark.parametrize("verify", [False, True])
def test_a_crc_failing_mid_range(skip, verify):
    batches = _batches(12)
    broken = bytearray(batches[7])
    broken[-3] ^= 0x40  # inside the compressed records: the CRC no longer holds
    data = b"".join([*batches[:7], bytes(broken), *batches[8:]])
    got = _same(_task(data, skip_corrupt=skip, verify_crc=verify), data)
    if verify and not skip:
        assert got[0] == "error" and "crc" in got[1]
    elif verify:
        assert got[0] == "ok" and len(got[2]) == 1 and len(got[1]) == 33  # one batch of 3 records skipped


@pytest.mark.parametrize("skip", [False, True])
def test_a_torn_tail_and_a_legacy_entry_after_v2_batches(skip):
    legacy = kafkaspec.build_batch(
        [kafkaspec.Record(key=b"old", value=b"legacy", timestamp=1_700_000_000_000)], magic=1, base_offset=30
    )
    tail = _batches(1, first_offset=31)[0]
    data = b"".join([*_batches(10), legacy, *_batches(2, first_offset=32), tail[: len(tail) // 2]])
    got = _same(_task(data, skip_corrupt=skip), data)
    assert got[0] == "ok" and len(got[1]) == 30 + 1 + 6 and got[3] is not None


def test_offset_bounds_cut_the_batches_they_fall_in():
    data = b"".join(_batches(20, codec="none"))
    for lo, hi in [(None, None), (4, None), (None, 31), (4, 31), (30, 31), (59, 60), (60, None)]:
        got = _same(_task(data, min_offset=lo, max_offset=hi), data)
        offsets = [r["offset"] for r in got[1]]
        assert offsets == list(range(lo or 0, min(hi or 60, 60)))


def test_a_timestamp_the_engine_leaves_to_the_per_record_decoder():
    far = kafkaspec.build_batch(
        [kafkaspec.Record(key=b"k", value=b"v", timestamp=2**62)], compression="none", base_offset=30
    )
    data = b"".join([*_batches(10), far, *_batches(2, first_offset=31)])
    for skip in (False, True):
        got = _same(_task(data, skip_corrupt=skip), data)
        assert got[0] == "error" or got[2], got[:1]  # named by the per-record decoder, or skipped and named


def test_transactions_and_the_last_stable_offset(txn_dir):
    """read_committed stops at the open transaction's first batch (the selection's stop): the walk ends
    there too, not complete, as the batch iterator's."""
    seen = []
    for options in ({"isolationLevel": "read_uncommitted"}, {}, {"includeControl": "true"}):
        values = []
        for task in plan(str(txn_dir), ReadOptions.parse({"splitSize": "1m", **options})):
            data = Path(task.path).read_bytes()[task.start : task.end]
            got = _same(task, data)
            assert got[0] == "ok"
            values += [r["value"] for r in got[1]]
        seen.append(len(values))
    assert seen == [9, 5, 5 + 2], seen  # all; the committed before the open transaction; + the two markers


def test_synth_ranges_and_their_audit_rows(synth_dir):
    """Every codec, magic 0/1/2, compaction, transactions: the same reads, and the audit built from the
    head walk's read equals the audit's own walk of the bytes."""
    rows = 0
    options = [{}, {"isolationLevel": "read_committed"}, {"verifyCrc": "false"}]
    for opts in options:
        for task in plan(str(synth_dir), ReadOptions.parse({"view": "batches", "splitSize": "256k", **opts})):
            if task.unused is not None:
                continue
            data = Path(task.path).read_bytes()[task.start : task.end]
            got = _same(task, data)
            rows += len(got[1])
            walk = Walk()
            for _ in read_records(replace(task, lockstep=True), buf=data, walk=walk):
                pass
            fast = audit.audit_batch(task, data, walk).to_pylist()
            assert fast == list(audit.audit_rows(task, data)), task
    assert rows > 50_000


def test_the_walks_entries_are_the_iterators(synth_dir):
    """``Walk.entries`` makes the head walk's batches into the objects the batch iterator gives."""
    segments = [s.path for p in logdir.open_log(synth_dir).partitions() for s in p.segments()]
    path = max(  # the largest segment that starts with a v2 batch
        (p for p in segments if Path(p).read_bytes()[16:17] == b"\x02"), key=lambda p: Path(p).stat().st_size
    )
    data = Path(path).read_bytes()
    walk = Walk()
    for _ in read_records(ReadRange(str(path), "t", 0, 0, len(data)), buf=data, walk=walk):
        pass
    assert len(walk.vouched) > 10
    expected = list(BatchIterator(data, check_records=False))
    assert [(e.position, e.end, e.base_offset) for e in walk.entries] == [
        (e.position, e.end, e.base_offset) for e in expected
    ]


def _with(batch: bytes, at: int, fmt: str, value: int) -> bytes:
    """``batch`` with the field at ``at`` set to ``value``, its CRC made to hold again."""
    out = bytearray(batch)
    struct.pack_into(fmt, out, at, value)
    struct.pack_into(">I", out, v2.CRC_OFFSET, crc32c(bytes(out[v2.ATTRIBUTES_OFFSET :])))
    return bytes(out)


@pytest.mark.hostile
@pytest.mark.parametrize("count", [2**31 - 1, -(2**31), 2**31 - 2])
@pytest.mark.parametrize("skip", [False, True])
def test_a_records_count_near_2_31_reads_as_without_the_walk(count, skip):
    """A head claiming about 2^31 records (its CRC holding): the same error or skip either way, and
    nothing allocated for the count (the range is a few hundred bytes)."""
    batches = _batches(6, codec="none")
    data = b"".join([*batches[:3], _with(batches[3], v2.RECORDS_COUNT_OFFSET, ">i", count), *batches[4:]])
    got = _same(_task(data, skip_corrupt=skip), data)
    assert got[0] == "error" if not skip else (got[0] == "ok" and got[2])


@pytest.mark.hostile
def test_a_batch_length_near_2_31_is_a_torn_tail_either_way():
    batches = _batches(4, codec="none")
    data = b"".join([*batches[:2], _with(batches[2], v2.BATCH_LENGTH_OFFSET, ">i", 2**31 - 1), batches[3]])
    for skip in (False, True):
        _same(_task(data, skip_corrupt=skip), data)


def test_two_copies_of_the_same_batches_read_alike():
    """A range holding the same batches twice (a copy appended to itself): both paths give both copies'
    rows, as the batch iterator always did; deduplication is no reader's business."""
    batches = _batches(5)
    data = b"".join(batches * 2)
    got = _same(_task(data), data)
    assert [r["offset"] for r in got[1]] == [*range(15), *range(15)]


def test_a_walk_does_not_print_the_range():
    """``repr(Walk)`` (a log line, a test failure) shows what was walked, not the range's bytes."""
    data = b"".join(_batches(50))
    walk = Walk()
    for _ in read_records(_task(data), buf=data, walk=walk):
        pass
    assert len(walk.vouched) == 50 and len(repr(walk)) < len(data) // 4
