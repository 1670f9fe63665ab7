"""A failed or aborted ``kafkalog`` write leaves nothing visible in OUT (issue 30, item 6b).

The writer refuses a job at commit: here two task attempts' messages holding the same offsets (the
overlap refusal), or a partition OUT already holds in append mode. Before, the commit had already
moved the partitions sorted before the refused one into OUT (with issue 30's batch-preserving
refusal, 7 partition folders, payments-0 half-written with 136 records), and an overwrite had deleted
OUT's partitions first. Now every partition is prepared in staging first and
switched into place only once all are ready: a refused commit leaves OUT exactly as it was (what it
held before, a canary included, and no staging folder), locally and on an object store. The writer is
driven as Spark drives it (``write()`` per task, then ``commit()``), without a Spark session.
"""

from __future__ import annotations

import pytest

from kafkaspec import Record, logdir
from kafkaspec.arrow.ranges import read_records
from kafkaspec.spark.read.options import ReadOptions
from kafkaspec.spark.read.planning import plan
from kafkaspec.spark.read.schema import RECORD_COLUMNS, struct_type
from kafkaspec.spark.write.writer import KafkaLogWriter


@pytest.fixture(scope="module")
def source(tmp_path_factory):
    path = tmp_path_factory.mktemp("abort-src") / "logs"
    logdir.synth(path, size_mb=0.5, seed=3)
    return path


def _messages(w: KafkaLogWriter, src, options: dict | None = None, *, twice: bool = False):
    """The tasks' commit messages; ``twice``: the last task's message again (its offsets overlap: refused)."""
    tasks = plan(str(src), ReadOptions.parse({"includeControl": "true", **(options or {})}))
    messages = [w.write(read_records(t)) for t in tasks]
    return messages + [w.write(read_records(tasks[-1]))] if twice else messages


def _tree(out) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def _existing(out) -> None:
    """OUT before the job: a canary and a partition of its own (which an overwrite would replace)."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "canary.txt").write_text("keep me")
    with logdir.PartitionWriter(out, "payments", 0) as w:
        w.append([Record(key=b"k", value=b"before", timestamp=1_700_000_000_000)])


CASES = [(False, False, "true"), (True, True, "true"), (True, True, "false"), (False, False, "false")]


@pytest.mark.parametrize(
    ("overwrite", "twice", "preserve"),
    CASES,
    ids=["append-exists", "overwrite-overlap", "overwrite-overlap-plain", "append-exists-plain"],
)
def test_a_refused_commit_leaves_out_as_it_was(source, tmp_path, overwrite, twice, preserve):
    out = tmp_path / "out"
    _existing(out)
    before = _tree(out)
    w = KafkaLogWriter(
        str(out), {"preserveBatches": preserve}, struct_type(RECORD_COLUMNS), overwrite=overwrite
    )
    messages = _messages(w, source, twice=twice)
    with pytest.raises((ValueError, FileExistsError), match="overlapping offsets|already holds a log"):
        w.commit(messages)
    w.abort(messages)  # as Spark does after a failed commit
    assert _tree(out) == before
    assert sorted(p.name for p in out.iterdir()) == ["canary.txt", "payments-0"]


def test_an_aborted_job_leaves_out_as_it_was(source, tmp_path):
    out = tmp_path / "out"
    _existing(out)
    before = _tree(out)
    w = KafkaLogWriter(str(out), {"preserveBatches": "false"}, struct_type(RECORD_COLUMNS), overwrite=True)
    w.abort(_messages(w, source))
    assert _tree(out) == before


def test_a_refused_commit_to_an_object_store_leaves_nothing(source, s3_env, s3_server):
    from pyarrow.fs import FileSelector

    bucket = s3_server.new_bucket()
    dest = f"s3://{bucket}/out"
    with s3_server.filesystem().open_output_stream(f"{bucket}/out/canary.txt") as f:
        f.write(b"keep me")
    w = KafkaLogWriter(dest, {}, struct_type(RECORD_COLUMNS), overwrite=True)
    messages = _messages(w, source, twice=True)
    with pytest.raises(ValueError, match="overlapping offsets"):
        w.commit(messages)
    w.abort(messages)
    keys = [i.path for i in s3_server.filesystem().get_file_info(FileSelector(bucket, recursive=True))]
    assert keys == [f"{bucket}/out", f"{bucket}/out/canary.txt"]


def test_a_good_job_after_a_refused_one_commits(source, tmp_path):
    out = tmp_path / "out"
    _existing(out)
    w = KafkaLogWriter(str(out), {}, struct_type(RECORD_COLUMNS), overwrite=True)
    with pytest.raises(ValueError, match="overlapping offsets"):
        w.commit(_messages(w, source, twice=True))
    w = KafkaLogWriter(str(out), {}, struct_type(RECORD_COLUMNS), overwrite=True)
    w.commit(_messages(w, source))
    assert logdir.verify(out) == []
    with logdir.open_log(out) as a, logdir.open_log(source) as b:
        assert [(p.name, [r.offset for _, r in p.records()]) for p in a.partitions()] == [
            (p.name, [r.offset for _, r in p.records()]) for p in b.partitions()
        ]
    assert (out / "canary.txt").read_text() == "keep me"
