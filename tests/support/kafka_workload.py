"""What the broker tests make a broker write, and what they read back through the broker itself.

The producers are independent of kafkaspec: librdkafka (confluent-kafka) and kafka-python. Each topic
holds one kind of traffic (:data:`TOPICS`), so a difference names its writer and codec.
"""

from __future__ import annotations

import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: (topic, partitions)
CODECS = ("none", "gzip", "snappy", "lz4", "zstd")
#: a topic the log cleaner compacts (:func:`produce_compacted`), one whose first segment retention
#: deletes (:func:`produce_retained`), one deleted while the broker runs (:func:`delete_topic`)
COMPACTED, RETAINED, DELETED = "compacted", "retained", "deleted"
#: the topic a share group (KIP-932) reads, acknowledging each record (:func:`consume_in_share_group`)
SHARED = "shared"
#: a streams group (KIP-1071) copies STREAMS_INPUT to STREAMED (:func:`run_streams_group`)
STREAMS_INPUT, STREAMED = "rdkafka-gzip", "streamed"
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
#: :func:`produce_compacted` is an hour after the previous one), so no test sleeps for segment.ms.
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


def produce_rdkafka(bootstrap: str) -> None:
    """librdkafka: idempotent producers, one topic per codec; a transactional producer that commits,
    aborts and commits again."""
    from confluent_kafka import Producer

    for codec in CODECS:
        p = Producer(
            {
                "bootstrap.servers": bootstrap,
                "enable.idempotence": True,
                "log_level": 3,
                "compression.codec": codec,
                "linger.ms": 5,
                "batch.num.messages": 50,
            }
        )
        for i in range(RECORDS):
            key, value, headers = _record(i)
            p.produce(f"rdkafka-{codec}", value=value, key=key, headers=headers or None, partition=i % 2)
            if i % 100 == 99:
                p.flush(30)
        assert p.flush(30) == 0, f"rdkafka-{codec}: records not delivered"
    t = Producer(
        {
            "bootstrap.servers": bootstrap,
            "transactional.id": "kafkaspec-tests",
            "compression.codec": "lz4",
            "linger.ms": 5,
        }
    )
    t.init_transactions(60)
    for round_, commit in enumerate((True, False, True)):
        t.begin_transaction()
        for i in range(100):
            key, value, headers = _record(round_ * 100 + i)
            t.produce("rdkafka-txn", value=value, key=key, headers=headers or None, partition=i % 2)
        t.flush(30)
        (t.commit_transaction if commit else t.abort_transaction)(60)


def produce_kafka_python(bootstrap: str) -> None:
    """kafka-python: its own record builder, gzip."""
    from kafka import KafkaProducer

    p = KafkaProducer(bootstrap_servers=bootstrap, compression_type="gzip", linger_ms=5)
    for i in range(RECORDS):
        key, value, headers = _record(i)
        headers = [(k, v if v is not None else b"") for k, v in headers]  # kafka-python refuses null values
        key = b"" if key is None and value is None else key  # and a record with neither
        p.send("kafka-python", key=key, value=value, headers=headers, partition=i % 2)
    p.flush(30)
    p.close()


#: consumer groups: (group id, group.protocol): the classic protocol and KIP-848's
GROUPS = (("classic-group", "classic"), ("consumer-group", "consumer"))


def consume_in_groups(bootstrap: str) -> dict[str, dict[tuple[str, int], int]]:
    """Each group reads ``rdkafka-zstd`` part of the way and commits: {group: {(topic, partition): offset}}."""
    from confluent_kafka import Consumer

    committed: dict[str, dict[tuple[str, int], int]] = {}
    for group, protocol in GROUPS:
        c = Consumer(
            {
                "bootstrap.servers": bootstrap,
                "group.id": group,
                "group.protocol": protocol,
                "auto.offset.reset": "earliest",
                "enable.auto.commit": False,
                "log_level": 3,
            }
        )
        c.subscribe(["rdkafka-zstd"])
        seen = 0
        for _ in range(120):
            msg = c.poll(1.0)
            if msg is not None and not msg.error():
                seen += 1
                if seen == 100:
                    break
        assert seen == 100, f"{group}: read {seen} records"
        done = c.commit(asynchronous=False)
        committed[group] = {(tp.topic, tp.partition): tp.offset for tp in done if tp.offset >= 0}
        c.close()
    return committed


