"""BrokerRegistrationChangeRecord, the Construct reference codec: ``broker_registration_change_record_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.broker_registration_change_record`, which tests hold it to.

Generated from schemas/messages/broker_registration_change_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Int8sb, Int32sb, Int64sb, Struct

from kafkaspec.codec._message_construct import KafkaArray, KafkaUuid, MessageStruct, TaggedFields
from kafkaspec.generated.messages.broker_registration_change_record import BrokerRegistrationChangeRecord

broker_registration_change_record_v0 = MessageStruct(
    BrokerRegistrationChangeRecord,
    Struct(
        "broker_id" / Int32sb,
        "broker_epoch" / Int64sb,
        "tagged_fields" / TaggedFields({0: ("fenced", Int8sb, 0)}),
    ),
    absent={"in_controlled_shutdown": 0, "log_dirs": [], "cordoned_log_dirs": None},
)

broker_registration_change_record_v1 = MessageStruct(
    BrokerRegistrationChangeRecord,
    Struct(
        "broker_id" / Int32sb,
        "broker_epoch" / Int64sb,
        "tagged_fields" / TaggedFields({0: ("fenced", Int8sb, 0), 1: ("in_controlled_shutdown", Int8sb, 0)}),
    ),
    absent={"log_dirs": [], "cordoned_log_dirs": None},
)

broker_registration_change_record_v2 = MessageStruct(
    BrokerRegistrationChangeRecord,
    Struct(
        "broker_id" / Int32sb,
        "broker_epoch" / Int64sb,
        "tagged_fields"
        / TaggedFields(
            {
                0: ("fenced", Int8sb, 0),
                1: ("in_controlled_shutdown", Int8sb, 0),
                2: ("log_dirs", KafkaArray(KafkaUuid, compact=True, nullable=False), []),
            }
        ),
    ),
    absent={"cordoned_log_dirs": None},
)

broker_registration_change_record_v3 = MessageStruct(
    BrokerRegistrationChangeRecord,
    Struct(
        "broker_id" / Int32sb,
        "broker_epoch" / Int64sb,
        "tagged_fields"
        / TaggedFields(
            {
                0: ("fenced", Int8sb, 0),
                1: ("in_controlled_shutdown", Int8sb, 0),
                2: ("log_dirs", KafkaArray(KafkaUuid, compact=True, nullable=False), []),
                3: ("cordoned_log_dirs", KafkaArray(KafkaUuid, compact=True, nullable=True), None),
            }
        ),
    ),
    absent={},
)


CONSTRUCTS = {
    0: broker_registration_change_record_v0,
    1: broker_registration_change_record_v1,
    2: broker_registration_change_record_v2,
    3: broker_registration_change_record_v3,
}
