"""ZkMigrationStateRecord, the tracing decoder: :func:`trace_zk_migration_state_record` reads one ZkMigrationStateRecord of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/zk_migration_state_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "ZkMigrationStateRecord"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "ZkMigrationStateRecord": "The state of a ZooKeeper to KRaft migration.",
    "ZkMigrationStateRecord.zk_migration_state": "Migration state (0 none, 1 pre-migration, 2 migration, 3 post-migration).",
}


def _trace_zk_migration_state_record_v0(t) -> None:
    t.begin("ZkMigrationStateRecord", 0, DOCS["ZkMigrationStateRecord"])
    t.integer("zk_migration_state", "int8", DOCS["ZkMigrationStateRecord.zk_migration_state"])
    t.tagged({})
    t.end(None)


_TRACERS = {
    0: _trace_zk_migration_state_record_v0,
}


def trace_zk_migration_state_record(t, version: int) -> None:
    """Read one ZkMigrationStateRecord of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(f"ZkMigrationStateRecord: unknown version {version} (this schema has versions 0)", t.pos)
    tracer(t)
