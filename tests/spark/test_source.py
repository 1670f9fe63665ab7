"""The kafkalog source returns exactly what the runtime reader (kafkaspec.logdir) returns."""

from __future__ import annotations

import pytest
from support.spark import runtime_rows, source_rows

pytestmark = pytest.mark.spark

EPOCH_MS = 1_700_000_000_000

OPTIONS = [
    {},
    {"subscribe": "orders,clicks"},
    {"subscribePattern": "pay.*"},
    {"assign": '{"orders": [1], "users": [0]}'},
    {
        "subscribe": "orders",
        "startingOffsets": '{"orders": {"0": 100, "1": -2, "2": -1}}',
        "endingOffsets": '{"orders": {"0": 900, "1": 50}}',
    },
    {"isolationLevel": "read_committed"},
    {"includeControl": "true", "subscribe": "payments"},
    {"verifyCrc": "false", "splitSize": "64k"},
]


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(o) or "defaults")
def test_source_matches_runtime_reader(spark, synth_dir, options):
    expected = runtime_rows(synth_dir, options)
    assert expected, "the option combination selects nothing: the test would prove little"
    assert source_rows(spark, synth_dir, options) == expected


def test_timestamp_range_matches_runtime_reader(spark, synth_dir):
    stamps = sorted({row[3] for row in runtime_rows(synth_dir) if row[3] is not None and row[3] >= 0})
    options = {
        "startingTimestamp": str(stamps[len(stamps) // 4]),
        "endingTimestamp": str(stamps[len(stamps) // 2]),
    }
    expected = runtime_rows(synth_dir, options)
    assert expected
    assert source_rows(spark, synth_dir, options) == expected


def test_read_committed_and_offsets_on_known_log(spark, txn_dir):
    values = [row[5] for row in source_rows(spark, txn_dir, {"isolationLevel": "read_uncommitted"})]
    assert values == [
        b"plain-0",
        b"commit-0",
        b"commit-1",
        b"commit-2",
        b"abort-0",
        b"abort-1",
        b"plain-1",
        b"open-0",
        b"plain-2",
    ]
    committed = [row[5] for row in source_rows(spark, txn_dir, {"isolationLevel": "read_committed"})]
    # open-0 begins a transaction without a marker: the last stable offset, where read_committed stops
    assert committed == [
        b"plain-0",
        b"commit-0",
        b"commit-1",
        b"commit-2",
        b"plain-1",
    ]
    assert committed == [row[5] for row in runtime_rows(txn_dir, {"isolationLevel": "read_committed"})]
    assert committed == [row[5] for row in source_rows(spark, txn_dir)]  # the default
    ranged = source_rows(
        spark,
        txn_dir,
        {
            "startingOffsets": '{"tx": {"0": 2}}',
            "endingOffsets": '{"tx": {"0": 5}}',
            "isolationLevel": "read_uncommitted",
        },
    )
    assert [row[2] for row in ranged] == [2, 3, 4]
    with_control = source_rows(
        spark, txn_dir, {"includeControl": "true", "isolationLevel": "read_uncommitted"}
    )
    assert len(with_control) == 11
    headers = source_rows(spark, txn_dir, {"isolationLevel": "read_uncommitted"})[-1][6]  # plain-2's
    assert headers == [("h", b"1"), ("h", None)]


def test_schema_starts_with_kafka_source_columns(spark, txn_dir):
    df = spark.read.format("kafkalog").load(str(txn_dir))
    assert df.schema.simpleString().startswith(
        "struct<key:binary,value:binary,topic:string,partition:int,offset:bigint,timestamp:timestamp,"
        "timestampType:int,headers:array<struct<key:string,value:binary>>,magic:int,compression:string,"
        "producerId:bigint,producerEpoch:int,baseSequence:int,isTransactional:boolean,"
    )


def test_segment_file_and_partition_dir_paths(spark, synth_dir):
    part = synth_dir / "clicks-1"
    segment = sorted(part.glob("*.log"))[0]
    assert source_rows(spark, part) == runtime_rows(part)
    assert source_rows(spark, segment) == runtime_rows(segment)
