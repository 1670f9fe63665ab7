"""UserScramCredentialRecord, versions 0 (flexible: 0+): A SCRAM credential of a user was set.

Generated from schemas/messages/user_scram_credential_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple

from kafkaspec.codec.message_types import (
    encode_bytes,
    encode_string,
    encode_tagged,
    read_bytes,
    read_string,
    read_unknown_tags,
    truncated,
)
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/user_scram_credential_record.yaml"
NAME = "UserScramCredentialRecord"
FAMILY = "metadata"
#: the api key of the KRaft metadata record
TYPE_IDS = (11,)
VERSIONS = [0]
FLEXIBLE_VERSIONS = [0]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None

_S0 = struct.Struct(">b")
_S1 = struct.Struct(">i")

# -- typed values ---------------------------------------------------------------


class UserScramCredentialRecord(NamedTuple):
    """A SCRAM credential of a user was set.

    Fields:
        name: User name. (versions 0+)
        mechanism: SCRAM mechanism (1 SCRAM-SHA-256, 2 SCRAM-SHA-512). (versions 0+)
        salt: Salt the client generated. (versions 0+)
        stored_key: Key the server authenticates the client with. (versions 0+)
        server_key: Key the client checks the server with. (versions 0+)
        iterations: Number of hash iterations. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    name: str = ""
    mechanism: int = 0
    salt: bytes = b""
    stored_key: bytes = b""
    server_key: bytes = b""
    iterations: int = 0
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_user_scram_credential_record_v0(buf, pos: int, end: int) -> tuple[UserScramCredentialRecord, int]:
    """Read a UserScramCredentialRecord v0 at ``pos``, inside ``buf[:end]``."""
    f_name, pos = read_string(
        buf,
        pos,
        end,
        "UserScramCredentialRecord v0 UserScramCredentialRecord.name",
        compact=True,
        nullable=False,
    )
    if end - pos < 1:
        raise truncated("UserScramCredentialRecord v0 UserScramCredentialRecord.mechanism", pos, 1, end)
    (f_mechanism,) = _S0.unpack_from(buf, pos)
    pos += 1
    f_salt, pos = read_bytes(
        buf,
        pos,
        end,
        "UserScramCredentialRecord v0 UserScramCredentialRecord.salt",
        compact=True,
        nullable=False,
    )
    f_stored_key, pos = read_bytes(
        buf,
        pos,
        end,
        "UserScramCredentialRecord v0 UserScramCredentialRecord.stored_key",
        compact=True,
        nullable=False,
    )
    f_server_key, pos = read_bytes(
        buf,
        pos,
        end,
        "UserScramCredentialRecord v0 UserScramCredentialRecord.server_key",
        compact=True,
        nullable=False,
    )
    if end - pos < 4:
        raise truncated("UserScramCredentialRecord v0 UserScramCredentialRecord.iterations", pos, 4, end)
    (f_iterations,) = _S1.unpack_from(buf, pos)
    pos += 4
    unknown, pos = read_unknown_tags(
        buf, pos, end, "UserScramCredentialRecord v0 UserScramCredentialRecord tagged fields"
    )
    return UserScramCredentialRecord(
        f_name, f_mechanism, f_salt, f_stored_key, f_server_key, f_iterations, unknown
    ), pos


def _write_user_scram_credential_record_v0(v: UserScramCredentialRecord, out: list) -> None:
    """Append the bytes of a UserScramCredentialRecord v0 to ``out``."""
    out.append(
        encode_string(
            v.name,
            "UserScramCredentialRecord v0 UserScramCredentialRecord.name",
            compact=True,
            nullable=False,
        )
    )
    out.append(_S0.pack(v.mechanism))
    out.append(
        encode_bytes(
            v.salt,
            "UserScramCredentialRecord v0 UserScramCredentialRecord.salt",
            compact=True,
            nullable=False,
        )
    )
    out.append(
        encode_bytes(
            v.stored_key,
            "UserScramCredentialRecord v0 UserScramCredentialRecord.stored_key",
            compact=True,
            nullable=False,
        )
    )
    out.append(
        encode_bytes(
            v.server_key,
            "UserScramCredentialRecord v0 UserScramCredentialRecord.server_key",
            compact=True,
            nullable=False,
        )
    )
    out.append(_S1.pack(v.iterations))
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_user_scram_credential_record_v0,
}
_WRITERS = {
    0: _write_user_scram_credential_record_v0,
}


def decode_user_scram_credential_record(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[UserScramCredentialRecord, int]:
    """Decode a UserScramCredentialRecord of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"UserScramCredentialRecord: unknown version {version} (this schema has versions 0)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_user_scram_credential_record(value: UserScramCredentialRecord, version: int) -> bytes:
    """Encode ``value`` as UserScramCredentialRecord ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(f"UserScramCredentialRecord: unknown version {version} (this schema has versions 0)")
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"UserScramCredentialRecord v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
