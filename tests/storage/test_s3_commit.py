"""The kafkalog writer's commit to an object store (the moto server): batch-preserving writes, retried
tasks, and a commit that dies half-way, which must leave no half-visible partition.

The writer is driven as Spark drives it (one ``write()`` per task attempt, then ``commit()`` with the
messages of the attempts that succeeded), without a Spark session: the planner and the columnar reader
make exactly what a kafkalog read hands to the writer.
"""

from __future__ import annotations

import pytest
from pyarrow.fs import FileSelector, FileType

from kafkaspec import KafkaFormatError, logdir
from kafkaspec.arrow.ranges import read_records
from kafkaspec.cli import main
from kafkaspec.logdir.store.publish import PUBLISHING
from kafkaspec.logdir.store.storage import Store
from kafkaspec.spark.read.options import ReadOptions
from kafkaspec.spark.read.planning import plan
from kafkaspec.spark.read.schema import RECORD_COLUMNS, struct_type
from kafkaspec.spark.write.writer import KafkaLogWriter


@pytest.fixture(scope="module")
def synth_logs(tmp_path_factory):
    path = tmp_path_factory.mktemp("commit") / "logs"
    logdir.synth(path, size_mb=0.1, seed=11)  # transactions, aborts, control batches, several topics
    return path


def _writer(dest: str, options: dict | None = None) -> KafkaLogWriter:
    return KafkaLogWriter(dest, options or {}, struct_type(RECORD_COLUMNS), overwrite=True)


def _tasks(src: str, isolation: str = "read_committed"):
    return plan(
        src, ReadOptions.parse({"isolationLevel": isolation, "includeControl": "true", "splitSize": "32k"})
    )


def _objects(s3_server, prefix: str) -> dict[str, bytes]:
    fs = s3_server.filesystem()
    infos = fs.get_file_info(FileSelector(prefix, recursive=True, allow_not_found=True))
    return {
        i.path[len(prefix) + 1 :]: fs.open_input_file(i.path).read() for i in infos if i.type == FileType.File
    }


def test_a_batch_preserving_write_from_s3_to_s3_gives_the_same_objects(s3_env, s3_server, synth_logs):
    """Rows of a kafkalog read of an s3:// copy, written back batch for batch to another prefix: every
    segment, index, snapshot and checkpoint comes out byte for byte, and no staging object is left."""
    bucket = s3_server.new_bucket()
    src = s3_server.upload(synth_logs, bucket, "src")
    w = _writer(f"s3://{bucket}/out")
    assert w.preserve
    w.commit([w.write(read_records(t)) for t in _tasks(src, "read_uncommitted")])  # every record, as copied
    source, out = _objects(s3_server, f"{bucket}/src"), _objects(s3_server, f"{bucket}/out")
    assert set(source) - set(out) == {
        "meta.properties",
        ".kafka_cleanshutdown",
        "cleaner-offset-checkpoint",
        "log-start-offset-checkpoint",
        "recovery-point-offset-checkpoint",
        "replication-offset-checkpoint",
    } & set(source)
    assert out == {k: source[k] for k in out} and len(out) > 10
    assert logdir.verify(f"s3://{bucket}/out") == []


def test_a_retried_task_is_committed_once_and_its_failed_attempt_leaves_nothing(
    s3_env, s3_server, synth_logs
):
    bucket = s3_server.new_bucket()
    dest = f"s3://{bucket}/out"
    w = _writer(dest, {"preserveBatches": "false"})
    tasks = _tasks(str(synth_logs))
    messages = [w.write(read_records(t)) for t in tasks]
    w.write(read_records(tasks[0]))  # an attempt that uploaded, then died: Spark never hands its message over

    def dies(rows):
        yield next(iter(rows))
        raise RuntimeError("executor lost")

    with pytest.raises(RuntimeError, match="executor lost"):  # an attempt that dies while writing
        w.write(dies(read_records(tasks[1])))
    assert any("_kafkalog_staging" in k for k in _objects(s3_server, f"{bucket}/out"))
    w.commit(messages)
    assert not any("_kafkalog_staging" in k for k in _objects(s3_server, f"{bucket}/out"))
    with logdir.open_log(dest) as out, logdir.open_log(synth_logs) as local:

        def rows(log):
            return {p.name: [(r.offset, r.key, r.value) for _, r in p.records()] for p in log.partitions()}

        assert rows(out) == rows(local)  # every record once: no attempt duplicated


def test_a_commit_that_dies_half_way_leaves_no_half_visible_partition(
    s3_env, s3_server, synth_logs, monkeypatch, capsys
):
    bucket = s3_server.new_bucket()
    dest = f"s3://{bucket}/out"
    w = _writer(dest, {"preserveBatches": "false"})
    messages = [w.write(read_records(t)) for t in _tasks(str(synth_logs))]
    copy, done = Store.copy, []

    def dies_after_five(self, src, dst):
        if len(done) == 5:
            raise OSError("the driver died")
        done.append(dst)
        copy(self, src, dst)

    monkeypatch.setattr(Store, "copy", dies_after_five)
    with pytest.raises(OSError, match="the driver died"):
        w.commit(messages)
    monkeypatch.setattr(Store, "copy", copy)
    half = done[0].rsplit("/", 1)[0]  # the partition whose objects were being copied
    assert any(
        k.startswith(half.split("/", 1)[1]) for k in _objects(s3_server, bucket)
    )  # objects are there...
    log = logdir.open_log(dest)
    assert f"s3://{half}" in [str(p) for p in log.unpublished]  # ...but readers pass the partition over
    assert f"s3://{half}" not in [str(p.path) for p in log.partitions()]
    with pytest.raises(KafkaFormatError, match="being published"):
        logdir.open_log(f"s3://{half}")
    assert main(["verify", dest]) == 1  # an error names it, and where the new version is complete (item 30.6)
    out = capsys.readouterr().out
    assert f"error: s3://{half}/{PUBLISHING}: a writer (job {w.job}) is switching this partition" in out
    assert f"complete under s3://{bucket}/out/_kafkalog_staging/{w.job}" in out
    w2 = _writer(dest, {"preserveBatches": "false"})  # the job run again
    w2.commit([w2.write(read_records(t)) for t in _tasks(str(synth_logs))])
    with logdir.open_log(dest) as out_log, logdir.open_log(synth_logs) as local:
        assert out_log.unpublished == []
        assert [(p.name, [r.offset for _, r in p.records()]) for p in out_log.partitions()] == [
            (p.name, [r.offset for _, r in p.records()]) for p in local.partitions()
        ]
