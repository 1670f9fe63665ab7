"""RemoveUserScramCredentialRecord, versions 0 (flexible: 0+): A SCRAM credential of a user was removed.

Generated from schemas/messages/remove_user_scram_credential_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple

from kafkaspec.codec.message_types import (
    encode_string,
    encode_tagged,
    read_string,
    read_unknown_tags,
    truncated,
)
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/remove_user_scram_credential_record.yaml"
NAME = "RemoveUserScramCredentialRecord"
FAMILY = "metadata"
#: the api key of the KRaft metadata record
TYPE_IDS = (22,)
VERSIONS = [0]
FLEXIBLE_VERSIONS = [0]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None

_S0 = struct.Struct(">b")

# -- typed values ---------------------------------------------------------------


class RemoveUserScramCredentialRecord(NamedTuple):
    """A SCRAM credential of a user was removed.

    Fields:
        name: User name. (versions 0+)
        mechanism: SCRAM mechanism of the removed credential. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    name: str = ""
    mechanism: int = 0
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_remove_user_scram_credential_record_v0(
    buf, pos: int, end: int
) -> tuple[RemoveUserScramCredentialRecord, int]:
    """Read a RemoveUserScramCredentialRecord v0 at ``pos``, inside ``buf[:end]``."""
    f_name, pos = read_string(
        buf,
        pos,
        end,
        "RemoveUserScramCredentialRecord v0 RemoveUserScramCredentialRecord.name",
        compact=True,
        nullable=False,
    )
    if end - pos < 1:
        raise truncated(
            "RemoveUserScramCredentialRecord v0 RemoveUserScramCredentialRecord.mechanism", pos, 1, end
        )
    (f_mechanism,) = _S0.unpack_from(buf, pos)
    pos += 1
    unknown, pos = read_unknown_tags(
        buf, pos, end, "RemoveUserScramCredentialRecord v0 RemoveUserScramCredentialRecord tagged fields"
    )
    return RemoveUserScramCredentialRecord(f_name, f_mechanism, unknown), pos


def _write_remove_user_scram_credential_record_v0(v: RemoveUserScramCredentialRecord, out: list) -> None:
    """Append the bytes of a RemoveUserScramCredentialRecord v0 to ``out``."""
    out.append(
        encode_string(
            v.name,
            "RemoveUserScramCredentialRecord v0 RemoveUserScramCredentialRecord.name",
            compact=True,
            nullable=False,
        )
    )
    out.append(_S0.pack(v.mechanism))
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_remove_user_scram_credential_record_v0,
}
_WRITERS = {
    0: _write_remove_user_scram_credential_record_v0,
}


def decode_remove_user_scram_credential_record(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[RemoveUserScramCredentialRecord, int]:
    """Decode a RemoveUserScramCredentialRecord of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"RemoveUserScramCredentialRecord: unknown version {version} (this schema has versions 0)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_remove_user_scram_credential_record(value: RemoveUserScramCredentialRecord, version: int) -> bytes:
    """Encode ``value`` as RemoveUserScramCredentialRecord ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(
            f"RemoveUserScramCredentialRecord: unknown version {version} (this schema has versions 0)"
        )
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"RemoveUserScramCredentialRecord v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
