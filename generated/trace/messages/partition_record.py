"""PartitionRecord, the tracing decoder: :func:`trace_partition_record` reads one PartitionRecord of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/partition_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "PartitionRecord"
VERSIONS = [0, 1, 2]
#: the doc line of each structure and field
DOCS = {
    "PartitionRecord": "The full state of one partition when it is created (or in a snapshot): replicas, ISR, leader and epochs.",
    "PartitionRecord.partition_id": "Partition number within the topic.",
    "PartitionRecord.topic_id": "Id of the topic (its TopicRecord's topic_id).",
    "PartitionRecord.replicas": "Replica broker ids, preferred leader first.",
    "PartitionRecord.isr": "Ids of the in-sync replicas.",
    "PartitionRecord.removing_replicas": "Replicas being removed by a reassignment.",
    "PartitionRecord.adding_replicas": "Replicas being added by a reassignment.",
    "PartitionRecord.leader": "Id of the leader, or -1 when there is none.",
    "PartitionRecord.leader_recovery_state": "1 while a leader elected uncleanly is still recovering, else 0.",
    "PartitionRecord.leader_epoch": "Epoch of the current leader.",
    "PartitionRecord.partition_epoch": "Bumped at every change to the partition.",
    "PartitionRecord.directories": "For each replica (same order as replicas), the id of the log directory holding it.",
    "PartitionRecord.eligible_leader_replicas": "Replicas eligible to lead although out of the ISR (KIP-966).",
    "PartitionRecord.last_known_elr": "The eligible leader replicas last known before they became empty (KIP-966).",
}


def _trace_partition_record_v0(t) -> None:
    t.begin("PartitionRecord", 0, DOCS["PartitionRecord"])
    t.integer("partition_id", "int32", DOCS["PartitionRecord.partition_id"])
    t.blob("topic_id", "uuid", DOCS["PartitionRecord.topic_id"], "size", size=16)
    t.array(
        "replicas",
        "int32",
        DOCS["PartitionRecord.replicas"],
        "compact",
        lambda t: t.integer(t.take_label(), "int32", DOCS["PartitionRecord.replicas"]),
        min_size=4,
    )
    t.array(
        "isr",
        "int32",
        DOCS["PartitionRecord.isr"],
        "compact",
        lambda t: t.integer(t.take_label(), "int32", DOCS["PartitionRecord.isr"]),
        min_size=4,
    )
    t.array(
        "removing_replicas",
        "int32",
        DOCS["PartitionRecord.removing_replicas"],
        "compact",
        lambda t: t.integer(t.take_label(), "int32", DOCS["PartitionRecord.removing_replicas"]),
        min_size=4,
    )
    t.array(
        "adding_replicas",
        "int32",
        DOCS["PartitionRecord.adding_replicas"],
        "compact",
        lambda t: t.integer(t.take_label(), "int32", DOCS["PartitionRecord.adding_replicas"]),
        min_size=4,
    )
    t.integer("leader", "int32", DOCS["PartitionRecord.leader"])
    t.integer("leader_epoch", "int32", DOCS["PartitionRecord.leader_epoch"])
    t.integer("partition_epoch", "int32", DOCS["PartitionRecord.partition_epoch"])
    t.tagged(
        {
            0: (
                "leader_recovery_state",
                lambda t: t.integer(
                    "leader_recovery_state", "int8", DOCS["PartitionRecord.leader_recovery_state"]
                ),
            )
        }
    )
    t.end(None)


def _trace_partition_record_v1(t) -> None:
    t.begin("PartitionRecord", 1, DOCS["PartitionRecord"])
    t.integer("partition_id", "int32", DOCS["PartitionRecord.partition_id"])
    t.blob("topic_id", "uuid", DOCS["PartitionRecord.topic_id"], "size", size=16)
    t.array(
        "replicas",
        "int32",
        DOCS["PartitionRecord.replicas"],
        "compact",
        lambda t: t.integer(t.take_label(), "int32", DOCS["PartitionRecord.replicas"]),
        min_size=4,
    )
    t.array(
        "isr",
        "int32",
        DOCS["PartitionRecord.isr"],
        "compact",
        lambda t: t.integer(t.take_label(), "int32", DOCS["PartitionRecord.isr"]),
        min_size=4,
    )
    t.array(
        "removing_replicas",
        "int32",
        DOCS["PartitionRecord.removing_replicas"],
        "compact",
        lambda t: t.integer(t.take_label(), "int32", DOCS["PartitionRecord.removing_replicas"]),
        min_size=4,
    )
    t.array(
        "adding_replicas",
        "int32",
        DOCS["PartitionRecord.adding_replicas"],
        "compact",
        lambda t: t.integer(t.take_label(), "int32", DOCS["PartitionRecord.adding_replicas"]),
        min_size=4,
    )
    t.integer("leader", "int32", DOCS["PartitionRecord.leader"])
    t.integer("leader_epoch", "int32", DOCS["PartitionRecord.leader_epoch"])
    t.integer("partition_epoch", "int32", DOCS["PartitionRecord.partition_epoch"])
    t.array(
        "directories",
        "uuid",
        DOCS["PartitionRecord.directories"],
        "compact",
        lambda t: t.blob(t.take_label(), "uuid", DOCS["PartitionRecord.directories"], "size", size=16),
        min_size=16,
    )
    t.tagged(
        {
            0: (
                "leader_recovery_state",
                lambda t: t.integer(
                    "leader_recovery_state", "int8", DOCS["PartitionRecord.leader_recovery_state"]
                ),
            )
        }
    )
    t.end(None)


def _trace_partition_record_v2(t) -> None:
    t.begin("PartitionRecord", 2, DOCS["PartitionRecord"])
    t.integer("partition_id", "int32", DOCS["PartitionRecord.partition_id"])
    t.blob("topic_id", "uuid", DOCS["PartitionRecord.topic_id"], "size", size=16)
    t.array(
        "replicas",
        "int32",
        DOCS["PartitionRecord.replicas"],
        "compact",
        lambda t: t.integer(t.take_label(), "int32", DOCS["PartitionRecord.replicas"]),
        min_size=4,
    )
    t.array(
        "isr",
        "int32",
        DOCS["PartitionRecord.isr"],
        "compact",
        lambda t: t.integer(t.take_label(), "int32", DOCS["PartitionRecord.isr"]),
        min_size=4,
    )
    t.array(
        "removing_replicas",
        "int32",
        DOCS["PartitionRecord.removing_replicas"],
        "compact",
        lambda t: t.integer(t.take_label(), "int32", DOCS["PartitionRecord.removing_replicas"]),
        min_size=4,
    )
    t.array(
        "adding_replicas",
        "int32",
        DOCS["PartitionRecord.adding_replicas"],
        "compact",
        lambda t: t.integer(t.take_label(), "int32", DOCS["PartitionRecord.adding_replicas"]),
        min_size=4,
    )
    t.integer("leader", "int32", DOCS["PartitionRecord.leader"])
    t.integer("leader_epoch", "int32", DOCS["PartitionRecord.leader_epoch"])
    t.integer("partition_epoch", "int32", DOCS["PartitionRecord.partition_epoch"])
    t.array(
        "directories",
        "uuid",
        DOCS["PartitionRecord.directories"],
        "compact",
        lambda t: t.blob(t.take_label(), "uuid", DOCS["PartitionRecord.directories"], "size", size=16),
        min_size=16,
    )
    t.tagged(
        {
            0: (
                "leader_recovery_state",
                lambda t: t.integer(
                    "leader_recovery_state", "int8", DOCS["PartitionRecord.leader_recovery_state"]
                ),
            ),
            1: (
                "eligible_leader_replicas",
                lambda t: t.array(
                    "eligible_leader_replicas",
                    "int32",
                    DOCS["PartitionRecord.eligible_leader_replicas"],
                    "compact",
                    lambda t: t.integer(
                        t.take_label(), "int32", DOCS["PartitionRecord.eligible_leader_replicas"]
                    ),
                    min_size=4,
                    nullable=True,
                ),
            ),
            2: (
                "last_known_elr",
                lambda t: t.array(
                    "last_known_elr",
                    "int32",
                    DOCS["PartitionRecord.last_known_elr"],
                    "compact",
                    lambda t: t.integer(t.take_label(), "int32", DOCS["PartitionRecord.last_known_elr"]),
                    min_size=4,
                    nullable=True,
                ),
            ),
        }
    )
    t.end(None)


_TRACERS = {
    0: _trace_partition_record_v0,
    1: _trace_partition_record_v1,
    2: _trace_partition_record_v2,
}


def trace_partition_record(t, version: int) -> None:
    """Read one PartitionRecord of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(f"PartitionRecord: unknown version {version} (this schema has versions 0-2)", t.pos)
    tracer(t)
