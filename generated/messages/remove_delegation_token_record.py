"""RemoveDelegationTokenRecord, versions 0 (flexible: 0+): A delegation token was expired or deleted.

Generated from schemas/messages/remove_delegation_token_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple

from kafkaspec.codec.message_types import encode_string, encode_tagged, read_string, read_unknown_tags
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/remove_delegation_token_record.yaml"
NAME = "RemoveDelegationTokenRecord"
FAMILY = "metadata"
#: the api key of the KRaft metadata record
TYPE_IDS = (26,)
VERSIONS = [0]
FLEXIBLE_VERSIONS = [0]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None


# -- typed values ---------------------------------------------------------------


class RemoveDelegationTokenRecord(NamedTuple):
    """A delegation token was expired or deleted.

    Fields:
        token_id: Id of the removed token. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    token_id: str = ""
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_remove_delegation_token_record_v0(
    buf, pos: int, end: int
) -> tuple[RemoveDelegationTokenRecord, int]:
    """Read a RemoveDelegationTokenRecord v0 at ``pos``, inside ``buf[:end]``."""
    f_token_id, pos = read_string(
        buf,
        pos,
        end,
        "RemoveDelegationTokenRecord v0 RemoveDelegationTokenRecord.token_id",
        compact=True,
        nullable=False,
    )
    unknown, pos = read_unknown_tags(
        buf, pos, end, "RemoveDelegationTokenRecord v0 RemoveDelegationTokenRecord tagged fields"
    )
    return RemoveDelegationTokenRecord(f_token_id, unknown), pos


def _write_remove_delegation_token_record_v0(v: RemoveDelegationTokenRecord, out: list) -> None:
    """Append the bytes of a RemoveDelegationTokenRecord v0 to ``out``."""
    out.append(
        encode_string(
            v.token_id,
            "RemoveDelegationTokenRecord v0 RemoveDelegationTokenRecord.token_id",
            compact=True,
            nullable=False,
        )
    )
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_remove_delegation_token_record_v0,
}
_WRITERS = {
    0: _write_remove_delegation_token_record_v0,
}


def decode_remove_delegation_token_record(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[RemoveDelegationTokenRecord, int]:
    """Decode a RemoveDelegationTokenRecord of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"RemoveDelegationTokenRecord: unknown version {version} (this schema has versions 0)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_remove_delegation_token_record(value: RemoveDelegationTokenRecord, version: int) -> bytes:
    """Encode ``value`` as RemoveDelegationTokenRecord ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(
            f"RemoveDelegationTokenRecord: unknown version {version} (this schema has versions 0)"
        )
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"RemoveDelegationTokenRecord v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
