"""StreamsGroupMetadataValue, the Construct reference codec: ``streams_group_metadata_value_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.streams_group_metadata_value`, which tests hold it to.

Generated from schemas/messages/streams_group_metadata_value.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Int32sb, Int64sb, Struct

from kafkaspec.codec._message_construct import KafkaArray, KafkaSized, MessageStruct, TaggedFields
from kafkaspec.generated.messages.streams_group_metadata_value import (
    LastAssignmentConfig,
    StreamsGroupMetadataValue,
)

last_assignment_config_v0 = MessageStruct(
    LastAssignmentConfig,
    Struct(
        "key" / KafkaSized(True, compact=True, nullable=False),
        "value" / KafkaSized(True, compact=True, nullable=False),
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)

streams_group_metadata_value_v0 = MessageStruct(
    StreamsGroupMetadataValue,
    Struct(
        "epoch" / Int32sb,
        "metadata_hash" / Int64sb,
        "tagged_fields"
        / TaggedFields(
            {
                0: ("validated_topology_epoch", Int32sb, -1),
                1: (
                    "last_assignment_configs",
                    KafkaArray(last_assignment_config_v0, compact=True, nullable=True),
                    [],
                ),
                2: ("stored_description_topology_epoch", Int32sb, -1),
                3: ("failed_description_topology_epoch", Int32sb, -1),
            }
        ),
    ),
    absent={},
)


CONSTRUCTS = {
    0: streams_group_metadata_value_v0,
}
