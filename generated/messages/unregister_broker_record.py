"""UnregisterBrokerRecord, versions 0 (flexible: 0+): A broker was removed from the cluster's registrations.

Generated from schemas/messages/unregister_broker_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple

from kafkaspec.codec.message_types import encode_tagged, read_unknown_tags, truncated
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/unregister_broker_record.yaml"
NAME = "UnregisterBrokerRecord"
FAMILY = "metadata"
#: the api key of the KRaft metadata record
TYPE_IDS = (1,)
VERSIONS = [0]
FLEXIBLE_VERSIONS = [0]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None

_S0 = struct.Struct(">iq")

# -- typed values ---------------------------------------------------------------


class UnregisterBrokerRecord(NamedTuple):
    """A broker was removed from the cluster's registrations.

    Fields:
        broker_id: Node id of the broker. (versions 0+)
        broker_epoch: Epoch of the registration being removed. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    broker_id: int = 0
    broker_epoch: int = 0
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_unregister_broker_record_v0(buf, pos: int, end: int) -> tuple[UnregisterBrokerRecord, int]:
    """Read an UnregisterBrokerRecord v0 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 12:
        raise truncated("UnregisterBrokerRecord v0 UnregisterBrokerRecord.broker_id", pos, 12, end)
    (
        f_broker_id,
        f_broker_epoch,
    ) = _S0.unpack_from(buf, pos)
    pos += 12
    unknown, pos = read_unknown_tags(
        buf, pos, end, "UnregisterBrokerRecord v0 UnregisterBrokerRecord tagged fields"
    )
    return UnregisterBrokerRecord(f_broker_id, f_broker_epoch, unknown), pos


def _write_unregister_broker_record_v0(v: UnregisterBrokerRecord, out: list) -> None:
    """Append the bytes of an UnregisterBrokerRecord v0 to ``out``."""
    out.append(_S0.pack(v.broker_id, v.broker_epoch))
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_unregister_broker_record_v0,
}
_WRITERS = {
    0: _write_unregister_broker_record_v0,
}


def decode_unregister_broker_record(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[UnregisterBrokerRecord, int]:
    """Decode an UnregisterBrokerRecord of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"UnregisterBrokerRecord: unknown version {version} (this schema has versions 0)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_unregister_broker_record(value: UnregisterBrokerRecord, version: int) -> bytes:
    """Encode ``value`` as UnregisterBrokerRecord ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(f"UnregisterBrokerRecord: unknown version {version} (this schema has versions 0)")
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"UnregisterBrokerRecord v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
