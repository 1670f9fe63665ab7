"""The kafkalog stream reader over a partition's whole history (option ``tiered``: the local log plus its
tiered copy), driven directly as Spark's driver and tasks call it (no JVM): the options a batch read takes
for tiered storage reach the stream too, and the union of the micro-batches is every offset once."""

from __future__ import annotations

import pyarrow as pa

from kafkaspec import Record, logdir
from kafkaspec.spark.read.options import MARKS_KEY, ReadOptions
from kafkaspec.spark.stream.reader import KafkaLogStreamReader


def _plain(offset):
    """A streaming offset's offsets, without the batch marks beside them."""
    return {t: parts for t, parts in offset.items() if t != MARKS_KEY}


def _write(root, n: int, segment_bytes: int) -> None:
    with logdir.PartitionWriter(root, "t", 0, segment_bytes=segment_bytes, index_interval_bytes=200) as w:
        for i in range(n):
            w.append([Record(value=b"v%d" % i, timestamp=1_700_000_000_000 + i)])


def test_a_stream_over_a_local_log_and_its_tiered_copy_reads_every_offset_once(tmp_path):
    local, remote = tmp_path / "data", tmp_path / "remote"
    _write(local, 120, 900)
    logdir.write_tiered(local, remote, chunk_size=500)
    segments = sorted((local / "t-0").glob("*.log"))
    for seg in segments[: len(segments) // 2]:  # the local log keeps its newer half: the rest is remote
        for p in (local / "t-0").glob(seg.name[:20] + ".*"):
            p.unlink()
    (tmp_path / "canary").write_text("keep")
    reader = KafkaLogStreamReader(str(local), ReadOptions.parse({"tiered": str(remote), "splitSize": "300"}))
    start = reader.initialOffset()
    assert _plain(start) == {"t": {"0": 0}}  # the history starts where the remote copy does
    end = reader.latestOffset(start, reader.getDefaultReadLimit())
    assert _plain(end) == {"t": {"0": 120}}
    values = []
    for part in reader.partitions(start, end):
        for batch in reader.read(part):
            values += pa.Table.from_batches([batch])["value"].to_pylist()
    assert values == [b"v%d" % i for i in range(120)]
    assert (tmp_path / "canary").read_text() == "keep"
