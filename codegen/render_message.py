"""Render the message-spec messages (``schemas/messages/``) into ``generated/messages/`` (fast codecs
and the family tables) and ``generated/reference/messages/`` (Construct reference codecs)."""

from __future__ import annotations

from pathlib import Path

import jinja2

from kafkaspec.spec import SchemaSet
from kafkaspec.spec import snake as snake_of
from kafkaspec.spec.message_model import FAMILIES

from .naming import Resolver
from .plan_message import plan_message
from .plan_message_trace import plan_message_trace

#: where the names of a message module come from, beyond render.SOURCES
MESSAGE_SOURCES: dict[str, str | None] = {
    "UUID": "uuid",
    **dict.fromkeys(
        (
            "EMPTY_LIST",
            "ZERO_UUID",
            "absent",
            "bad_presence",
            "encode_bytes",
            "encode_count",
            "encode_string",
            "encode_tagged",
            "read_bool",
            "read_bytes",
            "read_count",
            "read_string",
            "read_tag_header",
            "read_uuid",
            "read_unknown_tags",
            "read_uvarint",
            "repeated_tag",
            "tagged_size_mismatch",
            "truncated",
        ),
        "kafkaspec.codec.message_types",
    ),
    **dict.fromkeys(
        (
            "KafkaArray",
            "KafkaBool",
            "KafkaSized",
            "KafkaUuid",
            "MessageStruct",
            "NullableStruct",
            "TaggedFields",
        ),
        "kafkaspec.codec._message_construct",
    ),
    "Float64b": "construct",
}


def render_messages(
    schemas: SchemaSet, root: Path, env: jinja2.Environment, resolve: Resolver
) -> dict[str, str]:
    """{file name: source} for every message module, its reference codec and the two packages."""
    out: dict[str, str] = {}
    messages = sorted(schemas.messages.values(), key=lambda m: m.module)
    for m in messages:
        plan = plan_message(m)
        values = dict(
            m=m,
            snake=plan.snake,
            source=m.path.relative_to(root.parent).as_posix(),
            runs=plan.runs,
            classes=plan.classes,
            functions=plan.functions,
            versions=plan.versions,
            shared=plan.shared,
            flexible=plan.flexible,
            constructs=plan.constructs,
            family_doc=FAMILIES[m.family],
        )
        classes = {c.name: f".messages.{m.module}" for c in plan.classes}
        out[f"messages/{m.module}.py"] = resolve(
            env.get_template("message.py.j2").render(**values), MESSAGE_SOURCES
        )
        trace = plan_message_trace(m)
        out[f"trace/messages/{m.module}.py"] = env.get_template("trace_message.py.j2").render(
            m=m,
            snake=trace.snake,
            top=snake_of(m.name),
            source=values["source"],
            versions=trace.versions,
            docs=trace.docs,
            functions=trace.functions,
        )
        out[f"reference/messages/{m.module}.py"] = resolve(
            env.get_template("message_reference.py.j2").render(**values),
            {**MESSAGE_SOURCES, **{c: f"kafkaspec.generated.messages.{m.module}" for c in classes}},
        )
    if not messages:
        return out

    def pairs(family: str) -> list[tuple[int, str, str]]:
        rows = []
        for m in messages:
            if m.family == family and m.value:
                rows += [(i, m.module, schemas.messages[m.value].module) for i in m.type_ids]
        return sorted(rows)

    newest = [m for m in messages if not m.layout_of]  # earlier layouts are read through LAYOUTS only
    tables = dict(
        modules=[m.module for m in messages],
        control=sorted((i, m.module) for m in newest if m.family == "control" for i in m.type_ids),
        metadata=sorted((i, m.module) for m in newest if m.family == "metadata" for i in m.type_ids),
        remote_log=sorted((i, m.module) for m in newest if m.family == "remote_log" for i in m.type_ids),
        consumer_protocol=sorted(
            (i, m.module) for m in newest if m.family == "consumer_protocol" for i in m.type_ids
        ),
        group=pairs("group"),
        transaction=pairs("transaction"),
        share=pairs("share"),
        layouts=[
            (repr(m.name), [e.module for e in messages if e.layout_of == m.name])
            for m in newest
            if any(e.layout_of == m.name for e in messages)
        ],
    )
    out["messages/__init__.py"] = env.get_template("messages_init.py.j2").render(**tables)
    out["trace/messages/__init__.py"] = env.get_template("trace_messages_init.py.j2").render(**tables)
    out["reference/messages/__init__.py"] = env.get_template("messages_reference_init.py.j2").render()
    return out
