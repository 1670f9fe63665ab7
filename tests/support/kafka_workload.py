"""What the broker tests make a broker write, and what they read back through the broker itself: the
topics, their records and the broker's settings, the whole workload (:func:`run`), and what the broker
serves and describes.

The producers are independent of kafkaspec: librdkafka (confluent-kafka), kafka-python and Kafka's own
Java producer. Each topic holds one kind of traffic (:data:`TOPICS`), so a difference names its writer and
codec. The workload's phases are modules of their own: the producers (:mod:`support.kafka_producers`),
the consumer, share and streams groups (:mod:`support.kafka_groups`), and what the broker removes, by the
log cleaner, retention and a topic deletion (:mod:`support.kafka_cleanup`).
"""

from __future__ import annotations

import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CODECS = ("none", "gzip", "snappy", "lz4", "zstd")


#: a topic the log cleaner compacts (:func:`kafka_cleanup.produce_compacted`), one whose first segment retention
#: deletes (:func:`kafka_cleanup.produce_retained`), one deleted while the broker runs (:func:`kafka_cleanup.delete_topic`)
COMPACTED, RETAINED, DELETED = "compacted", "retained", "deleted"


#: the topic a share group (KIP-932) reads, acknowledging each record (:func:`kafka_groups.consume_in_share_group`)
SHARED = "shared"


#: a streams group (KIP-1071) copies STREAMS_INPUT to STREAMED (:func:`kafka_groups.run_streams_group`)
STREAMS_INPUT, STREAMED = "rdkafka-gzip", "streamed"


#: (topic, partitions)
TOPICS = {
    **{f"rdkafka-{c}": 2 for c in CODECS},
    "rdkafka-txn": 2,
    "kafka-python": 2,
    **{f"java-{c}": 2 for c in CODECS},
    "java-txn": 2,
    COMPACTED: 1,
    RETAINED: 1,
    SHARED: 2,
    STREAMED: 2,
}


#: topic configs beyond the broker's defaults. Segments roll by the records' timestamps (each round of
#: :func:`kafka_cleanup.produce_compacted` is an hour after the previous one), so no test sleeps for segment.ms.
TOPIC_CONFIGS = {
    COMPACTED: {
        "cleanup.policy": "compact",
        "segment.ms": "60000",
        "min.cleanable.dirty.ratio": "0.01",
        "min.compaction.lag.ms": "0",
        "delete.retention.ms": "100",
    },
    RETAINED: {"retention.ms": "3600000", "segment.ms": "60000"},
}


#: broker settings the workload needs: a cleaner and a retention check that wake up often, and files and
#: directories being deleted (``.deleted``, ``-delete``) kept for the whole run, so every copy has some
BROKER_CONFIG = {
    "log.cleaner.backoff.ms": "200",
    "log.cleaner.dedupe.buffer.size": "16777216",
    "log.retention.check.interval.ms": "500",
    "log.segment.delete.delay.ms": "1800000",
    "share.coordinator.state.topic.num.partitions": "2",
}


#: empty topics whose partitions kafkaspec writes into the stopped broker's directory, to be loaded back
#: (tests/brokers/test_broker_loads_ours.py): a broker loads a partition only under a topic id it knows
FOR_KAFKASPEC = {"ours-writer": 1, "ours-spark": 2}


JAVA_PRODUCER = Path(__file__).resolve().parents[1] / "brokers" / "java" / "JavaProducerWorkload.java"


JAVA_STREAMS = JAVA_PRODUCER.with_name("StreamsGroupWorkload.java")


JAVA_SHARE = JAVA_PRODUCER.with_name("ShareGroupWorkload.java")


RECORDS = 300


@dataclass(frozen=True)
class Row:
    """A record as a consumer sees it: what kafkaspec must give for the same offset."""

    topic: str
    partition: int
    offset: int
    timestamp_ms: int
    key: bytes | None
    value: bytes | None
    headers: tuple[tuple[str, bytes | None], ...]


def _record(i: int) -> tuple[bytes | None, bytes | None, list[tuple[str, bytes | None]]]:
    """The i-th record: null keys, null values, no headers, duplicate and null headers, long values."""
    key = None if i % 7 == 0 else b"key-%d" % (i % 13)
    value = None if i % 11 == 5 else (b"value-%d-" % i) * (1 + i % 40)
    headers: list[tuple[str, bytes | None]] = []
    if i % 3:
        headers = [("trace", b"%d" % i), ("dup", b"a"), ("dup", None)][: i % 4]
    return key, value, headers


