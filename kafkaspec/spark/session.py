"""Building the SparkSession the CLI, the tests and the benchmark use (local by default)."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pyspark.sql import SparkSession


def build_session(
    master: str | None = "local[*]",
    app_name: str = "kafkaspec",
    *,
    memory: str = "1g",
    shuffle_partitions: int | None = None,
    extra: dict[str, str] | None = None,
) -> SparkSession:
    """A SparkSession with the ``kafkalog`` source registered.

    Python workers run this interpreter (so they import this kafkaspec);
    memory stays modest so a laptop (or a shared CI box) copes.
    """
    from ..codec.extras import require_spark

    require_spark("a Spark session for kafkaspec")
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    builder = (
        SparkSession.builder.appName(app_name)
        .config("spark.driver.memory", memory)
        .config("spark.executor.memory", memory)
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", str(shuffle_partitions or 8))
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.python.worker.reuse", "true")
        # PySpark starts its workers as `python -m pyspark.daemon` in the driver's (or executor's) working
        # directory, which Python then puts first on their import path: a lz4.py in the folder a pipeline
        # is run from was imported by every worker. With this, Python (3.11+) puts nothing there.
        .config("spark.executorEnv.PYTHONSAFEPATH", "1")
        # a kafkalog task holds one topic-partition: write partitioned output without sorting it first
        .config("spark.sql.maxConcurrentOutputFileWriters", "16")
        .config("spark.sql.optimizer.plannedWrite.enabled", "false")
    )
    if master is not None:  # None: spark-submit's --master applies
        builder = builder.master(master)
    for key, value in (extra or {}).items():
        builder = builder.config(key, value)
    with _workers_path_kept_off_cwd():
        spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("WARN")
    from . import register

    register(spark)
    return spark


@contextmanager
def _workers_path_kept_off_cwd() -> Iterator[None]:
    """While the JVM starts: ``PYTHONPATH`` without its empty entries (``PYTHONPATH=/x:$PYTHONPATH``, it
    unset, leaves one). The JVM hands its own PYTHONPATH on to the Python workers it starts, and Python
    reads an empty entry as the working directory, ``PYTHONSAFEPATH`` or not: a lz4.py there was
    imported by every worker. Put back at once (the JVM has its copy)."""
    value = os.environ.get("PYTHONPATH")
    from ..command_signals import without_empty_entries

    kept = without_empty_entries(value)
    if kept == value:
        yield
        return
    os.environ["PYTHONPATH"] = kept or ""
    try:
        yield
    finally:
        os.environ["PYTHONPATH"] = value or ""


#: the pipeline's session: its JVM only schedules tasks (the data stays in the Python workers, see
#: :mod:`.run.onepass`), so it starts with the quick compiler only and the serial collector, which
#: halves the CPU time its start takes (~16 -> ~8 CPU seconds on a 2-core box)
PIPELINE_CONF = {"spark.driver.extraJavaOptions": "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"}


def quiet_session(master: str | None, log_path: str, *, memory: str) -> SparkSession:
    """A session whose JVM (and the Python workers it starts) write their log lines to ``log_path``,
    not to our stderr, and draw no stage bars: the JVM inherits the stderr it is started with, so it
    is started with the log file there, and ours is put back at once."""
    fd = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    sys.stderr.flush()
    saved = os.dup(2)
    os.dup2(fd, 2)
    try:
        spark = build_session(
            master,
            "kafkaspec pipeline",
            memory=memory,
            extra={**PIPELINE_CONF, "spark.ui.showConsoleProgress": "false"},
        )
    except BaseException as exc:
        os.dup2(saved, 2)
        raise RuntimeError(f"Spark did not start: {exc} (its log: {log_path})") from exc
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(fd)
    return spark