SHARE_GROUP = "share-group"


def _minor(release: str) -> tuple[int, int]:
    major, minor = release.split(".")[:2]
    return int(major), int(minor)


def has_share_groups(release: str) -> bool:
    """Share groups from 4.1 (a preview there, enabled by :func:`enable_previews`, read by Kafka's own
    share consumer: :func:`_java_share_group`), with confluent-kafka's ShareConsumer from 4.2. 4.0's early access answers only version 0 of the share RPCs, which librdkafka
    does not speak (it starts at ShareGroupHeartbeat v1). Kafka's own Java ``KafkaShareConsumer`` of 4.0
    speaks v0, with the broker's ``unstable.api.versions.enable`` and ``share`` among its
    ``group.coordinator.rebalance.protocols``; its records' format was not final then: not tested."""
    return _minor(release) >= (4, 1)


def broker_config(release: str) -> dict[str, str]:
    """:data:`BROKER_CONFIG` with what ``release`` needs for the groups of :func:`enable_previews`: 4.1's
    streams groups are early access, their RPC (StreamsGroupHeartbeat v0) and feature level
    (``streams.version=1``) both marked unstable."""
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


def _ack_type(offset: int) -> int:
    """How :func:`consume_in_share_group` acknowledges ``offset``: every tenth rejected, every tenth
    released (delivered again, then accepted), the rest accepted."""
    from confluent_kafka import AcknowledgeType

    return int(
        {3: AcknowledgeType.REJECT, 6: AcknowledgeType.RELEASE}.get(offset % 10, AcknowledgeType.ACCEPT)
    )


def consume_in_share_group(bootstrap: str, release: str) -> dict[tuple[int, int], list[int]]:
    """A share group (KIP-932) reads :data:`SHARED` from the earliest offset with explicit acknowledgements:
    {(partition, offset): the acknowledgement types given to each delivery, in order}."""
    from confluent_kafka import AcknowledgeType, Producer, ShareConsumer
    from confluent_kafka.admin import (
        AdminClient,
        AlterConfigOpType,
        ConfigEntry,
        ConfigResource,
        ResourceType,
    )

    p = Producer({"bootstrap.servers": bootstrap, "enable.idempotence": True, "log_level": 3, "linger.ms": 5})
    for i in range(RECORDS // 3):
        key, value, headers = _record(i)
        p.produce(SHARED, value=value, key=key, headers=headers or None, partition=i % 2)
    assert p.flush(30) == 0, f"{SHARED}: records not delivered"
    admin = AdminClient({"bootstrap.servers": bootstrap, "log_level": 3})
    group = ConfigResource(
        ResourceType.GROUP,
        SHARE_GROUP,
        incremental_configs=[
            ConfigEntry("share.auto.offset.reset", "earliest", incremental_operation=AlterConfigOpType.SET)
        ],
    )
    admin.incremental_alter_configs([group])[group].result(60)
    _wait_applied(admin, group)
    if _minor(release) < (4, 2):
        return _java_share_group(bootstrap, release)
    c = ShareConsumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": SHARE_GROUP,
            "share.acknowledgement.mode": "explicit",
            "log_level": 3,
        }
    )
    c.subscribe([SHARED])
    acks: dict[tuple[int, int], list[int]] = {}
    done = 0
    deadline = time.monotonic() + 90
    while done < RECORDS // 3 and time.monotonic() < deadline:
        msgs = c.poll(1.0)
        for m in msgs:
            if m.error():
                raise RuntimeError(f"share consumer: {m.error()}")
            given = acks.setdefault((m.partition(), m.offset()), [])
            ack = _ack_type(m.offset()) if not given else int(AcknowledgeType.ACCEPT)
            given.append(ack)
            done += ack != int(AcknowledgeType.RELEASE)
            c.acknowledge(m, AcknowledgeType(ack))
        if msgs:
            failed = {tp: e for tp, e in c.commit_sync(30).items() if e is not None}
            assert not failed, f"share group acknowledgements failed: {failed}"
    c.close()
    assert done == RECORDS // 3, f"{SHARE_GROUP}: {done} of {RECORDS // 3} records acknowledged"
    return acks


