"""Codecs of Kafka's own payloads (message-spec encoding), generated from schemas/messages/ by
codegen. DO NOT EDIT.

One module per message, every version in it. The tables below say which message a payload is:
``CONTROL`` by control record type, ``METADATA`` by KRaft api key, ``GROUP`` and ``TRANSACTION``
by the int16 version a key starts with (each a ``(key module, value module)`` pair).
"""

from __future__ import annotations

from . import (
    begin_transaction_record,
    broker_registration_change_record,
    config_record,
    end_transaction_record,
    feature_level_record,
    group_metadata_key,
    group_metadata_value,
    kraft_version_record,
    leader_change_message,
    no_op_record,
    offset_commit_key,
    offset_commit_value,
    partition_change_record,
    partition_record,
    producer_ids_record,
    register_broker_record,
    register_controller_record,
    snapshot_footer_record,
    snapshot_header_record,
    topic_record,
    transaction_log_key,
    transaction_log_value,
    voters_record,
    zk_migration_state_record,
)

CONTROL = {
    2: leader_change_message,
    3: snapshot_header_record,
    4: snapshot_footer_record,
    5: kraft_version_record,
    6: voters_record,
}
METADATA = {
    0: register_broker_record,
    2: topic_record,
    3: partition_record,
    4: config_record,
    5: partition_change_record,
    12: feature_level_record,
    15: producer_ids_record,
    17: broker_registration_change_record,
    20: no_op_record,
    21: zk_migration_state_record,
    23: begin_transaction_record,
    24: end_transaction_record,
    27: register_controller_record,
}
GROUP = {
    0: (offset_commit_key, offset_commit_value),
    1: (offset_commit_key, offset_commit_value),
    2: (group_metadata_key, group_metadata_value),
}
TRANSACTION = {
    0: (transaction_log_key, transaction_log_value),
}
