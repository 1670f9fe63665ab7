"""Property tests: the range reader's head walk (``read_records`` with ``lockstep``) against its batch
iterator (without), over drawn ranges.

:mod:`test_range_head_walk` holds the chosen cases; here hypothesis draws the ranges: v2 batches of every
codec, transactional data of several producers with commit and abort markers and transactions left open,
legacy (magic 0/1) entries mixed in, empty batches (records_count 0, as compaction keeps them),
LogAppendTime, timestamps beyond what the engine or a Spark timestamp holds, batches written alike (the
walk's run of equal lengths). The range may start at any entry of the partition; read_committed is
built as planning builds it (a :class:`~kafkaspec.logdir.kafka.transactions.TransactionScan` over the
whole partition); offset bounds anywhere; the runs cut small or not. Then bytes are broken: a byte
changed anywhere (a head, a length, the records; its CRC made to hold again or not), the tail cut.
Every read runs under both corruption policies, ``verify_crc`` on and off: both paths give the same rows,
skips, torn tail or error text, the same walk, and the audit built from the head walk's read is the
audit's own walk of the bytes. No Spark session.
"""

from __future__ import annotations

from dataclasses import replace

import pyarrow as pa
import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.settings import scaled

import kafkaspec
from kafkaspec.arrow.engine import chain
from kafkaspec.arrow.ranges import RangeReport, ReadRange, Walk, read_records
from kafkaspec.arrow.ranges import read as range_read
from kafkaspec.arrow.schema import SCHEMA
from kafkaspec.codec.compression import CODEC_NAMES
from kafkaspec.codec.crc import crc32c
from kafkaspec.errors import KafkaFormatError
from kafkaspec.logdir.kafka.transactions import ReadCommitted, TransactionScan
from kafkaspec.records import BatchIterator
from kafkaspec.spark.read import audit

PRODUCERS = (11, 12, 13)
BASE_TIME = 1_700_000_000_000
#: a batch's first timestamp: near now, or one no Spark timestamp holds (beyond int64 microseconds)
BASE_TIMES = (
    BASE_TIME,
    BASE_TIME,
    2**62,
    -(2**62),
    9_300_000_000_000_000,
    -9_300_000_000_000_000,
    2**63 - 1001,
)
#: a delta the engine leaves to the per-record decoder (a 10-byte varlong)
SPREAD = 2**62
LEGACY_CODECS = ("none", "gzip", "snappy", "lz4")

record = st.tuples(
    st.one_of(st.none(), st.binary(max_size=8)),
    st.one_of(st.none(), st.binary(max_size=40)),
    st.one_of(st.none(), st.integers(-1000, 1000)),  # the timestamp, from the batch's (None: the builder's)
    st.lists(st.tuples(st.text(max_size=3), st.one_of(st.none(), st.binary(max_size=3))), max_size=2),
    st.integers(0, 2),  # offset gap before the record (compaction)
)
data_batch = st.tuples(
    st.just("data"),
    st.lists(record, min_size=1, max_size=6),
    st.sampled_from(CODEC_NAMES),
    st.sampled_from([None, 1_800_000_000_000, 9_300_000_000_000_000]),  # LogAppendTime's time, or none
    st.one_of(st.none(), st.sampled_from(PRODUCERS)),  # the transactional producer, or none
    st.integers(1, 4),  # written alike this many times
    st.sampled_from(BASE_TIMES),
    st.booleans(),  # the last record SPREAD after the batch's time
)
marker = st.tuples(st.just("marker"), st.sampled_from(["commit", "abort"]), st.sampled_from(PRODUCERS))
empty = st.tuples(st.just("empty"), st.one_of(st.none(), st.sampled_from(PRODUCERS)), st.integers(0, 3))
legacy = st.tuples(
    st.just("legacy"),
    st.sampled_from([0, 1]),
    st.sampled_from(LEGACY_CODECS),
    st.lists(st.tuples(st.binary(max_size=8), st.integers(0, 1)), min_size=1, max_size=4),
)
entry = st.one_of(data_batch, data_batch, marker, empty, legacy)


