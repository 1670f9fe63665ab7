"""PartitionWriter to an object-store destination (S3, GCS, Azure): staged locally, published on close, nothing
on failure."""

from __future__ import annotations

import pytest

from kafkaspec import Record, logdir


def _records(path) -> list[tuple]:
    with logdir.open_log(path) as log:
        return [(p.name, r.offset, r.key, r.value) for p in log.partitions() for _, r in p.records()]


def _write(dest, fail_after=None, mode="append"):
    with logdir.PartitionWriter(
        dest, "events", 3, segment_bytes=2000, index_interval_bytes=200, mode=mode
    ) as w:
        for i in range(60):
            if fail_after is not None and i == fail_after:
                raise RuntimeError("the task failed")
            w.append(
                [Record(key=b"k%d" % i, value=b"v" * (i % 50), timestamp=1_700_000_000_000 + i)],
                compression="zstd" if i % 2 else "none",
            )
    return w


def test_partition_writer_publishes_to_the_store(store_env, store_server, tmp_path):
    bucket = store_server.new_bucket()
    w = _write(store_server.uri(bucket, "out"))
    assert str(w.destination) == store_server.uri(bucket, "out/events-3") and not w.path.exists()
    _write(tmp_path)
    assert _records(store_server.uri(bucket, "out")) == _records(tmp_path)
    assert len(_records(tmp_path)) == 60
    assert logdir.verify(store_server.uri(bucket, "out")) == []
    names = sorted(
        i.path.rsplit("/", 1)[1]
        for i in store_server.filesystem().get_file_info(
            __import__("pyarrow.fs").fs.FileSelector(f"{bucket}/out/events-3")
        )
    )
    assert names == sorted(p.name for p in (tmp_path / "events-3").iterdir())


def test_a_failed_writer_publishes_nothing_and_a_retry_does_not_duplicate(store_env, store_server):
    bucket = store_server.new_bucket()
    with pytest.raises(RuntimeError, match="the task failed"):
        _write(store_server.uri(bucket, "out"), fail_after=30)
    with pytest.raises(FileNotFoundError):
        logdir.open_log(store_server.uri(bucket, "out"))
    _write(store_server.uri(bucket, "out"))
    _write(
        store_server.uri(bucket, "out"), mode="overwrite"
    )  # retried after success: the same keys, replaced
    assert [r[1] for r in _records(store_server.uri(bucket, "out"))] == list(range(60))
