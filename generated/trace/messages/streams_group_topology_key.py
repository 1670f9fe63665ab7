"""StreamsGroupTopologyKey, the tracing decoder: :func:`trace_streams_group_topology_key` reads one StreamsGroupTopologyKey of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/streams_group_topology_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "StreamsGroupTopologyKey"
VERSIONS = [23]
#: the doc line of each structure and field
DOCS = {
    "StreamsGroupTopologyKey": "The key of a streams group's topology (KIP-1071): the group id.",
    "StreamsGroupTopologyKey.group_id": "Group id.",
}


def _trace_streams_group_topology_key_v23(t) -> None:
    t.begin("StreamsGroupTopologyKey", 23, DOCS["StreamsGroupTopologyKey"])
    t.blob("group_id", "string", DOCS["StreamsGroupTopologyKey.group_id"], "int16")
    t.end(None)


_TRACERS = {
    23: _trace_streams_group_topology_key_v23,
}


def trace_streams_group_topology_key(t, version: int) -> None:
    """Read one StreamsGroupTopologyKey of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"StreamsGroupTopologyKey: unknown version {version} (this schema has versions 23)", t.pos
        )
    tracer(t)
