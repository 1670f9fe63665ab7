"""The ``kafkalog`` source's options as a Kafka-source user writes them: a misspelt or unknown option is
refused naming the closest known one, the Kafka source's options that make sense on files work
(``startingOffsetsByTimestamp``, ``endingOffsetsByTimestamp``, ``minPartitions``,
``maxRecordsPerPartition``), the broker-only ones are refused saying why. Planning runs without Spark;
one test goes through ``spark.read`` and ``readStream`` (Spark's own ``path`` must pass)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kafkaspec import Record, logdir
from kafkaspec.arrow.ranges import RangeReport, iter_entries, load_range
from kafkaspec.spark.read.option_names import READ_OPTIONS, check_names
from kafkaspec.spark.read.options import OptionError, ReadOptions
from kafkaspec.spark.read.planning import plan


def _log(root: Path) -> Path:
    """orders-0 and orders-1, 200 records each in batches of 5 (about 1 kB a batch), the record at offset o
    stamped o * 1000 (partition 1: + 500), in two segments each."""
    for p in (0, 1):
        with logdir.PartitionWriter(root, "orders", p, segment_bytes=24000) as w:
            for b in range(40):
                w.append([Record(value=b"v" * 200, timestamp=(b * 5 + i) * 1000 + p * 500) for i in range(5)])
    return root


def _offsets(tasks) -> list[tuple[int, int]]:
    """(partition, offset) of every record the ranges keep."""
    out = []
    for t in tasks:
        buf = load_range(t)
        for b in iter_entries(buf, t.start, t, RangeReport()):
            for r in b.records:
                if (t.min_offset is None or r.offset >= t.min_offset) and (
                    t.max_offset is None or r.offset < t.max_offset
                ):
                    out.append((t.partition, r.offset))
    return sorted(out)


@pytest.mark.parametrize(
    ("given", "suggested"),
    [("subscibe", "subscribe"), ("startingOffset", "startingOffsets"), ("isolationlevl", "isolationLevel")],
)
def test_a_misspelt_option_is_refused_naming_the_closest(given, suggested):
    with pytest.raises(OptionError, match=f"no option {given}: did you mean {suggested}\\?$"):
        check_names({given: "orders", "path": "/data"}, READ_OPTIONS, "the kafkalog source")


def test_known_options_and_sparks_own_pass_in_any_case():
    check_names(
        {
            "PATH": "/x",
            "paths": "[]",
            "SUBSCRIBE": "a",
            "maxRecordsPerPartition": "5",
            "tieredPrivateKey.k1": "p",
        },
        READ_OPTIONS,
        "the kafkalog source",
    )


def test_broker_options_are_refused_saying_why():
    with pytest.raises(OptionError, match="kafka.bootstrap.servers of Spark's Kafka source .* reads files"):
        check_names({"kafka.bootstrap.servers": "b:9092"}, READ_OPTIONS, "the kafkalog source")
    with pytest.raises(OptionError, match="no option colour \\(its options"):
        check_names({"colour": "red"}, READ_OPTIONS, "the kafkalog source")


def test_offsets_by_timestamp_per_partition(tmp_path):
    root = _log(tmp_path / "logs")
    opts = ReadOptions.parse(
        {
            "startingOffsetsByTimestamp": '{"orders": {"0": 50000, "1": 50001}}',
            "endingOffsetsByTimestamp": '{"orders": {"0": 120000}}',
        }
    )
    got = _offsets(plan(str(root), opts))
    # partition 0: offsets 50 .. 119; partition 1 (stamped o*1000+500): the first >= 50001 is 50, to its end
    assert got == [(0, o) for o in range(50, 120)] + [(1, o) for o in range(50, 200)]
    # a start after every record of a partition reads nothing of it (as startingTimestamp)
    late = ReadOptions.parse({"startingOffsetsByTimestamp": '{"orders": {"0": 10000000}}'})
    assert {p for p, _ in _offsets(plan(str(root), late))} == {1}
    # startingTimestamp wins over the per-partition ones, as in Spark's Kafka source
    both = ReadOptions.parse(
        {"startingTimestamp": "190000", "startingOffsetsByTimestamp": '{"orders": {"0": 0}}'}
    )
    assert _offsets(plan(str(root), both)) == [(0, o) for o in range(190, 200)] + [
        (1, o) for o in range(190, 200)
    ]


def test_offsets_by_timestamp_must_be_json():
    with pytest.raises(OptionError, match="startingOffsetsByTimestamp must be JSON"):
        ReadOptions.parse({"startingOffsetsByTimestamp": "1700000000000"})


def test_max_records_per_partition_cuts_ranges_at_offsets(tmp_path):
    root = _log(tmp_path / "logs")
    whole = plan(str(root), ReadOptions.parse({}))
    cut = plan(
        str(root),
        ReadOptions.parse({"maxRecordsPerPartition": "30", "startingOffsets": '{"orders": {"1": 7}}'}),
    )
    assert len(cut) > len(whole)
    for t in cut:
        kept = _offsets([t])
        assert len(kept) <= 30, t
    assert _offsets(cut) == [(0, o) for o in range(200)] + [(1, o) for o in range(7, 200)]


def test_min_partitions_plans_at_least_about_that_many(tmp_path):
    root = _log(tmp_path / "logs")
    whole = plan(str(root), ReadOptions.parse({}))
    more = plan(str(root), ReadOptions.parse({"minPartitions": str(4 * len(whole))}))
    assert len(more) >= 2 * len(whole)
    assert _offsets(more) == _offsets(whole)
    assert _cuts(plan(str(root), ReadOptions.parse({"minPartitions": "1"}))) == _cuts(whole)


def _cuts(tasks) -> list[tuple]:
    """Where the ranges lie (a range's transaction state is an object of its own each plan)."""
    return [(t.path, t.start, t.end, t.min_offset, t.max_offset) for t in tasks]


@pytest.mark.spark
def test_spark_read_refuses_a_misspelt_option(spark, tmp_path):
    root = _log(tmp_path / "logs")
    canary = tmp_path / "canary"
    canary.write_text("x")
    reader = spark.read.format("kafkalog").option("subscibe", "orders")
    with pytest.raises(Exception, match="did you mean subscribe"):
        reader.load(str(root)).count()
    assert spark.read.format("kafkalog").option("subscribe", "orders").load(str(root)).count() == 400
    stream = spark.readStream.format("kafkalog").option("maxOfsetsPerTrigger", "5")
    with pytest.raises(
        Exception, match="(?i)no option maxOfsetsPerTrigger: did you mean maxOffsetsPerTrigger"
    ):
        stream.load(str(root))
    assert canary.exists()


@pytest.mark.spark
@pytest.mark.parametrize(
    ("options", "path", "said"),
    [
        (
            {"isolationLevel": "read-committed"},
            "logs",
            "option isolationLevel must be read_uncommitted or read_committed",
        ),
        ({}, "nope", "no such file or directory"),
        ({"startingOffsets": "{"}, "logs", "option startingOffsets must be earliest, latest or JSON"),
    ],
)
def test_errors_before_any_task_are_one_line(spark, tmp_path, options, path, said):
    """Spark's message holds the error's own line and no traceback through the source (Spark adds its
    SQLSTATE on a line of its own)."""
    _log(tmp_path / "logs")
    with pytest.raises(Exception) as caught:
        spark.read.format("kafkalog").options(**options).load(str(tmp_path / path)).count()
    text = str(caught.value).strip()
    assert said in text and "Traceback" not in text, text
    assert [line for line in text.splitlines() if not line.strip().startswith("SQLSTATE")] == [
        text.splitlines()[0]
    ], text
