"""MultiFetchRequest v0, the Construct reference codec: :data:`multi_fetch_request_construct` parses and builds
the same bytes as the fast codec in :mod:`kafkaspec.generated.multi_fetch_request_v0`, which tests hold it to.

Generated from schemas/legacy/multi_fetch_request_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from construct import Adapter, Array, Const, Int16sb, Int32sb, Prefixed, Rebuild, Struct, len_, this

from kafkaspec.codec._construct import flatten, nest
from kafkaspec.generated.multi_fetch_request_v0 import MultiFetchRequest

from .partition_fetch_v0 import partition_fetch_construct

multi_fetch_request_fields = Struct(
    "_rest"
    / Prefixed(
        Int32sb,
        Struct(
            "request_type" / Const(2, Int16sb),
            "topicpartition_count" / Rebuild(Int16sb, len_(this.fetches)),
            "fetches" / Array(this.topicpartition_count, partition_fetch_construct),
        ),
    )
)


class _MultiFetchRequestAdapter(Adapter):
    """Flattens the nested Construct containers into a :class:`~kafkaspec.generated.multi_fetch_request_v0.MultiFetchRequest` and back."""

    def _decode(self, obj, context, path):
        v = flatten(obj)
        return MultiFetchRequest(
            v["request_type"],
            v["fetches"],
        )

    def _encode(self, obj, context, path):
        if not isinstance(obj, MultiFetchRequest):
            obj = MultiFetchRequest(*obj)
        v = {
            "request_type": obj.request_type,
            "fetches": obj.fetches,
        }
        return nest(v, _GROUPS)


_GROUPS = [[], ["request_type", "topicpartition_count", "fetches"]]
multi_fetch_request_construct = _MultiFetchRequestAdapter(multi_fetch_request_fields)
multi_fetch_request_construct.__doc__ = (
    "Construct parser/builder for MultiFetchRequest v0 (the reference codec)."
)
