"""VotersRecord, the tracing decoder: :func:`trace_voters_record` reads one VotersRecord of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/voters_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "VotersRecord"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "VotersRecord": "The value of a KRAFT_VOTERS control record: the set of voters of the KRaft quorum from this offset on, with how to reach each (KIP-853 dynamic quorums).",
    "VotersRecord.version": "The version of this value, stored as data.",
    "VotersRecord.voters": "Every voter of the quorum.",
    "Voter": "Every voter of the quorum.",
    "Voter.voter_id": "Node id of the voter.",
    "Voter.voter_directory_id": "Id of the log directory holding the voter's copy of the metadata log.",
    "Voter.endpoints": "The listeners other voters reach this one on.",
    "Voter.kraft_version_feature": "The range of kraft.version levels the voter supports.",
    "Endpoint": "The listeners other voters reach this one on.",
    "Endpoint.name": "Listener name.",
    "Endpoint.host": "Host name or address.",
    "Endpoint.port": "TCP port.",
    "KRaftVersionFeature": "The range of kraft.version levels the voter supports.",
    "KRaftVersionFeature.min_supported_version": "Lowest supported KRaft protocol version.",
    "KRaftVersionFeature.max_supported_version": "Highest supported KRaft protocol version.",
}


def _trace_voters_record_v0(t) -> None:
    t.begin("VotersRecord", 0, DOCS["VotersRecord"])
    t.integer("version", "int16", DOCS["VotersRecord.version"])
    t.array(
        "voters",
        "Voter",
        DOCS["VotersRecord.voters"],
        "compact",
        lambda t: t.nested(t.take_label(), "Voter", DOCS["VotersRecord.voters"], _trace_voter_v0),
        min_size=1,
    )
    t.tagged({})
    t.end(None)


def _trace_voter_v0(t) -> None:
    t.begin("Voter", 0, DOCS["Voter"])
    t.integer("voter_id", "int32", DOCS["Voter.voter_id"])
    t.blob("voter_directory_id", "uuid", DOCS["Voter.voter_directory_id"], "size", size=16)
    t.array(
        "endpoints",
        "Endpoint",
        DOCS["Voter.endpoints"],
        "compact",
        lambda t: t.nested(t.take_label(), "Endpoint", DOCS["Voter.endpoints"], _trace_endpoint_v0),
        min_size=1,
    )
    t.nested(
        "kraft_version_feature",
        "KRaftVersionFeature",
        DOCS["Voter.kraft_version_feature"],
        _trace_kraft_version_feature_v0,
    )
    t.tagged({})
    t.end(None)


def _trace_endpoint_v0(t) -> None:
    t.begin("Endpoint", 0, DOCS["Endpoint"])
    t.blob("name", "string", DOCS["Endpoint.name"], "compact")
    t.blob("host", "string", DOCS["Endpoint.host"], "compact")
    t.integer("port", "uint16", DOCS["Endpoint.port"])
    t.tagged({})
    t.end(None)


def _trace_kraft_version_feature_v0(t) -> None:
    t.begin("KRaftVersionFeature", 0, DOCS["KRaftVersionFeature"])
    t.integer("min_supported_version", "int16", DOCS["KRaftVersionFeature.min_supported_version"])
    t.integer("max_supported_version", "int16", DOCS["KRaftVersionFeature.max_supported_version"])
    t.tagged({})
    t.end(None)


_TRACERS = {
    0: _trace_voters_record_v0,
}


def trace_voters_record(t, version: int) -> None:
    """Read one VotersRecord of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(f"VotersRecord: unknown version {version} (this schema has versions 0)", t.pos)
    tracer(t)
