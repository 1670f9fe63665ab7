"""What a real broker serves equals what kafkaspec reads from its data directory, record for record:
while it runs (a copy of the live directory), right after a kill -9 (compared with what the broker serves
once it has restarted and recovered), and after a clean stop."""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from pathlib import Path

import pytest
from support.kafka_workload import TOPICS, Row

from kafkaspec.logdir import open_log

DIRS = ("live", "killed", "stopped")
#: the deleted topic's -delete directories, announced by every walk (test_broker_deleted checks they are)
pytestmark = pytest.mark.filterwarnings("ignore::kafkaspec.errors.SkippedDirWarning")


def _ms(ts: object) -> int:
    return -1 if ts is None else int(ts.timestamp() * 1000)  # type: ignore[attr-defined]


def _sorted(rows: list[Row]) -> list[Row]:
    return sorted(rows, key=lambda r: (r.topic, r.partition, r.offset))


def arrow_rows(data: Path) -> list[Row]:
    """The workload's records by ``open_log(...).to_arrow_batches()``, read_uncommitted (control records left out, as a
    consumer never sees them)."""
    rows = []
    for rb in open_log(str(data)).to_arrow_batches(isolation_level="read_uncommitted"):
        for r in rb.to_pylist():
            if r["topic"] in TOPICS and not r["isControl"]:
                rows.append(
                    Row(
                        r["topic"],
                        r["partition"],
                        r["offset"],
                        _ms(r["timestamp"]),
                        r["key"],
                        r["value"],
                        tuple((h["key"], h["value"]) for h in r["headers"]),
                    )
                )
    return _sorted(rows)


def committed_rows(data: Path) -> list[Row]:
    rows = []
    for part in open_log(str(data)).partitions():
        if part.topic in TOPICS:
            for _, r in part.records(read_committed=True):
                rows.append(
                    Row(part.topic, part.partition, r.offset, r.timestamp, r.key, r.value, tuple(r.headers))
                )
    return _sorted(rows)


def dump_rows(data: Path) -> list[Row]:
    """The workload's records by ``kafkaspec dump --json`` (one process per partition folder)."""
    rows = []
    for topic, count in TOPICS.items():
        for p in range(count):
            out = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "kafkaspec.cli",
                    "dump",
                    "--json",
                    "--print-data",
                    str(data / f"{topic}-{p}"),
                ],
                capture_output=True,
                text=True,
                check=True,
            ).stdout
            for line in out.splitlines():
                r = json.loads(line)
                if r["type"] == "record" and "control_type" not in r:
                    rows.append(
                        Row(
                            topic,
                            p,
                            r["offset"],
                            r["timestamp"],
                            _data(r, "key"),
                            _data(r, "value"),
                            tuple((h["key"], _data(h, "value")) for h in r["headers"]),
                        )
                    )
    return _sorted(rows)


def _data(obj: dict, name: str) -> bytes | None:
    """A key, value or header value as dump --json prints it: UTF-8 text, or base64 when flagged."""
    text = obj[name]
    if text is None:
        return None
    return base64.b64decode(text) if obj.get(f"{name}_base64") else text.encode()


def _bytes(b: bytes | bytearray | None) -> bytes | None:
    return None if b is None else bytes(b)


def _first_difference(ours: list[Row], theirs: list[Row]) -> str:
    for a, b in zip(ours, theirs):
        if a != b:
            return f"kafkaspec {a} / broker {b}"
    return f"kafkaspec has {len(ours)} records, the broker served {len(theirs)}"


@pytest.mark.parametrize("which", DIRS)
def test_every_record_the_broker_serves_read_uncommitted(broker_run, which):
    ours, served = arrow_rows(getattr(broker_run, which)), broker_run.served(which).uncommitted
    assert len(served) > 2000
    assert ours == served, _first_difference(ours, served)


@pytest.mark.parametrize("which", DIRS)
def test_every_record_the_broker_serves_read_committed(broker_run, which):
    ours, served = committed_rows(getattr(broker_run, which)), broker_run.served(which)
    assert len(served.committed) < len(served.uncommitted)  # the aborted transaction is there
    assert ours == served.committed, _first_difference(ours, served.committed)


def test_dump_json_gives_what_the_broker_serves(broker_run):
    ours = dump_rows(broker_run.stopped)
    assert ours == broker_run.uncommitted, _first_difference(ours, broker_run.uncommitted)


def test_the_spark_source_gives_what_the_broker_serves(broker_run, spark):
    """``spark.read.format("kafkalog")``, at both isolation levels, against the broker's consumers."""
    from kafkaspec.spark import register

    register(spark)
    for isolation, served in (
        ("read_uncommitted", broker_run.uncommitted),
        ("read_committed", broker_run.committed),
    ):
        df = (
            spark.read.format("kafkalog")
            .option("isolationLevel", isolation)
            .load(str(broker_run.stopped))
            .selectExpr(
                "topic", "partition", "offset", "unix_millis(timestamp) AS ms", "key", "value", "headers"
            )
        )
        ours = _sorted(
            [
                Row(
                    r.topic,
                    r.partition,
                    r.offset,
                    r.ms,
                    _bytes(r.key),
                    _bytes(r.value),
                    tuple((h.key, _bytes(h.value)) for h in r.headers),
                )
                for r in df.collect()
                if r.topic in TOPICS
            ]
        )
        assert ours == served, f"{isolation}: {_first_difference(ours, served)}"
