"""PartitionProduce v0, the tracing decoder: :func:`trace_partition_produce` reads one PartitionProduce field by
field and records each field's byte span, raw bytes and value on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``. It returns the same
:class:`~kafkaspec.generated.partition_produce_v0.PartitionProduce` as the fast codec.

Generated from schemas/legacy/partition_produce_v0.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

from ..partition_produce_v0 import PartitionProduce

NAME = "PartitionProduce"
VERSION = 0
#: the structure's doc line
DOC = "One topic-partition of a Multi-Produce request."
#: each field's doc line, by field name
DOCS = {
    "topic": "Topic name (ASCII, not null terminated; it names a directory on the broker).",
    "partition": "Partition to act on, numbered from 0.",
    "messages": "MESSAGES: a message set of WireMessages back to back (kafkaspec.legacy.iter_wire_messages reads it).",
}


def trace_partition_produce(t) -> PartitionProduce:
    """Read one PartitionProduce v0 at ``t.pos``, recording every field on the tracer ``t``; return its value."""
    t.begin(NAME, VERSION, DOC)
    topic = t.blob("topic", "string", DOCS["topic"], "int16")
    partition = t.integer("partition", "int32", DOCS["partition"])
    messages = t.blob("messages", "bytes", DOCS["messages"], "int32")
    return t.end(PartitionProduce(topic, partition, messages))
