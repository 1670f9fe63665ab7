"""BeginTransactionRecord, versions 0 (flexible: 0+): Opens a metadata transaction: the records up to the matching end (or abort) apply together.

Generated from schemas/messages/begin_transaction_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple

from kafkaspec.codec.message_types import (
    encode_string,
    encode_tagged,
    read_string,
    read_tag_header,
    read_uvarint,
    repeated_tag,
    tagged_size_mismatch,
)
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/begin_transaction_record.yaml"
NAME = "BeginTransactionRecord"
FAMILY = "metadata"
#: the api key of the KRaft metadata record
TYPE_IDS = (23,)
VERSIONS = [0]
FLEXIBLE_VERSIONS = [0]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None


# -- typed values ---------------------------------------------------------------


class BeginTransactionRecord(NamedTuple):
    """Opens a metadata transaction: the records up to the matching end (or abort) apply together.

    Fields:
        name: Optional description of what the transaction does. (versions 0+, nullable 0+, tagged 0 in 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    name: str | None = None
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_begin_transaction_record_v0(buf, pos: int, end: int) -> tuple[BeginTransactionRecord, int]:
    """Read a BeginTransactionRecord v0 at ``pos``, inside ``buf[:end]``."""
    f_name = None
    n, pos = read_uvarint(buf, pos, end, "BeginTransactionRecord v0 BeginTransactionRecord tagged fields")
    unknown = []
    seen = set()
    for _ in range(n):
        tag, pos, stop = read_tag_header(
            buf, pos, end, "BeginTransactionRecord v0 BeginTransactionRecord tagged fields"
        )
        if tag in seen:
            raise repeated_tag("BeginTransactionRecord v0 BeginTransactionRecord tagged fields", tag, pos)
        seen.add(tag)
        if tag == 0:
            start = pos
            f_name, pos = read_string(
                buf,
                pos,
                stop,
                "BeginTransactionRecord v0 BeginTransactionRecord.name",
                compact=True,
                nullable=True,
            )
            if pos != stop:
                raise tagged_size_mismatch(
                    "BeginTransactionRecord v0 BeginTransactionRecord tagged fields", tag, start, stop, pos
                )
        else:
            unknown.append((tag, bytes(buf[pos:stop])))
            pos = stop
    return BeginTransactionRecord(f_name, unknown), pos


def _write_begin_transaction_record_v0(v: BeginTransactionRecord, out: list) -> None:
    """Append the bytes of a BeginTransactionRecord v0 to ``out``."""
    tags = list(v.unknown_tagged_fields)
    if v.name is not None:
        outer, out = out, []
        out.append(
            encode_string(
                v.name, "BeginTransactionRecord v0 BeginTransactionRecord.name", compact=True, nullable=True
            )
        )
        tags.append((0, b"".join(out)))
        out = outer
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_begin_transaction_record_v0,
}
_WRITERS = {
    0: _write_begin_transaction_record_v0,
}


def decode_begin_transaction_record(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[BeginTransactionRecord, int]:
    """Decode a BeginTransactionRecord of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"BeginTransactionRecord: unknown version {version} (this schema has versions 0)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_begin_transaction_record(value: BeginTransactionRecord, version: int) -> bytes:
    """Encode ``value`` as BeginTransactionRecord ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(f"BeginTransactionRecord: unknown version {version} (this schema has versions 0)")
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"BeginTransactionRecord v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
