"""Issue 39 item 3 in Spark: a ``.log`` entry that is no regular file (a dangling symbolic link, a FIFO,
a directory) is a segment that cannot be read, reported as a corrupt one is: the ``kafkalog`` source
fails naming it under ``corruptionPolicy=fail`` and, under ``skip``, reads the other segments and lists
it in the audit view as a ``corrupt`` row; the pipeline's summary names it among its corrupt ranges and
exits 1. It was planned as an empty range: the pipeline reported no corrupt range and exited 0. Every
tree is built in its own ``tmp_path`` with a canary beside it; a FIFO is never opened for reading."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.logdir import CANARY, twelve_records_in_segments

from kafkaspec.errors import KafkaFormatError
from kafkaspec.spark.run.pipeline import run_pipeline

pytestmark = [pytest.mark.spark, pytest.mark.hostile]

FIRST = "00000000000000000000.log"


def _partition(root: Path) -> Path:
    return twelve_records_in_segments(root)


def _make(kind: str, seg: Path) -> str:
    seg.unlink()
    if kind == "dangling":
        seg.symlink_to(seg.parent / "gone.log")
        return "dangling"
    if kind == "fifo":
        os.mkfifo(seg)
        return "FIFO"
    seg.mkdir()
    return "directory"


def _later_offsets(part: Path) -> list[int]:
    second = sorted(p.name for p in part.glob("*.log"))[1]
    return list(range(int(second.split(".")[0]), 12))


@pytest.mark.parametrize("kind", ["dangling", "fifo", "directory"])
def test_the_source_reports_the_segment(spark, tmp_path, kind):
    part = _partition(tmp_path)
    expected = _later_offsets(part)
    word = _make(kind, part / FIRST)
    with pytest.raises(Exception) as info:
        spark.read.format("kafkalog").option("corruptionPolicy", "fail").load(str(part)).count()
    assert FIRST in str(info.value) and word in str(info.value)
    rows = spark.read.format("kafkalog").option("corruptionPolicy", "skip").load(str(part)).select("offset")
    assert sorted(r.offset for r in rows.collect()) == expected
    audit = spark.read.format("kafkalog").option("view", "batches").load(str(part))
    bad = [
        (r.segment, r.crcStatus, word in (r.error or "")) for r in audit.where("crcStatus != 'ok'").collect()
    ]
    assert bad == [(str(part / FIRST), "corrupt", True)]
    assert (tmp_path / "canary").read_bytes() == CANARY


@pytest.mark.parametrize("kind", ["dangling", "fifo"])
def test_the_pipeline_summary_names_the_segment(spark, tmp_path, kind):
    part = _partition(tmp_path)
    expected = len(_later_offsets(part))
    word = _make(kind, part / FIRST)
    out = tmp_path / "out"
    summary = run_pipeline(spark, str(part), str(out), split_size="256k")
    assert [(c["segment"], c["status"], word in c["error"]) for c in summary.corrupt] == [
        (str(part / FIRST), "corrupt", True)
    ]
    assert summary.records == expected
    with pytest.raises(KafkaFormatError) as info:
        run_pipeline(spark, str(part), str(tmp_path / "out2"), on_corruption="fail", split_size="256k")
    assert FIRST in str(info.value) and word in str(info.value)
    assert (tmp_path / "canary").read_bytes() == CANARY


def test_the_pipeline_command_exits_1_naming_the_segment(tmp_path):
    part = _partition(tmp_path)
    _make("dangling", part / FIRST)
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "kafkaspec.cli",
            "pipeline",
            str(part),
            str(tmp_path / "out"),
            "--master",
            "local[1]",
            "--memory",
            "512m",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 1, done.stderr[-3000:]
    assert "Traceback" not in done.stderr
    assert FIRST in done.stdout and "dangling" in done.stdout, done.stdout
    assert (tmp_path / "canary").read_bytes() == CANARY


def test_the_source_reports_a_segment_whose_name_is_no_offset(spark, tmp_path):
    """A ``.log`` named by no offset (what a writer once made of offset -5) is a gap in Spark too: its
    records are not passed over in silence."""
    part = _partition(tmp_path)
    expected = _later_offsets(part)
    misnamed = part / "-0000000000000000005.log"
    (part / FIRST).rename(misnamed)
    with pytest.raises(Exception) as info:
        spark.read.format("kafkalog").option("corruptionPolicy", "fail").load(str(part)).count()
    assert misnamed.name in str(info.value) and "20-digit offset" in str(info.value)
    rows = spark.read.format("kafkalog").option("corruptionPolicy", "skip").load(str(part)).select("offset")
    assert sorted(r.offset for r in rows.collect()) == expected
    audit = spark.read.format("kafkalog").option("view", "batches").load(str(part))
    assert [(r.segment, r.crcStatus) for r in audit.where("crcStatus != 'ok'").collect()] == [
        (str(misnamed), "corrupt")
    ]
    assert (tmp_path / "canary").read_bytes() == CANARY
