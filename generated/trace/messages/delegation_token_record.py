"""DelegationTokenRecord, the tracing decoder: :func:`trace_delegation_token_record` reads one DelegationTokenRecord of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/delegation_token_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "DelegationTokenRecord"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "DelegationTokenRecord": "A delegation token was created or renewed.",
    "DelegationTokenRecord.owner": "Principal owning the token.",
    "DelegationTokenRecord.requester": "Principal that asked for the token.",
    "DelegationTokenRecord.renewers": "Principals allowed to renew the token.",
    "DelegationTokenRecord.issue_timestamp": "When the token was issued (ms).",
    "DelegationTokenRecord.max_timestamp": "Time after which the token can no longer be renewed (ms).",
    "DelegationTokenRecord.expiration_timestamp": "When the token expires unless renewed (ms).",
    "DelegationTokenRecord.token_id": "Token id.",
}


def _trace_delegation_token_record_v0(t) -> None:
    t.begin("DelegationTokenRecord", 0, DOCS["DelegationTokenRecord"])
    t.blob("owner", "string", DOCS["DelegationTokenRecord.owner"], "compact")
    t.blob("requester", "string", DOCS["DelegationTokenRecord.requester"], "compact")
    t.array(
        "renewers",
        "string",
        DOCS["DelegationTokenRecord.renewers"],
        "compact",
        lambda t: t.blob(t.take_label(), "string", DOCS["DelegationTokenRecord.renewers"], "compact"),
        min_size=1,
    )
    t.integer("issue_timestamp", "int64", DOCS["DelegationTokenRecord.issue_timestamp"])
    t.integer("max_timestamp", "int64", DOCS["DelegationTokenRecord.max_timestamp"])
    t.integer("expiration_timestamp", "int64", DOCS["DelegationTokenRecord.expiration_timestamp"])
    t.blob("token_id", "string", DOCS["DelegationTokenRecord.token_id"], "compact")
    t.tagged({})
    t.end(None)


_TRACERS = {
    0: _trace_delegation_token_record_v0,
}


def trace_delegation_token_record(t, version: int) -> None:
    """Read one DelegationTokenRecord of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(f"DelegationTokenRecord: unknown version {version} (this schema has versions 0)", t.pos)
    tracer(t)
