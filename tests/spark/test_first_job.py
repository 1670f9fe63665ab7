"""A user's first Spark job, as the docs write it: their own SparkSession, ``register(spark)``, a read and a
batch-preserving write back, with nothing else configured.

Each job runs in a subprocess of its own with a clean environment: PYSPARK_PYTHON unset and a ``python3``
first on PATH that has no kafkaspec (the base interpreter), as on a machine where kafkaspec lives in a
virtualenv that is not activated.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from kafkaspec import logdir

pytestmark = [pytest.mark.spark, pytest.mark.slow]


def _user_env(tmp_path: Path) -> dict[str, str]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python3").symlink_to(sys._base_executable)  # an interpreter without kafkaspec
    (bin_dir / "python").symlink_to(sys._base_executable)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYSPARK_")}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    return env


#: modules the Python workers import that the job's working directory holds as ``<name>.py``
PLANTED = ("lz4", "cramjam")


def _run_job(tmp_path: Path, code: str) -> subprocess.CompletedProcess:
    """``code`` run (``python -P``: the job's own interpreter keeps the folder off its path, as a
    program run as a file does) in a folder that holds a ``lz4.py`` and a ``cramjam.py``: PySpark starts
    its workers as ``python -m pyspark.daemon`` there, and Python puts the folder first on their path
    unless PYTHONSAFEPATH is set, which ``register`` does for the user's session."""
    if shutil.which("java") is None:
        pytest.fail("Spark tests need Java 17+ (Debian: apt-get install openjdk-17-jre-headless)")
    work = tmp_path / "work"
    work.mkdir()
    (work / "canary").write_text("stays")
    for name in PLANTED:
        (work / f"{name}.py").write_text(f"open({str(tmp_path / ('ran-' + name))!r}, 'w').close()\n")
    result = subprocess.run(
        [sys.executable, "-P", "-c", textwrap.dedent(code)],
        cwd=work,
        env=_user_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert (work / "canary").read_text() == "stays"
    assert sorted(p.name for p in tmp_path.glob("ran-*")) == [], result.stderr[-3000:]
    return result


def test_the_base_python_has_no_kafkaspec(tmp_path):
    """The premise of the jobs below: the python3 they put first on PATH cannot import kafkaspec."""
    probe = subprocess.run(
        ["python3", "-c", "import kafkaspec.generated"],
        env=_user_env(tmp_path),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert probe.returncode != 0 and "kafkaspec" in probe.stderr


def test_first_job_reads_and_writes_back_with_the_users_own_session(synth_dir, tmp_path):
    out = tmp_path / "copy"
    result = _run_job(
        tmp_path,
        f"""
        from pyspark.sql import SparkSession
        from kafkaspec.spark import register

        spark = SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false").getOrCreate()
        register(spark)
        df = spark.read.format("kafkalog").load({str(synth_dir)!r})
        print("ROWS", df.count())
        df.write.format("kafkalog").mode("overwrite").save({str(out)!r})
        spark.stop()
    """,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    with logdir.open_log(synth_dir) as log:
        rows = sum(1 for p in log.partitions() for _ in p.records())
    assert f"ROWS {rows}" in result.stdout
    assert logdir.verify(out) == []
    with logdir.open_log(synth_dir) as a, logdir.open_log(out) as b:
        assert [(p.topic, p.partition, [r.offset for _, r in p.records()]) for p in a.partitions()] == [
            (p.topic, p.partition, [r.offset for _, r in p.records()]) for p in b.partitions()
        ]


def test_a_data_error_in_a_task_shows_its_message_near_the_top(spark, tmp_path):
    """A corrupt batch under corruptionPolicy=fail: what PySpark raises shows our one-line message (file
    and byte) right after the worker's header, not below a traceback through the decoder."""
    from kafkaspec import Record

    with logdir.PartitionWriter(tmp_path / "logs", "t", 0) as w:
        for i in range(5):
            w.append([Record(key=b"k", value=b"v%d" % i, timestamp=1)])
    seg = tmp_path / "logs" / "t-0" / "00000000000000000000.log"
    data = bytearray(seg.read_bytes())
    data[100] ^= 0xFF
    seg.write_bytes(bytes(data))
    with pytest.raises(Exception) as info:
        spark.read.format("kafkalog").option("corruptionPolicy", "fail").load(
            str(tmp_path / "logs")
        ).collect()
    lines = str(info.value).splitlines()
    found = [i for i, line in enumerate(lines) if line.startswith("kafkaspec.errors.")]
    assert found and found[0] <= 4, lines[:12]
    assert re.search(r"at .*t-0/0+\.log, byte \d+\)$", lines[found[0]]), lines[found[0]]
