"""What a streaming trigger costs (issue 40): proportional to what changed, not to the size of the source.

The stream reader is driven as Spark's driver calls it (see test_stream_offsets.py) over 2,000 small
partitions, and what each trigger asks of the storage is counted where every local read goes through:
the directory listings (``os.listdir`` / ``os.scandir``, under ``Path.iterdir`` and the store's
``listdir``) and the bytes read (``os.pread``, under every ranged read of a segment or an index).
"""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest
from pyspark.sql.streaming.datasource import ReadAllAvailable
from support.logdir import CANARY, twelve_records_in_segments
from support.values import V1, skey, sval

from kafkaspec import Record, logdir
from kafkaspec.spark.read.options import ReadOptions
from kafkaspec.spark.read.source import _with_value_schemas
from kafkaspec.spark.read.values import SchemasTail, ValueColumns
from kafkaspec.spark.stream import reader as streaming
from kafkaspec.spark.stream.reader import DataLossError, KafkaLogStreamReader
from kafkaspec.values.schemas_topic import read_schemas


class Storage:
    """Listings and bytes read through the operating system's calls, counted since :meth:`reset`."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch):
        self.listings = self.bytes = 0
        listdir, scandir, pread = os.listdir, os.scandir, os.pread

        def counted_listdir(*args):
            self.listings += 1
            return listdir(*args)

        def counted_scandir(*args):
            self.listings += 1
            return scandir(*args)

        def counted_pread(fd, n, at):
            data = pread(fd, n, at)
            self.bytes += len(data)
            return data

        monkeypatch.setattr(os, "listdir", counted_listdir)
        monkeypatch.setattr(os, "scandir", counted_scandir)
        monkeypatch.setattr(os, "pread", counted_pread)

    def reset(self) -> None:
        self.listings = self.bytes = 0

    def cost(self, call):
        """``call()``'s result and the (listings, bytes) it took."""
        self.reset()
        out = call()
        return out, (self.listings, self.bytes)


def _settle():
    """Wait until what was written is older than the grain a stamp must clear (streaming.SETTLED_NS)."""
    time.sleep(streaming.SETTLED_NS / 1e9 + 0.2)


def _writers(root, n, topic="t"):
    writers = []
    for p in range(n):
        w = logdir.PartitionWriter(root, topic, p)
        w.append([Record(key=b"k", value=b"v%d" % p, timestamp=1_700_000_000_000)])
        w.segment.fh.flush()
        writers.append(w)
    return writers


def _trigger(reader, start):
    """One micro-batch as Spark runs it: the new end, then its partitions, each read."""
    end = reader.latestOffset(start, ReadAllAvailable())
    rows = sum(b.num_rows for p in reader.partitions(start, end) for b in reader.read(p))
    return end, rows


def test_an_idle_trigger_over_2000_partitions_lists_the_source_once_and_reads_nothing(tmp_path, monkeypatch):
    root = tmp_path / "data"
    canary = tmp_path / "canary"
    canary.write_text("keep")
    writers = _writers(root, 2000)
    storage = Storage(monkeypatch)
    reader = KafkaLogStreamReader(str(root), ReadOptions.parse({}))
    _settle()
    start = reader.initialOffset()
    start, rows = _trigger(reader, start)
    assert rows == 2000
    whole_look = storage.cost(lambda: logdir.open_log(root).segments())[1][0]
    assert whole_look > 2000  # a listing of every partition directory: what a trigger must not cost

    for _ in range(3):
        end, (listings, read) = storage.cost(lambda: reader.latestOffset(start, ReadAllAvailable()))
        assert end == start
        assert (listings, read) <= (3, 0), "an idle trigger: the source's root listed, nothing read"

    changed = (1, 500, 1999)
    appended = 0
    for p in changed:
        writers[p].append([Record(key=b"k", value=b"new", timestamp=1_700_000_000_001)])
        writers[p].segment.fh.flush()
    size = sum(w.segment.fh.tell() for w in writers)
    appended = sum(writers[p].segment.fh.tell() for p in changed)
    end, (listings, read) = storage.cost(lambda: reader.latestOffset(start, ReadAllAvailable()))
    assert listings <= 3 + len(changed) and read <= 2 * appended < size / 100
    parts, (listings, read) = storage.cost(lambda: reader.partitions(start, end))
    assert len(parts) == len(changed)
    assert listings == 0, "the micro-batch is planned over the listing latestOffset made"
    assert read <= appended
    for w in writers:
        w.close()
    assert canary.read_text() == "keep"


def _schemas_topic(root, n):
    w = logdir.PartitionWriter(root, "_schemas", 0)
    for i in range(1, n + 1):
        subject = f"s{i}-value"
        schema = json.dumps({**V1, "name": f"R{i}"})
        w.append([Record(key=skey(subject, 1), value=sval(subject, 1, i, schema))])
    w.segment.fh.flush()
    return w


