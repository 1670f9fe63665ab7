"""FetchResponsePayload v0, the Construct reference codec: :data:`fetch_response_payload_construct` parses and builds
the same bytes as the fast codec in :mod:`kafkaspec.generated.fetch_response_payload_v0`, which tests hold it to.

Generated from schemas/protocol/fetch_response_payload_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Adapter, Int32sb, PrefixedArray, Struct

from kafkaspec.codec._construct import flatten, nest
from kafkaspec.generated.fetch_response_payload_v0 import FetchResponsePayload

from .fetch_topic_v0 import fetch_topic_construct

fetch_response_payload_fields = Struct(
    "correlation_id" / Int32sb,
    "topics" / PrefixedArray(Int32sb, fetch_topic_construct),
)


class _FetchResponsePayloadAdapter(Adapter):
    """Flattens the nested Construct containers into a :class:`~kafkaspec.generated.fetch_response_payload_v0.FetchResponsePayload` and back."""

    def _decode(self, obj, context, path):
        v = flatten(obj)
        return FetchResponsePayload(
            v["correlation_id"],
            v["topics"],
        )

    def _encode(self, obj, context, path):
        if not isinstance(obj, FetchResponsePayload):
            obj = FetchResponsePayload(*obj)
        v = {
            "correlation_id": obj.correlation_id,
            "topics": obj.topics,
        }
        return nest(v, _GROUPS)


_GROUPS = [["correlation_id", "topics"]]
fetch_response_payload_construct = _FetchResponsePayloadAdapter(fetch_response_payload_fields)
fetch_response_payload_construct.__doc__ = (
    "Construct parser/builder for FetchResponsePayload v0 (the reference codec)."
)
