"""Bad message-spec payloads get a KafkaFormatError naming message, version, field and byte position."""

from __future__ import annotations

import uuid

import pytest

from kafkaspec.errors import InvalidLengthError, KafkaFormatError, TruncatedError
from kafkaspec.generated.messages import (
    config_record,
    leader_change_message,
    offset_commit_value,
    partition_change_record,
    topic_record,
)

TOPIC_ID = uuid.UUID("0123456789abcdef0123456789abcdef")


def test_compact_string_length_beyond_the_payload():
    # TopicRecord v0: compact name "orders" claims 200 bytes (uvarint 201 = c9 01)
    data = b"\xc9\x01orders" + TOPIC_ID.bytes + b"\x00"
    with pytest.raises(InvalidLengthError) as exc:
        topic_record.decode_topic_record(data, 0)
    assert (
        str(exc.value)
        == "TopicRecord v0 TopicRecord.name: length 200 is beyond the payload (23 bytes left) (at byte 0)"
    )


def test_compact_array_count_beyond_the_payload():
    # LeaderChangeMessage v0: version 0, leader 1, voters count 1000 (uvarint 1001 = e9 07), nothing after
    data = b"\x00\x00\x00\x00\x00\x01\xe9\x07"
    with pytest.raises(
        InvalidLengthError,
        match=r"LeaderChangeMessage v0 LeaderChangeMessage.voters: count 1000 "
        r"needs at least 5000 bytes, the payload has 0 left \(at byte 6\)",
    ):
        leader_change_message.decode_leader_change_message(data, 0)


def test_tagged_field_whose_size_lies():
    # PartitionChangeRecord v0: partition 0, topic id, one tagged field: tag 1 (leader, int32) claiming 2 bytes
    head = b"\x00\x00\x00\x00" + TOPIC_ID.bytes
    with pytest.raises(
        TruncatedError, match=r"PartitionChangeRecord v0 PartitionChangeRecord.leader: needs 4 bytes, 2 left"
    ):
        partition_change_record.decode_partition_change_record(head + b"\x01\x01\x02\x00\x05", 0)
    # ... or claiming 6 bytes for a 4-byte value: the value does not fill its size
    data = head + b"\x01\x01\x06\x00\x00\x00\x05\x00\x00"
    with pytest.raises(InvalidLengthError, match=r"tagged field 1 claims 6 bytes, its value takes 4"):
        partition_change_record.decode_partition_change_record(data, 0)
    # ... or claiming more bytes than the payload has
    with pytest.raises(InvalidLengthError, match=r"tagged field 1 claims 9 bytes, the payload has 4 left"):
        partition_change_record.decode_partition_change_record(head + b"\x01\x01\x09\x00\x00\x00\x05", 0)


def test_a_tag_twice_is_refused():
    head = b"\x00\x00\x00\x00" + TOPIC_ID.bytes
    data = head + b"\x02\x01\x04\x00\x00\x00\x05\x01\x04\x00\x00\x00\x06"
    with pytest.raises(
        KafkaFormatError,
        match=r"PartitionChangeRecord v0 PartitionChangeRecord tagged fields: tag 1 appears twice",
    ):
        partition_change_record.decode_partition_change_record(data, 0)


def test_unknown_tags_are_kept_and_written_back():
    head = b"\x00\x00\x00\x07" + TOPIC_ID.bytes
    data = head + b"\x02\x01\x04\x00\x00\x00\x05\x63\x02hi"
    value, end = partition_change_record.decode_partition_change_record(data, 0)
    assert end == len(data)
    assert value.leader == 5 and value.partition_id == 7 and value.topic_id == TOPIC_ID
    assert value.unknown_tagged_fields == [(99, b"hi")]
    assert partition_change_record.encode_partition_change_record(value, 0) == data


def test_null_where_not_nullable_and_bad_utf8():
    # ConfigRecord v0: resource type 2, resource name null (compact 0) -- not nullable
    with pytest.raises(
        InvalidLengthError,
        match=r"ConfigRecord v0 ConfigRecord.resource_name: null where the field is not nullable",
    ):
        config_record.decode_config_record(b"\x02\x00\x02a\x01\x00", 0)
    with pytest.raises(
        KafkaFormatError, match=r"ConfigRecord v0 ConfigRecord.resource_name: string is not UTF-8"
    ):
        config_record.decode_config_record(b"\x02\x02\xff\x02a\x01\x00", 0)


def test_classic_version_lengths():
    # OffsetCommitValue v1 (not flexible): offset, int16 metadata length 5 with 2 bytes present
    data = (7).to_bytes(8, "big") + b"\x00\x05ab"
    with pytest.raises(
        InvalidLengthError,
        match=r"OffsetCommitValue v1 OffsetCommitValue.metadata: length 5 is beyond the payload",
    ):
        offset_commit_value.decode_offset_commit_value(data, 1)


def test_a_field_the_version_lacks_must_hold_its_default():
    value = offset_commit_value.OffsetCommitValue(offset=5, leader_epoch=3, metadata="", commit_timestamp=1)
    with pytest.raises(
        ValueError,
        match=r"OffsetCommitValue v1 OffsetCommitValue.leader_epoch: the field does not exist in this version",
    ):
        offset_commit_value.encode_offset_commit_value(value, 1)
    assert offset_commit_value.encode_offset_commit_value(value, 3)


def test_a_bool_byte_other_than_0_or_1_is_refused():
    from kafkaspec.generated.messages import register_controller_record as rc

    data = b"\x00\x00\x00\x01" + TOPIC_ID.bytes + b"\x02\x01\x01\x00"
    with pytest.raises(
        KafkaFormatError,
        match=r"RegisterControllerRecord v0 RegisterControllerRecord.zk_migration_ready: bool byte 2",
    ):
        rc.decode_register_controller_record(data, 0)
