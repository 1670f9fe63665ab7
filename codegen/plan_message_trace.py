"""Plan the tracing decoders of one message-spec message (``kafkaspec explain`` descending into
Kafka's own payloads): for every version and structure, a function that reads the fields in wire
order through one call each on the tracer (:class:`kafkaspec.explain.tracer.Tracer`), so that every
field gets its byte span: classic (int16/int32 prefix) or compact (unsigned varint of length + 1)
strings, bytes and array counts, uuids, nullable structures' presence marks and the tagged-field
section of flexible versions (known tags read as their fields, unknown ones kept as raw bytes).

The functions are Python source (not yet plans rendered by templates, as :mod:`codegen.plan_message`'s
readers are): one per structure and version, no version test at run time.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kafkaspec.spec import snake
from kafkaspec.spec.message_model import MESSAGE_FIXED, Message, MessageField, MessageStruct

#: the fixed-width primitives the tracer reads as one value (by their type name; a uuid is a blob)
_FIXED = [n for n in MESSAGE_FIXED if n != "uuid"]


@dataclass
class MessageTracePlan:
    message: Message
    snake: str
    versions: list[int]
    #: the doc line of every structure and field, by "Struct" and "Struct.field"
    docs: dict[str, str] = field(default_factory=dict)
    functions: list[str] = field(default_factory=list)


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

    def value(self, t: str, f: MessageField, version: int, name: str, nullable: bool, tagged: bool) -> str:
        """An expression tracing one value of type ``t`` called ``name``."""
        flexible = self.m.flexible(version)
        doc = f"DOCS[{f'{self._struct_of(f)}.{f.name}'!r}]"
        if t in _FIXED:
            return f"t.integer({name}, {t!r}, {doc})"
        if t == "uuid":
            return f"t.blob({name}, 'uuid', {doc}, 'size', size=16)"
        if t in ("string", "bytes"):
            prefix = "compact" if flexible else ("int16" if t == "string" else "int32")
            return f"t.blob({name}, {t!r}, {doc}, {prefix!r}{', nullable=True' if nullable else ''})"
        inner = trace_fn(self.m.structs[t], version)
        if nullable:
            mark = "uvarint" if tagged else "int8"
            return f"t.nullable({name}, {t!r}, {doc}, {mark!r}, {inner})"
        return f"t.nested({name}, {t!r}, {doc}, {inner})"

    def _struct_of(self, f: MessageField) -> str:
        return next(s.name for s in self.m.structs.values() if any(g is f for g in s.fields))

    def field(self, f: MessageField, version: int, tagged: bool) -> str:
        nullable = f.nullable_in(version)
        if f.type != "array":
            return self.value(f.type, f, version, repr(f.name), nullable, tagged)
        flexible = self.m.flexible(version)
        item = f.items or ""
        prefix = "compact" if flexible else "int32"
        one = self.value(item, f, version, "t.take_label()", False, False)
        return (
            f"t.array({f.name!r}, {item!r}, DOCS[{f'{self._struct_of(f)}.{f.name}'!r}], {prefix!r}, "
            f"lambda t: {one}, min_size={self.min_size(item, flexible)}"
            f"{', nullable=True' if nullable else ''})"
        )

    def function(self, s: MessageStruct, version: int) -> str:
        present = s.fields_in(version)
        lines = [
            f"def {trace_fn(s, version)}(t) -> None:",
            f"    t.begin({s.name!r}, {version}, DOCS[{s.name!r}])",
        ]
        lines += [f"    {self.field(f, version, False)}" for f in present if not f.tagged_in(version)]
        if self.m.flexible(version):
            known = ", ".join(
                f"{f.tag}: ({f.name!r}, lambda t: {self.field(f, version, True)})"
                for f in present
                if f.tagged_in(version)
            )
            lines.append(f"    t.tagged({{{known}}})")
        lines.append("    t.end(None)")
        return "\n".join(lines)

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
