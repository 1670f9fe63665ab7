"""A broker with two log directories, for what the session broker of tests/brokers/conftest.py cannot
show: a partition moving between log directories (``-future``) and Kafka's recovery of a torn log.

- :func:`start_move` moves :data:`MOVING` to the other log directory with ``alterReplicaLogDirs``
  (Kafka's ``kafka-reassign-partitions`` with ``log_dirs``) while the broker's
  ``replica.alter.log.dirs.io.max.bytes.per.second`` holds the copy back, so the ``-future`` directory
  stays half copied while the tests take their copy of both; :func:`finish_move` lifts the throttle and
  waits until the broker has swapped the directories (the old one renamed ``-delete``).
- :func:`tear` cuts the last batch of a stopped broker's partition in half, as a crash in the middle of
  a write leaves it (a kill -9 alone leaves none: the page cache keeps every write).
- :func:`synth`'s data directory is put into the stopped broker's (:func:`swap_in_synth`) and served.
"""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from typing import Any

from .kafka_workload import Row, _record, _tool

#: the topic moved between log directories, the topic whose active segment is torn, and the topic with a
#: corrupt batch in the middle of a closed segment
MOVING, TORN, CORRUPT = "moving", "torn", "corrupt"
TOPICS = {MOVING: 1, TORN: 2, CORRUPT: 1}
#: the smallest segments Kafka 4 allows, so that the move copies several; the throttle config
TOPIC_CONFIG = {"segment.bytes": str(1024 * 1024)}
THROTTLE = "replica.alter.log.dirs.io.max.bytes.per.second"
#: the moving partition's folder in the other log directory while it is copied: named by its topic id
FUTURE = f"{MOVING}-0.*-future"
#: the broker's settings: each of the copy's fetches takes 64 KiB, and with the throttle one fetch per
#: quota window (11 s) goes through, so the copy stays half done until :func:`finish_move`; what is
#: deleted (the moved partition's old folder) is kept for the whole run
BROKER_CONFIG = {
    "replica.fetch.max.bytes": "65536",
    "log.segment.delete.delay.ms": "1800000",
    # recovery points are checkpointed only when a log is replaced or deleted (the move) and at a clean
    # stop: CORRUPT, written after the move, has none at the kill, and Kafka's recovery re-reads all of it
    "log.flush.offset.checkpoint.interval.ms": str(2**31 - 1),
}
#: records of about 2 KiB each: a few MiB to move, many times the throttled copy's first fetch
MOVING_RECORDS = 3000
TORN_RECORDS = 400
#: CORRUPT's segments roll by the records' timestamps (:func:`produce_rounds`: each round an hour after the
#: last), so that it has closed segments however well its records compress
CORRUPT_CONFIG = {"segment.ms": "60000"}
CORRUPT_ROUNDS, CORRUPT_PER_ROUND = 3, 200


def create_topics(bootstrap: str) -> None:
    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient({"bootstrap.servers": bootstrap})
    for f in admin.create_topics(
        [
            NewTopic(t, n, 1, config={**TOPIC_CONFIG, **CORRUPT_CONFIG} if t == CORRUPT else TOPIC_CONFIG)
            for t, n in TOPICS.items()
        ]
    ).values():
        f.result(60)


def produce(bootstrap: str, topic: str, first: int, count: int, partitions: int = 1) -> None:
    """Records ``first`` to ``first + count`` of :func:`kafka_workload._record` (null keys and values,
    headers), each value padded to about 2 KiB so the moving partition spans segments; an idempotent
    producer, lz4."""
    from confluent_kafka import Producer

    p = Producer(
        {
            "bootstrap.servers": bootstrap,
            "enable.idempotence": True,
            "log_level": 3,
            "linger.ms": 5,
            "compression.codec": "lz4",
            "batch.num.messages": 40,
        }
    )
    for i in range(first, first + count):
        key, value, headers = _record(i)
        if value is not None:
            value = value + bytes(range(256)) * 8
        p.produce(topic, value=value, key=key, headers=headers or None, partition=i % partitions)
        if i % 500 == 499:
            p.flush(30)
    assert p.flush(60) == 0, f"{topic}: records not delivered"


