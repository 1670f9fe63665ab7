"""The workload's groups (:func:`support.kafka_workload.run` and the broker fixture): consumer groups of
both protocols, a share group (KIP-932) and a streams group (KIP-1071), and what Kafka's own tools and
admin API list of them."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path
from typing import Any

from .kafka_workload import (
    JAVA_SHARE,
    JAVA_STREAMS,
    RECORDS,
    SHARED,
    STREAMED,
    STREAMS_INPUT,
    TOPICS,
    _java_classes,
    _minor,
    _record,
    _tool,
)

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


SHARE_GROUP = "share-group"


def has_share_groups(release: str) -> bool:
    """Share groups in every release: 4.0's early access (KIP-932's RPCs at version 0, unstable, and the
    ``share`` rebalance protocol, both enabled by :func:`kafka_workload.broker_config`), 4.1's preview (enabled by
    :func:`kafka_workload.enable_previews`), both read by Kafka's own share consumer (:func:`_java_share_group`);
    confluent-kafka's ShareConsumer from 4.2 on (librdkafka starts at ShareGroupHeartbeat v1, which 4.0
    does not answer)."""
    return _minor(release) >= (4, 0)


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


def listed_share_offsets(bootstrap: str, release: str) -> dict[tuple[str, int], int] | None:
    """The share group's start offset per partition, as Kafka's own kafka-share-groups tool lists them;
    None on 4.0, which cannot list them: it has no DescribeShareGroupOffsets RPC, and its tool's
    ``--offsets`` prints each assigned partition's earliest-to-latest lag, not the share-partition's start."""
    if _minor(release) == (4, 0):
        return None
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


STREAMS_GROUP = "streams-group"


def has_streams_groups(release: str) -> bool:
    """Streams groups: GA from 4.2; 4.1's early access with :func:`kafka_workload.broker_config` and
    :func:`kafka_workload.enable_previews`."""
    return _minor(release) >= (4, 1)


def _streams_jar(release: str) -> Path:
    """``release``'s kafka-streams jar, fetched by Maven into ``.tools/kafka/<release>/streams`` once: the
    broker's jars do not include it, and a stateless topology needs nothing more."""
    from .kafka_broker import Unavailable, jars, maven_copy

    folder = jars(release) / "streams"
    jar = folder / f"kafka-streams-{release}.jar"
    if not jar.exists():
        got = maven_copy(f"org.apache.kafka:kafka-streams:{release}", folder)
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
