"""EndTransactionMarker v0, the Construct reference codec: :data:`end_transaction_marker_construct` parses and builds
the same bytes as the fast codec in :mod:`kafkaspec.generated.end_transaction_marker_v0`, which tests hold it to.

Generated from schemas/end_txn_marker_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Adapter, Int16sb, Int32sb, Struct

from kafkaspec.codec._construct import flatten, nest
from kafkaspec.generated.end_transaction_marker_v0 import EndTransactionMarker

end_transaction_marker_fields = Struct(
    "version" / Int16sb,
    "coordinator_epoch" / Int32sb,
)


class _EndTransactionMarkerAdapter(Adapter):
    """Flattens the nested Construct containers into a :class:`~kafkaspec.generated.end_transaction_marker_v0.EndTransactionMarker` and back."""

    def _decode(self, obj, context, path):
        v = flatten(obj)
        return EndTransactionMarker(
            v["version"],
            v["coordinator_epoch"],
        )

    def _encode(self, obj, context, path):
        if not isinstance(obj, EndTransactionMarker):
            obj = EndTransactionMarker(*obj)
        v = {
            "version": obj.version,
            "coordinator_epoch": obj.coordinator_epoch,
        }
        return nest(v, _GROUPS)


_GROUPS = [["version", "coordinator_epoch"]]
end_transaction_marker_construct = _EndTransactionMarkerAdapter(end_transaction_marker_fields)
end_transaction_marker_construct.__doc__ = (
    "Construct parser/builder for EndTransactionMarker v0 (the reference codec)."
)