def produce_rounds(bootstrap: str, topic: str, rounds: int, per_round: int) -> None:
    """``rounds`` rounds of :func:`kafka_workload._record` records, each round an hour of record time after
    the last (the last ends now): with ``segment.ms`` below an hour each round starts a segment."""
    from confluent_kafka import Producer

    p = Producer(
        {
            "bootstrap.servers": bootstrap,
            "enable.idempotence": True,
            "log_level": 3,
            "linger.ms": 5,
            "compression.codec": "lz4",
            "batch.num.messages": 20,
        }
    )
    now = int(time.time() * 1000)
    for r in range(rounds):
        at = now - (rounds - 1 - r) * 3_600_000
        for i in range(r * per_round, (r + 1) * per_round):
            key, value, headers = _record(i)
            p.produce(topic, value=value, key=key, headers=headers or None, timestamp=at + i % per_round)
        assert p.flush(60) == 0, f"{topic}: records not delivered"


def _set_throttle(bootstrap: str, value: str | None) -> None:
    from confluent_kafka.admin import (
        AdminClient,
        AlterConfigOpType,
        ConfigEntry,
        ConfigResource,
        ResourceType,
    )

    op = AlterConfigOpType.SET if value is not None else AlterConfigOpType.DELETE
    entry = ConfigEntry(THROTTLE, value or "", incremental_operation=op)
    resource = ConfigResource(ResourceType.BROKER, "1", incremental_configs=[entry])
    admin = AdminClient({"bootstrap.servers": bootstrap})
    for f in admin.incremental_alter_configs([resource]).values():
        f.result(60)


def where(dirs: tuple[Path, ...], name: str) -> Path | None:
    """The log directory of ``dirs`` that holds the folder ``name``."""
    found = [d for d in dirs if (d / name).is_dir()]
    return found[0] if found else None


def start_move(
    bootstrap: str, release: str, home: Path, dirs: tuple[Path, ...], timeout: float = 120.0
) -> tuple[Path, Path]:
    """Throttle the copy between log directories, then ask for :data:`MOVING` in the other one; return
    (from, to) once ``MOVING-0-future`` in ``to`` holds a segment and the copy is held back."""
    source = where(dirs, f"{MOVING}-0")
    assert source is not None, f"{MOVING}-0 is in none of {dirs}"
    target = next(d for d in dirs if d != source)
    _set_throttle(bootstrap, "1")
    plan = home / "move.json"
    plan.write_text(
        json.dumps(
            {
                "version": 1,
                "partitions": [{"topic": MOVING, "partition": 0, "replicas": [1], "log_dirs": [str(target)]}],
            }
        )
    )
    _tool(
        release,
        "org.apache.kafka.tools.reassign.ReassignPartitionsCommand",
        "--bootstrap-server",
        bootstrap,
        "--reassignment-json-file",
        str(plan),
        "--execute",
    )
    deadline = time.monotonic() + timeout
    while not any(f.stat().st_size for f in target.glob(f"{FUTURE}/*.log")):
        assert time.monotonic() < deadline, f"no {FUTURE} with records in {target} after {timeout:.0f} s"
        time.sleep(0.2)
    return source, target


def finish_move(bootstrap: str, source: Path, target: Path, timeout: float = 120.0) -> None:
    """Lift the throttle and wait until the broker has swapped the moved partition's directories."""
    _set_throttle(bootstrap, None)
    deadline = time.monotonic() + timeout
    while list(target.glob(FUTURE)) or not (target / f"{MOVING}-0").is_dir():
        assert time.monotonic() < deadline, f"{MOVING}-0 not moved to {target} after {timeout:.0f} s"
        time.sleep(0.2)
    while not list(source.glob(f"{MOVING}-0.*-delete")):
        assert time.monotonic() < deadline, f"no {MOVING}-0 -delete directory in {source}"
        time.sleep(0.2)


