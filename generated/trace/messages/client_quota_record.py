"""ClientQuotaRecord, the tracing decoder: :func:`trace_client_quota_record` reads one ClientQuotaRecord of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/client_quota_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "ClientQuotaRecord"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "ClientQuotaRecord": "A client quota of an entity (user, client id, ip, or a default) was set or removed.",
    "ClientQuotaRecord.entity": "The entity the quota applies to, one part per entity type.",
    "ClientQuotaRecord.key": "Quota name, such as producer_byte_rate.",
    "ClientQuotaRecord.value": "The quota's new value (ignored when removing).",
    "ClientQuotaRecord.remove": "True when the quota is removed rather than set.",
    "EntityData": "The entity the quota applies to, one part per entity type.",
    "EntityData.entity_type": "Entity type: user, client-id or ip.",
    "EntityData.entity_name": "Entity name, or null for the default entity of that type.",
}


def _trace_client_quota_record_v0(t) -> None:
    t.begin("ClientQuotaRecord", 0, DOCS["ClientQuotaRecord"])
    t.array(
        "entity",
        "EntityData",
        DOCS["ClientQuotaRecord.entity"],
        "compact",
        lambda t: t.nested(
            t.take_label(), "EntityData", DOCS["ClientQuotaRecord.entity"], _trace_entity_data_v0
        ),
        min_size=1,
    )
    t.blob("key", "string", DOCS["ClientQuotaRecord.key"], "compact")
    t.integer("value", "float64", DOCS["ClientQuotaRecord.value"])
    t.integer("remove", "bool", DOCS["ClientQuotaRecord.remove"])
    t.tagged({})
    t.end(None)


def _trace_entity_data_v0(t) -> None:
    t.begin("EntityData", 0, DOCS["EntityData"])
    t.blob("entity_type", "string", DOCS["EntityData.entity_type"], "compact")
    t.blob("entity_name", "string", DOCS["EntityData.entity_name"], "compact", nullable=True)
    t.tagged({})
    t.end(None)


_TRACERS = {
    0: _trace_client_quota_record_v0,
}


def trace_client_quota_record(t, version: int) -> None:
    """Read one ClientQuotaRecord of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(f"ClientQuotaRecord: unknown version {version} (this schema has versions 0)", t.pos)
    tracer(t)
