"""The ``kafkalog`` source's numeric options under hostile values, planned without a Spark session: a
by-timestamp bound, an offset, ``minPartitions`` or ``maxRecordsPerPartition`` that is not the whole
number it must be is one planning error naming the option (``1e400`` raised OverflowError, ``true``
and ``1.5`` were read as 1, a negative timestamp read everything), and no value makes a plan without
bound (``maxRecordsPerPartition=1`` with an end far past the data, or offsets far apart, planned one
range per offset: 2^62 of them)."""

from __future__ import annotations

import json

import pytest
from support.tables import TS, write_orders

from kafkaspec import Record, build_batch, logdir
from kafkaspec.spark.read.options import OptionError, ReadOptions
from kafkaspec.spark.read.planning import MAX_RANGES_PER_PARTITION, plan

pytestmark = pytest.mark.hostile

LONG_MAX = (1 << 63) - 1


@pytest.mark.parametrize(
    "name",
    ["startingOffsetsByTimestamp", "endingOffsetsByTimestamp", "startingOffsets", "endingOffsets"],
)
@pytest.mark.parametrize("bad", ["1e400", "true", "1.5", str(LONG_MAX + 1), "[1]", "null"])
def test_a_json_bound_that_is_no_long_is_one_option_error(name, bad):
    with pytest.raises(OptionError, match=name):
        ReadOptions.parse({name: f'{{"t": {{"0": {bad}}}}}'})


@pytest.mark.parametrize("name", ["startingOffsetsByTimestamp", "endingOffsetsByTimestamp"])
def test_a_negative_timestamp_is_refused(name):
    with pytest.raises(OptionError, match=name):
        ReadOptions.parse({name: '{"t": {"0": -5}}'})
    with pytest.raises(OptionError, match="startingTimestamp"):
        ReadOptions.parse({"startingTimestamp": "-5"})


@pytest.mark.parametrize("bad", ['{"t": [1e400]}', '{"t": [true]}', '{"t": [-1]}', '{"t": [2147483648]}'])
def test_an_assigned_partition_that_is_no_partition_is_refused(bad):
    with pytest.raises(OptionError, match="assign"):
        ReadOptions.parse({"assign": bad})


@pytest.mark.parametrize("name", ["minPartitions", "maxRecordsPerPartition"])
@pytest.mark.parametrize("bad", ["0", "-1", str(LONG_MAX + 1), "x", "1.5", "9" * 5000])
def test_counts_are_whole_positive_longs_and_said_briefly(name, bad):
    with pytest.raises(OptionError, match=name) as caught:
        ReadOptions.parse({name: bad})
    assert len(str(caught.value)) < 300  # the value cut after 80 characters


def test_good_values_still_parse():
    opts = ReadOptions.parse(
        {
            "startingOffsets": json.dumps({"t": {"0": -2, "1": 5}}),
            "endingOffsets": json.dumps({"t": {"0": -1, "1": "9"}}),
            "startingOffsetsByTimestamp": json.dumps({"t": {"0": TS}}),
            "minPartitions": str(LONG_MAX),
            "maxRecordsPerPartition": "3",
        }
    )
    assert opts.starting == {("t", 0): -2, ("t", 1): 5}
    assert opts.ending == {("t", 0): -1, ("t", 1): 9}
    assert opts.starting_by_time == {("t", 0): TS}
    assert (opts.min_partitions, opts.max_records_per_partition) == (LONG_MAX, 3)


def test_an_end_far_past_the_data_plans_only_the_data(tmp_path):
    write_orders(tmp_path / "logs", 10, topic="t")
    opts = ReadOptions.parse(
        {"maxRecordsPerPartition": "1", "endingOffsets": json.dumps({"t": {"0": 1 << 62}})}
    )
    ranges = plan(str(tmp_path / "logs"), opts)  # was 2^62 calls of the range planner
    assert 1 <= len(ranges) <= 10


def test_offsets_far_apart_are_refused_not_planned_one_by_one(tmp_path):
    root = tmp_path / "logs"
    far = 1 << 40
    with logdir.PartitionWriter(root, "t", 0) as w:
        w.append([Record(key=None, value=b"first", timestamp=TS)])
        w.append_batch(build_batch([Record(key=None, value=b"far", timestamp=TS)], base_offset=far))
    with pytest.raises(OptionError, match=f"more than {MAX_RANGES_PER_PARTITION:,}") as caught:
        plan(str(root), ReadOptions.parse({"maxRecordsPerPartition": "1000"}))
    assert "t-0" in str(caught.value) and "\n" not in str(caught.value)
    assert len(plan(str(root), ReadOptions.parse({"maxRecordsPerPartition": str(far)}))) >= 1


