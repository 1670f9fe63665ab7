"""The other way: a data directory written by kafkaspec is loaded by the broker of the same release and
served back record for record.

Into a copy of the stopped broker's directory (its ``meta.properties``, ``__cluster_metadata`` and
checkpoints, so the broker starts with its own node id, cluster id and topics), once per release:

- the workload's partitions as ``kafkaspec rewrite --where`` wrote them (a third of the records
  dropped; offsets, batches, producers and transactions kept), with the rewrite's offset checkpoints;
- :data:`~support.kafka_workload.FOR_KAFKASPEC`'s empty topics, created by the workload: ``ours-writer-0``
  written by :class:`~kafkaspec.logdir.PartitionWriter` (``mode="overwrite"``, keeping the topic id of
  its ``partition.metadata``): every codec, an idempotent producer, a committed and an aborted
  transaction; ``ours-spark-*`` written by ``df.write.format("kafkalog")`` and swapped in beside the
  broker's ``partition.metadata``.

The broker is started once on it, and what its consumers return at both isolation levels must be
what kafkaspec reads of that directory (taken before the start) and what was written.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from support import kafka_tiered, kafka_workload
from support.kafka_broker import Broker
from support.kafka_workload import FOR_KAFKASPEC, TOPICS, Row

from kafkaspec import Record
from kafkaspec.logdir import PartitionWriter, open_log
from kafkaspec.logdir.write.rewrite import update_offset_checkpoints

#: the deleted topic's -delete directories are in the stopped broker's directory, and so in its copy
pytestmark = pytest.mark.filterwarnings("ignore::kafkaspec.errors.SkippedDirWarning")

#: the rewrite's filter, as ``--where`` and as Python for the rows the broker served before
WHERE = "offset % 3 != 1"
WRITER, SPARK = "ours-writer", "ours-spark"
EVERYTHING = {**TOPICS, **FOR_KAFKASPEC}


def kept(row: Row) -> bool:
    return row.offset % 3 != 1


@dataclass
class Side:
    uncommitted: list[Row]
    committed: list[Row]

    def of(self, topics: dict[str, int] | str) -> Side:
        names = {topics} if isinstance(topics, str) else set(topics)
        return Side(
            [r for r in self.uncommitted if r.topic in names], [r for r in self.committed if r.topic in names]
        )


@dataclass
class Loaded:
    release: str
    #: the rewrite's output (``kafkaspec rewrite`` of the stopped broker's directory)
    rewritten: Path
    #: kafkaspec's read of the directory the broker was started on, taken before its start
    ours: Side
    #: what was given to PartitionWriter and to the Spark writer
    written: Side
    #: what the broker served of it
    served: Side
    #: the partition folders the broker set aside as strays (a topic id its metadata does not know)
    strays: list[str]


def _sorted(rows: list[Row]) -> list[Row]:
    return sorted(rows, key=lambda r: (r.topic, r.partition, r.offset))


def read(data: Path, topics: dict[str, int]) -> Side:
    """kafkaspec's read of ``topics`` in ``data`` at both isolation levels (control records left out)."""
    uncommitted, committed = [], []
    for part in open_log(str(data)).partitions():
        if part.topic not in topics:
            continue
        for rows, read_committed in ((uncommitted, False), (committed, True)):
            for _, r in part.records(read_committed=read_committed):
                rows.append(
                    Row(
                        part.topic,
                        part.partition,
                        r.offset,
                        r.timestamp,
                        r.key,
                        r.value,
                        tuple((h.key, h.value) for h in r.headers),
                    )
                )
        part.close()
    return Side(_sorted(uncommitted), _sorted(committed))


def rewrite(stopped: Path, out: Path) -> None:
    got = subprocess.run(
        [
            sys.executable,
            "-m",
            "kafkaspec.cli",
            "rewrite",
            str(stopped),
            str(out),
            "--topics",
            ",".join(TOPICS),
            "--where",
            WHERE,
        ],
        capture_output=True,
        text=True,
    )
    assert got.returncode == 0, f"kafkaspec rewrite: exit {got.returncode}: {got.stderr[-1500:]}"