def build(specs: list) -> tuple[bytes, list[int]]:
    """The entries' bytes, and where each entry starts."""
    out: list[bytes] = []
    offset = 0
    for spec in specs:
        kind = spec[0]
        if kind == "marker":
            _, what, pid = spec
            out.append(
                kafkaspec.build_control_batch(
                    what, producer_id=pid, producer_epoch=0, base_offset=offset, timestamp=BASE_TIME
                )
            )
            offset += 1
        elif kind == "empty":
            _, pid, delta = spec
            txn = pid is not None
            out.append(
                kafkaspec.build_batch(
                    [],
                    base_offset=offset,
                    last_offset_delta=delta,
                    producer_id=pid if txn else -1,
                    producer_epoch=0 if txn else -1,
                    is_transactional=txn,
                )
            )
            offset += delta + 1
        elif kind == "legacy":
            _, magic, codec, rows = spec
            records = []
            for value, gap in rows:
                offset += gap
                records.append(kafkaspec.Record(value=value, timestamp=BASE_TIME, offset=offset))
                offset += 1
            out.append(
                kafkaspec.build_batch(records, magic=magic, compression=codec, base_offset=records[0].offset)
            )
        else:
            _, rows, codec, log_append, pid, times, base, spread = spec
            for _ in range(times):
                records, first = [], offset
                for i, (k, v, t, h, gap) in enumerate(rows):
                    offset += gap if i else 0
                    at = None if t is None else base + t
                    if at is not None and spread and i == len(rows) - 1 and i and base < SPREAD:
                        at += SPREAD
                    records.append(kafkaspec.Record(key=k, value=v, timestamp=at, headers=h, offset=offset))
                    offset += 1
                txn = pid is not None
                out.append(
                    kafkaspec.build_batch(
                        records,
                        compression=codec,
                        base_offset=first,
                        timestamp_type="create" if log_append is None else "log_append",
                        log_append_time=log_append,
                        producer_id=pid if txn else -1,
                        producer_epoch=0 if txn else -1,
                        base_sequence=0 if txn else -1,
                        is_transactional=txn,
                    )
                )
    starts = [0]
    for b in out:
        starts.append(starts[-1] + len(b))
    return b"".join(out), starts


def read_committed(data: bytes) -> ReadCommitted:
    """The partition's transactions as planning finds them: a scan of every entry in offset order."""
    scan = TransactionScan()
    for batch in BatchIterator(data, check_records=False):
        try:
            scan.add(batch)
        except KafkaFormatError:  # a control batch whose record does not decode: no marker
            continue
    return ReadCommitted(list(scan.aborted), dict(scan.ongoing))


def _read(task: ReadRange, data: bytes) -> tuple[tuple, Walk]:
    report, walk = RangeReport(), Walk()
    try:
        table = pa.Table.from_batches(list(read_records(task, report, buf=data, walk=walk)), schema=SCHEMA)
    except KafkaFormatError as exc:
        return ("error", str(exc)), walk
    skips = [(s.start, s.end, s.reason, s.rule) for s in report.skipped]
    at = table.schema.get_field_index("timestamp")  # as int64: Python's datetime ends at the year 9999
    table = table.set_column(at, "timestamp", table.column(at).cast(pa.int64()))
    return ("ok", table.to_pylist(), skips, report.partial), walk


def _walked(walk: Walk) -> tuple:
    return [(e.position, e.end) for e in walk.entries], walk.complete, walk.clean


def check(task: ReadRange, data: bytes) -> tuple:
    """Both paths agree on ``task`` over ``data`` (and the audit on the head walk's read): the outcome."""
    walked, walked_walk = _read(replace(task, lockstep=True), data)
    iterated, iterated_walk = _read(replace(task, lockstep=False), data)
    assert walked == iterated
    if walked[0] == "ok":  # after an error the read's walk is not used: the task fails with the error
        assert _walked(walked_walk) == _walked(iterated_walk)
        if walked_walk.clean:
            assert audit.audit_batch(task, data, walked_walk).to_pylist() == list(
                audit.audit_rows(task, data)
            )
    return walked


def _tasks(
    path_start: int, data: bytes, rc: ReadCommitted | None, lo, hi, control: bool, limit: int | None = None
) -> list[ReadRange]:
    """The range's task under both corruption policies, CRCs checked or not (``limit``: the bytes a batch
    may decompress to, else the default)."""
    extra = {} if limit is None else {"max_decompressed": limit}
    return [
        ReadRange(
            "fuzz.log",
            "t",
            0,
            path_start,
            path_start + len(data),
            min_offset=lo,
            max_offset=hi,
            read_committed=rc,
            include_control=control,
            verify_crc=verify,
            skip_corrupt=skip,
            **extra,
        )
        for skip in (False, True)
        for verify in (True, False)
    ]


bound = st.one_of(st.none(), st.integers(0, 60))
#: how small the runs are cut (the read's constants, both paths alike): whole, a few rows, a few bytes
cuts = st.sampled_from([None, (1, None), (3, None), (None, 800), (2, 2000)])


