"""TransactionLogValue, versions 0-1 (flexible: 1+): The state of one transactional id: producer id and epoch, timeout, status and the partitions of the open transaction.

Generated from schemas/messages/transaction_log_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple

from kafkaspec.codec.message_types import (
    EMPTY_LIST,
    absent,
    encode_count,
    encode_string,
    encode_tagged,
    read_count,
    read_string,
    read_tag_header,
    read_unknown_tags,
    read_uvarint,
    repeated_tag,
    tagged_size_mismatch,
    truncated,
)
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/transaction_log_value.yaml"
NAME = "TransactionLogValue"
FAMILY = "transaction"
#: the key versions of __transaction_state that select this key
TYPE_IDS = (0,)
VERSIONS = [0, 1]
FLEXIBLE_VERSIONS = [1]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None

_S0 = struct.Struct(">qhib")
_S1 = struct.Struct(">qq")
_S2 = struct.Struct(">q")
_S3 = struct.Struct(">h")

# -- typed values ---------------------------------------------------------------


class PartitionsSchema(NamedTuple):
    """Partitions written in the open transaction, or null.

    Fields:
        topic: Topic name. (versions 0+)
        partition_ids: Partitions of the topic in the transaction. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    topic: str = ""
    partition_ids: list[int] = EMPTY_LIST
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


