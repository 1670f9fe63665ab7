"""RemoveDelegationTokenRecord, the tracing decoder: :func:`trace_remove_delegation_token_record` reads one RemoveDelegationTokenRecord of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/remove_delegation_token_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "RemoveDelegationTokenRecord"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "RemoveDelegationTokenRecord": "A delegation token was expired or deleted.",
    "RemoveDelegationTokenRecord.token_id": "Id of the removed token.",
}


def _trace_remove_delegation_token_record_v0(t) -> None:
    t.begin("RemoveDelegationTokenRecord", 0, DOCS["RemoveDelegationTokenRecord"])
    t.blob("token_id", "string", DOCS["RemoveDelegationTokenRecord.token_id"], "compact")
    t.tagged({})
    t.end(None)


_TRACERS = {
    0: _trace_remove_delegation_token_record_v0,
}


def trace_remove_delegation_token_record(t, version: int) -> None:
    """Read one RemoveDelegationTokenRecord of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"RemoveDelegationTokenRecord: unknown version {version} (this schema has versions 0)", t.pos
        )
    tracer(t)