def _range(draw, specs) -> tuple[bytes, bytes, int, ReadCommitted | None]:
    """The partition's bytes, the range's (from a drawn entry on), its file position and read_committed."""
    whole, starts = build(specs)
    first = draw.draw(st.integers(0, len(specs) - 1)) if draw.draw(st.booleans()) else 0
    rc = draw.draw(st.sampled_from(["scan", "none", "empty"]))
    committed = {"scan": read_committed(whole), "none": None, "empty": ReadCommitted([])}[rc]
    return whole, whole[starts[first] :], starts[first], committed


def _cut(m: pytest.MonkeyPatch, cut) -> None:
    if cut is None:
        return
    rows, stored = cut
    if rows is not None:
        m.setattr(range_read, "ROWS_PER_ARROW_BATCH", rows)
    if stored is not None:
        m.setattr(range_read, "BYTES_PER_ARROW_RUN", stored)


@scaled(3)
@given(
    specs=st.lists(entry, min_size=1, max_size=10),
    lo=bound,
    hi=bound,
    control=st.booleans(),
    cut=cuts,
    draw=st.data(),
)
def test_drawn_ranges_read_alike(specs, lo, hi, control, cut, draw):
    """Whole entries, no corruption: the same rows (or the same error: a timestamp beyond Spark's)."""
    _, data, at, rc = _range(draw, specs)
    with pytest.MonkeyPatch.context() as m:
        _cut(m, cut)
        for task in _tasks(at, data, rc, lo, hi, control):
            check(task, data)


def _fix_crc(data: bytearray, start: int, end: int) -> None:
    """Make the v2 batch at ``start`` (ending at ``end``) hold its CRC again."""
    data[start + 17 : start + 21] = crc32c(bytes(data[start + 21 : end])).to_bytes(4, "big")


mutation = st.tuples(
    st.sampled_from(["head", "anywhere", "records", "truncate"]),
    st.integers(0, 2**32),  # which entry / where, reduced modulo the range
    st.sampled_from([0x00, 0x01, 0x02, 0x7F, 0x80, 0xFF, None]),  # the new byte (None: a bit flipped)
    st.booleans(),  # the CRC made to hold again
)


@pytest.mark.hostile
@scaled(2)
@given(
    specs=st.lists(entry, min_size=1, max_size=8),
    mutations=st.lists(mutation, min_size=1, max_size=3),
    lo=bound,
    hi=bound,
    control=st.booleans(),
    cut=cuts,
    draw=st.data(),
)
def test_broken_ranges_read_alike(specs, mutations, lo, hi, control, cut, draw):
    """Bytes changed in heads, lengths and records (CRC fixed or not), the tail cut: the same rows,
    skips, torn tail or error, under both policies, CRCs checked or not."""
    _, clean, at, rc = _range(draw, specs)
    _, bounds = build(specs)
    bounds = [b - at for b in bounds if b >= at]
    data = bytearray(clean)
    for where, n, value, fix in mutations:
        if not data:
            break
        i = n % max(len(bounds) - 1, 1)
        start, end = bounds[i], min(bounds[i + 1], len(data))
        if where == "truncate":
            del data[n % len(data) :]
            continue
        if where == "head":
            pos = start + n % 61
        elif where == "records":
            pos = start + 61 + n % max(end - start - 61, 1)
        else:
            pos = n % len(data)
        if pos >= len(data):
            continue
        data[pos] = data[pos] ^ (1 << (n % 8)) if value is None else value
        if fix and end <= len(data) and end - start >= 61 and data[start + 16] == 2 and pos >= start + 21:
            _fix_crc(data, start, end)
    with pytest.MonkeyPatch.context() as m:
        _cut(m, cut)
        if draw.draw(st.booleans()):
            m.setattr(chain, "LOCKSTEP_MIN_BATCHES", 1)
        limit = draw.draw(st.sampled_from([None, None, 40, 300]))  # a small one refuses some batches
        for task in _tasks(at, bytes(data), rc, lo, hi, control, limit):
            check(task, bytes(data))


# -- what the properties found ------------------------------------------------------------------------


def test_a_held_batch_that_ends_the_walk_is_not_read():
    """read_committed over a range that starts past the last stable offset (the open transaction began in
    an earlier range), its one batch the walk's last: nothing is read, as the selection stops there (the
    head walk read the held batch's records and went on past it)."""
    held = kafkaspec.build_batch([kafkaspec.Record(value=b"held", timestamp=BASE_TIME)], base_offset=1)
    task = ReadRange("fuzz.log", "t", 0, 100, 100 + len(held), read_committed=ReadCommitted([], {11: 0}))
    assert check(task, held) == ("ok", [], [], None)


