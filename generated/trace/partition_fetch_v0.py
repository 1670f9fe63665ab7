"""PartitionFetch v0, the tracing decoder: :func:`trace_partition_fetch` reads one PartitionFetch field by
field and records each field's byte span, raw bytes and value on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``. It returns the same
:class:`~kafkaspec.generated.partition_fetch_v0.PartitionFetch` as the fast codec.

Generated from schemas/legacy/partition_fetch_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from ..partition_fetch_v0 import PartitionFetch

NAME = "PartitionFetch"
VERSION = 0
#: the structure's doc line
DOC = "One topic-partition of a Multi-Fetch request."
#: each field's doc line, by field name
DOCS = {
    "topic": "Topic name (ASCII, not null terminated; it names a directory on the broker).",
    "partition": "Partition to act on, numbered from 0.",
    "offset": "Byte offset in the partition's log to start from.",
    "max_size": "Maximum number of bytes of messages to return.",
}


def trace_partition_fetch(t) -> PartitionFetch:
    """Read one PartitionFetch v0 at ``t.pos``, recording every field on the tracer ``t``; return its value."""
    t.begin(NAME, VERSION, DOC)
    topic = t.blob("topic", "string", DOCS["topic"], "int16")
    partition = t.integer("partition", "int32", DOCS["partition"])
    offset = t.integer("offset", "int64", DOCS["offset"])
    max_size = t.integer("max_size", "int32", DOCS["max_size"])
    return t.end(PartitionFetch(topic, partition, offset, max_size))
