"""`kafkaspec dump` side by side with Kafka's own DumpLogSegments (`kafka-dump-log`) of the same release,
over the segments and indexes the broker wrote: the same lines, but for the differences by design below."""

from __future__ import annotations

import re
import subprocess
import sys
import zipfile
from pathlib import Path

from support.kafka_broker import classpath, jars
from support.kafka_workload import TOPICS

#: Where `kafkaspec dump --print-data` differs from DumpLogSegments `--print-data-log` on purpose, each
#: as (what, why, how a line of ours is brought to Kafka's): the test fails on any other difference.
BY_DESIGN = [
    (
        "headers",
        "Kafka prints header keys only (headerKeys); we print each header's value too",
        lambda line: re.sub(r" headers: \[.*\]$", "", line),
    ),
    (
        "control record data",
        "Kafka prints a marker's meaning alone; we print its raw key and value after it",
        lambda line: re.sub(r"( endTxnMarker: \S+ coordinatorEpoch: \S+) key: .*$", r"\1", line),
    ),
    (
        "null key or value",
        "Kafka leaves out a null key or value; we print `key: null` / `payload: null`, "
        "so that null and empty differ",
        lambda line: line.replace(" key: null", "").replace(" payload: null", ""),
    ),
]


def _dump_log_segments_class(release: str) -> str:
    """DumpLogSegments is in the broker's jar (kafka.tools) up to 4.2 at least, in kafka-tools' package in 4.4."""
    old = "kafka/tools/DumpLogSegments.class"
    for jar in jars(release).glob("kafka_2.13-*.jar"):
        with zipfile.ZipFile(jar) as z:
            if old in z.namelist():
                return "kafka.tools.DumpLogSegments"
    return "org.apache.kafka.tools.DumpLogSegments"


def _dump_log_segments(release: str, files: list[Path], *args: str) -> list[str]:
    main = _dump_log_segments_class(release)
    got = subprocess.run(
        ["java", "-cp", classpath(release), main, "--files", ",".join(map(str, files)), *args],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert got.returncode == 0, got.stderr[-2000:]
    return [
        ln.rstrip(" ") for ln in got.stdout.splitlines()
    ]  # 4.0's tool ends a batchless snapshot line in a space


def _ours(files: list[Path], *args: str) -> list[str]:
    got = subprocess.run(
        [sys.executable, "-m", "kafkaspec.cli", "dump", *args, *map(str, files)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert got.returncode == 0, got.stderr[-2000:]
    lines = got.stdout.splitlines()
    for _, _, to_kafka in BY_DESIGN:
        lines = [to_kafka(ln) for ln in lines]
    return [ln.rstrip(" ") for ln in lines]  # as Kafka's lines (an empty key ends a line in a space)


def _first_difference(ours: list[str], kafka: list[str]) -> str:
    for i, (a, b) in enumerate(zip(ours, kafka)):
        if a != b:
            return f"line {i + 1}:\n  kafkaspec: {a[:400]}\n  Kafka:     {b[:400]}"
    return f"kafkaspec printed {len(ours)} lines, Kafka {len(kafka)}"


SUFFIXES = (".log", ".index", ".timeindex", ".txnindex", ".snapshot")


def test_segments_and_indexes_of_the_workload_as_kafka_dumps_them(broker_run):
    data = broker_run.stopped
    files = [
        f
        for topic, n in TOPICS.items()
        for p in range(n)
        for f in sorted((data / f"{topic}-{p}").iterdir())
        if f.suffix in SUFFIXES
    ]
    assert len(files) >= 3 * sum(TOPICS.values())
    assert {f.suffix for f in files} == set(SUFFIXES)
    ours, kafka = (
        _ours(files, "--print-data"),
        _dump_log_segments(broker_run.release, files, "--print-data-log"),
    )
    assert ours == kafka, _first_difference(ours, kafka)


def test_batches_of_kafkas_internal_topics_as_kafka_dumps_them(broker_run):
    """Every batch line of the internal topics' segments (their records' payloads are compared decoded,
    in test_broker_files)."""
    files = sorted(broker_run.stopped.glob("__*-*/*.log"))
    assert any(f.parent.name == "__cluster_metadata-0" for f in files)
    ours = [ln for ln in _ours(files) if not ln.startswith("|")]
    kafka = [ln for ln in _dump_log_segments(broker_run.release, files) if not ln.startswith("|")]
    assert ours == kafka, _first_difference(ours, kafka)
