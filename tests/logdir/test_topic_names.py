"""Issue 30 item 1: topic names are path components, so every writer checks them and readers pass
over directories whose names Kafka would refuse.

Kafka's rule (``org.apache.kafka.common.internals.Topic.validate``): not empty, not "." or "..",
at most 249 characters, only ``[a-zA-Z0-9._-]``; a partition is 0..2147483647. Every test that
writes runs in its own ``tmp_path`` with a canary file beside the destination (and, for the
object-store writer's staging, in a temp dir that ``tempfile`` is pointed at) which must survive.
"""

from __future__ import annotations

import contextlib
import io
import subprocess
import tempfile
import warnings
from pathlib import Path

import pyarrow as pa
import pytest
from pyspark.sql.types import BinaryType, IntegerType, LongType, StringType, StructField, StructType

from kafkaspec import Record
from kafkaspec.cli import main
from kafkaspec.errors import KafkaFormatError, SkippedDirWarning
from kafkaspec.logdir import PartitionWriter, copy, open_log, verify_path, write_tiered
from kafkaspec.logdir.kafka.names import InvalidTopicError
from kafkaspec.logdir.store import location as location_module
from kafkaspec.spark.write import batches as spark_batches
from kafkaspec.spark.write.writer import STAGING, KafkaLogWriter

pytestmark = pytest.mark.hostile

#: (name, a word of the rule it breaks)
BAD_TOPICS = [
    ("../x", "'/'"),
    ("../../x", "'/'"),
    ("a/b", "'/'"),
    ("a//b", "'/'"),
    ("nl\nx", "'\\n'"),
    (".", '"."'),
    ("..", '".."'),
    ("", "empty"),
    ("x" * 250, "at most 249"),
    ("a b", "' '"),
    ("caf\u00e9", "'\u00e9'"),
    ("t\x1b]0;owned\x07", "'\\x1b'"),
    ("a\\b", "'\\\\'"),
    ("a:b", "':'"),
    ("a\x00b", "'\\x00'"),
]
BAD_PARTITIONS = [-1, 1 << 31, True, "0", None]
CANARY = b"must survive"


def _canary(directory: Path) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    canary = directory / "canary"
    canary.write_bytes(CANARY)
    return canary


def _records(n: int = 3) -> list[Record]:
    return [Record(key=b"k%d" % i, value=b"v%d" % i, timestamp=1_700_000_000_000 + i) for i in range(n)]


def _one_line_naming(exc: BaseException, topic: str) -> str:
    text = str(exc)
    assert "\n" not in text and "\x1b" not in text, text
    assert repr(topic)[:60] in text, text
    return text


def _cli(*args: str) -> subprocess.CompletedProcess:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return subprocess.CompletedProcess(list(args), code, out.getvalue(), err.getvalue())


# -- PartitionWriter ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("topic", "rule"), BAD_TOPICS)
def test_local_writer_refuses_a_bad_topic_before_creating_anything(tmp_path, topic, rule):
    canary = _canary(tmp_path)
    dest = tmp_path / "a" / "b" / "out"
    with pytest.raises(InvalidTopicError) as info:
        with PartitionWriter(dest, topic, 0) as w:
            w.append(_records())
    text = _one_line_naming(info.value, topic)
    assert "is illegal" in text and rule in text
    assert sorted(tmp_path.rglob("*")) == [canary] and canary.read_bytes() == CANARY


@pytest.mark.parametrize("partition", BAD_PARTITIONS)
def test_writer_refuses_a_partition_that_is_not_an_int32(tmp_path, partition):
    canary = _canary(tmp_path)
    with pytest.raises(InvalidTopicError, match=r"partition .* of topic 't' is illegal: a partition is"):
        with PartitionWriter(tmp_path / "out", "t", partition) as w:
            w.append(_records())
    assert sorted(tmp_path.rglob("*")) == [canary]


def test_legal_names_at_the_limits_are_written(tmp_path):
    longest = "A-z_0.9" + "x" * 242
    for topic, partition in ((longest, 9), ("t", (1 << 31) - 1)):
        with PartitionWriter(tmp_path, topic, partition) as w:
            w.append(_records())
    assert [(p.topic, p.partition) for p in open_log(tmp_path).partitions()] == [
        (longest, 9),
        ("t", (1 << 31) - 1),
    ]


