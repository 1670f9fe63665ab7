"""Codecs generated from schemas/ by codegen. DO NOT EDIT: change a schema or a template and
run ``make generate``.

One module per structure version (``record_batch_v2``, ``message_v1``, ...): layout constants,
typed NamedTuples and the fast codec. ``reference/`` holds the Construct reference codec of each
structure, loaded only by those who use it (tests, benchmarks).

How the repository's top-level folders are installed (pyproject.toml):

- ``schemas/``: the spec (YAML), shipped as package data ``kafkaspec/schemas``;
- ``codegen/``: the generator, as ``kafkaspec.codegen``;
- ``generated/``: this package, as ``kafkaspec.generated`` (and ``kafkaspec.generated.reference``);
- ``kafkaspec/``: the hand-written runtime, as ``kafkaspec``.

Import generated code by that installed name: ``from kafkaspec.generated import record_batch_v2``.
"""

MODULES = (
    "aborted_txn_entry_v0",
    "control_record_key_v0",
    "end_transaction_marker_v0",
    "enums",
    "fetch_request_v0",
    "fetch_response_v0",
    "header_v2",
    "log_entry",
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
    "wire_message_any",
    "wire_message_v0",
    "wire_message_v1",
)
