"""AbortedTransaction v10, the Construct reference codec: :data:`aborted_transaction_construct` parses and builds
the same bytes as the fast codec in :mod:`kafkaspec.generated.aborted_transaction_v10`, which tests hold it to.

Generated from schemas/protocol/aborted_transaction_v10.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Adapter, Int64sb, Struct

from kafkaspec.codec._construct import flatten, nest
from kafkaspec.generated.aborted_transaction_v10 import AbortedTransaction

aborted_transaction_fields = Struct(
    "producer_id" / Int64sb,
    "first_offset" / Int64sb,
)


class _AbortedTransactionAdapter(Adapter):
    """Flattens the nested Construct containers into a :class:`~kafkaspec.generated.aborted_transaction_v10.AbortedTransaction` and back."""

    def _decode(self, obj, context, path):
        v = flatten(obj)
        return AbortedTransaction(
            v["producer_id"],
            v["first_offset"],
        )

    def _encode(self, obj, context, path):
        if not isinstance(obj, AbortedTransaction):
            obj = AbortedTransaction(*obj)
        v = {
            "producer_id": obj.producer_id,
            "first_offset": obj.first_offset,
        }
        return nest(v, _GROUPS)


_GROUPS = [["producer_id", "first_offset"]]
aborted_transaction_construct = _AbortedTransactionAdapter(aborted_transaction_fields)
aborted_transaction_construct.__doc__ = (
    "Construct parser/builder for AbortedTransaction v10 (the reference codec)."
)
