"""The columnar engine (kafkaspec.arrow.engine) against the per-record decoder: same columns, same errors.

No Spark session: the reader's decode (``read_records``) runs with ``lockstep`` on and off over the
corpus, hypothesis batches (headers, null keys and values, every codec, LogAppendTime, control
batches, many batches per run) and hostile batches (bytes changed inside the records, the CRC made to
hold again so the record checks are what meets them). Each input also runs with the lockstep
threshold at 1, so both the numpy walk and the plain-Python tail of long batches are covered.
"""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kafkaspec
from kafkaspec import logdir
from kafkaspec.arrow import engine as lockstep
from kafkaspec.arrow.engine import chain
from kafkaspec.arrow.ranges import RangeReport, ReadRange, read_records
from kafkaspec.arrow.schema import HEADERS_TYPE, SCHEMA
from kafkaspec.codec.compression import CODEC_NAMES
from kafkaspec.codec.crc import crc32c
from kafkaspec.errors import KafkaFormatError
from kafkaspec.records import BatchIterator
from kafkaspec.spark.read.options import ReadOptions
from kafkaspec.spark.read.planning import plan

EXAMPLES = int(os.environ.get("KAFKASPEC_FUZZ_EXAMPLES", "300")) // 3


def outcome(task: ReadRange, data: bytes) -> tuple:
    """What the reader gives: the table, what it skipped and the torn tail; or the error."""
    report = RangeReport()
    try:
        table = pa.Table.from_batches(list(read_records(task, report, buf=data)), schema=SCHEMA)
    except KafkaFormatError as exc:
        return "error", type(exc).__name__, str(exc)
    return "ok", table, [(s.start, s.end, s.reason, s.rule) for s in report.skipped], report.partial


def assert_same(task: ReadRange, data: bytes, monkeypatch) -> tuple:
    """Both engines (and the engine with every batch walked in lockstep) give the same outcome."""
    expected = outcome(replace(task, lockstep=False), data)
    got = outcome(replace(task, lockstep=True), data)
    _equal(got, expected)
    with monkeypatch.context() as m:
        m.setattr(chain, "LOCKSTEP_MIN_BATCHES", 1)  # where the walk reads it
        _equal(outcome(replace(task, lockstep=True), data), expected)
    return expected


def _equal(got: tuple, expected: tuple) -> None:
    assert got[0] == expected[0], (got, expected)
    if got[0] == "error":
        assert got == expected
    else:
        assert got[1].equals(expected[1]), (got[1].to_pylist()[:3], expected[1].to_pylist()[:3])
        assert got[2:] == expected[2:]


def _tasks(data: bytes, path: str = "vector.log") -> list[ReadRange]:
    return [
        ReadRange(path, "t", 0, 0, len(data), skip_corrupt=skip, include_control=True)
        for skip in (False, True)
    ]


def engine_accepts(data: bytes) -> bool:
    """Whether the engine itself decoded every v2 batch of ``data`` (no fallback)."""
    batches = list(BatchIterator(data, check_records=False))
    return lockstep.decode_batches(data, batches, HEADERS_TYPE) is not None


# -- the corpus ---------------------------------------------------------------------------------------


def _vectors() -> list[dict]:
    from support.corpus import load_vectors

    return load_vectors()


@pytest.mark.parametrize("vector", _vectors(), ids=lambda v: v["id"])
def test_corpus_vectors(vector, corpus, monkeypatch):
    data = bytes.fromhex(vector["hex"])
    for task in _tasks(data):
        assert_same(task, data, monkeypatch)


def test_corpus_segments(corpus, monkeypatch):
    logs = sorted(Path(corpus, "files").rglob("*.log"))
    assert logs, "the corpus has .log segments"
    rows = 0
    for path in logs:
        data = path.read_bytes()
        for task in _tasks(data, str(path)):
            result = assert_same(task, data, monkeypatch)
            rows += result[1].num_rows if result[0] == "ok" else 0
    assert rows > 1000


def test_synth_dir_with_filters(synth_dir, monkeypatch):
    """Every codec, magic 0/1/2, transactions, compaction, LogAppendTime; offset ranges that cut batches
    and read_committed, as the planner makes the tasks."""
    options = [
        {},
        {"isolationLevel": "read_committed"},
        {"includeControl": "true"},
        {
            "startingOffsets": json.dumps({"orders": {"0": 7}}),
            "endingOffsets": json.dumps({"orders": {"0": 301}}),
        },
    ]
    seen = 0
    for opts in options:
        for task in plan(str(synth_dir), ReadOptions.parse(opts)):
            data = Path(task.path).read_bytes()[task.start : task.end]
            result = assert_same(task, data, monkeypatch)
            assert result[0] == "ok"
            seen += result[1].num_rows
    assert seen > 10_000


