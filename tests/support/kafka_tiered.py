"""Tiered storage by Kafka itself, for the broker tests: the session broker's RemoteLogManager uploads the
segments of :data:`TIERED` through Kafka's own ``LocalTieredStorage`` (its storage test jar) into a local
folder, and deletes them locally once uploaded; the tests read that folder plus the broker's data directory
as one history (``open_log(data, tiered=remote)``) and compare it with what the broker's consumers get.

The storage test jar is fetched by Maven beside the broker's jars (``.tools/kafka/<release>/tiered/``):
Kafka publishes it as ``kafka-storage:<release>:test`` up to 4.3 and as ``:test-fixtures`` from 4.4 on;
for 4.2.2 Maven Central has neither, and the tests' own RemoteStorageManager (:data:`FOLDER_STORAGE`)
writes the same layout.

A re-upload: the storage's copy step (:data:`TRANSFERER`) stops for good once the third fileset is on
disk, before the RemoteLogManager publishes COPY_SEGMENT_FINISHED (:func:`wait_blocked`); the broker is
killed there, and after its restart the RemoteLogManager uploads that segment again under a new id.
"""

from __future__ import annotations

import time
from pathlib import Path

from .kafka_workload import _java_classes, _record

#: the topic whose segments go to the remote tier
TIERED = "tiered"
#: segments roll by the records' timestamps (each round two minutes after the last, :func:`produce_tiered`);
#: local retention (by size, a byte) deletes every segment the broker has uploaded, none other
TIERED_CONFIG = {
    "remote.storage.enable": "true",
    "segment.ms": "60000",
    "local.retention.bytes": "1",
    "retention.bytes": "-1",
    "retention.ms": "-1",
}
#: where ``LocalTieredStorage`` lives (``RemoteLogSegmentFileset``'s layout, read by kafkaspec's
#: ``logdir.tiered.local_storage``)
RSM_CLASS = "org.apache.kafka.server.log.remote.storage.LocalTieredStorage"
#: ``LocalTieredStorage``'s copy step, which blocks the third upload (tests/brokers/java)
TRANSFERER = Path(__file__).resolve().parents[1] / "brokers" / "java" / "BlockingTransferer.java"
#: the RemoteStorageManager of the tests, for a release whose storage test jar is not served
FOLDER_STORAGE = TRANSFERER.with_name("FolderTieredStorage.java")
#: the file either leaves in the storage folder, naming the fileset it blocked
BLOCKED = "blocked-upload"
#: the classifiers Kafka's storage test jar has been published under, newest first
CLASSIFIERS = ("test-fixtures", "test")
#: records per round of :func:`produce_tiered` (a round is a segment), and rounds before the broker's
#: kill and as many after its restart
PER_ROUND = 40
ROUNDS = 6
#: record time between rounds
ROUND_MS = 120_000


def storage_test_jar(release: str) -> Path | None:
    """``release``'s ``kafka-storage`` test jar (``LocalTieredStorage``), fetched by Maven once; None where
    Maven Central has it under none of :data:`CLASSIFIERS` (remembered in ``tiered/none``)."""
    from .kafka_broker import jars, maven_copy

    folder = jars(release) / "tiered"
    for classifier in CLASSIFIERS:
        jar = folder / f"kafka-storage-{release}-{classifier}.jar"
        if jar.exists():
            return jar
    if (folder / "none").exists():
        return None
    for classifier in CLASSIFIERS:
        got = maven_copy(f"org.apache.kafka:kafka-storage:{release}:jar:{classifier}", folder)
        jar = folder / f"kafka-storage-{release}-{classifier}.jar"
        if got.returncode == 0 and jar.exists():
            return jar
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "none").write_text(
        f"kafka-storage:{release} has no jar of classifier {' or '.join(CLASSIFIERS)}\n"
    )
    return None


def storage(release: str) -> tuple[str, tuple[Path, ...]]:
    """The RemoteStorageManager the broker of ``release`` uploads with, and the class path it loads for it:
    Kafka's ``LocalTieredStorage`` with :data:`TRANSFERER`, or where its jar is not served
    :data:`FOLDER_STORAGE` (the same layout)."""
    from .kafka_broker import jars

    jar = storage_test_jar(release)
    if jar is None:
        _java_classes(release, FOLDER_STORAGE)
        return FOLDER_STORAGE.stem, (jars(release) / "classes",)
    _java_classes(release, TRANSFERER, str(jar))
    return RSM_CLASS, (jar, jars(release) / "classes")


def broker_config(remote: Path, rsm_class: str = RSM_CLASS) -> dict[str, str]:
    """Server properties for tiered storage into ``remote`` (the storage's ``dir``) through ``rsm_class``
    (:func:`storage`), with Kafka's ``TopicBasedRemoteLogMetadataManager`` on one
    ``__remote_log_metadata`` partition, and a RemoteLogManager that looks for segments to upload every
    half second."""
    return {
        "remote.log.storage.system.enable": "true",
        "remote.log.storage.manager.class.name": rsm_class,
        "remote.log.storage.manager.impl.prefix": "rsm.config.",
        "rsm.config.dir": str(remote),
        "rsm.config.transferer.class": TRANSFERER.stem,
        "remote.log.metadata.manager.class.name": (
            "org.apache.kafka.server.log.remote.metadata.storage.TopicBasedRemoteLogMetadataManager"
        ),
        "remote.log.metadata.manager.impl.prefix": "rlmm.config.",
        "remote.log.metadata.manager.listener.name": "PLAINTEXT",
        "rlmm.config.remote.log.metadata.topic.replication.factor": "1",
        "rlmm.config.remote.log.metadata.topic.num.partitions": "1",
        "remote.log.manager.task.interval.ms": "500",
    }