def _minor(release: str) -> tuple[int, int]:
    major, minor = release.split(".")[:2]
    return int(major), int(minor)


def broker_config(release: str) -> dict[str, str]:
    """:data:`BROKER_CONFIG` with what ``release`` needs for its share and streams groups: 4.0's share
    groups are early access (their RPCs unstable, the ``share`` rebalance protocol and
    ``group.share.enable`` off by default); 4.1's streams groups too, their RPC (StreamsGroupHeartbeat v0)
    and feature level (``streams.version=1``) both marked unstable."""
    if _minor(release) == (4, 0):
        return {
            **BROKER_CONFIG,
            "unstable.api.versions.enable": "true",
            "group.share.enable": "true",
            "group.coordinator.rebalance.protocols": "classic,consumer,share",
        }
    if _minor(release) == (4, 1):
        return {
            **BROKER_CONFIG,
            "unstable.api.versions.enable": "true",
            "unstable.feature.versions.enable": "true",
        }
    return dict(BROKER_CONFIG)


def enable_previews(bootstrap: str, release: str) -> None:
    """4.1's share groups (a preview) and streams groups (early access) are off until their feature
    levels are raised, as Kafka's release notes say: ``kafka-features upgrade --feature share.version=1
    --feature streams.version=1``. From 4.2 on both are on by default."""
    if _minor(release) != (4, 1):
        return
    _tool(
        release,
        "org.apache.kafka.tools.FeatureCommand",
        "--bootstrap-server",
        bootstrap,
        "upgrade",
        "--feature",
        "share.version=1",
        "--feature",
        "streams.version=1",
    )


def _tool(release: str, main: str, *args: str) -> str:
    """One of Kafka's own command-line tools of ``release``; its standard output."""
    from .kafka_broker import classpath

    got = subprocess.run(
        ["java", "-Xmx256m", "-cp", classpath(release), main, *args],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert got.returncode == 0, f"Kafka {release}'s {main.rsplit('.', 1)[-1]}: {got.stderr.strip()[-1500:]}"
    return got.stdout


def _java_classes(release: str, source: Path, extra: str = "") -> str:
    """``source`` compiled against ``release``'s jars (and ``extra``): the class path to run it with."""
    from .kafka_broker import classpath, jars

    classes = jars(release) / "classes"
    classes.mkdir(exist_ok=True)
    cp = classpath(release) + (f":{extra}" if extra else "")
    target = classes / f"{source.stem}.class"
    if not target.exists() or target.stat().st_mtime < source.stat().st_mtime:
        subprocess.run(
            ["javac", "-nowarn", "-d", str(classes), "-cp", cp, str(source)],
            check=True,
            capture_output=True,
            timeout=300,
        )
    return f"{cp}:{classes}"


def create_topics(bootstrap: str) -> None:
    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient({"bootstrap.servers": bootstrap})
    futures = admin.create_topics(
        [NewTopic(t, n, 1, config=TOPIC_CONFIGS.get(t, {})) for t, n in {**TOPICS, **FOR_KAFKASPEC}.items()]
    )
    for f in futures.values():
        f.result(60)


def run(bootstrap: str, release: str, data: Path) -> dict[str, dict[tuple[str, int], int]]:
    """The whole workload on the broker whose data directory is ``data``; the offsets each group committed."""
    from .kafka_cleanup import delete_topic, produce_compacted, produce_retained
    from .kafka_groups import consume_in_groups
    from .kafka_producers import produce_java, produce_kafka_python, produce_rdkafka

    create_topics(bootstrap)
    produce_rdkafka(bootstrap)
    produce_kafka_python(bootstrap)
    produce_java(bootstrap, release)
    produce_compacted(bootstrap, data)
    produce_retained(bootstrap, data)
    delete_topic(bootstrap, data)
    return consume_in_groups(bootstrap)


def _high_watermark(consumer: Any, tp: Any, timeout: float = 60.0) -> int:
    """The partition's high watermark, once it has a leader: a broker just started answers metadata
    requests before it has loaded every partition (NOT_LEADER_FOR_PARTITION until then)."""
    from confluent_kafka import KafkaError, KafkaException

    waits = (KafkaError.NOT_LEADER_FOR_PARTITION, KafkaError.LEADER_NOT_AVAILABLE)
    deadline = time.monotonic() + timeout
    while True:
        try:
            return int(consumer.get_watermark_offsets(tp, timeout=30)[1])
        except KafkaException as e:
            if e.args[0].code() not in waits or time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def served(bootstrap: str, isolation: str, topics: dict[str, int] = TOPICS) -> list[Row]:
    """Every record of ``topics`` ({topic: partitions}) from the earliest offset, as a consumer at
    ``isolation`` gets it."""
    from confluent_kafka import OFFSET_BEGINNING, TIMESTAMP_NOT_AVAILABLE, Consumer, TopicPartition

    c = Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": f"kafkaspec-read-{isolation}",
            "enable.auto.commit": False,
            "isolation.level": isolation,
            "enable.partition.eof": True,
        }
    )
    parts = [TopicPartition(t, p, OFFSET_BEGINNING) for t, n in topics.items() for p in range(n)]
    ends = {(tp.topic, tp.partition): _high_watermark(c, tp) for tp in parts}
    c.assign(parts)
    left = {k for k, end in ends.items() if end > 0}
    rows: list[Row] = []
    idle = 0
    while left and idle < 60:
        msg: Any = c.poll(1.0)
        if msg is None:
            idle += 1
            continue
        where = (msg.topic(), msg.partition())
        if msg.error():
            if msg.error().code() == -191:  # _PARTITION_EOF
                left.discard(where)
                continue
            raise RuntimeError(f"consumer: {msg.error()}")
        rows.append(
            Row(
                msg.topic(),
                msg.partition(),
                msg.offset(),
                # a magic 0 message has none: -1, as Kafka's Java consumer and kafkaspec say (librdkafka 0)
                msg.timestamp()[1] if msg.timestamp()[0] != TIMESTAMP_NOT_AVAILABLE else -1,
                msg.key(),
                msg.value(),
                tuple((k, v) for k, v in (msg.headers() or [])),
            )
        )
    c.close()
    if left:
        raise RuntimeError(f"consumer: no end reached for {sorted(left)}")
    return sorted(rows, key=lambda r: (r.topic, r.partition, r.offset))


