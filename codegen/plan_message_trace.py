"""Plan the tracing decoders of one message-spec message (``kafkaspec explain`` descending into
Kafka's own payloads): for every version and structure, a function that reads the fields in wire
order through one call each on the tracer (:class:`kafkaspec.explain.tracer.Tracer`), so that every
field gets its byte span: classic (int16/int32 prefix) or compact (unsigned varint of length + 1)
strings, bytes and array counts, uuids, nullable structures' presence marks and the tagged-field
section of flexible versions (known tags read as their fields, unknown ones kept as raw bytes).

The planner decides and the templates write: each function is a
:class:`~codegen.plan_message_model.TracerPlan` (one per structure and version, no version test at run
time), each field a step whose ``kind`` names the tracer call ``message_trace.j2`` writes for it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kafkaspec.spec import snake
from kafkaspec.spec.message_model import MESSAGE_FIXED, Message, MessageField, MessageStruct

from .plan_message_model import TraceArray, TraceKind, TracerPlan, TraceValue

#: the fixed-width primitives the tracer reads as one value (by their type name; a uuid is a blob)
_FIXED = [n for n in MESSAGE_FIXED if n != "uuid"]


@dataclass
class MessageTracePlan:
    message: Message
    snake: str
    versions: list[int]
    #: the doc line of every structure and field, by "Struct" and "Struct.field"
    docs: dict[str, str] = field(default_factory=dict)
    #: every structure's tracing function for every version, in order
    functions: list[TracerPlan] = field(default_factory=list)


def trace_fn(struct: MessageStruct, version: int) -> str:
    return f"_trace_{snake(struct.name)}_v{version}"


def _doc(text: str) -> str:
    return " ".join(text.split())


class MessageTracePlanner:
    def __init__(self, message: Message):
        self.m = message
        self.plan = MessageTracePlan(message, snake(message.name), message.versions)

    def min_size(self, t: str, flexible: bool) -> int:
        if t in MESSAGE_FIXED:
            return MESSAGE_FIXED[t][1]
        if t in ("string", "bytes"):
            return 1 if flexible else (2 if t == "string" else 4)
        return 1  # a structure: at least its tagged-field count or one field

    def value(
        self, t: str, f: MessageField, version: int, label: str, nullable: bool, tagged: bool
    ) -> TraceValue:
        """How one value of type ``t`` named by ``label`` is traced."""
        doc = f"{self._struct_of(f)}.{f.name}"
        if t in _FIXED:
            return TraceValue(TraceKind.INTEGER, label, t, doc)
        if t == "uuid":
            return TraceValue(TraceKind.BLOB, label, t, doc, "size", size=16)
        if t in ("string", "bytes"):
            prefix = "compact" if self.m.flexible(version) else ("int16" if t == "string" else "int32")
            return TraceValue(TraceKind.BLOB, label, t, doc, prefix, nullable=nullable)
        inner = trace_fn(self.m.structs[t], version)
        if nullable:
            mark = "uvarint" if tagged else "int8"
            return TraceValue(TraceKind.NULLABLE, label, t, doc, mark, inner=inner)
        return TraceValue(TraceKind.NESTED, label, t, doc, inner=inner)

    def _struct_of(self, f: MessageField) -> str:
        return next(s.name for s in self.m.structs.values() if any(g is f for g in s.fields))

    def field(self, f: MessageField, version: int, tagged: bool) -> TraceValue | TraceArray:
        nullable = f.nullable_in(version)
        if f.type != "array":
            return self.value(f.type, f, version, repr(f.name), nullable, tagged)
        flexible = self.m.flexible(version)
        item = f.items or ""
        return TraceArray(
            f.name,
            item,
            f"{self._struct_of(f)}.{f.name}",
            "compact" if flexible else "int32",
            self.value(item, f, version, "t.take_label()", False, False),
            self.min_size(item, flexible),
            nullable,
        )

    def function(self, s: MessageStruct, version: int) -> TracerPlan:
        present = s.fields_in(version)
        return TracerPlan(
            trace_fn(s, version),
            s.name,
            version,
            tuple(self.field(f, version, False) for f in present if not f.tagged_in(version)),
            self.m.flexible(version),
            tuple(
                (f.tag, f.name, self.field(f, version, True))
                for f in present
                if f.tagged_in(version) and f.tag is not None
            ),
        )

    def run(self) -> MessageTracePlan:
        for s in self.m.structs.values():
            self.plan.docs[s.name] = _doc(s.doc)
            for f in s.fields:
                self.plan.docs[f"{s.name}.{f.name}"] = _doc(f.doc)
        for version in self.m.versions:
            for s in self.m.structs.values():
                self.plan.functions.append(self.function(s, version))
        return self.plan


def plan_message_trace(message: Message) -> MessageTracePlan:
    return MessageTracePlanner(message).run()
