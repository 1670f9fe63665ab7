"""ConsumerGroupRegularExpressionKey, versions 16: The key of a consumer group's resolved subscription regex (KIP-848, Kafka 4.0): group id and the expression.

Generated from schemas/messages/consumer_group_regular_expression_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from typing import NamedTuple

from kafkaspec.codec.message_types import encode_string, read_string
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/consumer_group_regular_expression_key.yaml"
NAME = "ConsumerGroupRegularExpressionKey"
FAMILY = "group"
#: the key versions (record types) of __consumer_offsets that select this key
TYPE_IDS = (16,)
VERSIONS = [16]
FLEXIBLE_VERSIONS = []
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None
#: the value message stored under this key
VALUE = "ConsumerGroupRegularExpressionValue"


# -- typed values ---------------------------------------------------------------


class ConsumerGroupRegularExpressionKey(NamedTuple):
    """The key of a consumer group's resolved subscription regex (KIP-848, Kafka 4.0): group id and the expression.

    Fields:
        group_id: Group id. (versions 16)
        regular_expression: The subscription regular expression whose matches the value holds. (versions 16)
    """

    group_id: str = ""
    regular_expression: str = ""


# -- fast codec -----------------------------------------------------------------


def _read_consumer_group_regular_expression_key_v16(
    buf, pos: int, end: int
) -> tuple[ConsumerGroupRegularExpressionKey, int]:
    """Read a ConsumerGroupRegularExpressionKey v16 at ``pos``, inside ``buf[:end]``."""
    f_group_id, pos = read_string(
        buf,
        pos,
        end,
        "ConsumerGroupRegularExpressionKey v16 ConsumerGroupRegularExpressionKey.group_id",
        compact=False,
        nullable=False,
    )
    f_regular_expression, pos = read_string(
        buf,
        pos,
        end,
        "ConsumerGroupRegularExpressionKey v16 ConsumerGroupRegularExpressionKey.regular_expression",
        compact=False,
        nullable=False,
    )
    return ConsumerGroupRegularExpressionKey(f_group_id, f_regular_expression), pos


def _write_consumer_group_regular_expression_key_v16(v: ConsumerGroupRegularExpressionKey, out: list) -> None:
    """Append the bytes of a ConsumerGroupRegularExpressionKey v16 to ``out``."""
    out.append(
        encode_string(
            v.group_id,
            "ConsumerGroupRegularExpressionKey v16 ConsumerGroupRegularExpressionKey.group_id",
            compact=False,
            nullable=False,
        )
    )
    out.append(
        encode_string(
            v.regular_expression,
            "ConsumerGroupRegularExpressionKey v16 ConsumerGroupRegularExpressionKey.regular_expression",
            compact=False,
            nullable=False,
        )
    )


_READERS = {
    16: _read_consumer_group_regular_expression_key_v16,
}
_WRITERS = {
    16: _write_consumer_group_regular_expression_key_v16,
}


def decode_consumer_group_regular_expression_key(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[ConsumerGroupRegularExpressionKey, int]:
    """Decode a ConsumerGroupRegularExpressionKey of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"ConsumerGroupRegularExpressionKey: unknown version {version} (this schema has versions 16)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_consumer_group_regular_expression_key(
    value: ConsumerGroupRegularExpressionKey, version: int
) -> bytes:
    """Encode ``value`` as ConsumerGroupRegularExpressionKey ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(
            f"ConsumerGroupRegularExpressionKey: unknown version {version} (this schema has versions 16)"
        )
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"ConsumerGroupRegularExpressionKey v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
