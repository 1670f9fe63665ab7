"""PartitionWriter to an s3:// destination: staged locally, published on close, nothing on failure."""

from __future__ import annotations

import pytest

from kafkaspec import Record, logdir


def _records(path) -> list[tuple]:
    with logdir.open_log(path) as log:
        return [(p.name, r.offset, r.key, r.value) for p in log.partitions() for _, r in p.records()]


def _write(dest, fail_after=None):
    with logdir.PartitionWriter(dest, "events", 3, segment_bytes=2000, index_interval_bytes=200) as w:
        for i in range(60):
            if fail_after is not None and i == fail_after:
                raise RuntimeError("the task failed")
            w.append([Record(key=b"k%d" % i, value=b"v" * (i % 50), timestamp=1_700_000_000_000 + i)],
                     compression="zstd" if i % 2 else "none")
    return w


def test_partition_writer_publishes_to_s3(s3_env, s3_server, tmp_path):
    bucket = s3_server.new_bucket()
    w = _write(f"s3://{bucket}/out")
    assert str(w.destination) == f"s3://{bucket}/out/events-3" and not w.path.exists()
    _write(tmp_path)
    assert _records(f"s3://{bucket}/out") == _records(tmp_path)
    assert len(_records(tmp_path)) == 60
    assert logdir.verify(f"s3://{bucket}/out") == []
    names = sorted(i.path.rsplit("/", 1)[1] for i in s3_server.filesystem().get_file_info(
        __import__("pyarrow.fs").fs.FileSelector(f"{bucket}/out/events-3")))
    assert names == sorted(p.name for p in (tmp_path / "events-3").iterdir())


def test_a_failed_writer_publishes_nothing_and_a_retry_does_not_duplicate(s3_env, s3_server):
    bucket = s3_server.new_bucket()
    with pytest.raises(RuntimeError, match="the task failed"):
        _write(f"s3://{bucket}/out", fail_after=30)
    with pytest.raises(FileNotFoundError):
        logdir.open_log(f"s3://{bucket}/out")
    _write(f"s3://{bucket}/out")
    _write(f"s3://{bucket}/out")  # retried after success: the same keys, replaced
    assert [r[1] for r in _records(f"s3://{bucket}/out")] == list(range(60))