def _java_share_group(bootstrap: str, release: str) -> dict[tuple[int, int], list[int]]:
    """:func:`consume_in_share_group`'s reading by Kafka's own share consumer of ``release``
    (:data:`JAVA_SHARE`), the same acknowledgements. On 4.1 librdkafka's ShareConsumer read nothing in
    11 runs of 20: the member was assigned both partitions, the group had initialized them with
    ``share.auto.offset.reset=earliest`` applied, and yet no share fetch reached them (their state kept
    start offset -1 and no update). Kafka's consumer read every record in 5 runs of 5."""
    got = subprocess.run(
        [
            "java",
            "-Xmx256m",
            "-cp",
            _java_classes(release, JAVA_SHARE),
            JAVA_SHARE.stem,
            bootstrap,
            SHARE_GROUP,
            SHARED,
            str(RECORDS // 3),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert got.returncode == 0, f"the share group of Kafka {release}: {got.stderr.strip()[-1500:]}"
    acks: dict[tuple[int, int], list[int]] = {}
    for line in got.stdout.split("\n"):
        if line.strip():
            partition, offset, ack = map(int, line.split())
            acks.setdefault((partition, offset), []).append(ack)
    return acks


def _wait_applied(admin: Any, group: Any, timeout: float = 60.0) -> None:
    """Until the broker itself describes ``group``'s configs as set. The controller acknowledges the change
    once it is in the metadata log; the broker applies it when it next publishes its metadata image, and a
    share consumer that joins before that gets the default ``share.auto.offset.reset``, ``latest``: none
    of the records already written."""
    from confluent_kafka.admin import ConfigResource

    wanted = {e.name: e.value for e in group.incremental_configs}
    deadline = time.monotonic() + timeout
    while True:
        plain = ConfigResource(group.restype, group.name)
        got = admin.describe_configs([plain])[plain].result(30)
        if all(name in got and got[name].value == value for name, value in wanted.items()):
            return
        assert time.monotonic() < deadline, f"the broker did not apply {wanted} to {group.name}"
        time.sleep(0.2)


def listed_share_offsets(bootstrap: str, release: str) -> dict[tuple[str, int], int]:
    """The share group's start offset per partition, as Kafka's own kafka-share-groups tool lists them."""
    out = _tool(
        release,
        "org.apache.kafka.tools.consumer.group.ShareGroupCommand",
        "--bootstrap-server",
        bootstrap,
        "--describe",
        "--group",
        SHARE_GROUP,
        "--offsets",
    )
    rows = [ln.split() for ln in out.splitlines()]
    head = next(r for r in rows if r[:1] == ["GROUP"])
    at = {name: i for i, name in enumerate(head)}
    return {
        (r[at["TOPIC"]], int(r[at["PARTITION"]])): int(r[at["START-OFFSET"]])
        for r in rows
        if r and r != head and r[0] == SHARE_GROUP
    }


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


def listed_offsets(bootstrap: str, extra: tuple[str, ...] = ()) -> dict[str, dict[tuple[str, int], int]]:
    """The committed offsets of :data:`GROUPS` (and of ``extra`` groups) as Kafka's admin API lists them."""
    from confluent_kafka import ConsumerGroupTopicPartitions
    from confluent_kafka.admin import AdminClient

    admin = AdminClient({"bootstrap.servers": bootstrap, "log_level": 3})
    out: dict[str, dict[tuple[str, int], int]] = {}
    for group in [g for g, _ in GROUPS] + list(extra):
        futures = admin.list_consumer_group_offsets([ConsumerGroupTopicPartitions(group)])
        listed = futures[group].result(60)
        out[group] = {(tp.topic, tp.partition): tp.offset for tp in listed.topic_partitions if tp.offset >= 0}
    return out


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


def produce_java(bootstrap: str, release: str) -> None:
    """Kafka's own Java producer of ``release`` (:data:`JAVA_PRODUCER`, compiled against its kafka-clients)."""
    got = subprocess.run(
        ["java", "-cp", _java_classes(release, JAVA_PRODUCER), JAVA_PRODUCER.stem, bootstrap, str(RECORDS)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert got.returncode == 0, f"the Java producer of Kafka {release}: {got.stderr[-1500:]}"


STREAMS_GROUP = "streams-group"


def has_streams_groups(release: str) -> bool:
    """Streams groups: GA from 4.2; 4.1's early access with :func:`broker_config` and
    :func:`enable_previews`."""
    return _minor(release) >= (4, 1)


def _streams_jar(release: str) -> Path:
    """``release``'s kafka-streams jar, fetched by Maven into ``.tools/kafka/<release>/streams`` once: the
    broker's jars do not include it, and a stateless topology needs nothing more."""
    from .kafka_broker import Unavailable, jars

    folder = jars(release) / "streams"
    jar = folder / f"kafka-streams-{release}.jar"
    if not jar.exists():
        got = subprocess.run(
            [
                "mvn",
                "-q",
                "-B",
                "-Dstyle.color=never",
                "dependency:copy",
                f"-Dartifact=org.apache.kafka:kafka-streams:{release}",
                f"-DoutputDirectory={folder}",
            ],
            capture_output=True,
            text=True,
            timeout=600,
            cwd=folder.parent,
        )
        if got.returncode or not jar.exists():
            lines = [ln for ln in (got.stdout + got.stderr).splitlines() if "ERROR" in ln] or [
                f"exit {got.returncode}"
            ]
            raise Unavailable(f"Kafka {release}: Maven could not fetch kafka-streams: {lines[0][:300]}")
    return jar


def run_streams_group(bootstrap: str, release: str, state: Path) -> dict[tuple[str, int], int]:
    """A Kafka Streams application of ``release`` in a streams group copies :data:`STREAMS_INPUT` to
    :data:`STREAMED` (:data:`JAVA_STREAMS`): the offsets it committed, every input record read."""
    cp = _java_classes(release, JAVA_STREAMS, str(_streams_jar(release)))
    got = subprocess.run(
        [
            "java",
            "-Xmx256m",
            "-cp",
            cp,
            JAVA_STREAMS.stem,
            bootstrap,
            STREAMS_GROUP,
            STREAMS_INPUT,
            STREAMED,
            str(RECORDS),
            str(state),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert got.returncode == 0, f"the streams group of Kafka {release}: {got.stderr.strip()[-1500:]}"
    return {(STREAMS_INPUT, p): RECORDS // 2 for p in range(TOPICS[STREAMS_INPUT])}


def create_topics(bootstrap: str) -> None:
    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient({"bootstrap.servers": bootstrap})
    futures = admin.create_topics(
        [NewTopic(t, n, 1, config=TOPIC_CONFIGS.get(t, {})) for t, n in {**TOPICS, **FOR_KAFKASPEC}.items()]
    )
    for f in futures.values():
        f.result(60)


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


def run(bootstrap: str, release: str, data: Path) -> dict[str, dict[tuple[str, int], int]]:
    """The whole workload on the broker whose data directory is ``data``; the offsets each group committed."""
    create_topics(bootstrap)
    produce_rdkafka(bootstrap)
    produce_kafka_python(bootstrap)
    produce_java(bootstrap, release)
    produce_compacted(bootstrap, data)
    produce_retained(bootstrap, data)
    delete_topic(bootstrap, data)
    return consume_in_groups(bootstrap)


#: the topics :func:`produce_before_kill` appends to
BEFORE_KILL = ("rdkafka-none", "rdkafka-zstd")


def produce_before_kill(bootstrap: str) -> None:
    """More records just before the broker is killed: appended to segments the broker has not flushed,
    past the recovery points it last checkpointed."""
    from confluent_kafka import Producer

    p = Producer(
        {
            "bootstrap.servers": bootstrap,
            "enable.idempotence": True,
            "log_level": 3,
            "linger.ms": 5,
            "compression.codec": "zstd",
            "batch.num.messages": 30,
        }
    )
    for topic in BEFORE_KILL:
        for i in range(RECORDS, RECORDS + 100):
            key, value, headers = _record(i)
            p.produce(topic, value=value, key=key, headers=headers or None, partition=i % 2)
    assert p.flush(30) == 0, "records before the kill not delivered"


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