def test_a_trigger_reads_only_what_was_appended_to_schemas(tmp_path, monkeypatch):
    root = tmp_path / "data"
    canary = tmp_path / "canary"
    canary.write_text("keep")
    schemas = _schemas_topic(root, 400)
    writers = _writers(root, 20, topic="orders")
    opts = _with_value_schemas(str(root), ReadOptions.parse({"subscribe": "orders", "valueFormat": "avro"}))
    reader = KafkaLogStreamReader(str(root), opts)
    storage = Storage(monkeypatch)
    start = reader.initialOffset()
    start, rows = _trigger(reader, start)
    assert rows == 20
    topic_size = schemas.segment.fh.tell()

    def grow():
        writers[3].append([Record(key=b"k", value=b"new", timestamp=1_700_000_000_001)])
        writers[3].segment.fh.flush()

    grow()
    (start, rows), (_, read) = storage.cost(lambda: _trigger(reader, start))
    assert rows == 1 and read < topic_size / 4, "a micro-batch does not replay the _schemas topic"

    before = schemas.segment.fh.tell()
    schema = json.dumps({**V1, "name": "Late"})
    schemas.append([Record(key=skey("late-value", 1), value=sval("late-value", 1, 999, schema))])
    schemas.segment.fh.flush()
    grow()
    storage.reset()
    end = reader.latestOffset(start, ReadAllAvailable())
    parts = reader.partitions(start, end)
    assert storage.bytes < topic_size / 4 + (schemas.segment.fh.tell() - before) * 4
    values = parts[0].task.values
    assert values.schemas.by_id(999) is not None and values.schemas.by_id(400) is not None
    assert values.schemas.to_json() == read_schemas(logdir.open_log(root)).to_json()
    assert reader.schemas.replays == 1
    schemas.close()
    for w in writers:
        w.close()
    assert canary.read_text() == "keep"


def test_schemas_rewritten_under_the_stream_are_replayed_whole(tmp_path):
    """A ``_schemas`` topic deleted and written again with other records at the same offsets (the kept
    position is no longer what was read): the next refresh replays it whole, not from the position."""
    root = tmp_path / "data"
    canary = tmp_path / "canary"
    canary.write_text("keep")
    w = _schemas_topic(root, 3)
    w.close()
    follow = SchemasTail()
    vc = follow.refresh(ValueColumns(value_format="avro"), logdir.open_log(root).partitions())
    assert vc.schemas.subjects() == ["s1-value", "s2-value", "s3-value"] and follow.replays == 1

    w = logdir.PartitionWriter(root, "_schemas", 0)
    w.append([Record(key=skey("s4-value", 1), value=sval("s4-value", 1, 4, json.dumps(V1)))])
    w.close()
    vc = follow.refresh(vc, logdir.open_log(root).partitions())
    assert vc.schemas.subjects() == ["s1-value", "s2-value", "s3-value", "s4-value"]
    assert follow.replays == 1  # appended: applied from the position

    shutil.rmtree(root / "_schemas-0")
    w = logdir.PartitionWriter(root, "_schemas", 0)
    for i in range(1, 5):
        subject = f"other{i}-value"
        w.append([Record(key=skey(subject, 1), value=sval(subject, 1, 10 + i, json.dumps(V1)))])
    w.close()
    vc = follow.refresh(vc, logdir.open_log(root).partitions())
    assert follow.replays == 2
    assert vc.schemas.to_json() == read_schemas(logdir.open_log(root)).to_json()
    assert vc.schemas.subjects() == [f"other{i}-value" for i in range(1, 5)]
    assert canary.read_text() == "keep"


def test_a_settled_partition_rewritten_to_the_same_size_is_looked_at_again(tmp_path):
    """A partition passed over while unchanged is looked at again when its last segment was written again
    in place to the very same size (other records), even once that is settled: the stream says the log
    went back."""
    root = tmp_path / "data"
    canary = tmp_path / "canary"
    canary.write_text("keep")
    for w in _writers(root, 2):
        w.close()
    reader = KafkaLogStreamReader(str(root), ReadOptions.parse({}))
    _settle()
    start = reader.initialOffset()
    start, _ = _trigger(reader, start)
    assert reader.latestOffset(start, ReadAllAvailable()) == start

    log = next(Path(root / "t-1").glob("*.log"))
    other = logdir.PartitionWriter(tmp_path / "other", "t", 1)
    other.leader_epoch = 7  # another leader's record at the same offset: same size, other bytes
    other.append([Record(key=b"k", value=b"v9", timestamp=1_700_000_000_000)])
    other.close()
    data = next(Path(tmp_path / "other" / "t-1").glob("*.log")).read_bytes()
    assert len(data) == log.stat().st_size and data != log.read_bytes()
    with open(log, "r+b") as f:  # in place: the directory is not touched
        f.write(data)
    _settle()  # and settled again by the next trigger: only the segment's stamp tells
    with pytest.raises(DataLossError, match="went back"):
        reader.latestOffset(start, ReadAllAvailable())
    assert canary.read_text() == "keep"


@pytest.mark.parametrize("fail", [True, False])
def test_a_segment_deleted_between_the_listing_and_the_plan_is_data_loss(tmp_path, fail):
    """The micro-batch is planned over latestOffset's listing: a segment retention deleted in between is
    found when planning, and its offsets are lost (failOnDataLoss), not an error of the source."""
    part = twelve_records_in_segments(tmp_path)
    reader = KafkaLogStreamReader(str(part.parent), ReadOptions.parse({"failOnDataLoss": str(fail).lower()}))
    start = reader.initialOffset()
    end = reader.latestOffset(start, ReadAllAvailable())
    first, second = sorted(part.glob("*.log"))[:2]
    for p in part.glob(first.stem + ".*"):
        p.unlink()
    kept = int(second.stem)
    if fail:
        with pytest.raises(DataLossError, match=f"offsets 0 to {kept - 1}"):
            reader.partitions(start, end)
    else:
        offsets = [
            o for p in reader.partitions(start, end) for b in reader.read(p) for o in b["offset"].to_pylist()
        ]
        assert offsets == list(range(kept, 12))
    assert (tmp_path / "canary").read_bytes() == CANARY
