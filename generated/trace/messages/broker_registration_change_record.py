"""BrokerRegistrationChangeRecord, the tracing decoder: :func:`trace_broker_registration_change_record` reads one BrokerRegistrationChangeRecord of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/broker_registration_change_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "BrokerRegistrationChangeRecord"
VERSIONS = [0, 1, 2, 3]
#: the doc line of each structure and field
DOCS = {
    "BrokerRegistrationChangeRecord": "A registered broker changed state: fenced or unfenced, entering controlled shutdown, or its log directories.",
    "BrokerRegistrationChangeRecord.broker_id": "Node id of the broker.",
    "BrokerRegistrationChangeRecord.broker_epoch": "Epoch the controller gave this broker registration.",
    "BrokerRegistrationChangeRecord.fenced": "1 fenced, -1 unfenced, 0 (default) unchanged.",
    "BrokerRegistrationChangeRecord.in_controlled_shutdown": "1 when the broker entered controlled shutdown, 0 (default) unchanged.",
    "BrokerRegistrationChangeRecord.log_dirs": "The broker's usable log directories, when they changed.",
    "BrokerRegistrationChangeRecord.cordoned_log_dirs": "Ids of the broker's cordoned log directories (KIP-1066), when they changed; null when unchanged.",
}


def _trace_broker_registration_change_record_v0(t) -> None:
    t.begin("BrokerRegistrationChangeRecord", 0, DOCS["BrokerRegistrationChangeRecord"])
    t.integer("broker_id", "int32", DOCS["BrokerRegistrationChangeRecord.broker_id"])
    t.integer("broker_epoch", "int64", DOCS["BrokerRegistrationChangeRecord.broker_epoch"])
    t.tagged(
        {0: ("fenced", lambda t: t.integer("fenced", "int8", DOCS["BrokerRegistrationChangeRecord.fenced"]))}
    )
    t.end(None)


def _trace_broker_registration_change_record_v1(t) -> None:
    t.begin("BrokerRegistrationChangeRecord", 1, DOCS["BrokerRegistrationChangeRecord"])
    t.integer("broker_id", "int32", DOCS["BrokerRegistrationChangeRecord.broker_id"])
    t.integer("broker_epoch", "int64", DOCS["BrokerRegistrationChangeRecord.broker_epoch"])
    t.tagged(
        {
            0: (
                "fenced",
                lambda t: t.integer("fenced", "int8", DOCS["BrokerRegistrationChangeRecord.fenced"]),
            ),
            1: (
                "in_controlled_shutdown",
                lambda t: t.integer(
                    "in_controlled_shutdown",
                    "int8",
                    DOCS["BrokerRegistrationChangeRecord.in_controlled_shutdown"],
                ),
            ),
        }
    )
    t.end(None)


def _trace_broker_registration_change_record_v2(t) -> None:
    t.begin("BrokerRegistrationChangeRecord", 2, DOCS["BrokerRegistrationChangeRecord"])
    t.integer("broker_id", "int32", DOCS["BrokerRegistrationChangeRecord.broker_id"])
    t.integer("broker_epoch", "int64", DOCS["BrokerRegistrationChangeRecord.broker_epoch"])
    t.tagged(
        {
            0: (
                "fenced",
                lambda t: t.integer("fenced", "int8", DOCS["BrokerRegistrationChangeRecord.fenced"]),
            ),
            1: (
                "in_controlled_shutdown",
                lambda t: t.integer(
                    "in_controlled_shutdown",
                    "int8",
                    DOCS["BrokerRegistrationChangeRecord.in_controlled_shutdown"],
                ),
            ),
            2: (
                "log_dirs",
                lambda t: t.array(
                    "log_dirs",
                    "uuid",
                    DOCS["BrokerRegistrationChangeRecord.log_dirs"],
                    "compact",
                    lambda t: t.blob(
                        t.take_label(),
                        "uuid",
                        DOCS["BrokerRegistrationChangeRecord.log_dirs"],
                        "size",
                        size=16,
                    ),
                    min_size=16,
                ),
            ),
        }
    )
    t.end(None)


def _trace_broker_registration_change_record_v3(t) -> None:
    t.begin("BrokerRegistrationChangeRecord", 3, DOCS["BrokerRegistrationChangeRecord"])
    t.integer("broker_id", "int32", DOCS["BrokerRegistrationChangeRecord.broker_id"])
    t.integer("broker_epoch", "int64", DOCS["BrokerRegistrationChangeRecord.broker_epoch"])
    t.tagged(
        {
            0: (
                "fenced",
                lambda t: t.integer("fenced", "int8", DOCS["BrokerRegistrationChangeRecord.fenced"]),
            ),
            1: (
                "in_controlled_shutdown",
                lambda t: t.integer(
                    "in_controlled_shutdown",
                    "int8",
                    DOCS["BrokerRegistrationChangeRecord.in_controlled_shutdown"],
                ),
            ),
            2: (
                "log_dirs",
                lambda t: t.array(
                    "log_dirs",
                    "uuid",
                    DOCS["BrokerRegistrationChangeRecord.log_dirs"],
                    "compact",
                    lambda t: t.blob(
                        t.take_label(),
                        "uuid",
                        DOCS["BrokerRegistrationChangeRecord.log_dirs"],
                        "size",
                        size=16,
                    ),
                    min_size=16,
                ),
            ),
            3: (
                "cordoned_log_dirs",
                lambda t: t.array(
                    "cordoned_log_dirs",
                    "uuid",
                    DOCS["BrokerRegistrationChangeRecord.cordoned_log_dirs"],
                    "compact",
                    lambda t: t.blob(
                        t.take_label(),
                        "uuid",
                        DOCS["BrokerRegistrationChangeRecord.cordoned_log_dirs"],
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


_TRACERS = {
    0: _trace_broker_registration_change_record_v0,
    1: _trace_broker_registration_change_record_v1,
    2: _trace_broker_registration_change_record_v2,
    3: _trace_broker_registration_change_record_v3,
}


def trace_broker_registration_change_record(t, version: int) -> None:
    """Read one BrokerRegistrationChangeRecord of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"BrokerRegistrationChangeRecord: unknown version {version} (this schema has versions 0-3)", t.pos
        )
    tracer(t)
