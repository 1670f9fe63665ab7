"""ProducerIdsRecord, versions 0 (flexible: 0+): A block of producer ids was handed to a broker; the next block starts at next_producer_id.

Generated from schemas/messages/producer_ids_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple

from kafkaspec.codec.message_types import encode_tagged, read_unknown_tags, truncated
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/producer_ids_record.yaml"
NAME = "ProducerIdsRecord"
FAMILY = "metadata"
#: the api key of the KRaft metadata record
TYPE_IDS = (15,)
VERSIONS = [0]
FLEXIBLE_VERSIONS = [0]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None

_S0 = struct.Struct(">iqq")

# -- typed values ---------------------------------------------------------------


class ProducerIdsRecord(NamedTuple):
    """A block of producer ids was handed to a broker; the next block starts at next_producer_id.

    Fields:
        broker_id: Node id of the broker that asked for the block. (versions 0+)
        broker_epoch: Epoch of that broker's registration. (versions 0+)
        next_producer_id: First producer id of the next block to hand out. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    broker_id: int = 0
    broker_epoch: int = -1
    next_producer_id: int = 0
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_producer_ids_record_v0(buf, pos: int, end: int) -> tuple[ProducerIdsRecord, int]:
    """Read a ProducerIdsRecord v0 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 20:
        raise truncated("ProducerIdsRecord v0 ProducerIdsRecord.broker_id", pos, 20, end)
    (
        f_broker_id,
        f_broker_epoch,
        f_next_producer_id,
    ) = _S0.unpack_from(buf, pos)
    pos += 20
    unknown, pos = read_unknown_tags(buf, pos, end, "ProducerIdsRecord v0 ProducerIdsRecord tagged fields")
    return ProducerIdsRecord(f_broker_id, f_broker_epoch, f_next_producer_id, unknown), pos


def _write_producer_ids_record_v0(v: ProducerIdsRecord, out: list) -> None:
    """Append the bytes of a ProducerIdsRecord v0 to ``out``."""
    out.append(_S0.pack(v.broker_id, v.broker_epoch, v.next_producer_id))
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_producer_ids_record_v0,
}
_WRITERS = {
    0: _write_producer_ids_record_v0,
}


def decode_producer_ids_record(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[ProducerIdsRecord, int]:
    """Decode a ProducerIdsRecord of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"ProducerIdsRecord: unknown version {version} (this schema has versions 0)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_producer_ids_record(value: ProducerIdsRecord, version: int) -> bytes:
    """Encode ``value`` as ProducerIdsRecord ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(f"ProducerIdsRecord: unknown version {version} (this schema has versions 0)")
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(f"ProducerIdsRecord v{version}: a value does not fit its field: {exc}") from None
    return b"".join(out)