def test_the_batch_at_the_end_offset_is_not_decoded_when_it_ends_the_walk():
    """The range's last batch starts at the end offset: the read stops before it (not complete), so a
    record of it that no Spark timestamp holds is no error of this read."""
    far = kafkaspec.build_batch(
        [kafkaspec.Record(value=b"v", timestamp=BASE_TIME)],
        base_offset=3,
        timestamp_type="log_append",
        log_append_time=9_300_000_000_000_000,
    )
    data = b"".join(
        [
            *(
                kafkaspec.build_batch([kafkaspec.Record(value=b"v", timestamp=BASE_TIME)], base_offset=i)
                for i in range(3)
            ),
            far,
        ]
    )
    for skip in (False, True):
        got = check(ReadRange("fuzz.log", "t", 0, 0, len(data), max_offset=3, skip_corrupt=skip), data)
        assert got[0] == "ok" and [r["offset"] for r in got[1]] == [0, 1, 2]


@pytest.mark.hostile
def test_a_wrapper_the_read_passed_over_is_audited_as_its_own_row():
    """A legacy wrapper whose compressed records are broken, before the start offset: the read passes
    over it by its offset (never decompressed) and is clean; its audit row says what is wrong with it
    (the pipeline's audit failed on its first offset, the audit view reported the good batch after it)."""
    old = bytearray(
        kafkaspec.build_batch(
            [kafkaspec.Record(value=b"old", timestamp=1, offset=0)], magic=1, compression="gzip"
        )
    )
    old[-4] ^= 0xFF  # the gzip member's length check
    data = bytes(old) + kafkaspec.build_batch([kafkaspec.Record(value=b"new", timestamp=1)], base_offset=1)
    task = ReadRange("fuzz.log", "t", 0, 0, len(data), min_offset=1, verify_crc=False)
    got = check(task, data)
    assert [r["value"] for r in got[1]] == [b"new"]
    rows = list(audit.audit_rows(task, data))
    assert [(r["position"], r["magic"], r["crcStatus"]) for r in rows] == [
        (0, 1, "corrupt"),
        (len(old), 2, "ok"),
    ]
    assert "gzip" in rows[0]["error"] and rows[0]["lastOffset"] == 0


@pytest.mark.hostile
def test_an_entry_that_fails_after_a_batch_the_engine_declines():
    """A batch whose LogAppendTime no Spark timestamp holds (the engine declines it), then an entry whose
    checksum fails: the checksum's error, as without the head walk (the value is named when the rows are
    built, after the entries the iterator reads next); under ``skip`` the entry is skipped and the value
    is the error."""
    batches = [
        kafkaspec.build_batch(
            [kafkaspec.Record(value=b"v", timestamp=BASE_TIME)],
            base_offset=i,
            timestamp_type="log_append",
            log_append_time=9_300_000_000_000_000,
        )
        for i in range(2)
    ]
    data = bytearray(b"".join(batches))
    data[len(batches[0]) + 16] = 0  # the second one's magic: a legacy message whose CRC fails
    got = check(ReadRange("fuzz.log", "t", 0, 0, len(data)), bytes(data))
    assert got[0] == "error" and "crc" in got[1] and f"byte {len(batches[0])}" in got[1]
    got = check(ReadRange("fuzz.log", "t", 0, 0, len(data), skip_corrupt=True), bytes(data))
    assert got[0] == "error" and "beyond a Spark timestamp" in got[1]


def test_a_value_beyond_a_spark_timestamp_is_named_by_its_batch():
    """The record is counted in its batch: the read's runs (a v2 batch before a legacy entry decoded on
    its own by the engine, or with the entries after it) do not change the message."""
    plain = [kafkaspec.Record(value=b"v", timestamp=BASE_TIME)]
    data = b"".join(
        [
            kafkaspec.build_batch(plain, base_offset=0),
            kafkaspec.build_batch(plain, magic=0, base_offset=1),
            kafkaspec.build_batch(plain, base_offset=2),
            kafkaspec.build_batch(
                plain * 2, base_offset=3, timestamp_type="log_append", log_append_time=9_300_000_000_000_000
            ),
        ]
    )
    got = check(ReadRange("fuzz.log", "t", 0, 0, len(data)), data)
    assert got[0] == "error" and "(record 0 of the batch at byte " in got[1], got


def test_the_audit_decompresses_within_the_tasks_limit():
    """The audit's own walk keeps to the task's ``max_decompressed``, as the read's does (it used the
    default: a wrapper the read could not open was audited as whole)."""
    records = [kafkaspec.Record(value=b"", timestamp=1, offset=i) for i in range(2)]
    data = kafkaspec.build_batch(records, magic=0, compression="gzip")
    task = ReadRange("fuzz.log", "t", 0, 0, len(data), min_offset=2, max_decompressed=40)
    check(task, data)
    row = list(audit.audit_rows(task, data))[0]
    assert row["crcStatus"] == "corrupt" and "max_decompressed=40" in row["error"]