class TransactionLogValue(NamedTuple):
    """The state of one transactional id: producer id and epoch, timeout, status and the partitions of the open transaction.

    Fields:
        producer_id: Producer id currently used by the transactional id. (versions 0+)
        previous_producer_id: Producer id of the last committed transaction, or -1. (versions 1+, tagged 0 in 1+)
        next_producer_id: Producer id most recently handed to the producer for this transactional id, or -1. (versions 1+, tagged 1 in 1+)
        producer_epoch: Epoch of the producer id. (versions 0+)
        next_producer_epoch: The producer epoch that goes with next_producer_id (Kafka 4.1+), or -1. (versions 1+, tagged 3 in 1+)
        transaction_timeout_ms: Transaction timeout (ms). (versions 0+)
        transaction_status: Transaction state (0 Empty, 1 Ongoing, 2 PrepareCommit, 3 PrepareAbort, 4 CompleteCommit, 5 CompleteAbort, 6 Dead, 7 PrepareEpochFence). (versions 0+)
        transaction_partitions: Partitions written in the open transaction, or null. (versions 0+, nullable 0+)
        transaction_last_update_timestamp_ms: When the state last changed (ms). (versions 0+)
        transaction_start_timestamp_ms: When the open transaction started (ms), or -1. (versions 0+)
        client_transaction_version: Transaction protocol version the client uses (KIP-890). (versions 1+, tagged 2 in 1+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    producer_id: int = 0
    previous_producer_id: int = -1
    next_producer_id: int = -1
    producer_epoch: int = 0
    next_producer_epoch: int = -1
    transaction_timeout_ms: int = 0
    transaction_status: int = 0
    transaction_partitions: list[PartitionsSchema] | None = EMPTY_LIST
    transaction_last_update_timestamp_ms: int = 0
    transaction_start_timestamp_ms: int = 0
    client_transaction_version: int = 0
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_partitions_schema_v0(buf, pos: int, end: int) -> tuple[PartitionsSchema, int]:
    """Read a PartitionsSchema of TransactionLogValue v0 at ``pos``, inside ``buf[:end]``."""
    f_topic, pos = read_string(
        buf, pos, end, "TransactionLogValue v0 PartitionsSchema.topic", compact=False, nullable=False
    )
    n, pos = read_count(
        buf,
        pos,
        end,
        "TransactionLogValue v0 PartitionsSchema.partition_ids",
        compact=False,
        nullable=False,
        min_size=4,
    )
    f_partition_ids = list(struct.unpack_from(f">{n}i", buf, pos))
    pos += 4 * n
    return PartitionsSchema(f_topic, f_partition_ids, ()), pos


def _write_partitions_schema_v0(v: PartitionsSchema, out: list) -> None:
    """Append the bytes of a PartitionsSchema of TransactionLogValue v0 to ``out``."""
    absent(v.unknown_tagged_fields, (), "TransactionLogValue v0 PartitionsSchema tagged fields")
    out.append(
        encode_string(v.topic, "TransactionLogValue v0 PartitionsSchema.topic", compact=False, nullable=False)
    )
    out.append(
        encode_count(
            v.partition_ids,
            "TransactionLogValue v0 PartitionsSchema.partition_ids",
            compact=False,
            nullable=False,
        )
    )
    out.append(struct.pack(f">{len(v.partition_ids)}i", *v.partition_ids))


def _read_partitions_schema_v1(buf, pos: int, end: int) -> tuple[PartitionsSchema, int]:
    """Read a PartitionsSchema of TransactionLogValue v1 at ``pos``, inside ``buf[:end]``."""
    f_topic, pos = read_string(
        buf, pos, end, "TransactionLogValue v1 PartitionsSchema.topic", compact=True, nullable=False
    )
    n, pos = read_count(
        buf,
        pos,
        end,
        "TransactionLogValue v1 PartitionsSchema.partition_ids",
        compact=True,
        nullable=False,
        min_size=4,
    )
    f_partition_ids = list(struct.unpack_from(f">{n}i", buf, pos))
    pos += 4 * n
    unknown, pos = read_unknown_tags(buf, pos, end, "TransactionLogValue v1 PartitionsSchema tagged fields")
    return PartitionsSchema(f_topic, f_partition_ids, unknown), pos


def _write_partitions_schema_v1(v: PartitionsSchema, out: list) -> None:
    """Append the bytes of a PartitionsSchema of TransactionLogValue v1 to ``out``."""
    out.append(
        encode_string(v.topic, "TransactionLogValue v1 PartitionsSchema.topic", compact=True, nullable=False)
    )
    out.append(
        encode_count(
            v.partition_ids,
            "TransactionLogValue v1 PartitionsSchema.partition_ids",
            compact=True,
            nullable=False,
        )
    )
    out.append(struct.pack(f">{len(v.partition_ids)}i", *v.partition_ids))
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


def _read_transaction_log_value_v0(buf, pos: int, end: int) -> tuple[TransactionLogValue, int]:
    """Read a TransactionLogValue v0 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 15:
        raise truncated("TransactionLogValue v0 TransactionLogValue.producer_id", pos, 15, end)
    (
        f_producer_id,
        f_producer_epoch,
        f_transaction_timeout_ms,
        f_transaction_status,
    ) = _S0.unpack_from(buf, pos)
    pos += 15
    n, pos = read_count(
        buf,
        pos,
        end,
        "TransactionLogValue v0 TransactionLogValue.transaction_partitions",
        compact=False,
        nullable=True,
        min_size=6,
    )
    if n == -1:
        f_transaction_partitions = None
    else:
        f_transaction_partitions = []
        append = f_transaction_partitions.append
        for _ in range(n):
            item, pos = _read_partitions_schema_v0(buf, pos, end)
            append(item)
    if end - pos < 16:
        raise truncated(
            "TransactionLogValue v0 TransactionLogValue.transaction_last_update_timestamp_ms", pos, 16, end
        )
    (
        f_transaction_last_update_timestamp_ms,
        f_transaction_start_timestamp_ms,
    ) = _S1.unpack_from(buf, pos)
    pos += 16
    return TransactionLogValue(
        f_producer_id,
        -1,
        -1,
        f_producer_epoch,
        -1,
        f_transaction_timeout_ms,
        f_transaction_status,
        f_transaction_partitions,
        f_transaction_last_update_timestamp_ms,
        f_transaction_start_timestamp_ms,
        0,
        (),
    ), pos


