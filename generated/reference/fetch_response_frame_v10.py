"""FetchResponseFrame v10, the Construct reference codec: :data:`fetch_response_frame_construct` parses and builds
the same bytes as the fast codec in :mod:`kafkaspec.generated.fetch_response_frame_v10`, which tests hold it to.

Generated from schemas/protocol/fetch_response_frame_v10.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Adapter, Int16sb, Int32sb, Prefixed, PrefixedArray, Struct

from kafkaspec.codec._construct import flatten, nest
from kafkaspec.generated.fetch_response_frame_v10 import FetchResponseFrame

from .fetch_topic_v10 import fetch_topic_construct

fetch_response_frame_fields = Struct(
    "_rest"
    / Prefixed(
        Int32sb,
        Struct(
            "correlation_id" / Int32sb,
            "throttle_time_ms" / Int32sb,
            "error_code" / Int16sb,
            "session_id" / Int32sb,
            "topics" / PrefixedArray(Int32sb, fetch_topic_construct),
        ),
    )
)


class _FetchResponseFrameAdapter(Adapter):
    """Flattens the nested Construct containers into a :class:`~kafkaspec.generated.fetch_response_frame_v10.FetchResponseFrame` and back."""

    def _decode(self, obj, context, path):
        v = flatten(obj)
        return FetchResponseFrame(
            v["correlation_id"],
            v["throttle_time_ms"],
            v["error_code"],
            v["session_id"],
            v["topics"],
        )

    def _encode(self, obj, context, path):
        if not isinstance(obj, FetchResponseFrame):
            obj = FetchResponseFrame(*obj)
        v = {
            "correlation_id": obj.correlation_id,
            "throttle_time_ms": obj.throttle_time_ms,
            "error_code": obj.error_code,
            "session_id": obj.session_id,
            "topics": obj.topics,
        }
        return nest(v, _GROUPS)


_GROUPS = [[], ["correlation_id", "throttle_time_ms", "error_code", "session_id", "topics"]]
fetch_response_frame_construct = _FetchResponseFrameAdapter(fetch_response_frame_fields)
fetch_response_frame_construct.__doc__ = (
    "Construct parser/builder for FetchResponseFrame v10 (the reference codec)."
)
