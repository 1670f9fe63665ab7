"""RemoveUserScramCredentialRecord, the tracing decoder: :func:`trace_remove_user_scram_credential_record` reads one RemoveUserScramCredentialRecord of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/remove_user_scram_credential_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "RemoveUserScramCredentialRecord"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "RemoveUserScramCredentialRecord": "A SCRAM credential of a user was removed.",
    "RemoveUserScramCredentialRecord.name": "User name.",
    "RemoveUserScramCredentialRecord.mechanism": "SCRAM mechanism of the removed credential.",
}


def _trace_remove_user_scram_credential_record_v0(t) -> None:
    t.begin("RemoveUserScramCredentialRecord", 0, DOCS["RemoveUserScramCredentialRecord"])
    t.blob("name", "string", DOCS["RemoveUserScramCredentialRecord.name"], "compact")
    t.integer("mechanism", "int8", DOCS["RemoveUserScramCredentialRecord.mechanism"])
    t.tagged({})
    t.end(None)


_TRACERS = {
    0: _trace_remove_user_scram_credential_record_v0,
}


def trace_remove_user_scram_credential_record(t, version: int) -> None:
    """Read one RemoveUserScramCredentialRecord of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"RemoveUserScramCredentialRecord: unknown version {version} (this schema has versions 0)", t.pos
        )
    tracer(t)
