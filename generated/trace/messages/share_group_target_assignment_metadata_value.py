"""ShareGroupTargetAssignmentMetadataValue, the tracing decoder: :func:`trace_share_group_target_assignment_metadata_value` reads one ShareGroupTargetAssignmentMetadataValue of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/share_group_target_assignment_metadata_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "ShareGroupTargetAssignmentMetadataValue"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "ShareGroupTargetAssignmentMetadataValue": "The group epoch the share group (KIP-932)'s target assignment was computed for.",
    "ShareGroupTargetAssignmentMetadataValue.assignment_epoch": "The group epoch this target assignment was computed for.",
    "ShareGroupTargetAssignmentMetadataValue.assignment_timestamp": "When the computation of this target assignment finished (ms since the epoch; Kafka 4.3, KIP-1263), 0 when not written.",
}


def _trace_share_group_target_assignment_metadata_value_v0(t) -> None:
    t.begin("ShareGroupTargetAssignmentMetadataValue", 0, DOCS["ShareGroupTargetAssignmentMetadataValue"])
    t.integer("assignment_epoch", "int32", DOCS["ShareGroupTargetAssignmentMetadataValue.assignment_epoch"])
    t.tagged(
        {
            0: (
                "assignment_timestamp",
                lambda t: t.integer(
                    "assignment_timestamp",
                    "int64",
                    DOCS["ShareGroupTargetAssignmentMetadataValue.assignment_timestamp"],
                ),
            )
        }
    )
    t.end(None)


_TRACERS = {
    0: _trace_share_group_target_assignment_metadata_value_v0,
}


def trace_share_group_target_assignment_metadata_value(t, version: int) -> None:
    """Read one ShareGroupTargetAssignmentMetadataValue of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"ShareGroupTargetAssignmentMetadataValue: unknown version {version} (this schema has versions 0)",
            t.pos,
        )
    tracer(t)