@pytest.fixture
def temp_dir(tmp_path, monkeypatch):
    """The process's temp dir, pointed at a folder of this test's with a canary and a stranger's folder in it."""
    tmp = tmp_path / "tmp"
    canary = _canary(tmp)
    (tmp / "someone-elses").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    return tmp, canary


@pytest.mark.parametrize("topic", ["../up", "../../up", "a//b", ".."])
def test_object_store_writer_refuses_a_bad_topic_and_leaves_the_temp_dir_alone(temp_dir, monkeypatch, topic):
    """The report's first case: staged in mkdtemp(), the writer removed ``path.parent`` on close, which for
    ``../up`` is the temp directory itself. Publishing fails fast here (no object store needed)."""
    tmp, canary = temp_dir

    def publish(*args, **kwargs):
        raise OSError("no object store in this test")

    monkeypatch.setattr(location_module, "publish_partition", publish)
    with pytest.raises(InvalidTopicError):
        w = PartitionWriter("s3://bkt/x", topic, 0)
        w.append(_records())
        w.close()
    assert sorted(p.name for p in tmp.iterdir()) == ["canary", "someone-elses"]
    assert canary.read_bytes() == CANARY


def test_object_store_staging_is_removed_by_its_own_path(temp_dir, monkeypatch):
    tmp, canary = temp_dir
    published = []
    monkeypatch.setattr(
        location_module,
        "publish_partition",
        lambda local, dest, **_: published.append((sorted(p.name for p in local.iterdir()), str(dest))),
    )
    monkeypatch.setattr(location_module._StoreOutput, "exists", lambda self: False)  # no object store to ask
    with PartitionWriter("s3://bkt/x", "orders", 3) as w:
        w.append(_records())
    assert published and published[0][1] == "s3://bkt/x/orders-3"
    w2 = PartitionWriter("s3://bkt/x", "orders", 4)
    w2.discard()
    assert sorted(p.name for p in tmp.iterdir()) == ["canary", "someone-elses"]  # both staging dirs gone


# -- copy / rewrite, write_tiered --------------------------------------------------------------------


def _partition_named(root: Path, name: str) -> Path:
    """A partition dir named ``name`` (which no writer accepts): written as t-0, then renamed."""
    with PartitionWriter(root, "t", 0) as w:
        w.append(_records())
    target = root / name
    (root / "t-0").rename(target)
    return target


@pytest.mark.parametrize("name", ["nl\nx-0", "a b-0", "segments", "t-99999999999"])
def test_copy_refuses_a_source_partition_whose_name_kafka_would_not_load(tmp_path, name):
    """Opened by its own path, a directory named otherwise is read (as topic <name>, partition -1), but it
    cannot be written as it is: ``<name>--1`` would read back as topic ``<name>-``, partition 1."""
    canary = _canary(tmp_path)
    src = _partition_named(tmp_path / "src", name)
    dst = tmp_path / "dst"
    with pytest.raises(InvalidTopicError) as info:
        copy(src, dst)
    assert "not a <topic>-<partition> Kafka can load" in str(info.value) and "\n" not in str(info.value)
    assert not dst.exists() and canary.read_bytes() == CANARY
    proc = _cli("rewrite", str(src), str(dst))
    errors = [
        line for line in proc.stderr.splitlines() if ": warning: " not in line
    ]  # (the notice: no topic)
    assert proc.returncode == 1 and proc.stdout == "" and len(errors) == 1, proc
    assert "is illegal" in errors[0] and not dst.exists()


