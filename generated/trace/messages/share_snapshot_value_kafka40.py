"""ShareSnapshotValueKafka40, the tracing decoder: :func:`trace_share_snapshot_value_kafka40` reads one ShareSnapshotValueKafka40 of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/share_snapshot_value_kafka40.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "ShareSnapshotValueKafka40"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "ShareSnapshotValueKafka40": "ShareSnapshotValue as Kafka 4.0's early-access share groups (KIP-932) wrote version 0: an unsigned 16-bit snapshot epoch and no timestamps.",
    "ShareSnapshotValueKafka40.snapshot_epoch": "Snapshot epoch (unsigned 16 bits in Kafka 4.0).",
    "ShareSnapshotValueKafka40.state_epoch": "State epoch of the share-partition: bumped when its state is initialized again.",
    "ShareSnapshotValueKafka40.leader_epoch": "Leader epoch of the partition when the state was written.",
    "ShareSnapshotValueKafka40.start_offset": "Share-partition start offset: every offset below it is done with.",
    "ShareSnapshotValueKafka40.state_batches": "The delivery state of the offsets at or after the start offset, run by run.",
    "StateBatch": "A run of offsets in one delivery state.",
    "StateBatch.first_offset": "First offset of the run.",
    "StateBatch.last_offset": "Last offset of the run (inclusive).",
    "StateBatch.delivery_state": "Delivery state of its records: 0 available, 2 acknowledged, 4 archived.",
    "StateBatch.delivery_count": "How many times its records have been delivered.",
}


def _trace_share_snapshot_value_kafka40_v0(t) -> None:
    t.begin("ShareSnapshotValueKafka40", 0, DOCS["ShareSnapshotValueKafka40"])
    t.integer("snapshot_epoch", "uint16", DOCS["ShareSnapshotValueKafka40.snapshot_epoch"])
    t.integer("state_epoch", "int32", DOCS["ShareSnapshotValueKafka40.state_epoch"])
    t.integer("leader_epoch", "int32", DOCS["ShareSnapshotValueKafka40.leader_epoch"])
    t.integer("start_offset", "int64", DOCS["ShareSnapshotValueKafka40.start_offset"])
    t.array(
        "state_batches",
        "StateBatch",
        DOCS["ShareSnapshotValueKafka40.state_batches"],
        "compact",
        lambda t: t.nested(
            t.take_label(),
            "StateBatch",
            DOCS["ShareSnapshotValueKafka40.state_batches"],
            _trace_state_batch_v0,
        ),
        min_size=1,
    )
    t.tagged({})
    t.end(None)


def _trace_state_batch_v0(t) -> None:
    t.begin("StateBatch", 0, DOCS["StateBatch"])
    t.integer("first_offset", "int64", DOCS["StateBatch.first_offset"])
    t.integer("last_offset", "int64", DOCS["StateBatch.last_offset"])
    t.integer("delivery_state", "int8", DOCS["StateBatch.delivery_state"])
    t.integer("delivery_count", "int16", DOCS["StateBatch.delivery_count"])
    t.tagged({})
    t.end(None)


_TRACERS = {
    0: _trace_share_snapshot_value_kafka40_v0,
}


def trace_share_snapshot_value_kafka40(t, version: int) -> None:
    """Read one ShareSnapshotValueKafka40 of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"ShareSnapshotValueKafka40: unknown version {version} (this schema has versions 0)", t.pos
        )
    tracer(t)