@pytest.mark.parametrize(
    "name, bad",
    [("recordsPerBatch", v) for v in ("1.5", "true", "1e400", "0", str(1 << 31))]
    + [("segmentBytes", v) for v in ("0", "13", "2g", "3g")],
)
def test_write_counts_and_sizes_are_kafkas_and_one_option_error(name, bad, tmp_path):
    """The ``kafkalog`` writer's options, checked when the write starts (no Spark session needed):
    ``recordsPerBatch`` '1.5', 'true', '1e400' were int()'s ValueError, naming no option, and past 2^31-1
    a batch could not count its records; ``segmentBytes`` past Kafka's ``segment.bytes`` (14 bytes to
    2^31-1: positions in a segment are 32-bit) was taken."""
    from pyspark.sql.types import BinaryType, IntegerType, StringType, StructField, StructType

    from kafkaspec.spark.write.writer import KafkaLogWriter

    schema = StructType(
        [
            StructField("topic", StringType()),
            StructField("partition", IntegerType()),
            StructField("value", BinaryType()),
        ]
    )
    with pytest.raises(OptionError, match=name):
        KafkaLogWriter(str(tmp_path / "out"), {name: bad}, schema, False)
    writer = KafkaLogWriter(
        str(tmp_path / "ok"), {"recordsPerBatch": "7", "segmentBytes": "1g"}, schema, False
    )
    assert (writer.records_per_batch, writer.segment_bytes) == (7, 1 << 30)


def _write_schema(*batch_columns: bool):
    from pyspark.sql.types import BinaryType, IntegerType, LongType, StringType, StructField, StructType

    from kafkaspec.spark.write.batches import BATCH_COLUMNS

    fields = [
        StructField("topic", StringType()),
        StructField("partition", IntegerType()),
        StructField("offset", LongType()),
        StructField("value", BinaryType()),
    ]
    if batch_columns:
        fields += [StructField(c, LongType()) for c in BATCH_COLUMNS]
    return StructType(fields)


@pytest.mark.parametrize(
    "given, codec", [("ZSTD", "zstd"), (" Gzip ", "gzip"), ("NONE", "none"), ("LZ4", "lz4")]
)
def test_write_compression_is_case_insensitive_as_sparks_own(given, codec, tmp_path):
    """``compression=ZSTD`` (as Spark's own Parquet option takes it, case-insensitive) was refused as an
    unknown codec; it is zstd, also when the write keeps the source's batches (then it recompresses)."""
    from kafkaspec.spark.write.writer import KafkaLogWriter

    writer = KafkaLogWriter(str(tmp_path / "out"), {"compression": given}, _write_schema(), False)
    assert (writer.compression, writer.recompress) == (codec, codec)


@pytest.mark.parametrize("bad", ["zstandard", "", "snappy2"])
def test_an_unknown_write_compression_is_one_option_error_naming_the_codecs(bad, tmp_path):
    from kafkaspec.spark.write.writer import KafkaLogWriter

    with pytest.raises(OptionError, match=r"option compression.*none, gzip, snappy, lz4, zstd"):
        KafkaLogWriter(str(tmp_path / "out"), {"compression": bad}, _write_schema(), False)


@pytest.mark.parametrize(
    "given, preserve",
    [("yes", True), ("TRUE", True), ("1", True), (" True ", True), ("no", False), ("False", False)]
    + [("0", False), ("AUTO", True)],
)
def test_write_preserve_batches_takes_the_readers_booleans(given, preserve, tmp_path):
    """``preserveBatches`` takes what the reader's boolean options take (true/false as Spark's own, any
    case, and 1/0, yes/no), and ``auto``: ``yes`` was refused."""
    from kafkaspec.spark.write.writer import KafkaLogWriter

    schema = _write_schema(True)
    writer = KafkaLogWriter(str(tmp_path / "out"), {"preserveBatches": given}, schema, False)
    assert writer.preserve is preserve


@pytest.mark.parametrize("bad", ["maybe", "", "tru"])
def test_an_unknown_preserve_batches_names_the_option_and_its_values(bad, tmp_path):
    from kafkaspec.spark.write.writer import KafkaLogWriter

    with pytest.raises(OptionError, match=r"option preserveBatches must be auto, true or false"):
        KafkaLogWriter(str(tmp_path / "out"), {"preserveBatches": bad}, _write_schema(True), False)
