"""The kafkalog stream reader on an object store that receives segments as they are published (the
publish protocol: a partition's new version appears whole), driven as Spark's driver and tasks call it."""

from __future__ import annotations

import shutil

import pyarrow as pa
from pyspark.sql.streaming.datasource import ReadAllAvailable

from kafkaspec import Record, logdir
from kafkaspec.logdir.store.publish import publish_partition
from kafkaspec.logdir.store.storage import as_path
from kafkaspec.spark.read.options import MARKS_KEY, ReadOptions
from kafkaspec.spark.stream.reader import KafkaLogStreamReader


def _plain(offset):
    """A streaming offset's offsets, without the batch marks beside them."""
    return {t: parts for t, parts in offset.items() if t != MARKS_KEY}


def _rows(reader, start, end):
    out = []
    for p in reader.partitions(start, end):
        for b in reader.read(p):
            t = pa.Table.from_batches([b])
            out += zip(t["offset"].to_pylist(), t["value"].to_pylist())
    return out


def test_segments_published_while_the_stream_runs_are_read_once(s3_env, tmp_path):
    bucket = s3_env.new_bucket()
    uri = f"s3://{bucket}/live"
    local, snap = tmp_path / "broker", tmp_path / "snapshot"
    w = logdir.PartitionWriter(local, "orders", 0, segment_bytes=900, index_interval_bytes=128)

    def publish_round(k, compression):
        for i in range(k):
            w.append(
                [Record(key=None, value=b"%s-%d" % (compression.encode(), i), timestamp=i)] * 3,
                compression=compression,
            )
        w.roll()
        shutil.rmtree(snap, ignore_errors=True)
        shutil.copytree(local / "orders-0", snap / "orders-0")
        publish_partition(snap / "orders-0", as_path(f"{uri}/orders-0"))

    publish_round(4, "none")
    reader = KafkaLogStreamReader(uri, ReadOptions.parse({"splitSize": "512"}))
    start = reader.initialOffset()
    assert _plain(start) == {"orders": {"0": 0}}
    rows = []
    for compression in ("zstd", "gzip", "none"):
        end = reader.latestOffset(start, ReadAllAvailable())
        rows += _rows(reader, start, end)
        start = end
        publish_round(5, compression)
    end = reader.latestOffset(start, ReadAllAvailable())
    rows += _rows(reader, start, end)
    assert _plain(end) == {"orders": {"0": w.next_offset}}
    w.close()
    with logdir.open_log(uri) as log:
        whole = [(r.offset, r.value) for _, r in log.partitions()[0].records()]
    assert rows == whole and len(whole) == w.next_offset


def test_new_tiered_manifests_are_picked_up_read_committed_too(s3_env, tmp_path):
    """A broker uploading closed segments to tiered storage: each upload's manifest publishes a segment."""
    bucket = s3_env.new_bucket()
    uri = f"s3://{bucket}/tiered"
    local, closed = tmp_path / "broker", tmp_path / "closed"
    w = logdir.PartitionWriter(local, "orders", 0, index_interval_bytes=128)
    seq = 0

    def upload_round(tag):
        nonlocal seq
        w.append([Record(key=None, value=b"%s-plain" % tag, timestamp=1)] * 2, compression="zstd")
        w.append(
            [Record(key=None, value=b"%s-aborted" % tag, timestamp=1)] * 2,
            producer_id=3,
            producer_epoch=0,
            base_sequence=seq,
            is_transactional=True,
        )
        seq += 2
        w.append_control("abort", producer_id=3, producer_epoch=0)
        w.append(
            [Record(key=None, value=b"%s-committed" % tag, timestamp=1)],
            producer_id=3,
            producer_epoch=0,
            base_sequence=seq,
            is_transactional=True,
        )
        seq += 1
        w.append_control("commit", producer_id=3, producer_epoch=0)
        w.roll()
        shutil.rmtree(closed, ignore_errors=True)  # what a broker uploads: the closed segments
        shutil.copytree(
            local / "orders-0",
            closed / "orders-0",
            ignore=lambda d, names: [n for n in names if n.startswith(f"{w.next_offset:020d}")],
        )
        logdir.write_tiered(closed, uri)

    upload_round(b"r0")
    readers = {
        level: KafkaLogStreamReader(uri, ReadOptions.parse({"isolationLevel": level}))
        for level in ("read_committed", "read_uncommitted")
    }
    starts = {level: r.initialOffset() for level, r in readers.items()}
    got = {level: [] for level in readers}
    for tag in (b"r1", b"r2", None):
        for level, r in readers.items():
            end = r.latestOffset(starts[level], ReadAllAvailable())
            got[level] += _rows(r, starts[level], end)
            starts[level] = end
        if tag:
            upload_round(tag)
    assert (
        _plain(starts["read_committed"])
        == _plain(starts["read_uncommitted"])
        == {"orders": {"0": w.next_offset}}
    )
    w.close()
    assert [v for _, v in got["read_committed"]] == [
        b"%s-%s" % (t, k) for t in (b"r0", b"r1", b"r2") for k in (b"plain", b"plain", b"committed")
    ]
    assert len(got["read_uncommitted"]) == 15 and [o for o, _ in got["read_uncommitted"]] == sorted(
        {o for o, _ in got["read_uncommitted"]}
    )


def test_spark_stream_over_published_versions_with_its_checkpoint(spark, s3_server, s3_env, tmp_path):
    """Spark's own micro-batches (availableNow, run again after each publication) with the file sink."""
    from support.s3 import ACCESS_KEY, SECRET_KEY

    bucket = s3_server.new_bucket()
    uri = f"s3://{bucket}/live"
    local, snap = tmp_path / "broker", tmp_path / "snapshot"
    options = {
        "s3.endpoint": s3_server.endpoint,
        "s3.accessKey": ACCESS_KEY,
        "s3.secretKey": SECRET_KEY,
        "s3.region": "us-east-1",
        "splitSize": "512",
    }
    w = logdir.PartitionWriter(local, "orders", 0, segment_bytes=900, index_interval_bytes=128)
    for round_, compression in enumerate(("none", "zstd", "lz4")):
        for i in range(6):
            w.append(
                [Record(key=None, value=b"%d-%d" % (round_, i), timestamp=i)] * 2, compression=compression
            )
        w.roll()
        shutil.rmtree(snap, ignore_errors=True)
        shutil.copytree(local / "orders-0", snap / "orders-0")
        publish_partition(snap / "orders-0", as_path(f"{uri}/orders-0"))
        query = (
            spark.readStream.format("kafkalog")
            .options(**options)
            .load(uri)
            .writeStream.format("parquet")
            .option("checkpointLocation", str(tmp_path / "ck"))
            .trigger(availableNow=True)
            .start(str(tmp_path / "out"))
        )
        query.awaitTermination()
        assert query.exception() is None
    w.close()
    got = sorted((r.offset, bytes(r.value)) for r in spark.read.parquet(str(tmp_path / "out")).collect())
    with logdir.open_log(uri) as log:
        assert got == [(r.offset, r.value) for _, r in log.partitions()[0].records()]
    assert len(got) == 36