# -- hypothesis batches -------------------------------------------------------------------------------

record = st.tuples(
    st.one_of(st.none(), st.binary(max_size=20)),
    st.one_of(st.none(), st.binary(max_size=200)),
    st.integers(-(2**40), 2**40),
    st.lists(st.tuples(st.text(max_size=5), st.one_of(st.none(), st.binary(max_size=5))), max_size=3),
    st.integers(0, 3),  # offset gap before the record (compaction)
)
batch_spec = st.tuples(
    st.lists(record, max_size=25), st.sampled_from(CODEC_NAMES), st.booleans(), st.booleans()
)


def _build(specs) -> bytes:
    out, offset = [], 0
    for rows, codec, log_append, control in specs:
        if control:
            out.append(
                kafkaspec.build_control_batch(
                    "commit", producer_id=7, producer_epoch=1, base_offset=offset, timestamp=1_700_000_000_000
                )
            )
            offset += 1
            continue
        records, base = [], offset
        for i, (k, v, t, h, gap) in enumerate(rows):
            offset += gap + (i > 0)
            records.append(
                kafkaspec.Record(key=k, value=v, timestamp=1_700_000_000_000 + t, headers=h, offset=offset)
            )
        if records:
            out.append(
                kafkaspec.build_batch(
                    records,
                    compression=codec,
                    base_offset=base,
                    timestamp_type="log_append" if log_append else "create",
                    log_append_time=1_800_000_000_000 if log_append else None,
                )
            )
            offset += 1
    return b"".join(out)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(specs=st.lists(batch_spec, min_size=1, max_size=12))
def test_hypothesis_batches(specs, monkeypatch):
    data = _build(specs)
    assert engine_accepts(data)  # valid batches never fall back: the comparison below is the engine's
    for task in _tasks(data):
        assert assert_same(task, data, monkeypatch)[0] == "ok"


def _fix_crcs(data: bytearray) -> None:
    """Make each v2 batch's CRC hold again (the batches' lengths are unchanged)."""
    pos = 0
    while pos + 61 <= len(data):
        end = pos + 12 + int.from_bytes(data[pos + 8 : pos + 12], "big")
        data[pos + 17 : pos + 21] = crc32c(bytes(data[pos + 21 : end])).to_bytes(4, "big")
        pos = end


