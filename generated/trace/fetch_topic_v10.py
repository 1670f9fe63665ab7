"""FetchTopic v10, the tracing decoder: :func:`trace_fetch_topic` reads one FetchTopic field by
field and records each field's byte span, raw bytes and value on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``. It returns the same
:class:`~kafkaspec.generated.fetch_topic_v10.FetchTopic` as the fast codec.

Generated from schemas/protocol/fetch_topic_v10.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from ..fetch_topic_v10 import FetchTopic
from .fetch_partition_v10 import trace_fetch_partition

NAME = "FetchTopic"
VERSION = 10
#: the structure's doc line
DOC = "One topic of a Fetch response version 10: its name and its partitions."
#: each field's doc line, by field name
DOCS = {
    "topic": "The topic name.",
    "partitions": "The partitions fetched, an int32 count followed by each partition.",
}


def trace_fetch_topic(t) -> FetchTopic:
    """Read one FetchTopic v10 at ``t.pos``, recording every field on the tracer ``t``; return its value."""
    t.begin(NAME, VERSION, DOC)
    topic = t.blob("topic", "string", DOCS["topic"], "int16")
    partitions = t.array(
        "partitions",
        "FetchPartition",
        DOCS["partitions"],
        "int32",
        trace_fetch_partition,
        min_size=38,
    )
    return t.end(FetchTopic(topic, partitions))
