"""Record v2, the Construct reference codec: :data:`record_construct` parses and builds
the same bytes as the fast codec in :mod:`kafkaspec.generated.record_v2`, which tests hold it to.

Generated from schemas/record_v2.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Adapter, Int8sb, Prefixed, PrefixedArray, Struct, ZigZag

from kafkaspec.codec._construct import KafkaBytes, flatten, nest
from kafkaspec.generated.record_v2 import Record

from .header_v2 import header_construct

record_fields = Struct(
    "_rest"
    / Prefixed(
        ZigZag,
        Struct(
            "attributes" / Int8sb,
            "timestamp_delta" / ZigZag,
            "offset_delta" / ZigZag,
            "key" / KafkaBytes(ZigZag, nullable=True),
            "value" / KafkaBytes(ZigZag, nullable=True),
            "headers" / PrefixedArray(ZigZag, header_construct),
        ),
    )
)


class _RecordAdapter(Adapter):
    """Flattens the nested Construct containers into a :class:`~kafkaspec.generated.record_v2.Record` and back."""

    def _decode(self, obj, context, path):
        v = flatten(obj)
        return Record(
            v["attributes"],
            v["timestamp_delta"],
            v["offset_delta"],
            v["key"],
            v["value"],
            v["headers"],
        )

    def _encode(self, obj, context, path):
        if not isinstance(obj, Record):
            obj = Record(*obj)
        v = {
            "attributes": obj.attributes,
            "timestamp_delta": obj.timestamp,
            "offset_delta": obj.offset,
            "key": obj.key,
            "value": obj.value,
            "headers": obj.headers,
        }
        return nest(v, _GROUPS)


_GROUPS = [[], ["attributes", "timestamp_delta", "offset_delta", "key", "value", "headers"]]
record_construct = _RecordAdapter(record_fields)
record_construct.__doc__ = "Construct parser/builder for Record v2 (the reference codec)."


def _record_rebase(item, base_offset, base_timestamp):
    """Turn the stored deltas of a parsed Record into absolute values."""
    return item._replace(
        timestamp=item.timestamp + base_timestamp,
        offset=item.offset + base_offset,
    )


def _record_unbase(item, index, base_offset, base_timestamp):
    """Turn absolute values (or their defaults) into the deltas a Record stores."""
    item = Record._make(item)
    return item._replace(
        timestamp=0 if item.timestamp is None else item.timestamp - base_timestamp,
        offset=index if item.offset is None else item.offset - base_offset,
    )
