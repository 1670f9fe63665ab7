"""GroupMetadataKey, the tracing decoder: :func:`trace_group_metadata_key` reads one GroupMetadataKey of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/group_metadata_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "GroupMetadataKey"
VERSIONS = [2]
#: the doc line of each structure and field
DOCS = {
    "GroupMetadataKey": "The key of a classic group's metadata: the group id.",
    "GroupMetadataKey.group": "Group id.",
}


def _trace_group_metadata_key_v2(t) -> None:
    t.begin("GroupMetadataKey", 2, DOCS["GroupMetadataKey"])
    t.blob("group", "string", DOCS["GroupMetadataKey.group"], "int16")
    t.end(None)


_TRACERS = {
    2: _trace_group_metadata_key_v2,
}


def trace_group_metadata_key(t, version: int) -> None:
    """Read one GroupMetadataKey of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(f"GroupMetadataKey: unknown version {version} (this schema has versions 2)", t.pos)
    tracer(t)
