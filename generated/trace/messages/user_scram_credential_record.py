"""UserScramCredentialRecord, the tracing decoder: :func:`trace_user_scram_credential_record` reads one UserScramCredentialRecord of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/user_scram_credential_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "UserScramCredentialRecord"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "UserScramCredentialRecord": "A SCRAM credential of a user was set.",
    "UserScramCredentialRecord.name": "User name.",
    "UserScramCredentialRecord.mechanism": "SCRAM mechanism (1 SCRAM-SHA-256, 2 SCRAM-SHA-512).",
    "UserScramCredentialRecord.salt": "Salt the client generated.",
    "UserScramCredentialRecord.stored_key": "Key the server authenticates the client with.",
    "UserScramCredentialRecord.server_key": "Key the client checks the server with.",
    "UserScramCredentialRecord.iterations": "Number of hash iterations.",
}


def _trace_user_scram_credential_record_v0(t) -> None:
    t.begin("UserScramCredentialRecord", 0, DOCS["UserScramCredentialRecord"])
    t.blob("name", "string", DOCS["UserScramCredentialRecord.name"], "compact")
    t.integer("mechanism", "int8", DOCS["UserScramCredentialRecord.mechanism"])
    t.blob("salt", "bytes", DOCS["UserScramCredentialRecord.salt"], "compact")
    t.blob("stored_key", "bytes", DOCS["UserScramCredentialRecord.stored_key"], "compact")
    t.blob("server_key", "bytes", DOCS["UserScramCredentialRecord.server_key"], "compact")
    t.integer("iterations", "int32", DOCS["UserScramCredentialRecord.iterations"])
    t.tagged({})
    t.end(None)


_TRACERS = {
    0: _trace_user_scram_credential_record_v0,
}


def trace_user_scram_credential_record(t, version: int) -> None:
    """Read one UserScramCredentialRecord of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"UserScramCredentialRecord: unknown version {version} (this schema has versions 0)", t.pos
        )
    tracer(t)
