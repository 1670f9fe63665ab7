"""Kafka log directories in Spark: the ``kafkalog`` data source and the pipeline job.

>>> from kafkaspec.spark import register
>>> register(spark)                                               # doctest: +SKIP
>>> df = spark.read.format("kafkalog").load("/var/lib/kafka/data")  # doctest: +SKIP

In wings: :mod:`.read` (the source's batch read: options, planning, tasks, the audit view),
:mod:`.stream` (the source as a stream), :mod:`.write` (the ``kafkalog`` writer) and :mod:`.run` (the
pipeline job); :mod:`.session` builds the SparkSession the CLI, the tests and the benchmark use, and
:mod:`.job` is the pipeline's ``spark-submit`` entry point. Old module names (``kafkaspec.spark.pipeline``)
import for one release (:mod:`._moved`).
"""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from typing import TYPE_CHECKING

from . import _moved

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

#: PySpark 4.x warns of pandas 3 each time it converts through pandas (the pipeline never does; a
#: user's toPandas() may): said once in docs/install.md, not on every run (the dev extra pins pandas < 3)
PANDAS_3_WARNING = "PySpark does not yet fully support pandas >= 3.0.0"
warnings.filterwarnings("ignore", message=PANDAS_3_WARNING, category=FutureWarning)


def register(spark: SparkSession) -> None:
    """Make ``spark.read.format("kafkalog")`` and ``df.write.format("kafkalog")`` available,
    and let Spark push topic, partition and offset filters down to it.

    Without it, Spark finds the source by itself where its Python workers import kafkaspec's
    ``pyspark_kafkalog`` module (installed with the wheel), with no filter pushdown.

    Spark's Python workers must import kafkaspec. When neither ``PYSPARK_PYTHON`` nor
    ``spark.pyspark.python`` names their interpreter, Spark would start ``python3`` from PATH;
    ``register`` makes them run this interpreter instead (for the source and for whatever the
    session runs in Python after it). When one is named and the master is local, it is checked
    at once: an interpreter without kafkaspec fails here, in one line, not in every task."""
    from ..codec.extras import require_spark

    require_spark("the kafkalog Spark source")
    from .read.source import KafkaLogDataSource

    _workers_run_kafkaspec(spark)
    _quiet_replacement(spark)
    spark.dataSource.register(KafkaLogDataSource)
    spark.conf.set("spark.sql.python.filterPushdown.enabled", "true")


#: the JVM logger that warns when a session's source replaces one Spark found itself
_REPLACED_LOGGER = "org.apache.spark.sql.execution.datasources.DataSourceManager"


def _quiet_replacement(spark: SparkSession) -> None:
    """Spark registers ``kafkalog`` by itself where its Python workers can import ``pyspark_kafkalog``
    (shipped in the wheel; no filter pushdown then) and logs a warning when :func:`register` replaces
    it. That replacement is the point of the call, so the warning is turned off (when the session has
    a JVM here: not under Spark Connect)."""
    try:
        jvm = spark.sparkContext._jvm
        assert jvm is not None
        log4j = jvm.org.apache.logging.log4j
        log4j.core.config.Configurator.setLevel(_REPLACED_LOGGER, log4j.Level.ERROR)
    except Exception:  # no JVM of ours, or another logging backend: the warning shows, nothing else
        return


def _workers_run_kafkaspec(spark: SparkSession) -> None:
    """Point the session's Python workers at an interpreter that has kafkaspec (see :func:`register`)."""
    sc = spark.sparkContext
    # PySpark starts its workers as `python -m pyspark.daemon` in the JVM's working directory, which Python
    # puts first on their path: set for the functions wrapped from now on, the source's among them, as
    # build_session sets spark.executorEnv.PYTHONSAFEPATH for the sessions it builds
    sc.environment["PYTHONSAFEPATH"] = "1"
    chosen = os.environ.get("PYSPARK_PYTHON") or sc.getConf().get("spark.pyspark.python")
    if not chosen:
        sc.pythonExec = sys.executable  # the functions wrapped from now on name it (the source's among them)
        return
    sc.pythonExec = chosen
    if not str(sc.master).startswith("local"):
        return  # the executors' machines: their interpreter cannot be checked from here
    from ..command_signals import without_empty_entries

    env = {**os.environ, "PYTHONSAFEPATH": "1"}  # not the working directory's lz4.py, say, for ours
    if "PYTHONPATH" in env:  # nor through an empty entry, which Python reads as the working directory
        env["PYTHONPATH"] = without_empty_entries(env["PYTHONPATH"]) or ""
    try:
        probe = subprocess.run(
            [chosen, "-c", "import kafkaspec.generated"],
            capture_output=True,
            timeout=60,
            check=False,
            env=env,
        )
        ok = probe.returncode == 0
    except OSError:
        ok = False
    if not ok:
        raise RuntimeError(
            f"Spark's Python workers run {chosen!r} (PYSPARK_PYTHON or spark.pyspark.python), which "
            f"cannot import kafkaspec: set it to an interpreter that has kafkaspec, such as "
            f"{sys.executable}, or unset it"
        )


_moved.install()

__all__ = ["register"]
