"""ConfigRecord, the tracing decoder: :func:`trace_config_record` reads one ConfigRecord of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/config_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "ConfigRecord"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "ConfigRecord": "One configuration key of a resource (topic, broker, ...) was set, or removed when the value is null.",
    "ConfigRecord.resource_type": "Kind of resource (2 topic, 4 broker, 8 broker logger, ...).",
    "ConfigRecord.resource_name": "Name of the resource (topic name, broker id, or empty for the cluster default).",
    "ConfigRecord.name": "Configuration key.",
    "ConfigRecord.value": "New value, or null when the key is removed.",
}


def _trace_config_record_v0(t) -> None:
    t.begin("ConfigRecord", 0, DOCS["ConfigRecord"])
    t.integer("resource_type", "int8", DOCS["ConfigRecord.resource_type"])
    t.blob("resource_name", "string", DOCS["ConfigRecord.resource_name"], "compact")
    t.blob("name", "string", DOCS["ConfigRecord.name"], "compact")
    t.blob("value", "string", DOCS["ConfigRecord.value"], "compact", nullable=True)
    t.tagged({})
    t.end(None)


_TRACERS = {
    0: _trace_config_record_v0,
}


def trace_config_record(t, version: int) -> None:
    """Read one ConfigRecord of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(f"ConfigRecord: unknown version {version} (this schema has versions 0)", t.pos)
    tracer(t)
