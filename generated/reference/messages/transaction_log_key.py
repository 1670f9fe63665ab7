"""TransactionLogKey, the Construct reference codec: ``transaction_log_key_v<version>`` parses and builds the same bytes
as the fast codec in :mod:`kafkaspec.generated.messages.transaction_log_key`, which tests hold it to.

Generated from schemas/messages/transaction_log_key.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Struct

from kafkaspec.codec._message_construct import KafkaSized, MessageStruct
from kafkaspec.generated.messages.transaction_log_key import TransactionLogKey

transaction_log_key_v0 = MessageStruct(
    TransactionLogKey,
    Struct(
        "transactional_id" / KafkaSized(True, compact=False, nullable=False),
    ),
    absent={},
)


CONSTRUCTS = {
    0: transaction_log_key_v0,
}