def swap_in_rewrite(rewritten: Path, data: Path) -> None:
    """The rewritten partitions replace the broker's, and the rewrite's offset checkpoints its lines."""
    for folder in sorted(rewritten.iterdir()):
        if folder.is_dir():
            assert (data / folder.name).is_dir(), f"{folder.name}: not a partition of the broker"
            shutil.rmtree(data / folder.name)
            shutil.copytree(folder, data / folder.name)
    ends: dict[tuple[str, int], list[int]] = {}
    for name, column in (("log-start-offset-checkpoint", 0), ("recovery-point-offset-checkpoint", 1)):
        for line in (rewritten / name).read_text().splitlines()[2:]:
            topic, partition, offset = line.split()
            ends.setdefault((topic, int(partition)), [0, 0])[column] = int(offset)
    update_offset_checkpoints(data, {tp: (start, end) for tp, (start, end) in ends.items()})


def _now_ms() -> int:
    return int(time.time() * 1000)


def write_partition(data: Path) -> Side:
    """``ours-writer-0`` by PartitionWriter over the broker's empty partition: a batch per codec, an
    idempotent producer, a committed and an aborted transaction; what a consumer must get of it."""
    now = _now_ms()
    uncommitted, committed = [], []

    def records(first: int, count: int) -> list[Record]:
        out = []
        for i in range(first, first + count):
            key, value, headers = kafka_workload._record(i)
            out.append(Record(key=key, value=value, timestamp=now + i, headers=headers))
        return out

    def note(rs: list[Record], base: int, visible: bool) -> None:
        for n, r in enumerate(rs):
            row = Row(
                WRITER, 0, base + n, r.timestamp, r.key, r.value, tuple((h[0], h[1]) for h in r.headers)
            )
            uncommitted.append(row)
            if visible:
                committed.append(row)

    with PartitionWriter(data, WRITER, 0, mode="overwrite") as w:
        i = 0
        for codec in kafka_workload.CODECS:
            rs = records(i, 20)
            note(rs, w.append(rs, compression=codec)[0], True)
            i += 20
        for seq in (0, 15):
            rs = records(i, 15)
            note(
                rs,
                w.append(rs, compression="zstd", producer_id=900_001, producer_epoch=0, base_sequence=seq)[0],
                True,
            )
            i += 15
        for control in ("commit", "abort"):
            rs = records(i, 10)
            note(
                rs,
                w.append(
                    rs,
                    compression="lz4",
                    producer_id=900_002,
                    producer_epoch=0,
                    is_transactional=True,
                    base_sequence=0 if control == "commit" else 10,
                )[0],
                control == "commit",
            )
            w.append_control(control, producer_id=900_002, producer_epoch=0)
            i += 10
    return Side(uncommitted, committed)


def write_with_spark(spark, data: Path, out: Path) -> Side:
    """``ours-spark-*`` by ``df.write.format("kafkalog")`` into ``out``, then swapped into the broker's
    partition folders beside their ``partition.metadata`` (the topic id the broker knows). Offsets with
    a gap every ten rows, as a compacted log has."""
    from pyspark.sql.types import (
        ArrayType,
        BinaryType,
        IntegerType,
        LongType,
        StringType,
        StructField,
        StructType,
        TimestampType,
    )

    from kafkaspec.spark import register

    register(spark)
    now = _now_ms()
    epoch = datetime(1970, 1, 1, tzinfo=UTC)
    rows, expected = [], []
    for partition in range(FOR_KAFKASPEC[SPARK]):
        for i in range(120):
            key, value, headers = kafka_workload._record(i + partition)
            offset, ms = i + i // 10, now + i
            rows.append(
                (
                    SPARK,
                    partition,
                    offset,
                    key,
                    value,
                    epoch + timedelta(milliseconds=ms),
                    [(k, v) for k, v in headers],
                )
            )
            expected.append(Row(SPARK, partition, offset, ms, key, value, tuple(headers)))
    header = StructType([StructField("key", StringType()), StructField("value", BinaryType())])
    schema = StructType(
        [
            StructField("topic", StringType()),
            StructField("partition", IntegerType()),
            StructField("offset", LongType()),
            StructField("key", BinaryType()),
            StructField("value", BinaryType()),
            StructField("timestamp", TimestampType()),
            StructField("headers", ArrayType(header)),
        ]
    )
    spark.createDataFrame(rows, schema).write.format("kafkalog").mode("overwrite").option(
        "compression", "zstd"
    ).option("recordsPerBatch", "25").save(str(out))
    for partition in range(FOR_KAFKASPEC[SPARK]):
        theirs, ours = data / f"{SPARK}-{partition}", out / f"{SPARK}-{partition}"
        for f in theirs.iterdir():
            if f.name != "partition.metadata":
                f.unlink()
        for f in ours.iterdir():
            if f.name != "partition.metadata":
                shutil.copyfile(f, theirs / f.name)
    return Side(expected, list(expected))


