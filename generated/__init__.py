"""Codecs generated from schemas/ by codegen. DO NOT EDIT.

One module per structure version; regenerate with ``make generate``.
"""

MODULES = (
    "control_record_key_v0",
    "end_transaction_marker_v0",
    "enums",
    "header_v2",
    "record_batch_v2",
    "record_v2",
)
