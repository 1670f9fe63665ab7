"""ShareUpdateValue, the tracing decoder: :func:`trace_share_update_value` reads one ShareUpdateValue of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/share_update_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "ShareUpdateValue"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "ShareUpdateValue": "A change to a share-partition's state since its last snapshot (KIP-932): the runs of offsets whose delivery state changed, merged into the state by the share coordinator. A null value (tombstone) deletes it.",
    "ShareUpdateValue.snapshot_epoch": "Snapshot epoch of the state this update applies to.",
    "ShareUpdateValue.leader_epoch": "Leader epoch of the partition when the update was written.",
    "ShareUpdateValue.start_offset": "New share-partition start offset, or -1 when the update leaves it as it is.",
    "ShareUpdateValue.delivery_complete_count": "How many offsets at or after the start offset are done with (Kafka 4.2+, KIP-1226), or -1.",
    "ShareUpdateValue.state_batches": "The runs of offsets whose delivery state changed.",
    "StateBatch": "A run of offsets in one delivery state.",
    "StateBatch.first_offset": "First offset of the run.",
    "StateBatch.last_offset": "Last offset of the run (inclusive).",
    "StateBatch.delivery_state": "Delivery state of its records: 0 available, 2 acknowledged, 4 archived.",
    "StateBatch.delivery_count": "How many times its records have been delivered.",
}


def _trace_share_update_value_v0(t) -> None:
    t.begin("ShareUpdateValue", 0, DOCS["ShareUpdateValue"])
    t.integer("snapshot_epoch", "int32", DOCS["ShareUpdateValue.snapshot_epoch"])
    t.integer("leader_epoch", "int32", DOCS["ShareUpdateValue.leader_epoch"])
    t.integer("start_offset", "int64", DOCS["ShareUpdateValue.start_offset"])
    t.array(
        "state_batches",
        "StateBatch",
        DOCS["ShareUpdateValue.state_batches"],
        "compact",
        lambda t: t.nested(
            t.take_label(), "StateBatch", DOCS["ShareUpdateValue.state_batches"], _trace_state_batch_v0
        ),
        min_size=1,
    )
    t.tagged(
        {
            0: (
                "delivery_complete_count",
                lambda t: t.integer(
                    "delivery_complete_count", "int32", DOCS["ShareUpdateValue.delivery_complete_count"]
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
    0: _trace_share_update_value_v0,
}


def trace_share_update_value(t, version: int) -> None:
    """Read one ShareUpdateValue of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(f"ShareUpdateValue: unknown version {version} (this schema has versions 0)", t.pos)
    tracer(t)