@pytest.fixture(scope="module")
def loaded(broker_run, spark, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Loaded]:
    home = tmp_path_factory.mktemp(f"loads-ours-{broker_run.release}")
    canary = home / "canary.txt"
    canary.write_text("not the broker's")
    rsm_class, plugins = kafka_tiered.storage(broker_run.release)
    broker = Broker(
        broker_run.release,
        home / "broker",
        {
            **kafka_workload.broker_config(broker_run.release),
            **kafka_tiered.broker_config(home / "remote", rsm_class),
        },
        plugins,
    )
    shutil.copytree(broker_run.stopped, broker.data)
    shutil.copytree(broker_run.remote, home / "remote")  # the tiered topic's remote part, as it was
    rewritten = home / "rewritten"
    rewrite(broker_run.stopped, rewritten)
    swap_in_rewrite(rewritten, broker.data)
    written = write_partition(broker.data)
    spark_written = write_with_spark(spark, broker.data, home / "spark-out")
    written = Side(
        _sorted(written.uncommitted + spark_written.uncommitted),
        _sorted(written.committed + spark_written.committed),
    )
    ours = read(broker.data, EVERYTHING)
    try:
        broker.start()
        served = Side(
            kafka_workload.served(broker.bootstrap, "read_uncommitted", EVERYTHING),
            kafka_workload.served(broker.bootstrap, "read_committed", EVERYTHING),
        )
    finally:
        broker.stop()
    assert canary.read_text() == "not the broker's"
    strays = sorted(p.name for p in broker.data.glob("*-stray"))
    yield Loaded(broker_run.release, rewritten, ours, written, served, strays)


def _first_difference(ours: list[Row], theirs: list[Row]) -> str:
    for a, b in zip(ours, theirs):
        if a != b:
            return f"kafkaspec {a} / broker {b}"
    return f"kafkaspec has {len(ours)} records, the broker served {len(theirs)}"


def test_the_broker_takes_no_partition_of_ours_for_a_stray(loaded):
    assert loaded.strays == []


@pytest.mark.parametrize("isolation", ("uncommitted", "committed"))
def test_the_rewrite_keeps_what_its_filter_keeps(broker_run, loaded, isolation):
    """kafkaspec's read of the rewrite is what the broker served before it, filtered by --where."""
    ours = getattr(read(loaded.rewritten, TOPICS), isolation)
    expected = [r for r in getattr(broker_run, isolation) if kept(r)]
    assert 0 < len(ours) < len(getattr(broker_run, isolation))
    assert ours == expected, _first_difference(ours, expected)


@pytest.mark.parametrize("isolation", ("uncommitted", "committed"))
def test_the_broker_serves_the_rewrite(loaded, isolation):
    served = getattr(loaded.served.of(TOPICS), isolation)
    ours = getattr(read(loaded.rewritten, TOPICS), isolation)
    assert served == ours, _first_difference(ours, served)
    assert served == getattr(loaded.ours.of(TOPICS), isolation)


@pytest.mark.parametrize("topic", (WRITER, SPARK))
@pytest.mark.parametrize("isolation", ("uncommitted", "committed"))
def test_the_broker_serves_what_kafkaspec_wrote(loaded, topic, isolation):
    written = getattr(loaded.written.of(topic), isolation)
    ours = getattr(loaded.ours.of(topic), isolation)
    served = getattr(loaded.served.of(topic), isolation)
    assert written and ours == written, _first_difference(ours, written)
    assert served == written, _first_difference(served, written)
