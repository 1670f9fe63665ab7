"""EndTransactionRecord, versions 0 (flexible: 0+): Closes a metadata transaction: its records now apply.

Generated from schemas/messages/end_transaction_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple

from kafkaspec.codec.message_types import encode_tagged, read_unknown_tags
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/end_transaction_record.yaml"
NAME = "EndTransactionRecord"
FAMILY = "metadata"
#: the api key of the KRaft metadata record
TYPE_IDS = (24,)
VERSIONS = [0]
FLEXIBLE_VERSIONS = [0]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None


# -- typed values ---------------------------------------------------------------


class EndTransactionRecord(NamedTuple):
    """Closes a metadata transaction: its records now apply.

    Fields:
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_end_transaction_record_v0(buf, pos: int, end: int) -> tuple[EndTransactionRecord, int]:
    """Read an EndTransactionRecord v0 at ``pos``, inside ``buf[:end]``."""
    unknown, pos = read_unknown_tags(
        buf, pos, end, "EndTransactionRecord v0 EndTransactionRecord tagged fields"
    )
    return EndTransactionRecord(unknown), pos


def _write_end_transaction_record_v0(v: EndTransactionRecord, out: list) -> None:
    """Append the bytes of an EndTransactionRecord v0 to ``out``."""
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_end_transaction_record_v0,
}
_WRITERS = {
    0: _write_end_transaction_record_v0,
}


def decode_end_transaction_record(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[EndTransactionRecord, int]:
    """Decode an EndTransactionRecord of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"EndTransactionRecord: unknown version {version} (this schema has versions 0)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_end_transaction_record(value: EndTransactionRecord, version: int) -> bytes:
    """Encode ``value`` as EndTransactionRecord ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(f"EndTransactionRecord: unknown version {version} (this schema has versions 0)")
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(f"EndTransactionRecord v{version}: a value does not fit its field: {exc}") from None
    return b"".join(out)
