"""RegisterBrokerRecord, the Construct reference codec: ``register_broker_record_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.register_broker_record`, which tests hold it to.

Generated from schemas/messages/register_broker_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Int16sb, Int16ub, Int32sb, Int64sb, Struct

from kafkaspec.codec._message_construct import (
    KafkaArray,
    KafkaBool,
    KafkaSized,
    KafkaUuid,
    MessageStruct,
    TaggedFields,
)
from kafkaspec.generated.messages.register_broker_record import (
    BrokerEndpoint,
    BrokerFeature,
    RegisterBrokerRecord,
)

broker_endpoint_v0 = MessageStruct(
    BrokerEndpoint,
    Struct(
        "name" / KafkaSized(True, compact=True, nullable=False),
        "host" / KafkaSized(True, compact=True, nullable=False),
        "port" / Int16ub,
        "security_protocol" / Int16sb,
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)

broker_feature_v0 = MessageStruct(
    BrokerFeature,
    Struct(
        "name" / KafkaSized(True, compact=True, nullable=False),
        "min_supported_version" / Int16sb,
        "max_supported_version" / Int16sb,
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)

register_broker_record_v0 = MessageStruct(
    RegisterBrokerRecord,
    Struct(
        "broker_id" / Int32sb,
        "incarnation_id" / KafkaUuid,
        "broker_epoch" / Int64sb,
        "end_points" / KafkaArray(broker_endpoint_v0, compact=True, nullable=False),
        "features" / KafkaArray(broker_feature_v0, compact=True, nullable=False),
        "rack" / KafkaSized(True, compact=True, nullable=True),
        "fenced" / KafkaBool,
        "tagged_fields" / TaggedFields({}),
    ),
    absent={
        "is_migrating_zk_broker": False,
        "in_controlled_shutdown": False,
        "log_dirs": [],
        "cordoned_log_dirs": None,
    },
)

broker_endpoint_v1 = MessageStruct(
    BrokerEndpoint,
    Struct(
        "name" / KafkaSized(True, compact=True, nullable=False),
        "host" / KafkaSized(True, compact=True, nullable=False),
        "port" / Int16ub,
        "security_protocol" / Int16sb,
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)

broker_feature_v1 = MessageStruct(
    BrokerFeature,
    Struct(
        "name" / KafkaSized(True, compact=True, nullable=False),
        "min_supported_version" / Int16sb,
        "max_supported_version" / Int16sb,
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)

register_broker_record_v1 = MessageStruct(
    RegisterBrokerRecord,
    Struct(
        "broker_id" / Int32sb,
        "incarnation_id" / KafkaUuid,
        "broker_epoch" / Int64sb,
        "end_points" / KafkaArray(broker_endpoint_v1, compact=True, nullable=False),
        "features" / KafkaArray(broker_feature_v1, compact=True, nullable=False),
        "rack" / KafkaSized(True, compact=True, nullable=True),
        "fenced" / KafkaBool,
        "in_controlled_shutdown" / KafkaBool,
        "tagged_fields" / TaggedFields({}),
    ),
    absent={"is_migrating_zk_broker": False, "log_dirs": [], "cordoned_log_dirs": None},
)

broker_endpoint_v2 = MessageStruct(
    BrokerEndpoint,
    Struct(
        "name" / KafkaSized(True, compact=True, nullable=False),
        "host" / KafkaSized(True, compact=True, nullable=False),
        "port" / Int16ub,
        "security_protocol" / Int16sb,
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)

broker_feature_v2 = MessageStruct(
    BrokerFeature,
    Struct(
        "name" / KafkaSized(True, compact=True, nullable=False),
        "min_supported_version" / Int16sb,
        "max_supported_version" / Int16sb,
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)

register_broker_record_v2 = MessageStruct(
    RegisterBrokerRecord,
    Struct(
        "broker_id" / Int32sb,
        "is_migrating_zk_broker" / KafkaBool,
        "incarnation_id" / KafkaUuid,
        "broker_epoch" / Int64sb,
        "end_points" / KafkaArray(broker_endpoint_v2, compact=True, nullable=False),
        "features" / KafkaArray(broker_feature_v2, compact=True, nullable=False),
        "rack" / KafkaSized(True, compact=True, nullable=True),
        "fenced" / KafkaBool,
        "in_controlled_shutdown" / KafkaBool,
        "tagged_fields" / TaggedFields({}),
    ),
    absent={"log_dirs": [], "cordoned_log_dirs": None},
)

broker_endpoint_v3 = MessageStruct(
    BrokerEndpoint,
    Struct(
        "name" / KafkaSized(True, compact=True, nullable=False),
        "host" / KafkaSized(True, compact=True, nullable=False),
        "port" / Int16ub,
        "security_protocol" / Int16sb,
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)

broker_feature_v3 = MessageStruct(
    BrokerFeature,
    Struct(
        "name" / KafkaSized(True, compact=True, nullable=False),
        "min_supported_version" / Int16sb,
        "max_supported_version" / Int16sb,
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)

register_broker_record_v3 = MessageStruct(
    RegisterBrokerRecord,
    Struct(
        "broker_id" / Int32sb,
        "is_migrating_zk_broker" / KafkaBool,
        "incarnation_id" / KafkaUuid,
        "broker_epoch" / Int64sb,
        "end_points" / KafkaArray(broker_endpoint_v3, compact=True, nullable=False),
        "features" / KafkaArray(broker_feature_v3, compact=True, nullable=False),
        "rack" / KafkaSized(True, compact=True, nullable=True),
        "fenced" / KafkaBool,
        "in_controlled_shutdown" / KafkaBool,
        "tagged_fields"
        / TaggedFields({0: ("log_dirs", KafkaArray(KafkaUuid, compact=True, nullable=False), [])}),
    ),
    absent={"cordoned_log_dirs": None},
)

broker_endpoint_v4 = MessageStruct(
    BrokerEndpoint,
    Struct(
        "name" / KafkaSized(True, compact=True, nullable=False),
        "host" / KafkaSized(True, compact=True, nullable=False),
        "port" / Int16ub,
        "security_protocol" / Int16sb,
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)

broker_feature_v4 = MessageStruct(
    BrokerFeature,
    Struct(
        "name" / KafkaSized(True, compact=True, nullable=False),
        "min_supported_version" / Int16sb,
        "max_supported_version" / Int16sb,
        "tagged_fields" / TaggedFields({}),
    ),
    absent={},
)

register_broker_record_v4 = MessageStruct(
    RegisterBrokerRecord,
    Struct(
        "broker_id" / Int32sb,
        "is_migrating_zk_broker" / KafkaBool,
        "incarnation_id" / KafkaUuid,
        "broker_epoch" / Int64sb,
        "end_points" / KafkaArray(broker_endpoint_v4, compact=True, nullable=False),
        "features" / KafkaArray(broker_feature_v4, compact=True, nullable=False),
        "rack" / KafkaSized(True, compact=True, nullable=True),
        "fenced" / KafkaBool,
        "in_controlled_shutdown" / KafkaBool,
        "tagged_fields"
        / TaggedFields(
            {
                0: ("log_dirs", KafkaArray(KafkaUuid, compact=True, nullable=False), []),
                1: ("cordoned_log_dirs", KafkaArray(KafkaUuid, compact=True, nullable=True), None),
            }
        ),
    ),
    absent={},
)


CONSTRUCTS = {
    0: register_broker_record_v0,
    1: register_broker_record_v1,
    2: register_broker_record_v2,
    3: register_broker_record_v3,
    4: register_broker_record_v4,
}
