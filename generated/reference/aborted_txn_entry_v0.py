"""AbortedTxnEntry v0, the Construct reference codec: :data:`aborted_txn_entry_construct` parses and builds
the same bytes as the fast codec in :mod:`kafkaspec.generated.aborted_txn_entry_v0`, which tests hold it to.

Generated from schemas/logdir/aborted_txn_entry_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Adapter, Const, Int16sb, Int64sb, Struct

from kafkaspec.codec._construct import flatten, nest
from kafkaspec.generated.aborted_txn_entry_v0 import AbortedTxnEntry

aborted_txn_entry_fields = Struct(
    "version" / Const(0, Int16sb),
    "producer_id" / Int64sb,
    "first_offset" / Int64sb,
    "last_offset" / Int64sb,
    "last_stable_offset" / Int64sb,
)


class _AbortedTxnEntryAdapter(Adapter):
    """Flattens the nested Construct containers into a :class:`~kafkaspec.generated.aborted_txn_entry_v0.AbortedTxnEntry` and back."""

    def _decode(self, obj, context, path):
        v = flatten(obj)
        return AbortedTxnEntry(
            v["version"],
            v["producer_id"],
            v["first_offset"],
            v["last_offset"],
            v["last_stable_offset"],
        )

    def _encode(self, obj, context, path):
        if not isinstance(obj, AbortedTxnEntry):
            obj = AbortedTxnEntry(*obj)
        v = {
            "version": obj.version,
            "producer_id": obj.producer_id,
            "first_offset": obj.first_offset,
            "last_offset": obj.last_offset,
            "last_stable_offset": obj.last_stable_offset,
        }
        return nest(v, _GROUPS)


_GROUPS = [["version", "producer_id", "first_offset", "last_offset", "last_stable_offset"]]
aborted_txn_entry_construct = _AbortedTxnEntryAdapter(aborted_txn_entry_fields)
aborted_txn_entry_construct.__doc__ = "Construct parser/builder for AbortedTxnEntry v0 (the reference codec)."
