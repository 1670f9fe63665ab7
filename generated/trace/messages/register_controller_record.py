"""RegisterControllerRecord, the tracing decoder: :func:`trace_register_controller_record` reads one RegisterControllerRecord of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/register_controller_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "RegisterControllerRecord"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "RegisterControllerRecord": "A controller registered: its id, incarnation, listeners and supported features.",
    "RegisterControllerRecord.controller_id": "Node id of the controller.",
    "RegisterControllerRecord.incarnation_id": "Random id of this run of the process: a new one at each start.",
    "RegisterControllerRecord.zk_migration_ready": "True when the controller is configured for a ZooKeeper migration.",
    "RegisterControllerRecord.end_points": "The listeners the controller is reached on.",
    "RegisterControllerRecord.features": "The feature level ranges this controller supports.",
    "ControllerEndpoint": "The listeners the controller is reached on.",
    "ControllerEndpoint.name": "Listener name.",
    "ControllerEndpoint.host": "Host name or address.",
    "ControllerEndpoint.port": "TCP port.",
    "ControllerEndpoint.security_protocol": "Security protocol id (0 PLAINTEXT, 1 SSL, 2 SASL_PLAINTEXT, 3 SASL_SSL).",
    "ControllerFeature": "The feature level ranges this controller supports.",
    "ControllerFeature.name": "Feature name.",
    "ControllerFeature.min_supported_version": "Lowest feature level supported.",
    "ControllerFeature.max_supported_version": "Highest feature level supported.",
}


def _trace_register_controller_record_v0(t) -> None:
    t.begin("RegisterControllerRecord", 0, DOCS["RegisterControllerRecord"])
    t.integer("controller_id", "int32", DOCS["RegisterControllerRecord.controller_id"])
    t.blob("incarnation_id", "uuid", DOCS["RegisterControllerRecord.incarnation_id"], "size", size=16)
    t.integer("zk_migration_ready", "bool", DOCS["RegisterControllerRecord.zk_migration_ready"])
    t.array(
        "end_points",
        "ControllerEndpoint",
        DOCS["RegisterControllerRecord.end_points"],
        "compact",
        lambda t: t.nested(
            t.take_label(),
            "ControllerEndpoint",
            DOCS["RegisterControllerRecord.end_points"],
            _trace_controller_endpoint_v0,
        ),
        min_size=1,
    )
    t.array(
        "features",
        "ControllerFeature",
        DOCS["RegisterControllerRecord.features"],
        "compact",
        lambda t: t.nested(
            t.take_label(),
            "ControllerFeature",
            DOCS["RegisterControllerRecord.features"],
            _trace_controller_feature_v0,
        ),
        min_size=1,
    )
    t.tagged({})
    t.end(None)


def _trace_controller_endpoint_v0(t) -> None:
    t.begin("ControllerEndpoint", 0, DOCS["ControllerEndpoint"])
    t.blob("name", "string", DOCS["ControllerEndpoint.name"], "compact")
    t.blob("host", "string", DOCS["ControllerEndpoint.host"], "compact")
    t.integer("port", "uint16", DOCS["ControllerEndpoint.port"])
    t.integer("security_protocol", "int16", DOCS["ControllerEndpoint.security_protocol"])
    t.tagged({})
    t.end(None)


def _trace_controller_feature_v0(t) -> None:
    t.begin("ControllerFeature", 0, DOCS["ControllerFeature"])
    t.blob("name", "string", DOCS["ControllerFeature.name"], "compact")
    t.integer("min_supported_version", "int16", DOCS["ControllerFeature.min_supported_version"])
    t.integer("max_supported_version", "int16", DOCS["ControllerFeature.max_supported_version"])
    t.tagged({})
    t.end(None)


_TRACERS = {
    0: _trace_register_controller_record_v0,
}


def trace_register_controller_record(t, version: int) -> None:
    """Read one RegisterControllerRecord of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"RegisterControllerRecord: unknown version {version} (this schema has versions 0)", t.pos
        )
    tracer(t)
