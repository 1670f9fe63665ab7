"""The workload's producers (:func:`support.kafka_workload.run`): librdkafka (confluent-kafka), kafka-python
and Kafka's own Java producer of the release under test, each into topics of its own."""

from __future__ import annotations

import subprocess

from .kafka_workload import CODECS, JAVA_PRODUCER, RECORDS, _java_classes, _record


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


def produce_java(bootstrap: str, release: str) -> None:
    """Kafka's own Java producer of ``release`` (:data:`JAVA_PRODUCER`, compiled against its kafka-clients)."""
    got = subprocess.run(
        ["java", "-cp", _java_classes(release, JAVA_PRODUCER), JAVA_PRODUCER.stem, bootstrap, str(RECORDS)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert got.returncode == 0, f"the Java producer of Kafka {release}: {got.stderr[-1500:]}"


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
