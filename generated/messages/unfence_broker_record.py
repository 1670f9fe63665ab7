"""UnfenceBrokerRecord, versions 0 (flexible: 0+): A broker was unfenced and may serve again (older form of BrokerRegistrationChangeRecord).

Generated from schemas/messages/unfence_broker_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple

from kafkaspec.codec.message_types import encode_tagged, read_unknown_tags, truncated
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/unfence_broker_record.yaml"
NAME = "UnfenceBrokerRecord"
FAMILY = "metadata"
#: the api key of the KRaft metadata record
TYPE_IDS = (8,)
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


class UnfenceBrokerRecord(NamedTuple):
    """A broker was unfenced and may serve again (older form of BrokerRegistrationChangeRecord).

    Fields:
        id: Node id of the broker unfenced. (versions 0+)
        epoch: Epoch of the broker's registration. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    id: int = 0
    epoch: int = 0
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_unfence_broker_record_v0(buf, pos: int, end: int) -> tuple[UnfenceBrokerRecord, int]:
    """Read an UnfenceBrokerRecord v0 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 12:
        raise truncated("UnfenceBrokerRecord v0 UnfenceBrokerRecord.id", pos, 12, end)
    (
        f_id,
        f_epoch,
    ) = _S0.unpack_from(buf, pos)
    pos += 12
    unknown, pos = read_unknown_tags(
        buf, pos, end, "UnfenceBrokerRecord v0 UnfenceBrokerRecord tagged fields"
    )
    return UnfenceBrokerRecord(f_id, f_epoch, unknown), pos


def _write_unfence_broker_record_v0(v: UnfenceBrokerRecord, out: list) -> None:
    """Append the bytes of an UnfenceBrokerRecord v0 to ``out``."""
    out.append(_S0.pack(v.id, v.epoch))
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_unfence_broker_record_v0,
}
_WRITERS = {
    0: _write_unfence_broker_record_v0,
}


def decode_unfence_broker_record(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[UnfenceBrokerRecord, int]:
    """Decode an UnfenceBrokerRecord of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"UnfenceBrokerRecord: unknown version {version} (this schema has versions 0)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_unfence_broker_record(value: UnfenceBrokerRecord, version: int) -> bytes:
    """Encode ``value`` as UnfenceBrokerRecord ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(f"UnfenceBrokerRecord: unknown version {version} (this schema has versions 0)")
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(f"UnfenceBrokerRecord v{version}: a value does not fit its field: {exc}") from None
    return b"".join(out)
