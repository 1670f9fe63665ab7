"""A streamed partition whose log goes back: truncated after a leader change, or deleted and recreated.

Kafka truncates a follower's log to the new leader's end when leadership moves (an unclean
election can truncate records a reader already saw), and a topic deleted and created again starts
over at offset 0. Either way the offsets a stream already read are no longer the records it read,
and the records written at those offsets since are not read unless someone notices. The Kafka
source compares offsets only ("Partition's offset was changed from X to Y"); the log directory also
shows a shrink or a rewrite in place, even when the log has grown past the stream's position again.
Both are data loss: the query fails naming the partition and offsets, or (``failOnDataLoss`` false)
logs it and goes on from the new end. The reader is driven as Spark's driver and tasks call it.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pyarrow as pa
import pytest
from pyspark.sql.streaming.datasource import ReadAllAvailable

from kafkaspec import build_batch
from kafkaspec.logdir.kafka.layout import Partition
from kafkaspec.logdir.kafka.tail import PartitionTail
from kafkaspec.spark.read.options import MARKS_KEY, ReadOptions
from kafkaspec.spark.stream.reader import DataLossError, KafkaLogStreamReader


def _plain(offset):
    """A streaming offset's offsets, without the batch marks beside them."""
    return {t: parts for t, parts in offset.items() if t != MARKS_KEY}


TS = 1_700_000_000_000


def _batch(base: int, n: int, tag: bytes) -> bytes:
    return build_batch(
        values=[b"%s-%d" % (tag, base + i) for i in range(n)],
        timestamps=[TS + base + i for i in range(n)],
        base_offset=base,
    )


def _log(tmp_path: Path) -> Path:
    part = tmp_path / "logs" / "t-0"
    part.mkdir(parents=True)
    (tmp_path / "canary").write_text("keep")
    return part / ("0" * 20 + ".log")


def _append(log: Path, *batches: bytes) -> None:
    with log.open("ab") as fh:
        for b in batches:
            fh.write(b)


def _truncate_to(log: Path, size: int) -> None:
    with log.open("r+b") as fh:
        fh.truncate(size)


def _reader(path: Path, **options: str) -> KafkaLogStreamReader:
    return KafkaLogStreamReader(str(path), ReadOptions.parse(options))


def _values(reader: KafkaLogStreamReader, start: dict, end: dict) -> list[bytes]:
    out: list[bytes] = []
    for p in reader.partitions(start, end):
        for b in reader.read(p):
            out += pa.Table.from_batches([b])["value"].to_pylist()
    return out


@pytest.fixture
def truncated(tmp_path):
    """A stream that has read offsets 0-29 (three batches of 10); then the log is cut back to offset 10
    (the first batch survives) and returns (log, reader, the offsets the stream read up to)."""
    log = _log(tmp_path)
    first = _batch(0, 10, b"old")
    _append(log, first, _batch(10, 10, b"old"), _batch(20, 10, b"old"))
    reader = _reader(log.parent.parent)
    start = reader.initialOffset()
    end = reader.latestOffset(start, ReadAllAvailable())
    assert len(_values(reader, start, end)) == 30
    _truncate_to(log, len(first))
    yield log, reader, end
    assert (tmp_path / "canary").read_text() == "keep"


def test_the_tail_sees_the_log_go_back(tmp_path):
    log = _log(tmp_path)
    first = _batch(0, 10, b"old")
    _append(log, first, _batch(10, 10, b"old"))
    tail = PartitionTail()
    assert tail.look(Partition(log.parent)).end == 20
    _truncate_to(log, len(first))
    _append(log, _batch(10, 25, b"new"))  # regrown past where the tail had been, in place
    point = tail.look(Partition(log.parent))
    assert (point.end, point.rewound) == (35, 20)
    assert tail.look(Partition(log.parent)).rewound is None  # said once


def test_a_log_cut_back_below_the_streams_position_is_data_loss(truncated):
    log, reader, end = truncated
    _append(log, _batch(10, 5, b"new"))
    with pytest.raises(
        DataLossError, match=r"t-0: the log went back: it had reached offset 30 .*failOnDataLoss"
    ):
        reader.latestOffset(end, ReadAllAvailable())


def test_a_log_regrown_past_the_streams_position_is_still_data_loss(truncated):
    """The offsets alone look fine (the end is past 30 again): records 10-29 were replaced unseen."""
    log, reader, end = truncated
    _append(log, _batch(10, 30, b"new"))
    with pytest.raises(DataLossError, match=r"t-0: the log went back"):
        reader.latestOffset(end, ReadAllAvailable())


def test_a_new_reader_finds_its_checkpoint_past_the_end(truncated):
    """After a restart the tail has no memory: the checkpoint's offset past the log end says it."""
    log, _, end = truncated
    reader = _reader(log.parent.parent)
    with pytest.raises(DataLossError, match=r"t-0: offsets went back from 30 to 10 "):
        reader.latestOffset(end, ReadAllAvailable())


def test_fail_on_data_loss_false_logs_it_and_reads_on_from_the_new_end(truncated, caplog):
    log, strict, end = truncated
    reader = _reader(log.parent.parent, failOnDataLoss="false")
    reader.tails, reader.checked = strict.tails, strict.checked  # the same query, as the last trigger left it
    _append(log, _batch(10, 5, b"new"))
    with caplog.at_level(logging.WARNING, logger="kafkaspec.spark"):
        after = reader.latestOffset(end, ReadAllAvailable())
    assert "t-0: the log went back" in caplog.text
    assert _plain(after) == {"t": {"0": 15}}
    assert _values(reader, end, after) == []  # nothing new above where the stream had read ...
    _append(log, _batch(15, 3, b"new"))
    later = reader.latestOffset(after, ReadAllAvailable())
    assert _values(reader, after, later) == [b"new-15", b"new-16", b"new-17"]  # ... and it reads on


def test_a_partition_deleted_and_recreated_is_data_loss(truncated):
    log, reader, end = truncated
    for f in log.parent.iterdir():
        f.unlink()
    _append(log, _batch(0, 40, b"again"))
    with pytest.raises(DataLossError, match=r"t-0: the log went back"):
        reader.latestOffset(end, ReadAllAvailable())