def _write_transaction_log_value_v0(v: TransactionLogValue, out: list) -> None:
    """Append the bytes of a TransactionLogValue v0 to ``out``."""
    absent(v.previous_producer_id, -1, "TransactionLogValue v0 TransactionLogValue.previous_producer_id")
    absent(v.next_producer_id, -1, "TransactionLogValue v0 TransactionLogValue.next_producer_id")
    absent(v.next_producer_epoch, -1, "TransactionLogValue v0 TransactionLogValue.next_producer_epoch")
    absent(
        v.client_transaction_version,
        0,
        "TransactionLogValue v0 TransactionLogValue.client_transaction_version",
    )
    absent(v.unknown_tagged_fields, (), "TransactionLogValue v0 TransactionLogValue tagged fields")
    out.append(_S0.pack(v.producer_id, v.producer_epoch, v.transaction_timeout_ms, v.transaction_status))
    out.append(
        encode_count(
            v.transaction_partitions,
            "TransactionLogValue v0 TransactionLogValue.transaction_partitions",
            compact=False,
            nullable=True,
        )
    )
    if v.transaction_partitions is not None:
        for item in v.transaction_partitions:
            _write_partitions_schema_v0(item, out)
    out.append(_S1.pack(v.transaction_last_update_timestamp_ms, v.transaction_start_timestamp_ms))


