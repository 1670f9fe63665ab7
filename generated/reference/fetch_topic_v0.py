"""FetchTopic v0, the Construct reference codec: :data:`fetch_topic_construct` parses and builds
the same bytes as the fast codec in :mod:`kafkaspec.generated.fetch_topic_v0`, which tests hold it to.

Generated from schemas/protocol/fetch_topic_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Adapter, Int16sb, Int32sb, PrefixedArray, Struct

from kafkaspec.codec._construct import KafkaBytes, flatten, nest
from kafkaspec.generated.fetch_topic_v0 import FetchTopic

from .fetch_partition_v0 import fetch_partition_construct

fetch_topic_fields = Struct(
    "topic" / KafkaBytes(Int16sb, nullable=False, encoding="utf-8"),
    "partitions" / PrefixedArray(Int32sb, fetch_partition_construct),
)


class _FetchTopicAdapter(Adapter):
    """Flattens the nested Construct containers into a :class:`~kafkaspec.generated.fetch_topic_v0.FetchTopic` and back."""

    def _decode(self, obj, context, path):
        v = flatten(obj)
        return FetchTopic(
            v["topic"],
            v["partitions"],
        )

    def _encode(self, obj, context, path):
        if not isinstance(obj, FetchTopic):
            obj = FetchTopic(*obj)
        v = {
            "topic": obj.topic,
            "partitions": obj.partitions,
        }
        return nest(v, _GROUPS)


_GROUPS = [["topic", "partitions"]]
fetch_topic_construct = _FetchTopicAdapter(fetch_topic_fields)
fetch_topic_construct.__doc__ = "Construct parser/builder for FetchTopic v0 (the reference codec)."
