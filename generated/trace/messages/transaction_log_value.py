"""TransactionLogValue, the tracing decoder: :func:`trace_transaction_log_value` reads one TransactionLogValue of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/transaction_log_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "TransactionLogValue"
VERSIONS = [0, 1]
#: the doc line of each structure and field
DOCS = {
    "TransactionLogValue": "The state of one transactional id: producer id and epoch, timeout, status and the partitions of the open transaction.",
    "TransactionLogValue.producer_id": "Producer id currently used by the transactional id.",
    "TransactionLogValue.previous_producer_id": "Producer id of the last committed transaction, or -1.",
    "TransactionLogValue.next_producer_id": "Producer id most recently handed to the producer for this transactional id, or -1.",
    "TransactionLogValue.producer_epoch": "Epoch of the producer id.",
    "TransactionLogValue.next_producer_epoch": "The producer epoch that goes with next_producer_id (Kafka 4.1+), or -1.",
    "TransactionLogValue.transaction_timeout_ms": "Transaction timeout (ms).",
    "TransactionLogValue.transaction_status": "Transaction state (0 Empty, 1 Ongoing, 2 PrepareCommit, 3 PrepareAbort, 4 CompleteCommit, 5 CompleteAbort, 6 Dead, 7 PrepareEpochFence).",
    "TransactionLogValue.transaction_partitions": "Partitions written in the open transaction, or null.",
    "TransactionLogValue.transaction_last_update_timestamp_ms": "When the state last changed (ms).",
    "TransactionLogValue.transaction_start_timestamp_ms": "When the open transaction started (ms), or -1.",
    "TransactionLogValue.client_transaction_version": "Transaction protocol version the client uses (KIP-890).",
    "PartitionsSchema": "Partitions written in the open transaction, or null.",
    "PartitionsSchema.topic": "Topic name.",
    "PartitionsSchema.partition_ids": "Partitions of the topic in the transaction.",
}


def _trace_transaction_log_value_v0(t) -> None:
    t.begin("TransactionLogValue", 0, DOCS["TransactionLogValue"])
    t.integer("producer_id", "int64", DOCS["TransactionLogValue.producer_id"])
    t.integer("producer_epoch", "int16", DOCS["TransactionLogValue.producer_epoch"])
    t.integer("transaction_timeout_ms", "int32", DOCS["TransactionLogValue.transaction_timeout_ms"])
    t.integer("transaction_status", "int8", DOCS["TransactionLogValue.transaction_status"])
    t.array(
        "transaction_partitions",
        "PartitionsSchema",
        DOCS["TransactionLogValue.transaction_partitions"],
        "int32",
        lambda t: t.nested(
            t.take_label(),
            "PartitionsSchema",
            DOCS["TransactionLogValue.transaction_partitions"],
            _trace_partitions_schema_v0,
        ),
        min_size=1,
        nullable=True,
    )
    t.integer(
        "transaction_last_update_timestamp_ms",
        "int64",
        DOCS["TransactionLogValue.transaction_last_update_timestamp_ms"],
    )
    t.integer(
        "transaction_start_timestamp_ms", "int64", DOCS["TransactionLogValue.transaction_start_timestamp_ms"]
    )
    t.end(None)


def _trace_partitions_schema_v0(t) -> None:
    t.begin("PartitionsSchema", 0, DOCS["PartitionsSchema"])
    t.blob("topic", "string", DOCS["PartitionsSchema.topic"], "int16")
    t.array(
        "partition_ids",
        "int32",
        DOCS["PartitionsSchema.partition_ids"],
        "int32",
        lambda t: t.integer(t.take_label(), "int32", DOCS["PartitionsSchema.partition_ids"]),
        min_size=4,
    )
    t.end(None)


def _trace_transaction_log_value_v1(t) -> None:
    t.begin("TransactionLogValue", 1, DOCS["TransactionLogValue"])
    t.integer("producer_id", "int64", DOCS["TransactionLogValue.producer_id"])
    t.integer("producer_epoch", "int16", DOCS["TransactionLogValue.producer_epoch"])
    t.integer("transaction_timeout_ms", "int32", DOCS["TransactionLogValue.transaction_timeout_ms"])
    t.integer("transaction_status", "int8", DOCS["TransactionLogValue.transaction_status"])
    t.array(
        "transaction_partitions",
        "PartitionsSchema",
        DOCS["TransactionLogValue.transaction_partitions"],
        "compact",
        lambda t: t.nested(
            t.take_label(),
            "PartitionsSchema",
            DOCS["TransactionLogValue.transaction_partitions"],
            _trace_partitions_schema_v1,
        ),
        min_size=1,
        nullable=True,
    )
    t.integer(
        "transaction_last_update_timestamp_ms",
        "int64",
        DOCS["TransactionLogValue.transaction_last_update_timestamp_ms"],
    )
    t.integer(
        "transaction_start_timestamp_ms", "int64", DOCS["TransactionLogValue.transaction_start_timestamp_ms"]
    )
    t.tagged(
        {
            0: (
                "previous_producer_id",
                lambda t: t.integer(
                    "previous_producer_id", "int64", DOCS["TransactionLogValue.previous_producer_id"]
                ),
            ),
            1: (
                "next_producer_id",
                lambda t: t.integer(
                    "next_producer_id", "int64", DOCS["TransactionLogValue.next_producer_id"]
                ),
            ),
            2: (
                "client_transaction_version",
                lambda t: t.integer(
                    "client_transaction_version",
                    "int16",
                    DOCS["TransactionLogValue.client_transaction_version"],
                ),
            ),
            3: (
                "next_producer_epoch",
                lambda t: t.integer(
                    "next_producer_epoch", "int16", DOCS["TransactionLogValue.next_producer_epoch"]
                ),
            ),
        }
    )
    t.end(None)


def _trace_partitions_schema_v1(t) -> None:
    t.begin("PartitionsSchema", 1, DOCS["PartitionsSchema"])
    t.blob("topic", "string", DOCS["PartitionsSchema.topic"], "compact")
    t.array(
        "partition_ids",
        "int32",
        DOCS["PartitionsSchema.partition_ids"],
        "compact",
        lambda t: t.integer(t.take_label(), "int32", DOCS["PartitionsSchema.partition_ids"]),
        min_size=4,
    )
    t.tagged({})
    t.end(None)


_TRACERS = {
    0: _trace_transaction_log_value_v0,
    1: _trace_transaction_log_value_v1,
}


def trace_transaction_log_value(t, version: int) -> None:
    """Read one TransactionLogValue of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(f"TransactionLogValue: unknown version {version} (this schema has versions 0-1)", t.pos)
    tracer(t)