def _read_transaction_log_value_v1(buf, pos: int, end: int) -> tuple[TransactionLogValue, int]:
    """Read a TransactionLogValue v1 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 15:
        raise truncated("TransactionLogValue v1 TransactionLogValue.producer_id", pos, 15, end)
    (
        f_producer_id,
        f_producer_epoch,
        f_transaction_timeout_ms,
        f_transaction_status,
    ) = _S0.unpack_from(buf, pos)
    pos += 15
    n, pos = read_count(
        buf,
        pos,
        end,
        "TransactionLogValue v1 TransactionLogValue.transaction_partitions",
        compact=True,
        nullable=True,
        min_size=3,
    )
    if n == -1:
        f_transaction_partitions = None
    else:
        f_transaction_partitions = []
        append = f_transaction_partitions.append
        for _ in range(n):
            item, pos = _read_partitions_schema_v1(buf, pos, end)
            append(item)
    if end - pos < 16:
        raise truncated(
            "TransactionLogValue v1 TransactionLogValue.transaction_last_update_timestamp_ms", pos, 16, end
        )
    (
        f_transaction_last_update_timestamp_ms,
        f_transaction_start_timestamp_ms,
    ) = _S1.unpack_from(buf, pos)
    pos += 16
    f_previous_producer_id = -1
    f_next_producer_id = -1
    f_client_transaction_version = 0
    f_next_producer_epoch = -1
    n, pos = read_uvarint(buf, pos, end, "TransactionLogValue v1 TransactionLogValue tagged fields")
    unknown = []
    seen = set()
    for _ in range(n):
        tag, pos, stop = read_tag_header(
            buf, pos, end, "TransactionLogValue v1 TransactionLogValue tagged fields"
        )
        if tag in seen:
            raise repeated_tag("TransactionLogValue v1 TransactionLogValue tagged fields", tag, pos)
        seen.add(tag)
        if tag == 0:
            start = pos
            if stop - pos < 8:
                raise truncated(
                    "TransactionLogValue v1 TransactionLogValue.previous_producer_id", pos, 8, stop
                )
            (f_previous_producer_id,) = _S2.unpack_from(buf, pos)
            pos += 8
            if pos != stop:
                raise tagged_size_mismatch(
                    "TransactionLogValue v1 TransactionLogValue tagged fields", tag, start, stop, pos
                )
        elif tag == 1:
            start = pos
            if stop - pos < 8:
                raise truncated("TransactionLogValue v1 TransactionLogValue.next_producer_id", pos, 8, stop)
            (f_next_producer_id,) = _S2.unpack_from(buf, pos)
            pos += 8
            if pos != stop:
                raise tagged_size_mismatch(
                    "TransactionLogValue v1 TransactionLogValue tagged fields", tag, start, stop, pos
                )
        elif tag == 2:
            start = pos
            if stop - pos < 2:
                raise truncated(
                    "TransactionLogValue v1 TransactionLogValue.client_transaction_version", pos, 2, stop
                )
            (f_client_transaction_version,) = _S3.unpack_from(buf, pos)
            pos += 2
            if pos != stop:
                raise tagged_size_mismatch(
                    "TransactionLogValue v1 TransactionLogValue tagged fields", tag, start, stop, pos
                )
        elif tag == 3:
            start = pos
            if stop - pos < 2:
                raise truncated(
                    "TransactionLogValue v1 TransactionLogValue.next_producer_epoch", pos, 2, stop
                )
            (f_next_producer_epoch,) = _S3.unpack_from(buf, pos)
            pos += 2
            if pos != stop:
                raise tagged_size_mismatch(
                    "TransactionLogValue v1 TransactionLogValue tagged fields", tag, start, stop, pos
                )
        else:
            unknown.append((tag, bytes(buf[pos:stop])))
            pos = stop
    return TransactionLogValue(
        f_producer_id,
        f_previous_producer_id,
        f_next_producer_id,
        f_producer_epoch,
        f_next_producer_epoch,
        f_transaction_timeout_ms,
        f_transaction_status,
        f_transaction_partitions,
        f_transaction_last_update_timestamp_ms,
        f_transaction_start_timestamp_ms,
        f_client_transaction_version,
        unknown,
    ), pos


def _write_transaction_log_value_v1(v: TransactionLogValue, out: list) -> None:
    """Append the bytes of a TransactionLogValue v1 to ``out``."""
    out.append(_S0.pack(v.producer_id, v.producer_epoch, v.transaction_timeout_ms, v.transaction_status))
    out.append(
        encode_count(
            v.transaction_partitions,
            "TransactionLogValue v1 TransactionLogValue.transaction_partitions",
            compact=True,
            nullable=True,
        )
    )
    if v.transaction_partitions is not None:
        for item in v.transaction_partitions:
            _write_partitions_schema_v1(item, out)
    out.append(_S1.pack(v.transaction_last_update_timestamp_ms, v.transaction_start_timestamp_ms))
    tags = list(v.unknown_tagged_fields)
    if v.previous_producer_id != -1:
        outer, out = out, []
        out.append(_S2.pack(v.previous_producer_id))
        tags.append((0, b"".join(out)))
        out = outer
    if v.next_producer_id != -1:
        outer, out = out, []
        out.append(_S2.pack(v.next_producer_id))
        tags.append((1, b"".join(out)))
        out = outer
    if v.client_transaction_version != 0:
        outer, out = out, []
        out.append(_S3.pack(v.client_transaction_version))
        tags.append((2, b"".join(out)))
        out = outer
    if v.next_producer_epoch != -1:
        outer, out = out, []
        out.append(_S3.pack(v.next_producer_epoch))
        tags.append((3, b"".join(out)))
        out = outer
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_transaction_log_value_v0,
    1: _read_transaction_log_value_v1,
}
_WRITERS = {
    0: _write_transaction_log_value_v0,
    1: _write_transaction_log_value_v1,
}


def decode_transaction_log_value(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[TransactionLogValue, int]:
    """Decode a TransactionLogValue of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"TransactionLogValue: unknown version {version} (this schema has versions 0-1)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_transaction_log_value(value: TransactionLogValue, version: int) -> bytes:
    """Encode ``value`` as TransactionLogValue ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(f"TransactionLogValue: unknown version {version} (this schema has versions 0-1)")
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(f"TransactionLogValue v{version}: a value does not fit its field: {exc}") from None
    return b"".join(out)
