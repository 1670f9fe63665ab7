"""LeaderChangeMessage, the tracing decoder: :func:`trace_leader_change_message` reads one LeaderChangeMessage of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/leader_change_message.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "LeaderChangeMessage"
VERSIONS = [0, 1]
#: the doc line of each structure and field
DOCS = {
    "LeaderChangeMessage": "The value of a LEADER_CHANGE control record: who won the election of a KRaft epoch and which voters it knew of. Version 1 (KIP-853) adds each voter's directory id.",
    "LeaderChangeMessage.version": "The version of this value, stored as data (readers decode it as version 0).",
    "LeaderChangeMessage.leader_id": "Node id of the leader elected for this epoch.",
    "LeaderChangeMessage.voters": "Every voter of the quorum in this epoch.",
    "LeaderChangeMessage.granting_voters": "The voters whose votes elected the leader.",
    "Voter": "One voter of the quorum.",
    "Voter.voter_id": "Node id of the voter.",
    "Voter.voter_directory_id": "Id of the log directory the voter stores the metadata log in (KIP-853).",
}


def _trace_leader_change_message_v0(t) -> None:
    t.begin("LeaderChangeMessage", 0, DOCS["LeaderChangeMessage"])
    t.integer("version", "int16", DOCS["LeaderChangeMessage.version"])
    t.integer("leader_id", "int32", DOCS["LeaderChangeMessage.leader_id"])
    t.array(
        "voters",
        "Voter",
        DOCS["LeaderChangeMessage.voters"],
        "compact",
        lambda t: t.nested(t.take_label(), "Voter", DOCS["LeaderChangeMessage.voters"], _trace_voter_v0),
        min_size=1,
    )
    t.array(
        "granting_voters",
        "Voter",
        DOCS["LeaderChangeMessage.granting_voters"],
        "compact",
        lambda t: t.nested(
            t.take_label(), "Voter", DOCS["LeaderChangeMessage.granting_voters"], _trace_voter_v0
        ),
        min_size=1,
    )
    t.tagged({})
    t.end(None)


def _trace_voter_v0(t) -> None:
    t.begin("Voter", 0, DOCS["Voter"])
    t.integer("voter_id", "int32", DOCS["Voter.voter_id"])
    t.tagged({})
    t.end(None)


def _trace_leader_change_message_v1(t) -> None:
    t.begin("LeaderChangeMessage", 1, DOCS["LeaderChangeMessage"])
    t.integer("version", "int16", DOCS["LeaderChangeMessage.version"])
    t.integer("leader_id", "int32", DOCS["LeaderChangeMessage.leader_id"])
    t.array(
        "voters",
        "Voter",
        DOCS["LeaderChangeMessage.voters"],
        "compact",
        lambda t: t.nested(t.take_label(), "Voter", DOCS["LeaderChangeMessage.voters"], _trace_voter_v1),
        min_size=1,
    )
    t.array(
        "granting_voters",
        "Voter",
        DOCS["LeaderChangeMessage.granting_voters"],
        "compact",
        lambda t: t.nested(
            t.take_label(), "Voter", DOCS["LeaderChangeMessage.granting_voters"], _trace_voter_v1
        ),
        min_size=1,
    )
    t.tagged({})
    t.end(None)


def _trace_voter_v1(t) -> None:
    t.begin("Voter", 1, DOCS["Voter"])
    t.integer("voter_id", "int32", DOCS["Voter.voter_id"])
    t.blob("voter_directory_id", "uuid", DOCS["Voter.voter_directory_id"], "size", size=16)
    t.tagged({})
    t.end(None)


_TRACERS = {
    0: _trace_leader_change_message_v0,
    1: _trace_leader_change_message_v1,
}


def trace_leader_change_message(t, version: int) -> None:
    """Read one LeaderChangeMessage of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(f"LeaderChangeMessage: unknown version {version} (this schema has versions 0-1)", t.pos)
    tracer(t)
