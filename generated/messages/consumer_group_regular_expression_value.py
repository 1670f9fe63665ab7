"""ConsumerGroupRegularExpressionValue, versions 0 (flexible: 0+): The topics a consumer group's subscription regex matched (KIP-848, Kafka 4.0), resolved by the coordinator, and which metadata it was resolved against.

Generated from schemas/messages/consumer_group_regular_expression_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple

from kafkaspec.codec.message_types import (
    EMPTY_LIST,
    encode_count,
    encode_string,
    encode_tagged,
    read_count,
    read_string,
    read_unknown_tags,
    truncated,
)
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/consumer_group_regular_expression_value.yaml"
NAME = "ConsumerGroupRegularExpressionValue"
FAMILY = "group"
#: the key versions (record types) of __consumer_offsets that select this key
TYPE_IDS = (16,)
VERSIONS = [0]
FLEXIBLE_VERSIONS = [0]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None

_S0 = struct.Struct(">qq")

# -- typed values ---------------------------------------------------------------


class ConsumerGroupRegularExpressionValue(NamedTuple):
    """The topics a consumer group's subscription regex matched (KIP-848, Kafka 4.0), resolved by the coordinator, and which metadata it was resolved against.

    Fields:
        topics: Names of the topics the expression matched. (versions 0+)
        version: Version (offset) of the metadata image the expression was resolved against. (versions 0+)
        timestamp: When the expression was resolved (ms since the epoch). (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    topics: list[str] = EMPTY_LIST
    version: int = 0
    timestamp: int = 0
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_consumer_group_regular_expression_value_v0(
    buf, pos: int, end: int
) -> tuple[ConsumerGroupRegularExpressionValue, int]:
    """Read a ConsumerGroupRegularExpressionValue v0 at ``pos``, inside ``buf[:end]``."""
    n, pos = read_count(
        buf,
        pos,
        end,
        "ConsumerGroupRegularExpressionValue v0 ConsumerGroupRegularExpressionValue.topics",
        compact=True,
        nullable=False,
        min_size=1,
    )
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = read_string(
            buf,
            pos,
            end,
            "ConsumerGroupRegularExpressionValue v0 ConsumerGroupRegularExpressionValue.topics",
            compact=True,
            nullable=False,
        )
        append(item)
    if end - pos < 16:
        raise truncated(
            "ConsumerGroupRegularExpressionValue v0 ConsumerGroupRegularExpressionValue.version", pos, 16, end
        )
    (
        f_version,
        f_timestamp,
    ) = _S0.unpack_from(buf, pos)
    pos += 16
    unknown, pos = read_unknown_tags(
        buf,
        pos,
        end,
        "ConsumerGroupRegularExpressionValue v0 ConsumerGroupRegularExpressionValue tagged fields",
    )
    return ConsumerGroupRegularExpressionValue(f_topics, f_version, f_timestamp, unknown), pos


def _write_consumer_group_regular_expression_value_v0(
    v: ConsumerGroupRegularExpressionValue, out: list
) -> None:
    """Append the bytes of a ConsumerGroupRegularExpressionValue v0 to ``out``."""
    out.append(
        encode_count(
            v.topics,
            "ConsumerGroupRegularExpressionValue v0 ConsumerGroupRegularExpressionValue.topics",
            compact=True,
            nullable=False,
        )
    )
    for item in v.topics:
        out.append(
            encode_string(
                item,
                "ConsumerGroupRegularExpressionValue v0 ConsumerGroupRegularExpressionValue.topics",
                compact=True,
                nullable=False,
            )
        )
    out.append(_S0.pack(v.version, v.timestamp))
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_consumer_group_regular_expression_value_v0,
}
_WRITERS = {
    0: _write_consumer_group_regular_expression_value_v0,
}


def decode_consumer_group_regular_expression_value(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[ConsumerGroupRegularExpressionValue, int]:
    """Decode a ConsumerGroupRegularExpressionValue of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"ConsumerGroupRegularExpressionValue: unknown version {version} (this schema has versions 0)",
            pos,
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_consumer_group_regular_expression_value(
    value: ConsumerGroupRegularExpressionValue, version: int
) -> bytes:
    """Encode ``value`` as ConsumerGroupRegularExpressionValue ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(
            f"ConsumerGroupRegularExpressionValue: unknown version {version} (this schema has versions 0)"
        )
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"ConsumerGroupRegularExpressionValue v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
