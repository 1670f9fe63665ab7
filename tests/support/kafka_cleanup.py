"""What the workload makes the broker remove (:func:`support.kafka_workload.run`): a compacted topic the
log cleaner cleans, a topic whose first segment retention deletes, a topic deleted while the broker runs."""

from __future__ import annotations

import time
from pathlib import Path

from .kafka_workload import COMPACTED, DELETED, RETAINED, _record

COMPACTION_ROUNDS = 4


COMPACTION_KEYS = 10


#: tombstones of keys written once, at the end of the first and the third round
GONE = 3


def _compacted_record(i: int) -> tuple[bytes, bytes | None, list[tuple[str, bytes | None]]]:
    """Keyed records (a compacted topic refuses a null key), a tombstone every ninth."""
    _, value, headers = _record(i)
    return b"k%d" % (i % COMPACTION_KEYS), None if i % 9 == 4 else value, headers


def produce_compacted(bootstrap: str, data: Path, data_wait: float = 120.0) -> None:
    """Rounds of keyed records and tombstones into :data:`COMPACTED`, each an hour of record time after the
    previous one so that each starts a segment; the cleaner cleans after the second and the fourth round.

    The first pass gives the first round's tombstones of keys never written again a delete horizon
    (delete.retention.ms ahead); the second, past that horizon, removes them and gives the third
    round's theirs. Each pass is
    waited for: the cleaner-offset-checkpoint reaches the active segment's base offset.
    """
    from confluent_kafka import Producer

    p = Producer(
        {
            "bootstrap.servers": bootstrap,
            "enable.idempotence": True,
            "log_level": 3,
            "linger.ms": 5,
            "batch.num.messages": 20,
        }
    )
    per_round = 50
    start = int(time.time() * 1000) - COMPACTION_ROUNDS * 3_600_000
    for round_ in range(COMPACTION_ROUNDS):
        for i in range(round_ * per_round, (round_ + 1) * per_round):
            key, value, headers = _compacted_record(i)
            if round_ % 2 == 0 and i >= (round_ + 1) * per_round - GONE:
                key, value = b"gone-%d" % i, None  # a key never written again: its tombstone is the last word
            p.produce(
                COMPACTED,
                value=value,
                key=key,
                headers=headers or None,
                partition=0,
                timestamp=start + round_ * 3_600_000 + i,
            )
        assert p.flush(30) == 0, f"{COMPACTED}: records not delivered"
        if round_ % 2 == 1:
            wait_for_cleaner(data, COMPACTED, 0, round_ * per_round, data_wait)
            time.sleep(0.3)  # past the delete horizon of the tombstones just cleaned


def wait_for_cleaner(data: Path, topic: str, partition: int, offset: int, timeout: float) -> None:
    """Until the log cleaner's checkpoint says ``topic-partition`` is cleaned up to ``offset``."""
    deadline = time.monotonic() + timeout
    path = data / "cleaner-offset-checkpoint"
    cleaned = -1
    while time.monotonic() < deadline:
        if path.exists():
            for line in path.read_text().splitlines()[2:]:
                t, p, o = line.split()
                if (t, int(p)) == (topic, partition):
                    cleaned = int(o)
        if cleaned >= offset:
            return
        time.sleep(0.2)
    raise RuntimeError(
        f"{topic}-{partition}: the log cleaner cleaned up to {cleaned}, not {offset}, within {timeout:.0f} s"
    )


#: records in each of :data:`RETAINED`'s two segments
RETAINED_RECORDS = 40


def produce_retained(bootstrap: str, data: Path, timeout: float = 120.0) -> None:
    """Records two hours old, then records of now into :data:`RETAINED` (retention.ms an hour): the second
    lot rolls a segment, and retention deletes the first (waited for: no segment at offset 0 is left)."""
    from confluent_kafka import Producer

    p = Producer({"bootstrap.servers": bootstrap, "enable.idempotence": True, "log_level": 3, "linger.ms": 5})
    now = int(time.time() * 1000)
    for i in range(2 * RETAINED_RECORDS):
        key, value, headers = _record(i)
        ts = now - 7_200_000 + i if i < RETAINED_RECORDS else now + i
        p.produce(RETAINED, value=value, key=key, headers=headers or None, partition=0, timestamp=ts)
        if i == RETAINED_RECORDS - 1:
            assert p.flush(30) == 0, f"{RETAINED}: records not delivered"
    assert p.flush(30) == 0, f"{RETAINED}: records not delivered"
    folder = data / f"{RETAINED}-0"
    deadline = time.monotonic() + timeout
    while (folder / f"{0:020d}.log").exists():
        if time.monotonic() > deadline:
            raise RuntimeError(f"{RETAINED}-0: retention deleted no segment within {timeout:.0f} s")
        time.sleep(0.2)


def delete_topic(bootstrap: str, data: Path, timeout: float = 60.0) -> None:
    """:data:`DELETED`, given records and deleted: its partition directories are renamed ``-delete``
    (waited for), and deleted after the broker's log.segment.delete.delay.ms (the topic config
    file.delete.delay.ms is no broker setting: the broker ignores it, and deletes after a minute)."""
    from confluent_kafka import Producer
    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient({"bootstrap.servers": bootstrap, "log_level": 3})
    admin.create_topics([NewTopic(DELETED, 2, 1)])[DELETED].result(60)
    p = Producer({"bootstrap.servers": bootstrap, "log_level": 3, "linger.ms": 5})
    for i in range(60):
        key, value, headers = _record(i)
        p.produce(DELETED, value=value, key=key, headers=headers or None, partition=i % 2)
    assert p.flush(30) == 0, f"{DELETED}: records not delivered"
    admin.delete_topics([DELETED])[DELETED].result(60)
    deadline = time.monotonic() + timeout
    while len(list(data.glob(f"{DELETED}-*-delete"))) < 2:
        if time.monotonic() > deadline:
            raise RuntimeError(f"{DELETED}: no -delete directories within {timeout:.0f} s")
        time.sleep(0.2)