@settings(
    max_examples=EXAMPLES * 2, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(specs=st.lists(batch_spec, min_size=1, max_size=10), draw=st.data())
def test_hostile_batches(specs, draw, monkeypatch):
    """Bytes inside the records regions changed, CRCs fixed: the same error at the same byte, or (under
    corruptionPolicy=skip) the same batches kept and skipped."""
    specs = [(rows, "none", la, False) for rows, _, la, _ in specs]
    data = bytearray(_build(specs))
    if len(data) < 62:
        return
    for _ in range(draw.draw(st.integers(1, 4))):
        at = draw.draw(st.integers(61, len(data) - 1))
        data[at] = draw.draw(st.sampled_from([0x00, 0x01, 0x7F, 0x80, 0xFF, 0xFE, 0x0A, data[at] ^ 0x40]))
    _fix_crcs(data)
    for task in _tasks(bytes(data)):
        assert_same(task, bytes(data), monkeypatch)


# -- chosen cases -------------------------------------------------------------------------------------


def _one(records, **kw) -> bytearray:
    return bytearray(kafkaspec.build_batch(records, **kw))


def test_header_key_not_utf8_is_the_decoders_error(monkeypatch):
    data = _one([kafkaspec.Record(key=b"k", value=b"v", timestamp=1, headers=[("ab", b"x")])] * 20)
    at = bytes(data).index(b"ab")
    data[at] = 0xFF
    _fix_crcs(data)
    result = assert_same(ReadRange("v.log", "t", 0, 0, len(data)), bytes(data), monkeypatch)
    assert result[0] == "error"


def test_long_batches_walk_in_plain_python_past_the_short_ones(monkeypatch):
    """Nine short batches and one of 3,000 records: the walk leaves numpy when fewer than
    LOCKSTEP_MIN_BATCHES batches still have records, and must agree all the same."""
    batches = [
        kafkaspec.build_batch(
            [kafkaspec.Record(key=b"k%d" % i, value=b"v" * i, timestamp=i)] * 3, base_offset=10 * i
        )
        for i in range(9)
    ]
    batches.append(
        kafkaspec.build_batch(
            [kafkaspec.Record(value=b"x" * (i % 300), timestamp=i) for i in range(3000)], base_offset=100
        )
    )
    data = b"".join(batches)
    assert engine_accepts(data)
    result = assert_same(ReadRange("v.log", "t", 0, 0, len(data)), data, monkeypatch)
    assert result[1].num_rows == 27 + 3000


def test_varints_of_every_size_and_the_limits(monkeypatch):
    """Lengths of 1, 2, 3 and 4 varint bytes; timestamps deltas up to 9 bytes (the engine's) and 10
    bytes (left to the per-record decoder); the engine declines, it does not guess."""
    sizes = [0, 1, 63, 64, 8191, 8192, 1 << 20]
    records = [kafkaspec.Record(key=b"k" * (s % 100), value=b"v" * s, timestamp=0) for s in sizes]
    data = bytes(_one(records * 2))
    assert engine_accepts(data)
    assert_same(ReadRange("v.log", "t", 0, 0, len(data)), data, monkeypatch)
    far = bytes(
        _one([kafkaspec.Record(value=b"a", timestamp=0), kafkaspec.Record(value=b"b", timestamp=2**62)])
    )
    assert not engine_accepts(far)  # a 10-byte varlong
    assert_same(ReadRange("v.log", "t", 0, 0, len(far)), far, monkeypatch)


# -- the logdir API -----------------------------------------------------------------------------------


def test_partition_to_arrow_is_the_readers_columns(synth_dir):
    log = logdir.open_log(synth_dir)
    total = 0
    for part in log.partitions():
        table = part.to_arrow(isolation_level="read_uncommitted", include_control=True)
        expected = [
            rb
            for seg in part.segments()
            for rb in read_records(
                ReadRange(
                    str(seg.path),
                    part.topic,
                    part.partition,
                    0,
                    seg.size,
                    include_control=True,
                    lockstep=False,
                )
            )
        ]
        assert table.equals(pa.Table.from_batches(expected, schema=SCHEMA)), part
        total += table.num_rows
    every = {"isolation_level": "read_uncommitted", "include_control": True}
    assert total == sum(rb.num_rows for rb in log.to_arrow_batches(**every))
    reader = pa.RecordBatchReader.from_batches(
        SCHEMA, log.to_arrow_batches(**every)
    )  # what DuckDB and Polars take
    assert reader.read_all().num_rows == total > 10_000


def test_to_arrow_names_the_segment_and_byte_of_a_corrupt_record(tmp_path):
    good = kafkaspec.build_batch([kafkaspec.Record(value=b"v", timestamp=1)] * 10)
    bad = _one([kafkaspec.Record(value=b"v" * 10, timestamp=1)] * 10, base_offset=10)
    bad[-12] = 0x7F  # a value length that runs past its record
    _fix_crcs(bad)
    part_dir = tmp_path / "t-0"
    part_dir.mkdir()
    seg = part_dir / "00000000000000000000.log"
    seg.write_bytes(good + bytes(bad))
    with pytest.raises(KafkaFormatError) as exc:
        logdir.open_log(tmp_path).partition("t", 0).to_arrow()
    with pytest.raises(KafkaFormatError) as per_record:
        [list(b) for b in kafkaspec.iter_batches(good + bytes(bad))]
    assert str(seg) in str(exc.value) and exc.value.position == per_record.value.position


def test_log_append_time_far_from_the_base_timestamp(monkeypatch):
    """LogAppendTime: every record takes the batch's max timestamp, however far the base timestamp is
    (max - base beyond int64 made the per-record path fail with a RuntimeError)."""
    records = [kafkaspec.Record(value=b"v%d" % i, timestamp=-(2**63) + 5) for i in range(3)]
    data = bytes(_one(records, timestamp_type="log_append", log_append_time=10**12))
    result = assert_same(ReadRange("v.log", "t", 0, 0, len(data)), data, monkeypatch)
    assert result[0] == "ok"
    assert result[1].column("timestamp").cast(pa.int64()).to_pylist() == [10**15] * 3


def test_spark_reader_engines_agree(spark, synth_dir):
    """Under Spark: the default (lockstep) and ``engine=records`` read the same rows."""

    def rows(engine: str) -> list:
        df = (
            spark.read.format("kafkalog")
            .option("engine", engine)
            .option("includeControl", "true")
            .load(str(synth_dir))
        )
        return sorted(df.drop("headers").collect(), key=lambda r: (r.topic, r.partition, r.offset))

    fast, slow = rows("lockstep"), rows("records")
    assert len(fast) > 10_000 and fast == slow
