"""``spark.read.format("kafkalog")`` in a session that never called ``register``: Spark finds the source
itself, as it finds any top-level ``pyspark_*`` module with a ``DefaultSource`` that its Python workers
can import (the wheel installs ``pyspark_kafkalog``; here a copy of it is put on the workers' path, as
an installed wheel puts it on sys.path). Filters are not pushed down then, and still apply."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kafkaspec import Record, logdir

pytestmark = pytest.mark.spark

REPO = Path(__file__).resolve().parents[2]

SCRIPT = """
import sys
from pyspark.sql import SparkSession
spark = (SparkSession.builder.master("local[1]").config("spark.ui.enabled", "false")
         .config("spark.driver.memory", "512m").getOrCreate())
try:
    df = spark.read.format("kafkalog").option("subscribe", "orders").load(sys.argv[1])
    print(df.count(), df.where("partition = 1 and offset >= 5").count())
finally:
    spark.stop()
"""


def test_a_fresh_session_finds_kafkalog_without_register(tmp_path):
    src = tmp_path / "logs"
    for p in (0, 1):
        with logdir.PartitionWriter(src, "orders", p) as w:
            w.append([Record(value=b"v%d" % i, timestamp=i) for i in range(12)])
    site = tmp_path / "site"
    site.mkdir()
    shutil.copy(REPO / "pyspark_kafkalog.py", site / "pyspark_kafkalog.py")
    canary = tmp_path / "canary"
    canary.write_text("keep")
    env = {**os.environ, "PYTHONPATH": str(site), "PYSPARK_PYTHON": sys.executable}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(src)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == ["24", "7"]
    assert canary.read_text() == "keep"
