"""RegisterControllerRecord, the Construct reference codec: ``register_controller_record_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.register_controller_record`, which tests hold it to.

Generated from schemas/messages/register_controller_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Int16sb, Int16ub, Int32sb, Struct

from kafkaspec.codec._message_construct import (
    KafkaArray,
    KafkaBool,
    KafkaSized,
    KafkaUuid,
    MessageStruct,
    TaggedFields,
)
from kafkaspec.generated.messages.register_controller_record import (
    ControllerEndpoint,
    ControllerFeature,
    RegisterControllerRecord,
)

controller_endpoint_v0 = MessageStruct(
    ControllerEndpoint,
    Struct(
        "name" / KafkaSized(True, compact=True, nullable=False),
        "host" / KafkaSized(True, compact=True, nullable=False),
        "port" / Int16ub,
        "security_protocol" / Int16sb,
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)

controller_feature_v0 = MessageStruct(
    ControllerFeature,
    Struct(
        "name" / KafkaSized(True, compact=True, nullable=False),
        "min_supported_version" / Int16sb,
        "max_supported_version" / Int16sb,
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)

register_controller_record_v0 = MessageStruct(
    RegisterControllerRecord,
    Struct(
        "controller_id" / Int32sb,
        "incarnation_id" / KafkaUuid,
        "zk_migration_ready" / KafkaBool,
        "end_points" / KafkaArray(controller_endpoint_v0, compact=True, nullable=False),
        "features" / KafkaArray(controller_feature_v0, compact=True, nullable=False),
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)


CONSTRUCTS = {
    0: register_controller_record_v0,
}
