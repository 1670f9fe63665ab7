"""ConsumerGroupPartitionMetadataKey, versions 4: The key of the topic metadata a consumer group (KIP-848) subscribes to: the group id.

Generated from schemas/messages/consumer_group_partition_metadata_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from typing import NamedTuple

from kafkaspec.codec.message_types import encode_string, read_string
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/consumer_group_partition_metadata_key.yaml"
NAME = "ConsumerGroupPartitionMetadataKey"
FAMILY = "group"
#: the key versions (record types) of __consumer_offsets that select this key
TYPE_IDS = (4,)
VERSIONS = [4]
FLEXIBLE_VERSIONS = []
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None
#: the value message stored under this key
VALUE = "ConsumerGroupPartitionMetadataValue"


# -- typed values ---------------------------------------------------------------


class ConsumerGroupPartitionMetadataKey(NamedTuple):
    """The key of the topic metadata a consumer group (KIP-848) subscribes to: the group id.

    Fields:
        group_id: Group id. (versions 4)
    """

    group_id: str = ""


# -- fast codec -----------------------------------------------------------------


def _read_consumer_group_partition_metadata_key_v4(
    buf, pos: int, end: int
) -> tuple[ConsumerGroupPartitionMetadataKey, int]:
    """Read a ConsumerGroupPartitionMetadataKey v4 at ``pos``, inside ``buf[:end]``."""
    f_group_id, pos = read_string(
        buf,
        pos,
        end,
        "ConsumerGroupPartitionMetadataKey v4 ConsumerGroupPartitionMetadataKey.group_id",
        compact=False,
        nullable=False,
    )
    return ConsumerGroupPartitionMetadataKey(f_group_id), pos


def _write_consumer_group_partition_metadata_key_v4(v: ConsumerGroupPartitionMetadataKey, out: list) -> None:
    """Append the bytes of a ConsumerGroupPartitionMetadataKey v4 to ``out``."""
    out.append(
        encode_string(
            v.group_id,
            "ConsumerGroupPartitionMetadataKey v4 ConsumerGroupPartitionMetadataKey.group_id",
            compact=False,
            nullable=False,
        )
    )


_READERS = {
    4: _read_consumer_group_partition_metadata_key_v4,
}
_WRITERS = {
    4: _write_consumer_group_partition_metadata_key_v4,
}


def decode_consumer_group_partition_metadata_key(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[ConsumerGroupPartitionMetadataKey, int]:
    """Decode a ConsumerGroupPartitionMetadataKey of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"ConsumerGroupPartitionMetadataKey: unknown version {version} (this schema has versions 4)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_consumer_group_partition_metadata_key(
    value: ConsumerGroupPartitionMetadataKey, version: int
) -> bytes:
    """Encode ``value`` as ConsumerGroupPartitionMetadataKey ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(
            f"ConsumerGroupPartitionMetadataKey: unknown version {version} (this schema has versions 4)"
        )
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"ConsumerGroupPartitionMetadataKey v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
