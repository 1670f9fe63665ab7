"""ConsumerGroupTargetAssignmentMetadataValue, the tracing decoder: :func:`trace_consumer_group_target_assignment_metadata_value` reads one ConsumerGroupTargetAssignmentMetadataValue of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/consumer_group_target_assignment_metadata_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "ConsumerGroupTargetAssignmentMetadataValue"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "ConsumerGroupTargetAssignmentMetadataValue": "The group epoch the consumer group (KIP-848)'s target assignment was computed for.",
    "ConsumerGroupTargetAssignmentMetadataValue.assignment_epoch": "The group epoch this target assignment was computed for.",
    "ConsumerGroupTargetAssignmentMetadataValue.assignment_timestamp": "When the computation of this target assignment finished (ms since the epoch; Kafka 4.3, KIP-1263), 0 when not written.",
}


def _trace_consumer_group_target_assignment_metadata_value_v0(t) -> None:
    t.begin(
        "ConsumerGroupTargetAssignmentMetadataValue", 0, DOCS["ConsumerGroupTargetAssignmentMetadataValue"]
    )
    t.integer(
        "assignment_epoch", "int32", DOCS["ConsumerGroupTargetAssignmentMetadataValue.assignment_epoch"]
    )
    t.tagged(
        {
            0: (
                "assignment_timestamp",
                lambda t: t.integer(
                    "assignment_timestamp",
                    "int64",
                    DOCS["ConsumerGroupTargetAssignmentMetadataValue.assignment_timestamp"],
                ),
            )
        }
    )
    t.end(None)


_TRACERS = {
    0: _trace_consumer_group_target_assignment_metadata_value_v0,
}


def trace_consumer_group_target_assignment_metadata_value(t, version: int) -> None:
    """Read one ConsumerGroupTargetAssignmentMetadataValue of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"ConsumerGroupTargetAssignmentMetadataValue: unknown version {version} (this schema has versions 0)",
            t.pos,
        )
    tracer(t)