def create_topic(bootstrap: str) -> None:
    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient({"bootstrap.servers": bootstrap, "log_level": 3})
    admin.create_topics([NewTopic(TIERED, 1, 1, config=TIERED_CONFIG)])[TIERED].result(60)


def produce_tiered(bootstrap: str, first_round: int, rounds: int, after: int = 0) -> int:
    """``rounds`` rounds of :data:`PER_ROUND` records, each :data:`ROUND_MS` of record time after the
    previous one, from a minute ahead of now on, or from ``after`` (each starts a segment); every other
    round a transaction, every fourth aborted, so the remote tier holds transaction indexes and aborted
    records. Returns the record time the next round must start from to start a segment.

    Record times ahead of the clock (within the broker's ``message.timestamp.after.max.ms``) keep the
    transaction markers, which carry the broker's clock, from rolling a segment: a segment that starts
    with one would never roll by the records' times after it."""
    from confluent_kafka import Producer

    plain = Producer(
        {
            "bootstrap.servers": bootstrap,
            "enable.idempotence": True,
            "log_level": 3,
            "linger.ms": 5,
            "batch.num.messages": 15,
            "compression.codec": "zstd",
        }
    )
    txn = Producer(
        {
            "bootstrap.servers": bootstrap,
            "transactional.id": "kafkaspec-tiered",
            "log_level": 3,
            "linger.ms": 5,
        }
    )
    txn.init_transactions(60)
    start = max(int(time.time() * 1000) + 60_000, after)
    for round_ in range(first_round, first_round + rounds):
        ts = start + (round_ - first_round) * ROUND_MS
        records = range(round_ * PER_ROUND, (round_ + 1) * PER_ROUND)
        if round_ % 2:
            txn.begin_transaction()
            for i in records:
                key, value, headers = _record(i)
                txn.produce(
                    TIERED, value=value, key=key, headers=headers or None, partition=0, timestamp=ts + i
                )
            txn.flush(30)
            (txn.abort_transaction if round_ % 4 == 3 else txn.commit_transaction)(60)
        else:
            for i in records:
                key, value, headers = _record(i)
                plain.produce(
                    TIERED, value=value, key=key, headers=headers or None, partition=0, timestamp=ts + i
                )
            assert plain.flush(30) == 0, f"{TIERED}: records not delivered"
    return start + rounds * ROUND_MS


def remote_folder(remote: Path, data: Path) -> Path:
    """``LocalTieredStorage``'s folder of :data:`TIERED`'s partition 0: ``<topic>-0-<topic id>``."""
    meta = (data / f"{TIERED}-0" / "partition.metadata").read_text()
    topic_id = next(ln.split(":", 1)[1].strip() for ln in meta.splitlines() if ln.startswith("topic_id"))
    return remote / "kafka-tiered-storage" / f"{TIERED}-0-{topic_id}"


def wait_tiered(remote: Path, data: Path, segments: int, timeout: float = 120.0) -> None:
    """Until at least ``segments`` segments are uploaded (complete filesets) and the local log holds only
    its active segment: local retention deletes a segment only once it is uploaded. (Where a segment
    rolls depends on when the transaction markers land, so the count is a floor.)"""
    deadline = time.monotonic() + timeout
    local = data / f"{TIERED}-0"
    uploaded, logs = 0, []
    while time.monotonic() < deadline:
        folder = remote_folder(remote, data)
        uploaded = len(list(folder.glob("*.leader_epoch_checkpoint"))) if folder.exists() else 0
        logs = sorted(p.name for p in local.glob("*.log"))
        if uploaded >= segments and len(logs) == 1:
            return
        time.sleep(0.25)
    raise RuntimeError(
        f"{TIERED}-0: {uploaded} segments uploaded (at least {segments} expected), local segments {logs}, "
        f"within {timeout:.0f} s"
    )


def wait_blocked(remote: Path, data: Path, timeout: float = 120.0) -> Path:
    """Until :data:`TRANSFERER` has blocked an upload and local retention has deleted every segment before
    it (uploaded and finished): the blocked fileset's ``.log`` in the remote folder."""
    deadline = time.monotonic() + timeout
    marker, local = remote / BLOCKED, data / f"{TIERED}-0"
    logs: list[str] = []
    while time.monotonic() < deadline:
        if marker.exists() and marker.read_text().endswith("\n"):
            blocked = remote / "kafka-tiered-storage" / marker.read_text().strip()
            logs = sorted(p.name for p in local.glob("*.log"))
            if logs and logs[0][:20] == blocked.name[:20]:
                return blocked
        time.sleep(0.25)
    raise RuntimeError(
        f"{TIERED}-0: no upload blocked (or segments before it left locally: {logs}) within {timeout:.0f} s"
    )
