"""ConsumerProtocolSubscription, versions 0-3: What a member of a classic consumer group asked for when it joined: the topics it subscribes to, the partitions it owned (version 1+), its generation (2+) and rack (3+). The bytes start with an int16 version.

Generated from schemas/messages/consumer_protocol_subscription.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from typing import NamedTuple

from kafkaspec.codec.message_types import (
    EMPTY_LIST,
    absent,
    encode_bytes,
    encode_count,
    encode_string,
    read_bytes,
    read_count,
    read_string,
    truncated,
)
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/consumer_protocol_subscription.yaml"
NAME = "ConsumerProtocolSubscription"
FAMILY = "consumer_protocol"
#: which bytes of a classic consumer group's member (GroupMetadataValue, protocol type consumer) hold it: 0 the subscription, 1 the assignment (our numbering; Kafka has none)
TYPE_IDS = (0,)
VERSIONS = [0, 1, 2, 3]
FLEXIBLE_VERSIONS = []
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None

_S0 = struct.Struct(">i")

# -- typed values ---------------------------------------------------------------


class TopicPartition(NamedTuple):
    """A topic and some of its partitions.

    Fields:
        topic: Topic name. (versions 0+)
        partitions: Partition numbers. (versions 0+)
    """

    topic: str = ""
    partitions: list[int] = EMPTY_LIST


class ConsumerProtocolSubscription(NamedTuple):
    """What a member of a classic consumer group asked for when it joined: the topics it subscribes to, the partitions it owned (version 1+), its generation (2+) and rack (3+). The bytes start with an int16 version.

    Fields:
        topics: Topics the member subscribes to. (versions 0+)
        user_data: The assignor's own data, or null. (versions 0+, nullable 0+)
        owned_partitions: Partitions the member owned when it joined (cooperative rebalancing). (versions 1+)
        generation_id: The generation the owned partitions belong to, or -1. (versions 2+)
        rack_id: The member's rack (rack-aware assignment), or null. (versions 3+, nullable 3+)
    """

    topics: list[str] = EMPTY_LIST
    user_data: bytes | None = None
    owned_partitions: list[TopicPartition] = EMPTY_LIST
    generation_id: int = -1
    rack_id: str | None = None


# -- fast codec -----------------------------------------------------------------


def _read_topic_partition_v0(buf, pos: int, end: int) -> tuple[TopicPartition, int]:
    """Read a TopicPartition of ConsumerProtocolSubscription v0/v1/v2/v3 at ``pos``, inside ``buf[:end]``."""
    f_topic, pos = read_string(
        buf,
        pos,
        end,
        "ConsumerProtocolSubscription v0/v1/v2/v3 TopicPartition.topic",
        compact=False,
        nullable=False,
    )
    n, pos = read_count(
        buf,
        pos,
        end,
        "ConsumerProtocolSubscription v0/v1/v2/v3 TopicPartition.partitions",
        compact=False,
        nullable=False,
        min_size=4,
    )
    f_partitions = list(struct.unpack_from(f">{n}i", buf, pos))
    pos += 4 * n
    return TopicPartition(f_topic, f_partitions), pos


def _write_topic_partition_v0(v: TopicPartition, out: list) -> None:
    """Append the bytes of a TopicPartition of ConsumerProtocolSubscription v0/v1/v2/v3 to ``out``."""
    out.append(
        encode_string(
            v.topic,
            "ConsumerProtocolSubscription v0/v1/v2/v3 TopicPartition.topic",
            compact=False,
            nullable=False,
        )
    )
    out.append(
        encode_count(
            v.partitions,
            "ConsumerProtocolSubscription v0/v1/v2/v3 TopicPartition.partitions",
            compact=False,
            nullable=False,
        )
    )
    out.append(struct.pack(f">{len(v.partitions)}i", *v.partitions))


def _read_consumer_protocol_subscription_v0(
    buf, pos: int, end: int
) -> tuple[ConsumerProtocolSubscription, int]:
    """Read a ConsumerProtocolSubscription v0 at ``pos``, inside ``buf[:end]``."""
    n, pos = read_count(
        buf,
        pos,
        end,
        "ConsumerProtocolSubscription v0 ConsumerProtocolSubscription.topics",
        compact=False,
        nullable=False,
        min_size=2,
    )
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = read_string(
            buf,
            pos,
            end,
            "ConsumerProtocolSubscription v0 ConsumerProtocolSubscription.topics",
            compact=False,
            nullable=False,
        )
        append(item)
    f_user_data, pos = read_bytes(
        buf,
        pos,
        end,
        "ConsumerProtocolSubscription v0 ConsumerProtocolSubscription.user_data",
        compact=False,
        nullable=True,
    )
    return ConsumerProtocolSubscription(f_topics, f_user_data, [], -1, None), pos


def _write_consumer_protocol_subscription_v0(v: ConsumerProtocolSubscription, out: list) -> None:
    """Append the bytes of a ConsumerProtocolSubscription v0 to ``out``."""
    absent(
        v.owned_partitions,
        [],
        "ConsumerProtocolSubscription v0 ConsumerProtocolSubscription.owned_partitions",
    )
    absent(v.generation_id, -1, "ConsumerProtocolSubscription v0 ConsumerProtocolSubscription.generation_id")
    absent(v.rack_id, None, "ConsumerProtocolSubscription v0 ConsumerProtocolSubscription.rack_id")
    out.append(
        encode_count(
            v.topics,
            "ConsumerProtocolSubscription v0 ConsumerProtocolSubscription.topics",
            compact=False,
            nullable=False,
        )
    )
    for item in v.topics:
        out.append(
            encode_string(
                item,
                "ConsumerProtocolSubscription v0 ConsumerProtocolSubscription.topics",
                compact=False,
                nullable=False,
            )
        )
    out.append(
        encode_bytes(
            v.user_data,
            "ConsumerProtocolSubscription v0 ConsumerProtocolSubscription.user_data",
            compact=False,
            nullable=True,
        )
    )


def _read_consumer_protocol_subscription_v1(
    buf, pos: int, end: int
) -> tuple[ConsumerProtocolSubscription, int]:
    """Read a ConsumerProtocolSubscription v1 at ``pos``, inside ``buf[:end]``."""
    n, pos = read_count(
        buf,
        pos,
        end,
        "ConsumerProtocolSubscription v1 ConsumerProtocolSubscription.topics",
        compact=False,
        nullable=False,
        min_size=2,
    )
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = read_string(
            buf,
            pos,
            end,
            "ConsumerProtocolSubscription v1 ConsumerProtocolSubscription.topics",
            compact=False,
            nullable=False,
        )
        append(item)
    f_user_data, pos = read_bytes(
        buf,
        pos,
        end,
        "ConsumerProtocolSubscription v1 ConsumerProtocolSubscription.user_data",
        compact=False,
        nullable=True,
    )
    n, pos = read_count(
        buf,
        pos,
        end,
        "ConsumerProtocolSubscription v1 ConsumerProtocolSubscription.owned_partitions",
        compact=False,
        nullable=False,
        min_size=6,
    )
    f_owned_partitions = []
    append = f_owned_partitions.append
    for _ in range(n):
        item, pos = _read_topic_partition_v0(buf, pos, end)
        append(item)
    return ConsumerProtocolSubscription(f_topics, f_user_data, f_owned_partitions, -1, None), pos


def _write_consumer_protocol_subscription_v1(v: ConsumerProtocolSubscription, out: list) -> None:
    """Append the bytes of a ConsumerProtocolSubscription v1 to ``out``."""
    absent(v.generation_id, -1, "ConsumerProtocolSubscription v1 ConsumerProtocolSubscription.generation_id")
    absent(v.rack_id, None, "ConsumerProtocolSubscription v1 ConsumerProtocolSubscription.rack_id")
    out.append(
        encode_count(
            v.topics,
            "ConsumerProtocolSubscription v1 ConsumerProtocolSubscription.topics",
            compact=False,
            nullable=False,
        )
    )
    for item in v.topics:
        out.append(
            encode_string(
                item,
                "ConsumerProtocolSubscription v1 ConsumerProtocolSubscription.topics",
                compact=False,
                nullable=False,
            )
        )
    out.append(
        encode_bytes(
            v.user_data,
            "ConsumerProtocolSubscription v1 ConsumerProtocolSubscription.user_data",
            compact=False,
            nullable=True,
        )
    )
    out.append(
        encode_count(
            v.owned_partitions,
            "ConsumerProtocolSubscription v1 ConsumerProtocolSubscription.owned_partitions",
            compact=False,
            nullable=False,
        )
    )
    for item in v.owned_partitions:
        _write_topic_partition_v0(item, out)


def _read_consumer_protocol_subscription_v2(
    buf, pos: int, end: int
) -> tuple[ConsumerProtocolSubscription, int]:
    """Read a ConsumerProtocolSubscription v2 at ``pos``, inside ``buf[:end]``."""
    n, pos = read_count(
        buf,
        pos,
        end,
        "ConsumerProtocolSubscription v2 ConsumerProtocolSubscription.topics",
        compact=False,
        nullable=False,
        min_size=2,
    )
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = read_string(
            buf,
            pos,
            end,
            "ConsumerProtocolSubscription v2 ConsumerProtocolSubscription.topics",
            compact=False,
            nullable=False,
        )
        append(item)
    f_user_data, pos = read_bytes(
        buf,
        pos,
        end,
        "ConsumerProtocolSubscription v2 ConsumerProtocolSubscription.user_data",
        compact=False,
        nullable=True,
    )
    n, pos = read_count(
        buf,
        pos,
        end,
        "ConsumerProtocolSubscription v2 ConsumerProtocolSubscription.owned_partitions",
        compact=False,
        nullable=False,
        min_size=6,
    )
    f_owned_partitions = []
    append = f_owned_partitions.append
    for _ in range(n):
        item, pos = _read_topic_partition_v0(buf, pos, end)
        append(item)
    if end - pos < 4:
        raise truncated(
            "ConsumerProtocolSubscription v2 ConsumerProtocolSubscription.generation_id", pos, 4, end
        )
    (f_generation_id,) = _S0.unpack_from(buf, pos)
    pos += 4
    return ConsumerProtocolSubscription(f_topics, f_user_data, f_owned_partitions, f_generation_id, None), pos


def _write_consumer_protocol_subscription_v2(v: ConsumerProtocolSubscription, out: list) -> None:
    """Append the bytes of a ConsumerProtocolSubscription v2 to ``out``."""
    absent(v.rack_id, None, "ConsumerProtocolSubscription v2 ConsumerProtocolSubscription.rack_id")
    out.append(
        encode_count(
            v.topics,
            "ConsumerProtocolSubscription v2 ConsumerProtocolSubscription.topics",
            compact=False,
            nullable=False,
        )
    )
    for item in v.topics:
        out.append(
            encode_string(
                item,
                "ConsumerProtocolSubscription v2 ConsumerProtocolSubscription.topics",
                compact=False,
                nullable=False,
            )
        )
    out.append(
        encode_bytes(
            v.user_data,
            "ConsumerProtocolSubscription v2 ConsumerProtocolSubscription.user_data",
            compact=False,
            nullable=True,
        )
    )
    out.append(
        encode_count(
            v.owned_partitions,
            "ConsumerProtocolSubscription v2 ConsumerProtocolSubscription.owned_partitions",
            compact=False,
            nullable=False,
        )
    )
    for item in v.owned_partitions:
        _write_topic_partition_v0(item, out)
    out.append(_S0.pack(v.generation_id))


def _read_consumer_protocol_subscription_v3(
    buf, pos: int, end: int
) -> tuple[ConsumerProtocolSubscription, int]:
    """Read a ConsumerProtocolSubscription v3 at ``pos``, inside ``buf[:end]``."""
    n, pos = read_count(
        buf,
        pos,
        end,
        "ConsumerProtocolSubscription v3 ConsumerProtocolSubscription.topics",
        compact=False,
        nullable=False,
        min_size=2,
    )
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = read_string(
            buf,
            pos,
            end,
            "ConsumerProtocolSubscription v3 ConsumerProtocolSubscription.topics",
            compact=False,
            nullable=False,
        )
        append(item)
    f_user_data, pos = read_bytes(
        buf,
        pos,
        end,
        "ConsumerProtocolSubscription v3 ConsumerProtocolSubscription.user_data",
        compact=False,
        nullable=True,
    )
    n, pos = read_count(
        buf,
        pos,
        end,
        "ConsumerProtocolSubscription v3 ConsumerProtocolSubscription.owned_partitions",
        compact=False,
        nullable=False,
        min_size=6,
    )
    f_owned_partitions = []
    append = f_owned_partitions.append
    for _ in range(n):
        item, pos = _read_topic_partition_v0(buf, pos, end)
        append(item)
    if end - pos < 4:
        raise truncated(
            "ConsumerProtocolSubscription v3 ConsumerProtocolSubscription.generation_id", pos, 4, end
        )
    (f_generation_id,) = _S0.unpack_from(buf, pos)
    pos += 4
    f_rack_id, pos = read_string(
        buf,
        pos,
        end,
        "ConsumerProtocolSubscription v3 ConsumerProtocolSubscription.rack_id",
        compact=False,
        nullable=True,
    )
    return ConsumerProtocolSubscription(
        f_topics, f_user_data, f_owned_partitions, f_generation_id, f_rack_id
    ), pos


def _write_consumer_protocol_subscription_v3(v: ConsumerProtocolSubscription, out: list) -> None:
    """Append the bytes of a ConsumerProtocolSubscription v3 to ``out``."""
    out.append(
        encode_count(
            v.topics,
            "ConsumerProtocolSubscription v3 ConsumerProtocolSubscription.topics",
            compact=False,
            nullable=False,
        )
    )
    for item in v.topics:
        out.append(
            encode_string(
                item,
                "ConsumerProtocolSubscription v3 ConsumerProtocolSubscription.topics",
                compact=False,
                nullable=False,
            )
        )
    out.append(
        encode_bytes(
            v.user_data,
            "ConsumerProtocolSubscription v3 ConsumerProtocolSubscription.user_data",
            compact=False,
            nullable=True,
        )
    )
    out.append(
        encode_count(
            v.owned_partitions,
            "ConsumerProtocolSubscription v3 ConsumerProtocolSubscription.owned_partitions",
            compact=False,
            nullable=False,
        )
    )
    for item in v.owned_partitions:
        _write_topic_partition_v0(item, out)
    out.append(_S0.pack(v.generation_id))
    out.append(
        encode_string(
            v.rack_id,
            "ConsumerProtocolSubscription v3 ConsumerProtocolSubscription.rack_id",
            compact=False,
            nullable=True,
        )
    )


_READERS = {
    0: _read_consumer_protocol_subscription_v0,
    1: _read_consumer_protocol_subscription_v1,
    2: _read_consumer_protocol_subscription_v2,
    3: _read_consumer_protocol_subscription_v3,
}
_WRITERS = {
    0: _write_consumer_protocol_subscription_v0,
    1: _write_consumer_protocol_subscription_v1,
    2: _write_consumer_protocol_subscription_v2,
    3: _write_consumer_protocol_subscription_v3,
}


def decode_consumer_protocol_subscription(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[ConsumerProtocolSubscription, int]:
    """Decode a ConsumerProtocolSubscription of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"ConsumerProtocolSubscription: unknown version {version} (this schema has versions 0-3)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_consumer_protocol_subscription(value: ConsumerProtocolSubscription, version: int) -> bytes:
    """Encode ``value`` as ConsumerProtocolSubscription ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(
            f"ConsumerProtocolSubscription: unknown version {version} (this schema has versions 0-3)"
        )
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"ConsumerProtocolSubscription v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