def last_batch(segment: Path) -> tuple[int, int]:
    """(position, size) of the last batch of a v2 ``segment``."""
    data = segment.read_bytes()
    pos, last = 0, (0, 0)
    while pos + 12 <= len(data):
        size = 12 + int.from_bytes(data[pos + 8 : pos + 12], "big")
        if size <= 12 or pos + size > len(data):
            break
        last = (pos, size)
        pos += size
    return last


def tear(folder: Path) -> tuple[Path, int]:
    """Cut the last batch of ``folder``'s active segment in half: (the segment, the position where its
    last whole batch ends, which Kafka's recovery truncates to)."""
    segment = sorted(folder.glob("*.log"))[-1]
    pos, size = last_batch(segment)
    with open(segment, "r+b") as f:
        f.truncate(pos + size // 2)
    return segment, pos


def rows(data: Path, topics: dict[str, int]) -> list[Row]:
    """kafkaspec's read of ``topics`` in the log directory ``data``, read_uncommitted."""
    from kafkaspec.logdir import open_log

    got: list[Row] = []
    for part in open_log(str(data)).partitions():
        if part.topic in topics:
            got += [
                Row(
                    part.topic,
                    part.partition,
                    r.offset,
                    r.timestamp,
                    r.key,
                    r.value,
                    tuple((h.key, h.value) for h in r.headers),
                )
                for _, r in part.records(isolation_level="read_uncommitted")
            ]
            part.close()
    return sorted(got, key=lambda r: (r.topic, r.partition, r.offset))


def synth(out: Path) -> dict[str, int]:
    """``kafkaspec synth`` (1 MB, the default seed) into ``out``: {topic: partitions} it wrote."""
    import subprocess
    import sys

    got = subprocess.run(
        [sys.executable, "-m", "kafkaspec.cli", "synth", str(out), "--size-mb", "1"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert got.returncode == 0, f"kafkaspec synth: {got.stderr[-1500:]}"
    topics: dict[str, int] = {}
    for folder in out.iterdir():
        if folder.is_dir():
            topic, _, partition = folder.name.rpartition("-")
            topics[topic] = max(topics.get(topic, 0), int(partition) + 1)
    return topics


def create_synth_topics(bootstrap: str, topics: dict[str, int]) -> None:
    """Empty topics for :func:`synth`'s partitions, kept whole (no retention, no cleaner)."""
    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient({"bootstrap.servers": bootstrap})
    new = [NewTopic(t, n, 1, config={"retention.ms": "-1"}) for t, n in topics.items()]
    for f in admin.create_topics(new).values():
        f.result(60)


def swap_in_synth(out: Path, dirs: tuple[Path, ...]) -> None:
    """Each of :func:`synth`'s partitions replaces the stopped broker's empty one, in whichever log
    directory holds it, beside the broker's ``partition.metadata`` (the topic id its metadata knows);
    the synth's offset checkpoints set those partitions' lines in that directory's."""
    from kafkaspec.logdir.kafka import files
    from kafkaspec.logdir.write.rewrite import update_offset_checkpoints

    starts = {(t, p): o for t, p, o in _checkpoint(out / "log-start-offset-checkpoint", files.read_text_file)}
    ends = {
        (t, p): o for t, p, o in _checkpoint(out / "recovery-point-offset-checkpoint", files.read_text_file)
    }
    for folder in sorted(out.iterdir()):
        if not folder.is_dir():
            continue
        home = where(dirs, folder.name)
        assert home is not None, f"{folder.name}: not a partition of the broker"
        theirs = home / folder.name
        for f in theirs.iterdir():
            if f.name != "partition.metadata":
                f.unlink()
        for f in folder.iterdir():
            if f.name != "partition.metadata":
                shutil.copyfile(f, theirs / f.name)
        topic, _, partition = folder.name.rpartition("-")
        tp = (topic, int(partition))
        update_offset_checkpoints(home, {tp: (starts.get(tp, 0), ends[tp])})


def _checkpoint(path: Path, read: Any) -> list[tuple[str, int, int]]:
    rows = []
    for line in read(path).splitlines()[2:]:
        topic, partition, offset = line.split()
        rows.append((topic, int(partition), int(offset)))
    return rows