def described(bootstrap: str, groups: tuple[str, ...] = ()) -> dict[str, Any]:
    """The broker's own describe: every topic's id and partitions (leader, replicas, isr), each topic's
    configs set on the topic, the cluster-wide defaults set dynamically, and the configs of ``groups``."""
    from confluent_kafka import TopicCollection
    from confluent_kafka.admin import AdminClient, ConfigResource, ConfigSource, ResourceType

    admin = AdminClient({"bootstrap.servers": bootstrap, "log_level": 3})
    names = sorted(admin.list_topics(timeout=60).topics)
    topics: dict[str, Any] = {}
    for name, future in admin.describe_topics(TopicCollection(names)).items():
        t = future.result(60)
        topics[name] = {
            "topic_id": str(t.topic_id).replace("+", "-").replace("/", "_"),  # Kafka's Uuid.toString
            "partitions": {
                p.id: {
                    "leader": p.leader.id if p.leader else -1,
                    "replicas": [r.id for r in p.replicas],
                    "isr": [r.id for r in p.isr],
                }
                for p in t.partitions
            },
        }
    resources = [ConfigResource(ResourceType.TOPIC, n) for n in names] + [
        ConfigResource(ResourceType.BROKER, "1")
    ]
    resources += [ConfigResource(ResourceType.GROUP, g) for g in groups]
    configs: dict[str, dict[str, str]] = {}
    defaults: dict[str, str] = {}
    group_configs: dict[str, dict[str, str]] = {}
    for resource, future in admin.describe_configs(resources).items():
        entries = future.result(60).values()
        if resource.restype == ResourceType.TOPIC:
            configs[resource.name] = {
                e.name: e.value for e in entries if e.source == ConfigSource.DYNAMIC_TOPIC_CONFIG.value
            }
        elif resource.restype == ResourceType.GROUP:
            group_configs[resource.name] = {
                e.name: e.value for e in entries if e.source == ConfigSource.GROUP_CONFIG.value
            }
        else:
            defaults = {
                e.name: e.value
                for e in entries
                if e.source == ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG.value
            }
    return {
        "topics": topics,
        "configs": configs,
        "cluster_defaults": defaults,
        "group_configs": group_configs,
    }
