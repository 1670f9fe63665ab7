"""FeatureLevelRecord, the tracing decoder: :func:`trace_feature_level_record` reads one FeatureLevelRecord of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/feature_level_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "FeatureLevelRecord"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "FeatureLevelRecord": "The finalized level of one cluster feature (metadata.version, kraft.version, ...).",
    "FeatureLevelRecord.name": "Feature name, such as metadata.version.",
    "FeatureLevelRecord.feature_level": "The finalized level; 0 means the feature is off.",
}


def _trace_feature_level_record_v0(t) -> None:
    t.begin("FeatureLevelRecord", 0, DOCS["FeatureLevelRecord"])
    t.blob("name", "string", DOCS["FeatureLevelRecord.name"], "compact")
    t.integer("feature_level", "int16", DOCS["FeatureLevelRecord.feature_level"])
    t.tagged({})
    t.end(None)


_TRACERS = {
    0: _trace_feature_level_record_v0,
}


def trace_feature_level_record(t, version: int) -> None:
    """Read one FeatureLevelRecord of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(f"FeatureLevelRecord: unknown version {version} (this schema has versions 0)", t.pos)
    tracer(t)