def test_write_tiered_refuses_a_topic_id_that_is_a_path(tmp_path):
    """partition.metadata's topic_id is a folder name of the tiered layout: ``../../../evil`` wrote outside DEST."""
    canary = _canary(tmp_path)
    src = tmp_path / "src"
    with PartitionWriter(src, "t", 0) as w:
        w.append(_records())
    (src / "t-0" / "partition.metadata").write_text("version: 0\ntopic_id: ../../../evil")
    dest = tmp_path / "a" / "tiered"
    with pytest.raises(KafkaFormatError, match=r"topic_id '\.\./\.\./\.\./evil' is not a"):
        write_tiered(src, dest)  # refused where partition.metadata is parsed, or by the writer's own check
    assert not dest.exists() and not (tmp_path / "evil").exists() and not (tmp_path / "a").exists()
    assert canary.read_bytes() == CANARY


def test_write_tiered_refuses_a_source_partition_kafka_would_not_load(tmp_path):
    canary = _canary(tmp_path)
    src = _partition_named(tmp_path / "src", "a b-0")
    dest = tmp_path / "tiered"
    with pytest.raises(InvalidTopicError, match="is illegal"):
        write_tiered(src, dest)
    assert not dest.exists() and canary.read_bytes() == CANARY


# -- the Spark kafkalog writer, executor and driver sides (no Spark session) -------------------------

SCHEMA = StructType(
    [
        StructField("topic", StringType()),
        StructField("partition", IntegerType()),
        StructField("offset", LongType()),
        StructField("key", BinaryType()),
        StructField("value", BinaryType()),
    ]
)


def _arrow(rows) -> pa.RecordBatch:
    topic, partition, offset, key, value = zip(*rows, strict=True)
    return pa.RecordBatch.from_arrays(
        [
            pa.array(topic, pa.string()),
            pa.array(partition, pa.int32()),
            pa.array(offset, pa.int64()),
            pa.array(key, pa.binary()),
            pa.array(value, pa.binary()),
        ],
        names=["topic", "partition", "offset", "key", "value"],
    )


def _rows(topic, offsets, partition=0):
    return [(topic, partition, o, b"k%d" % o, b"v%d" % o) for o in offsets]


@pytest.mark.parametrize(("topic", "rule"), BAD_TOPICS)
def test_kafkalog_writer_refuses_a_row_with_a_bad_topic(tmp_path, topic, rule):
    out = tmp_path / "out"
    canary = _canary(out)
    w = KafkaLogWriter(str(out), {"recordsPerBatch": "2"}, SCHEMA, overwrite=False)
    with pytest.raises(InvalidTopicError) as info:
        w.write(iter([_arrow(_rows("ok", [0, 1]) + _rows(topic, [0, 1, 2]))]))
    text = _one_line_naming(info.value, topic)
    assert text.startswith("kafkalog write: topic ") and rule in text
    w.abort([])  # what Spark does when a task fails
    assert sorted(out.rglob("*")) == [canary] and canary.read_bytes() == CANARY


def test_kafkalog_writer_out_of_order_rows_never_remove_a_folder_above_their_own(tmp_path):
    """``_rewrite_sorted`` removed ``writer.path.parent``: with topic ``../../../../x`` that is the output root."""
    out = tmp_path / "out"
    canary = _canary(out)
    w = KafkaLogWriter(str(out), {"recordsPerBatch": "2"}, SCHEMA, overwrite=False)
    with pytest.raises(InvalidTopicError):
        w.write(iter([_arrow(_rows("../../../../x", [4, 5, 6, 0, 1]))]))
    w.abort([])
    assert sorted(out.rglob("*")) == [canary] and canary.read_bytes() == CANARY


@pytest.mark.parametrize("partition", [-1, -2])
def test_kafkalog_writer_refuses_a_negative_partition(tmp_path, partition):
    out = tmp_path / "out"
    canary = _canary(out)
    w = KafkaLogWriter(str(out), {}, SCHEMA, overwrite=False)
    with pytest.raises(
        InvalidTopicError, match=rf"kafkalog write: partition {partition} of topic 't' is illegal"
    ):
        w.write(iter([_arrow(_rows("t", [0, 1], partition))]))
    w.abort([])
    assert sorted(out.rglob("*")) == [canary]


