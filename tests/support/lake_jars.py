"""The jars of Spark's own Iceberg and Delta readers (``make lake-jars``: Maven Central into .tools/lake/),
and the Spark they are built for (pyspark 4.1, in .tools/lake/pyspark: no release of either loads in the
Spark 4.3 kafkaspec runs on) started with them in a process of its own, to read our tables.

What Maven resolves for the two packages is what ``spark-submit --packages`` would add; jars of the
libraries Spark ships itself (Jackson, Hadoop's client, Parquet, Scala, ...) are left out, so that
Spark's own classes are the ones loaded, as they come first on a ``--packages`` class path anyway. A
fetch that fails raises :class:`Unavailable` with make's one line: the test fails on it, never skips.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FOLDER = REPO / ".tools" / "lake"
#: the interpreter of the readers' Spark
PYTHON = FOLDER / "pyspark" / "bin" / "python"
_ARTIFACT = re.compile(r"^(.*?)-\d[\w.\-]*\.jar$")


class Unavailable(RuntimeError):
    """The readers' jars cannot be had: the message is make's line saying what failed."""


def _artifact(name: str) -> str:
    m = _ARTIFACT.match(name)
    return m.group(1) if m else name


def jars() -> list[Path]:
    """The readers' jars, fetched on first use, less those of libraries pyspark ships."""
    done = subprocess.run(
        ["make", "-s", "-C", str(REPO), "lake-jars"], capture_output=True, text=True, timeout=900
    )
    if done.returncode:
        lines = (done.stdout + done.stderr).strip().splitlines() or [
            f"make lake-jars: exit {done.returncode}"
        ]
        raise Unavailable(lines[-1])
    shipped = {_artifact(p.name) for p in FOLDER.glob("pyspark/lib/python*/site-packages/pyspark/jars/*.jar")}
    return sorted(p for p in FOLDER.glob("*.jar") if _artifact(p.name) not in shipped)


#: run by :func:`read_back` in its own interpreter: a session with the jars and ``conf``, then each
#: query of argv's JSON, the rows (and a DataFrame's schema) printed as one JSON line
_READER = r"""
import json, sys
from pyspark.sql import SparkSession
spec = json.loads(sys.argv[1])
builder = SparkSession.builder.master("local[1]").appName("kafkaspec-lake-readers")
for key, value in spec["conf"].items():
    builder = builder.config(key, value)
spark = builder.getOrCreate()
out = {}
try:
    for name, query in spec["queries"].items():
        df = spark.sql(query) if not query.startswith("load:") else spark.read.format(spec["format"]).load(query[5:])
        out[name] = {"schema": [[f.name, f.dataType.simpleString()] for f in df.schema.fields],
                     "rows": [list(r) for r in df.collect()] if name != "table" else None}
finally:
    spark.stop()
print("RESULT " + json.dumps(out, default=str))
"""


def read_back(conf: dict[str, str], queries: dict[str, str], fmt: str = "", timeout: float = 600) -> dict:
    """Spark, with the readers' jars and ``conf``, runs ``queries`` (name -> SQL, or ``load:PATH``: the
    table read by the ``fmt`` data source; the one named ``table`` gives its schema only)."""
    spec = {
        "conf": {"spark.jars": ",".join(map(str, jars())), "spark.ui.enabled": "false", **conf},
        "queries": queries,
        "format": fmt,
    }
    done = subprocess.run(
        [str(PYTHON), "-c", _READER, json.dumps(spec)],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={k: v for k, v in os.environ.items() if not k.startswith(("PYSPARK", "SPARK_"))},
    )
    found = [ln for ln in done.stdout.splitlines() if ln.startswith("RESULT ")]
    if done.returncode or not found:
        lines = done.stderr.splitlines()
        # the JVM's exception (py4j prints it on the line after its own, as ": java.lang...: message"),
        # else any line naming an exception
        errors = [ln[2:] for ln in lines if ln.startswith(": ")] + [
            ln.strip() for ln in lines if re.search(r"(Exception|Error)(: |$)", ln) and "raise" not in ln
        ]
        raise AssertionError(
            f"Spark with the lake jars failed (exit {done.returncode}): {(errors or [done.stderr[-2000:]])[0]}"
        )
    return json.loads(found[-1][len("RESULT ") :])
