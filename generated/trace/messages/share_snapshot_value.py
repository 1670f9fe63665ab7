"""ShareSnapshotValue, the tracing decoder: :func:`trace_share_snapshot_value` reads one ShareSnapshotValue of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/share_snapshot_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "ShareSnapshotValue"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "ShareSnapshotValue": "The full state of a share-partition (KIP-932): its start offset and the delivery state of the offsets after it. Replaces what earlier snapshots and updates said; a null value (tombstone) deletes it.",
    "ShareSnapshotValue.snapshot_epoch": "Snapshot epoch: bumped at every snapshot of this share-partition.",
    "ShareSnapshotValue.state_epoch": "State epoch of the share-partition: bumped when its state is initialized again.",
    "ShareSnapshotValue.leader_epoch": "Leader epoch of the partition when the state was written.",
    "ShareSnapshotValue.start_offset": "Share-partition start offset: every offset below it is done with.",
    "ShareSnapshotValue.delivery_complete_count": "How many offsets at or after the start offset are done with (Kafka 4.2+, KIP-1226), or -1.",
    "ShareSnapshotValue.create_timestamp": "When the state was created (ms).",
    "ShareSnapshotValue.write_timestamp": "When the state was written, or written again (ms).",
    "ShareSnapshotValue.state_batches": "The delivery state of the offsets at or after the start offset, run by run.",
    "StateBatch": "A run of offsets in one delivery state.",
    "StateBatch.first_offset": "First offset of the run.",
    "StateBatch.last_offset": "Last offset of the run (inclusive).",
    "StateBatch.delivery_state": "Delivery state of its records: 0 available, 2 acknowledged, 4 archived.",
    "StateBatch.delivery_count": "How many times its records have been delivered.",
}


def _trace_share_snapshot_value_v0(t) -> None:
    t.begin("ShareSnapshotValue", 0, DOCS["ShareSnapshotValue"])
    t.integer("snapshot_epoch", "int32", DOCS["ShareSnapshotValue.snapshot_epoch"])
    t.integer("state_epoch", "int32", DOCS["ShareSnapshotValue.state_epoch"])
    t.integer("leader_epoch", "int32", DOCS["ShareSnapshotValue.leader_epoch"])
    t.integer("start_offset", "int64", DOCS["ShareSnapshotValue.start_offset"])
    t.integer("create_timestamp", "int64", DOCS["ShareSnapshotValue.create_timestamp"])
    t.integer("write_timestamp", "int64", DOCS["ShareSnapshotValue.write_timestamp"])
    t.array(
        "state_batches",
        "StateBatch",
        DOCS["ShareSnapshotValue.state_batches"],
        "compact",
        lambda t: t.nested(
            t.take_label(), "StateBatch", DOCS["ShareSnapshotValue.state_batches"], _trace_state_batch_v0
        ),
        min_size=1,
    )
    t.tagged(
        {
            0: (
                "delivery_complete_count",
                lambda t: t.integer(
                    "delivery_complete_count", "int32", DOCS["ShareSnapshotValue.delivery_complete_count"]
                ),
            )
        }
    )
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
    0: _trace_share_snapshot_value_v0,
}


def trace_share_snapshot_value(t, version: int) -> None:
    """Read one ShareSnapshotValue of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(f"ShareSnapshotValue: unknown version {version} (this schema has versions 0)", t.pos)
    tracer(t)
