"""PartitionChangeRecord, the tracing decoder: :func:`trace_partition_change_record` reads one PartitionChangeRecord of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/partition_change_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "PartitionChangeRecord"
VERSIONS = [0, 1, 2]
#: the doc line of each structure and field
DOCS = {
    "PartitionChangeRecord": "A change to one partition: only the fields that changed are present (as tagged fields).",
    "PartitionChangeRecord.partition_id": "Partition number within the topic.",
    "PartitionChangeRecord.topic_id": "Id of the topic (its TopicRecord's topic_id).",
    "PartitionChangeRecord.isr": "The new ISR, or null when unchanged.",
    "PartitionChangeRecord.leader": "The new leader; -1 for none; -2 (the default) when unchanged.",
    "PartitionChangeRecord.replicas": "The new replicas, or null when unchanged.",
    "PartitionChangeRecord.removing_replicas": "The new replicas being removed, or null when unchanged.",
    "PartitionChangeRecord.adding_replicas": "The new replicas being added, or null when unchanged.",
    "PartitionChangeRecord.leader_recovery_state": "-1 when unchanged; 0 recovered (or elected from the ISR); 1 elected uncleanly and still recovering.",
    "PartitionChangeRecord.directories": "The new log directory of each replica, or null when unchanged.",
    "PartitionChangeRecord.eligible_leader_replicas": "The new eligible leader replicas, or null when unchanged (KIP-966).",
    "PartitionChangeRecord.last_known_elr": "The new last known eligible leader replicas, or null when unchanged (KIP-966).",
}


def _trace_partition_change_record_v0(t) -> None:
    t.begin("PartitionChangeRecord", 0, DOCS["PartitionChangeRecord"])
    t.integer("partition_id", "int32", DOCS["PartitionChangeRecord.partition_id"])
    t.blob("topic_id", "uuid", DOCS["PartitionChangeRecord.topic_id"], "size", size=16)
    t.tagged(
        {
            0: (
                "isr",
                lambda t: t.array(
                    "isr",
                    "int32",
                    DOCS["PartitionChangeRecord.isr"],
                    "compact",
                    lambda t: t.integer(t.take_label(), "int32", DOCS["PartitionChangeRecord.isr"]),
                    min_size=4,
                    nullable=True,
                ),
            ),
            1: ("leader", lambda t: t.integer("leader", "int32", DOCS["PartitionChangeRecord.leader"])),
            2: (
                "replicas",
                lambda t: t.array(
                    "replicas",
                    "int32",
                    DOCS["PartitionChangeRecord.replicas"],
                    "compact",
                    lambda t: t.integer(t.take_label(), "int32", DOCS["PartitionChangeRecord.replicas"]),
                    min_size=4,
                    nullable=True,
                ),
            ),
            3: (
                "removing_replicas",
                lambda t: t.array(
                    "removing_replicas",
                    "int32",
                    DOCS["PartitionChangeRecord.removing_replicas"],
                    "compact",
                    lambda t: t.integer(
                        t.take_label(), "int32", DOCS["PartitionChangeRecord.removing_replicas"]
                    ),
                    min_size=4,
                    nullable=True,
                ),
            ),
            4: (
                "adding_replicas",
                lambda t: t.array(
                    "adding_replicas",
                    "int32",
                    DOCS["PartitionChangeRecord.adding_replicas"],
                    "compact",
                    lambda t: t.integer(
                        t.take_label(), "int32", DOCS["PartitionChangeRecord.adding_replicas"]
                    ),
                    min_size=4,
                    nullable=True,
                ),
            ),
            5: (
                "leader_recovery_state",
                lambda t: t.integer(
                    "leader_recovery_state", "int8", DOCS["PartitionChangeRecord.leader_recovery_state"]
                ),
            ),
        }
    )
    t.end(None)


def _trace_partition_change_record_v1(t) -> None:
    t.begin("PartitionChangeRecord", 1, DOCS["PartitionChangeRecord"])
    t.integer("partition_id", "int32", DOCS["PartitionChangeRecord.partition_id"])
    t.blob("topic_id", "uuid", DOCS["PartitionChangeRecord.topic_id"], "size", size=16)
    t.tagged(
        {
            0: (
                "isr",
                lambda t: t.array(
                    "isr",
                    "int32",
                    DOCS["PartitionChangeRecord.isr"],
                    "compact",
                    lambda t: t.integer(t.take_label(), "int32", DOCS["PartitionChangeRecord.isr"]),
                    min_size=4,
                    nullable=True,
                ),
            ),
            1: ("leader", lambda t: t.integer("leader", "int32", DOCS["PartitionChangeRecord.leader"])),
            2: (
                "replicas",
                lambda t: t.array(
                    "replicas",
                    "int32",
                    DOCS["PartitionChangeRecord.replicas"],
                    "compact",
                    lambda t: t.integer(t.take_label(), "int32", DOCS["PartitionChangeRecord.replicas"]),
                    min_size=4,
                    nullable=True,
                ),
            ),
            3: (
                "removing_replicas",
                lambda t: t.array(
                    "removing_replicas",
                    "int32",
                    DOCS["PartitionChangeRecord.removing_replicas"],
                    "compact",
                    lambda t: t.integer(
                        t.take_label(), "int32", DOCS["PartitionChangeRecord.removing_replicas"]
                    ),
                    min_size=4,
                    nullable=True,
                ),
            ),
            4: (
                "adding_replicas",
                lambda t: t.array(
                    "adding_replicas",
                    "int32",
                    DOCS["PartitionChangeRecord.adding_replicas"],
                    "compact",
                    lambda t: t.integer(
                        t.take_label(), "int32", DOCS["PartitionChangeRecord.adding_replicas"]
                    ),
                    min_size=4,
                    nullable=True,
                ),
            ),
            5: (
                "leader_recovery_state",
                lambda t: t.integer(
                    "leader_recovery_state", "int8", DOCS["PartitionChangeRecord.leader_recovery_state"]
                ),
            ),
            8: (
                "directories",
                lambda t: t.array(
                    "directories",
                    "uuid",
                    DOCS["PartitionChangeRecord.directories"],
                    "compact",
                    lambda t: t.blob(
                        t.take_label(), "uuid", DOCS["PartitionChangeRecord.directories"], "size", size=16
                    ),
                    min_size=16,
                    nullable=True,
                ),
            ),
        }
    )
    t.end(None)


def _trace_partition_change_record_v2(t) -> None:
    t.begin("PartitionChangeRecord", 2, DOCS["PartitionChangeRecord"])
    t.integer("partition_id", "int32", DOCS["PartitionChangeRecord.partition_id"])
    t.blob("topic_id", "uuid", DOCS["PartitionChangeRecord.topic_id"], "size", size=16)
    t.tagged(
        {
            0: (
                "isr",
                lambda t: t.array(
                    "isr",
                    "int32",
                    DOCS["PartitionChangeRecord.isr"],
                    "compact",
                    lambda t: t.integer(t.take_label(), "int32", DOCS["PartitionChangeRecord.isr"]),
                    min_size=4,
                    nullable=True,
                ),
            ),
            1: ("leader", lambda t: t.integer("leader", "int32", DOCS["PartitionChangeRecord.leader"])),
            2: (
                "replicas",
                lambda t: t.array(
                    "replicas",
                    "int32",
                    DOCS["PartitionChangeRecord.replicas"],
                    "compact",
                    lambda t: t.integer(t.take_label(), "int32", DOCS["PartitionChangeRecord.replicas"]),
                    min_size=4,
                    nullable=True,
                ),
            ),
            3: (
                "removing_replicas",
                lambda t: t.array(
                    "removing_replicas",
                    "int32",
                    DOCS["PartitionChangeRecord.removing_replicas"],
                    "compact",
                    lambda t: t.integer(
                        t.take_label(), "int32", DOCS["PartitionChangeRecord.removing_replicas"]
                    ),
                    min_size=4,
                    nullable=True,
                ),
            ),
            4: (
                "adding_replicas",
                lambda t: t.array(
                    "adding_replicas",
                    "int32",
                    DOCS["PartitionChangeRecord.adding_replicas"],
                    "compact",
                    lambda t: t.integer(
                        t.take_label(), "int32", DOCS["PartitionChangeRecord.adding_replicas"]
                    ),
                    min_size=4,
                    nullable=True,
                ),
            ),
            5: (
                "leader_recovery_state",
                lambda t: t.integer(
                    "leader_recovery_state", "int8", DOCS["PartitionChangeRecord.leader_recovery_state"]
                ),
            ),
            6: (
                "eligible_leader_replicas",
                lambda t: t.array(
                    "eligible_leader_replicas",
                    "int32",
                    DOCS["PartitionChangeRecord.eligible_leader_replicas"],
                    "compact",
                    lambda t: t.integer(
                        t.take_label(), "int32", DOCS["PartitionChangeRecord.eligible_leader_replicas"]
                    ),
                    min_size=4,
                    nullable=True,
                ),
            ),
            7: (
                "last_known_elr",
                lambda t: t.array(
                    "last_known_elr",
                    "int32",
                    DOCS["PartitionChangeRecord.last_known_elr"],
                    "compact",
                    lambda t: t.integer(
                        t.take_label(), "int32", DOCS["PartitionChangeRecord.last_known_elr"]
                    ),
                    min_size=4,
                    nullable=True,
                ),
            ),
            8: (
                "directories",
                lambda t: t.array(
                    "directories",
                    "uuid",
                    DOCS["PartitionChangeRecord.directories"],
                    "compact",
                    lambda t: t.blob(
                        t.take_label(), "uuid", DOCS["PartitionChangeRecord.directories"], "size", size=16
                    ),
                    min_size=16,
                    nullable=True,
                ),
            ),
        }
    )
    t.end(None)


_TRACERS = {
    0: _trace_partition_change_record_v0,
    1: _trace_partition_change_record_v1,
    2: _trace_partition_change_record_v2,
}


def trace_partition_change_record(t, version: int) -> None:
    """Read one PartitionChangeRecord of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"PartitionChangeRecord: unknown version {version} (this schema has versions 0-2)", t.pos
        )
    tracer(t)
