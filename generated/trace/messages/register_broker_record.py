"""RegisterBrokerRecord, the tracing decoder: :func:`trace_register_broker_record` reads one RegisterBrokerRecord of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/register_broker_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "RegisterBrokerRecord"
VERSIONS = [0, 1, 2, 3, 4]
#: the doc line of each structure and field
DOCS = {
    "RegisterBrokerRecord": "A broker joined the cluster (or restarted): its id, incarnation, epoch, listeners, supported features and rack.",
    "RegisterBrokerRecord.broker_id": "Node id of the broker.",
    "RegisterBrokerRecord.is_migrating_zk_broker": "True for a ZooKeeper-mode broker taking part in a migration to KRaft.",
    "RegisterBrokerRecord.incarnation_id": "Random id of this run of the process: a new one at each start.",
    "RegisterBrokerRecord.broker_epoch": "Epoch the controller gave this broker registration.",
    "RegisterBrokerRecord.end_points": "The listeners clients and other brokers reach this broker on.",
    "RegisterBrokerRecord.features": "The feature level ranges this broker supports.",
    "RegisterBrokerRecord.rack": "The broker's rack, or null when none is configured.",
    "RegisterBrokerRecord.fenced": "True when the broker registers fenced (not yet serving).",
    "RegisterBrokerRecord.in_controlled_shutdown": "True when the broker is shutting down in a controlled way.",
    "RegisterBrokerRecord.log_dirs": "Ids of the broker's usable log directories.",
    "RegisterBrokerRecord.cordoned_log_dirs": "Ids of the log directories an operator cordoned (KIP-1066: no new partitions placed there); null until the broker first reports them.",
    "BrokerEndpoint": "The listeners clients and other brokers reach this broker on.",
    "BrokerEndpoint.name": "Listener name.",
    "BrokerEndpoint.host": "Host name or address.",
    "BrokerEndpoint.port": "TCP port.",
    "BrokerEndpoint.security_protocol": "Security protocol id (0 PLAINTEXT, 1 SSL, 2 SASL_PLAINTEXT, 3 SASL_SSL).",
    "BrokerFeature": "The feature level ranges this broker supports.",
    "BrokerFeature.name": "Feature name.",
    "BrokerFeature.min_supported_version": "Lowest feature level supported.",
    "BrokerFeature.max_supported_version": "Highest feature level supported.",
}


def _trace_register_broker_record_v0(t) -> None:
    t.begin("RegisterBrokerRecord", 0, DOCS["RegisterBrokerRecord"])
    t.integer("broker_id", "int32", DOCS["RegisterBrokerRecord.broker_id"])
    t.blob("incarnation_id", "uuid", DOCS["RegisterBrokerRecord.incarnation_id"], "size", size=16)
    t.integer("broker_epoch", "int64", DOCS["RegisterBrokerRecord.broker_epoch"])
    t.array(
        "end_points",
        "BrokerEndpoint",
        DOCS["RegisterBrokerRecord.end_points"],
        "compact",
        lambda t: t.nested(
            t.take_label(),
            "BrokerEndpoint",
            DOCS["RegisterBrokerRecord.end_points"],
            _trace_broker_endpoint_v0,
        ),
        min_size=1,
    )
    t.array(
        "features",
        "BrokerFeature",
        DOCS["RegisterBrokerRecord.features"],
        "compact",
        lambda t: t.nested(
            t.take_label(), "BrokerFeature", DOCS["RegisterBrokerRecord.features"], _trace_broker_feature_v0
        ),
        min_size=1,
    )
    t.blob("rack", "string", DOCS["RegisterBrokerRecord.rack"], "compact", nullable=True)
    t.integer("fenced", "bool", DOCS["RegisterBrokerRecord.fenced"])
    t.tagged({})
    t.end(None)


def _trace_broker_endpoint_v0(t) -> None:
    t.begin("BrokerEndpoint", 0, DOCS["BrokerEndpoint"])
    t.blob("name", "string", DOCS["BrokerEndpoint.name"], "compact")
    t.blob("host", "string", DOCS["BrokerEndpoint.host"], "compact")
    t.integer("port", "uint16", DOCS["BrokerEndpoint.port"])
    t.integer("security_protocol", "int16", DOCS["BrokerEndpoint.security_protocol"])
    t.tagged({})
    t.end(None)


def _trace_broker_feature_v0(t) -> None:
    t.begin("BrokerFeature", 0, DOCS["BrokerFeature"])
    t.blob("name", "string", DOCS["BrokerFeature.name"], "compact")
    t.integer("min_supported_version", "int16", DOCS["BrokerFeature.min_supported_version"])
    t.integer("max_supported_version", "int16", DOCS["BrokerFeature.max_supported_version"])
    t.tagged({})
    t.end(None)


def _trace_register_broker_record_v1(t) -> None:
    t.begin("RegisterBrokerRecord", 1, DOCS["RegisterBrokerRecord"])
    t.integer("broker_id", "int32", DOCS["RegisterBrokerRecord.broker_id"])
    t.blob("incarnation_id", "uuid", DOCS["RegisterBrokerRecord.incarnation_id"], "size", size=16)
    t.integer("broker_epoch", "int64", DOCS["RegisterBrokerRecord.broker_epoch"])
    t.array(
        "end_points",
        "BrokerEndpoint",
        DOCS["RegisterBrokerRecord.end_points"],
        "compact",
        lambda t: t.nested(
            t.take_label(),
            "BrokerEndpoint",
            DOCS["RegisterBrokerRecord.end_points"],
            _trace_broker_endpoint_v1,
        ),
        min_size=1,
    )
    t.array(
        "features",
        "BrokerFeature",
        DOCS["RegisterBrokerRecord.features"],
        "compact",
        lambda t: t.nested(
            t.take_label(), "BrokerFeature", DOCS["RegisterBrokerRecord.features"], _trace_broker_feature_v1
        ),
        min_size=1,
    )
    t.blob("rack", "string", DOCS["RegisterBrokerRecord.rack"], "compact", nullable=True)
    t.integer("fenced", "bool", DOCS["RegisterBrokerRecord.fenced"])
    t.integer("in_controlled_shutdown", "bool", DOCS["RegisterBrokerRecord.in_controlled_shutdown"])
    t.tagged({})
    t.end(None)


def _trace_broker_endpoint_v1(t) -> None:
    t.begin("BrokerEndpoint", 1, DOCS["BrokerEndpoint"])
    t.blob("name", "string", DOCS["BrokerEndpoint.name"], "compact")
    t.blob("host", "string", DOCS["BrokerEndpoint.host"], "compact")
    t.integer("port", "uint16", DOCS["BrokerEndpoint.port"])
    t.integer("security_protocol", "int16", DOCS["BrokerEndpoint.security_protocol"])
    t.tagged({})
    t.end(None)


def _trace_broker_feature_v1(t) -> None:
    t.begin("BrokerFeature", 1, DOCS["BrokerFeature"])
    t.blob("name", "string", DOCS["BrokerFeature.name"], "compact")
    t.integer("min_supported_version", "int16", DOCS["BrokerFeature.min_supported_version"])
    t.integer("max_supported_version", "int16", DOCS["BrokerFeature.max_supported_version"])
    t.tagged({})
    t.end(None)


def _trace_register_broker_record_v2(t) -> None:
    t.begin("RegisterBrokerRecord", 2, DOCS["RegisterBrokerRecord"])
    t.integer("broker_id", "int32", DOCS["RegisterBrokerRecord.broker_id"])
    t.integer("is_migrating_zk_broker", "bool", DOCS["RegisterBrokerRecord.is_migrating_zk_broker"])
    t.blob("incarnation_id", "uuid", DOCS["RegisterBrokerRecord.incarnation_id"], "size", size=16)
    t.integer("broker_epoch", "int64", DOCS["RegisterBrokerRecord.broker_epoch"])
    t.array(
        "end_points",
        "BrokerEndpoint",
        DOCS["RegisterBrokerRecord.end_points"],
        "compact",
        lambda t: t.nested(
            t.take_label(),
            "BrokerEndpoint",
            DOCS["RegisterBrokerRecord.end_points"],
            _trace_broker_endpoint_v2,
        ),
        min_size=1,
    )
    t.array(
        "features",
        "BrokerFeature",
        DOCS["RegisterBrokerRecord.features"],
        "compact",
        lambda t: t.nested(
            t.take_label(), "BrokerFeature", DOCS["RegisterBrokerRecord.features"], _trace_broker_feature_v2
        ),
        min_size=1,
    )
    t.blob("rack", "string", DOCS["RegisterBrokerRecord.rack"], "compact", nullable=True)
    t.integer("fenced", "bool", DOCS["RegisterBrokerRecord.fenced"])
    t.integer("in_controlled_shutdown", "bool", DOCS["RegisterBrokerRecord.in_controlled_shutdown"])
    t.tagged({})
    t.end(None)


def _trace_broker_endpoint_v2(t) -> None:
    t.begin("BrokerEndpoint", 2, DOCS["BrokerEndpoint"])
    t.blob("name", "string", DOCS["BrokerEndpoint.name"], "compact")
    t.blob("host", "string", DOCS["BrokerEndpoint.host"], "compact")
    t.integer("port", "uint16", DOCS["BrokerEndpoint.port"])
    t.integer("security_protocol", "int16", DOCS["BrokerEndpoint.security_protocol"])
    t.tagged({})
    t.end(None)


def _trace_broker_feature_v2(t) -> None:
    t.begin("BrokerFeature", 2, DOCS["BrokerFeature"])
    t.blob("name", "string", DOCS["BrokerFeature.name"], "compact")
    t.integer("min_supported_version", "int16", DOCS["BrokerFeature.min_supported_version"])
    t.integer("max_supported_version", "int16", DOCS["BrokerFeature.max_supported_version"])
    t.tagged({})
    t.end(None)


def _trace_register_broker_record_v3(t) -> None:
    t.begin("RegisterBrokerRecord", 3, DOCS["RegisterBrokerRecord"])
    t.integer("broker_id", "int32", DOCS["RegisterBrokerRecord.broker_id"])
    t.integer("is_migrating_zk_broker", "bool", DOCS["RegisterBrokerRecord.is_migrating_zk_broker"])
    t.blob("incarnation_id", "uuid", DOCS["RegisterBrokerRecord.incarnation_id"], "size", size=16)
    t.integer("broker_epoch", "int64", DOCS["RegisterBrokerRecord.broker_epoch"])
    t.array(
        "end_points",
        "BrokerEndpoint",
        DOCS["RegisterBrokerRecord.end_points"],
        "compact",
        lambda t: t.nested(
            t.take_label(),
            "BrokerEndpoint",
            DOCS["RegisterBrokerRecord.end_points"],
            _trace_broker_endpoint_v3,
        ),
        min_size=1,
    )
    t.array(
        "features",
        "BrokerFeature",
        DOCS["RegisterBrokerRecord.features"],
        "compact",
        lambda t: t.nested(
            t.take_label(), "BrokerFeature", DOCS["RegisterBrokerRecord.features"], _trace_broker_feature_v3
        ),
        min_size=1,
    )
    t.blob("rack", "string", DOCS["RegisterBrokerRecord.rack"], "compact", nullable=True)
    t.integer("fenced", "bool", DOCS["RegisterBrokerRecord.fenced"])
    t.integer("in_controlled_shutdown", "bool", DOCS["RegisterBrokerRecord.in_controlled_shutdown"])
    t.tagged(
        {
            0: (
                "log_dirs",
                lambda t: t.array(
                    "log_dirs",
                    "uuid",
                    DOCS["RegisterBrokerRecord.log_dirs"],
                    "compact",
                    lambda t: t.blob(
                        t.take_label(), "uuid", DOCS["RegisterBrokerRecord.log_dirs"], "size", size=16
                    ),
                    min_size=16,
                ),
            )
        }
    )
    t.end(None)


def _trace_broker_endpoint_v3(t) -> None:
    t.begin("BrokerEndpoint", 3, DOCS["BrokerEndpoint"])
    t.blob("name", "string", DOCS["BrokerEndpoint.name"], "compact")
    t.blob("host", "string", DOCS["BrokerEndpoint.host"], "compact")
    t.integer("port", "uint16", DOCS["BrokerEndpoint.port"])
    t.integer("security_protocol", "int16", DOCS["BrokerEndpoint.security_protocol"])
    t.tagged({})
    t.end(None)


def _trace_broker_feature_v3(t) -> None:
    t.begin("BrokerFeature", 3, DOCS["BrokerFeature"])
    t.blob("name", "string", DOCS["BrokerFeature.name"], "compact")
    t.integer("min_supported_version", "int16", DOCS["BrokerFeature.min_supported_version"])
    t.integer("max_supported_version", "int16", DOCS["BrokerFeature.max_supported_version"])
    t.tagged({})
    t.end(None)


def _trace_register_broker_record_v4(t) -> None:
    t.begin("RegisterBrokerRecord", 4, DOCS["RegisterBrokerRecord"])
    t.integer("broker_id", "int32", DOCS["RegisterBrokerRecord.broker_id"])
    t.integer("is_migrating_zk_broker", "bool", DOCS["RegisterBrokerRecord.is_migrating_zk_broker"])
    t.blob("incarnation_id", "uuid", DOCS["RegisterBrokerRecord.incarnation_id"], "size", size=16)
    t.integer("broker_epoch", "int64", DOCS["RegisterBrokerRecord.broker_epoch"])
    t.array(
        "end_points",
        "BrokerEndpoint",
        DOCS["RegisterBrokerRecord.end_points"],
        "compact",
        lambda t: t.nested(
            t.take_label(),
            "BrokerEndpoint",
            DOCS["RegisterBrokerRecord.end_points"],
            _trace_broker_endpoint_v4,
        ),
        min_size=1,
    )
    t.array(
        "features",
        "BrokerFeature",
        DOCS["RegisterBrokerRecord.features"],
        "compact",
        lambda t: t.nested(
            t.take_label(), "BrokerFeature", DOCS["RegisterBrokerRecord.features"], _trace_broker_feature_v4
        ),
        min_size=1,
    )
    t.blob("rack", "string", DOCS["RegisterBrokerRecord.rack"], "compact", nullable=True)
    t.integer("fenced", "bool", DOCS["RegisterBrokerRecord.fenced"])
    t.integer("in_controlled_shutdown", "bool", DOCS["RegisterBrokerRecord.in_controlled_shutdown"])
    t.tagged(
        {
            0: (
                "log_dirs",
                lambda t: t.array(
                    "log_dirs",
                    "uuid",
                    DOCS["RegisterBrokerRecord.log_dirs"],
                    "compact",
                    lambda t: t.blob(
                        t.take_label(), "uuid", DOCS["RegisterBrokerRecord.log_dirs"], "size", size=16
                    ),
                    min_size=16,
                ),
            ),
            1: (
                "cordoned_log_dirs",
                lambda t: t.array(
                    "cordoned_log_dirs",
                    "uuid",
                    DOCS["RegisterBrokerRecord.cordoned_log_dirs"],
                    "compact",
                    lambda t: t.blob(
                        t.take_label(),
                        "uuid",
                        DOCS["RegisterBrokerRecord.cordoned_log_dirs"],
                        "size",
                        size=16,
                    ),
                    min_size=16,
                    nullable=True,
                ),
            ),
        }
    )
    t.end(None)


def _trace_broker_endpoint_v4(t) -> None:
    t.begin("BrokerEndpoint", 4, DOCS["BrokerEndpoint"])
    t.blob("name", "string", DOCS["BrokerEndpoint.name"], "compact")
    t.blob("host", "string", DOCS["BrokerEndpoint.host"], "compact")
    t.integer("port", "uint16", DOCS["BrokerEndpoint.port"])
    t.integer("security_protocol", "int16", DOCS["BrokerEndpoint.security_protocol"])
    t.tagged({})
    t.end(None)


def _trace_broker_feature_v4(t) -> None:
    t.begin("BrokerFeature", 4, DOCS["BrokerFeature"])
    t.blob("name", "string", DOCS["BrokerFeature.name"], "compact")
    t.integer("min_supported_version", "int16", DOCS["BrokerFeature.min_supported_version"])
    t.integer("max_supported_version", "int16", DOCS["BrokerFeature.max_supported_version"])
    t.tagged({})
    t.end(None)


_TRACERS = {
    0: _trace_register_broker_record_v0,
    1: _trace_register_broker_record_v1,
    2: _trace_register_broker_record_v2,
    3: _trace_register_broker_record_v3,
    4: _trace_register_broker_record_v4,
}


def trace_register_broker_record(t, version: int) -> None:
    """Read one RegisterBrokerRecord of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(f"RegisterBrokerRecord: unknown version {version} (this schema has versions 0-4)", t.pos)
    tracer(t)