def test_kafkalog_writer_out_of_order_rows_of_a_legal_topic_still_sort(tmp_path):
    out = tmp_path / "out"
    canary = _canary(out)
    w = KafkaLogWriter(str(out), {"recordsPerBatch": "2"}, SCHEMA, overwrite=False)
    w.commit([w.write(iter([_arrow(_rows("t", [4, 5, 6, 0, 1]))]))])
    got = [r.offset for p in open_log(out).partitions() for _, r in p.records()]
    assert got == [0, 1, 4, 5, 6] and not (out / STAGING).exists() and canary.read_bytes() == CANARY


def test_batch_preserving_stager_and_commit_refuse_a_bad_topic(tmp_path):
    canary = _canary(tmp_path)
    with pytest.raises(InvalidTopicError, match=r"kafkalog write: topic '\.\./x' is illegal"):
        spark_batches.BatchStager(tmp_path / "task", "../x", 0, compression=None, segment_bytes=1 << 20)
    with pytest.raises(InvalidTopicError, match=r"kafkalog write: topic 'a/b' is illegal"):
        spark_batches.commit_partition(tmp_path / "out", "a/b", 0, [], 1 << 20)
    assert sorted(tmp_path.rglob("*")) == [canary]


# -- readers -------------------------------------------------------------------------------------------

BAD_DIRS = ["nl\nx-0", "a b-0", "t\x1b[2J-0", "t-99999999999", "x" * 250 + "-0", "segments", "caf\u00e9-0"]


@pytest.fixture
def hostile_data_dir(tmp_path):
    """A data dir: ``good-0`` (3 records) beside directories holding the same segment under names Kafka
    would not load."""
    root = tmp_path / "data"
    with PartitionWriter(root, "good", 0) as w:
        w.append(_records())
    for name in BAD_DIRS:
        _partition_named(root, name)
    return root


def test_reader_skips_directories_kafka_would_not_load_and_says_so(hostile_data_dir):
    root = hostile_data_dir
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        log = open_log(root)
        parts = [(p.topic, p.partition) for p in log.partitions()]
    assert parts == [("good", 0)]
    assert sorted(str(s.path) for s in log.skipped) == sorted(str(root / n) for n in BAD_DIRS)
    said = sorted(w.message.path for w in caught if isinstance(w.message, SkippedDirWarning))
    assert len(said) == len(BAD_DIRS)
    assert all(
        "\n" not in s.reason and "\x1b" not in str(s) and "Kafka would not load it" in s.reason
        for s in log.skipped
    )
    skipped = {Path(s.path).name: s.reason for s in log.skipped}
    assert "topic 'nl\\nx' is illegal" in skipped["nl\nx-0"]
    assert "partition 99999999999 is beyond 2147483647" in skipped["t-99999999999"]
    assert "at most 249 characters" in skipped["x" * 250 + "-0"]


def test_dump_and_verify_read_the_legal_partition_only_and_print_one_line_per_skipped_dir(hostile_data_dir):
    root = hostile_data_dir
    dump = _cli("dump", str(root), "--print-data")
    assert dump.returncode == 0, dump
    assert dump.stdout.count("| offset: ") == 3, dump.stdout
    lines = dump.stderr.splitlines()
    assert len(lines) == len(BAD_DIRS) and all(line.startswith("kafkaspec dump: warning: ") for line in lines)
    assert "\x1b" not in dump.stderr and "\\x1b" in dump.stderr
    problems = verify_path(root)
    assert sorted(p.path for p in problems) == sorted(
        repr(str(root / n)) if not str(root / n).isprintable() else str(root / n) for n in BAD_DIRS
    )
    assert {p.severity for p in problems} == {"warning"}
    verify = _cli("verify", str(root), "--strict")
    assert verify.returncode == 1 and "Traceback" not in verify.stderr


def test_rewrite_of_a_data_dir_copies_the_legal_partitions_and_says_what_it_skipped(
    hostile_data_dir, tmp_path
):
    dst = tmp_path / "dst"
    proc = _cli("rewrite", str(hostile_data_dir), str(dst))
    assert proc.returncode == 0, proc
    assert sorted(p.name for p in dst.iterdir() if p.is_dir()) == ["good-0"]
    assert len([line for line in proc.stderr.splitlines() if " warning: " in line]) == len(BAD_DIRS)
    assert sum(1 for p in open_log(dst).partitions() for _ in p.records()) == 3
