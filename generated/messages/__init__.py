"""Codecs of Kafka's own payloads (message-spec encoding), generated from schemas/messages/ by
codegen. DO NOT EDIT.

One module per message, every version in it. The tables below say which message a payload is:
``CONTROL`` by control record type, ``METADATA`` by KRaft api key, ``GROUP`` and ``TRANSACTION``
by the int16 version a key starts with (each a ``(key module, value module)`` pair).
"""

from __future__ import annotations

from . import (
    abort_transaction_record,
    access_control_entry_record,
    begin_transaction_record,
    broker_registration_change_record,
    client_quota_record,
    config_record,
    delegation_token_record,
    end_transaction_record,
    feature_level_record,
    fence_broker_record,
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
    remove_access_control_entry_record,
    remove_delegation_token_record,
    remove_topic_record,
    remove_user_scram_credential_record,
    snapshot_footer_record,
    snapshot_header_record,
    topic_record,
    transaction_log_key,
    transaction_log_value,
    unfence_broker_record,
    unregister_broker_record,
    user_scram_credential_record,
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
    1: unregister_broker_record,
    2: topic_record,
    3: partition_record,
    4: config_record,
    5: partition_change_record,
    7: fence_broker_record,
    8: unfence_broker_record,
    9: remove_topic_record,
    10: delegation_token_record,
    11: user_scram_credential_record,
    12: feature_level_record,
    14: client_quota_record,
    15: producer_ids_record,
    17: broker_registration_change_record,
    18: access_control_entry_record,
    19: remove_access_control_entry_record,
    20: no_op_record,
    21: zk_migration_state_record,
    22: remove_user_scram_credential_record,
    23: begin_transaction_record,
    24: end_transaction_record,
    25: abort_transaction_record,
    26: remove_delegation_token_record,
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
