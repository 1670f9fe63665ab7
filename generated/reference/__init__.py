"""Construct reference codecs generated from schemas/ by codegen. DO NOT EDIT.

``kafkaspec.generated.reference.<module>.<snake>_construct`` parses and builds what the fast codec
``kafkaspec.generated.<module>`` does; tests hold the two to each other. Kept apart so that the
fast codecs, and so ``import kafkaspec``, never load Construct.
"""

MODULES = (
    "aborted_txn_entry_v0",
    "control_record_key_v0",
    "end_transaction_marker_v0",
    "fetch_request_v0",
    "fetch_response_v0",
    "header_v2",
    "message_v0",
    "message_v1",
    "multi_fetch_request_v0",
    "multi_fetch_response_v0",
    "multi_produce_request_v0",
    "multi_request_header_v0",
    "offset_entry_v0",
    "offset_index_entry_v0",
    "offsets_request_v0",
    "offsets_response_v0",
    "partition_fetch_v0",
    "partition_produce_v0",
    "produce_request_v0",
    "producer_snapshot_entry_v1",
    "producer_snapshot_v1",
    "record_batch_v2",
    "record_v2",
    "request_header_v0",
    "response_header_v0",
    "time_index_entry_v0",
    "wire_message_v0",
    "wire_message_v1",
)
