"""TransactionLogKey, versions 0: The key of a transactional producer's state: its transactional id.

Generated from schemas/messages/transaction_log_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from typing import NamedTuple

from kafkaspec.codec.message_types import encode_string, read_string
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/transaction_log_key.yaml"
NAME = "TransactionLogKey"
FAMILY = "transaction"
#: the key versions of __transaction_state that select this key
TYPE_IDS = (0,)
VERSIONS = [0]
FLEXIBLE_VERSIONS = []
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None
#: the value message stored under this key
VALUE = "TransactionLogValue"


# -- typed values ---------------------------------------------------------------


class TransactionLogKey(NamedTuple):
    """The key of a transactional producer's state: its transactional id.

    Fields:
        transactional_id: The producer's transactional.id. (versions 0)
    """

    transactional_id: str = ""


# -- fast codec -----------------------------------------------------------------


def _read_transaction_log_key_v0(buf, pos: int, end: int) -> tuple[TransactionLogKey, int]:
    """Read a TransactionLogKey v0 at ``pos``, inside ``buf[:end]``."""
    f_transactional_id, pos = read_string(
        buf,
        pos,
        end,
        "TransactionLogKey v0 TransactionLogKey.transactional_id",
        compact=False,
        nullable=False,
    )
    return TransactionLogKey(f_transactional_id), pos


def _write_transaction_log_key_v0(v: TransactionLogKey, out: list) -> None:
    """Append the bytes of a TransactionLogKey v0 to ``out``."""
    out.append(
        encode_string(
            v.transactional_id,
            "TransactionLogKey v0 TransactionLogKey.transactional_id",
            compact=False,
            nullable=False,
        )
    )


_READERS = {
    0: _read_transaction_log_key_v0,
}
_WRITERS = {
    0: _write_transaction_log_key_v0,
}


def decode_transaction_log_key(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[TransactionLogKey, int]:
    """Decode a TransactionLogKey of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"TransactionLogKey: unknown version {version} (this schema has versions 0)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_transaction_log_key(value: TransactionLogKey, version: int) -> bytes:
    """Encode ``value`` as TransactionLogKey ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(f"TransactionLogKey: unknown version {version} (this schema has versions 0)")
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(f"TransactionLogKey v{version}: a value does not fit its field: {exc}") from None
    return b"".join(out)
