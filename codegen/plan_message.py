"""Plan the codecs of one message-spec message (``kind: message``): for every version and every
structure in it, the steps of a straight-line reader and writer (no version test at run time: one
function per structure and group of versions that lay it out alike, named "v0/v2" in its errors so
that an error still names the version read), the typed NamedTuples, and the Construct definitions of
the reference codec. The plans are data (:mod:`codegen.plan_message_model`: ``ReaderPlan``, ``WriterPlan``,
``ConstructPlan``); the templates ``message_reader.j2``, ``message_writer.j2`` and
``message_construct.j2`` write them out, each kind of step by its own macro.

Decisions made here, once: consecutive fixed-width fields (ints, float64, uuid) are read and written
by one precompiled ``struct.Struct``; arrays of fixed-width primitives by one ``unpack_from`` sized
by their count (checked against the bytes left first); strings, bytes, counts and tagged fields by
the bounds-checked helpers of :mod:`kafkaspec.codec.message_types`. Field locals are ``f_<name>``, so no
schema name can shadow the function's own ``buf``, ``pos`` and ``end``.
"""

from __future__ import annotations

from dataclasses import replace

from kafkaspec.spec import snake
from kafkaspec.spec.message_model import MESSAGE_FIXED, Message, MessageField, MessageStruct, type_default
from kafkaspec.spec.types import FIELD_TYPES

from .naming import a
from .plan_message_model import (
    ClassPlan,
    ConstructPlan,
    ConstructType,
    MessagePlan,
    ReaderPlan,
    ReadField,
    ReadRun,
    ReadValue,
    WriteField,
    WriterPlan,
    WriteRun,
    WriteValue,
)

#: fixed-width types a struct run may hold (bool is read alone: only 0 and 1 are accepted)
_RUN = {k: v for k, v in MESSAGE_FIXED.items() if k != "bool"}
#: the Construct class of the fixed-width primitives that have one (bool and uuid have adapters)
_CONSTRUCT = {n: FIELD_TYPES[n].construct for n in MESSAGE_FIXED if FIELD_TYPES[n].construct}


def fn(struct: MessageStruct, suffix: str, kind: str) -> str:
    return f"_{kind}_{snake(struct.name)}_{suffix}"


class MessagePlanner:
    def __init__(self, message: Message):
        self.m = message
        self.plan = MessagePlan(
            message,
            snake(message.name),
            [],
            versions=message.versions,
            flexible=[v for v in message.versions if message.flexible(v)],
        )
        self.has_unknown = bool(self.plan.flexible)
        #: (structure, version) -> how errors and docstrings name it, and the suffix of its function
        #: names; a group of versions that lay the structure out alike is named by all its members
        #: ("v0/v2") and by its first one
        self.labels: dict[tuple[str, int], str] = {}
        self.suffixes: dict[tuple[str, int], str] = {}

    def label(self, s: MessageStruct, version: int) -> str:
        return self.labels[s.name, version]

    def suffix(self, s: MessageStruct, version: int) -> str:
        return self.suffixes[s.name, version]

    def groups(self, s: MessageStruct) -> list[list[int]]:
        """The versions of ``s`` grouped by layout: two versions whose reader and writer plans are equal
        once the version marks are blanked read and write the same bytes, so they share them. Nested
        structures are grouped first, so a call to one of them already names its group."""
        by_layout: dict[tuple[ReaderPlan, WriterPlan], list[int]] = {}
        for version in self.m.versions:
            self.labels[s.name, version] = self.suffixes[s.name, version] = "\x00"
            by_layout.setdefault((self.reader(s, version), self.writer(s, version)), []).append(version)
        return list(by_layout.values())

    # -- values -------------------------------------------------------------------------------------
    def annotation(self, f: MessageField) -> str:
        def one(t: str) -> str:
            return t if t[0].isupper() else FIELD_TYPES[t].hint

        text = f"list[{one(f.items or '')}]" if f.type == "array" else one(f.type)
        return f"{text} | None" if f.nullable_versions else text

    def what(self, s: MessageStruct, version: int) -> str:
        """How a docstring names a structure: ``an OffsetCommitValue v0``, or ``a Voter of VotersRecord v0``."""
        owner = "" if s.name == self.m.name else f" of {self.m.name}"
        return f"{a(s.name)}{owner} {self.label(s, version)}"

    def default(self, f: MessageField) -> str:
        """The expression of a field's default: its schema's ``default:``, else Kafka's for the type."""
        if f.has_default:
            return repr(float(f.default)) if f.type == "float64" else repr(f.default)
        if f.type == "uuid":
            return "ZERO_UUID"
        if f.type != "array" and f.struct:
            return f"{f.struct}()"
        return repr(type_default(f))

    def class_default(self, f: MessageField) -> str:
        """A field's default in its class: an empty array is the shared, unchangeable ``EMPTY_LIST``
        (one object for every instance: a ``[]`` changed through one would change them all)."""
        default = self.default(f)
        return "EMPTY_LIST" if default == "[]" else default

    def classes(self) -> None:
        for s in self.m.structs.values():
            rows = [
                (
                    f.name,
                    self.annotation(f),
                    self.class_default(f),
                    f"{f.doc} (versions {f.versions}"
                    + (f", nullable {f.nullable_versions}" if f.nullable_versions else "")
                    + (f", tagged {f.tag} in {f.tagged_versions}" if f.tagged_versions else "")
                    + ")",
                )
                for f in s.fields
            ]
            if self.has_unknown:
                # immutable: a NamedTuple default is one object shared by every instance
                rows.append(
                    (
                        "unknown_tagged_fields",
                        "Sequence[tuple[int, bytes]]",
                        "()",
                        "tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost",
                    )
                )
            self.plan.classes.append(ClassPlan(s.name, s.doc, rows))
        # nested structures first: a struct-typed default needs its class defined
        order = {name: i for i, name in enumerate(self._dependency_order())}
        self.plan.classes.sort(key=lambda c: order[c.name])

    def _dependency_order(self) -> list[str]:
        done: list[str] = []

        def visit(name: str) -> None:
            if name in done:
                return
            for f in self.m.structs[name].fields:
                if f.struct:
                    visit(f.struct)
            done.append(name)

        for name in self.m.structs:
            visit(name)
        return done

    # -- sizes ----------------------------------------------------------------------------------------
    def min_size(self, t: str, version: int) -> int:
        """The fewest bytes a value of type ``t`` takes in ``version`` (to bound a count)."""
        flexible = self.m.flexible(version)
        if t in MESSAGE_FIXED:
            return MESSAGE_FIXED[t][1]
        if t == "string":
            return 1 if flexible else 2
        if t in ("bytes", "array"):
            return 1 if flexible else 4
        s = self.m.structs[t]
        size = 1 if flexible else 0
        for f in s.fields_in(version):
            if f.tagged_in(version):
                continue  # tagged fields may be absent
            if f.type == "array":
                size += 1 if flexible else 4
            elif f.struct and f.nullable_in(version):
                size += 1  # the presence mark alone
            else:
                size += self.min_size(f.type, version)
        return size

    # -- readers ---------------------------------------------------------------------------------------
    def where(self, s: MessageStruct, f: MessageField, version: int) -> str:
        return repr(f"{self.m.name} {self.label(s, version)} {s.name}.{f.name}")

    def read_value(
        self, t: str, f: MessageField, s: MessageStruct, version: int, target: str, end: str, nullable: bool
    ) -> ReadValue:
        """How one value of type ``t`` is read into ``target`` (not in a fixed run)."""
        w = self.where(s, f, version)
        if t in ("string", "bytes"):
            return ReadValue(t, target, end, w, compact=self.m.flexible(version), nullable=nullable)
        if t in ("bool", "uuid"):
            return ReadValue(t, target, end, w)
        if t in _RUN:
            return ReadValue("fixed", target, end, w, run=self.run_name((t,)), size=MESSAGE_FIXED[t][1])
        reader = fn(self.m.structs[t], self.suffix(self.m.structs[t], version), "read")
        if nullable:
            # a nullable structure starts with a presence mark: int8 -1 (null) or 1; as a tagged
            # field, an unsigned varint 0 (null) or 1, as Kafka's generated code writes them
            null, mark = ("0x00", "uvarint 0") if f.tagged_in(version) else ("0xFF", "int8 -1")
            return ReadValue("nullable_struct", target, end, w, reader=reader, null=null, mark=mark)
        return ReadValue("struct", target, end, w, reader=reader)

    def read_field(self, f: MessageField, s: MessageStruct, version: int, end: str) -> ReadField:
        target = f"f_{f.name}"
        nullable = f.nullable_in(version)
        if f.type != "array":
            return ReadField(target, self.read_value(f.type, f, s, version, target, end, nullable))
        item = f.items or ""
        array = ReadField(
            target,
            end=end,
            where=self.where(s, f, version),
            compact=self.m.flexible(version),
            nullable=nullable,
            # at least one byte per item, as Kafka's readers require (an item of no bytes would let a
            # hostile count loop without consuming input)
            min_size=max(self.min_size(item, version), 1),
        )
        if item == "uuid":
            return replace(array, items="uuid")
        if item in _RUN:
            fmt, size = MESSAGE_FIXED[item]
            return replace(array, items="fixed", fmt=fmt, size=size)
        return replace(array, items="values", item=self.read_value(item, f, s, version, "item", end, False))

    def run_name(self, types: tuple[str, ...]) -> str:
        fmt = ">" + "".join(MESSAGE_FIXED[t][0] for t in types)
        for name, known in self.plan.runs.items():
            if known == fmt:
                return name
        name = f"_S{len(self.plan.runs)}"
        self.plan.runs[name] = fmt
        return name

    def runs_of(self, fields: list[MessageField], version: int) -> list[list[MessageField]]:
        """The untagged fields cut into runs: consecutive fixed-width ones together, others alone."""
        out: list[list[MessageField]] = []
        for f in fields:
            if f.tagged_in(version):
                continue
            fixed = f.type in _RUN
            if fixed and out and out[-1][0].type in _RUN:
                out[-1].append(f)
            else:
                out.append([f])
        return out

    def reader(self, s: MessageStruct, version: int) -> ReaderPlan:
        present = s.fields_in(version)
        steps: list[ReadRun | ReadField] = []
        for run in self.runs_of(present, version):
            f = run[0]
            if f.type in _RUN and (len(run) > 1 or f.type == "uuid"):
                steps.append(
                    ReadRun(
                        tuple(f"f_{g.name}" for g in run),
                        self.run_name(tuple(g.type for g in run)),
                        sum(MESSAGE_FIXED[g.type][1] for g in run),
                        self.where(s, f, version),
                        tuple(f"f_{g.name}" for g in run if g.type == "uuid"),
                    )
                )
            else:
                steps.append(self.read_field(f, s, version, "end"))
        flexible = self.m.flexible(version)
        tagged = [f for f in present if f.tagged_in(version)] if flexible else []
        args = [f"f_{f.name}" if version in f.versions else self.default(f) for f in s.fields]
        if self.has_unknown:
            args.append("unknown" if flexible else "()")
        return ReaderPlan(
            fn(s, self.suffix(s, version), "read"),
            s.name,
            self.what(s, version),
            tuple(steps),
            flexible,
            tuple((f"f_{f.name}", self.default(f)) for f in tagged),
            tuple((f.tag, self.read_field(f, s, version, "stop")) for f in tagged if f.tag is not None),
            repr(f"{self.m.name} {self.label(s, version)} {s.name} tagged fields"),
            tuple(args),
        )

    # -- writers -------------------------------------------------------------------------------------
    def write_value(
        self, t: str, f: MessageField, s: MessageStruct, version: int, expr: str, nullable: bool
    ) -> WriteValue:
        w = self.where(s, f, version)
        if t in ("string", "bytes"):
            return WriteValue(t, expr, w, compact=self.m.flexible(version), nullable=nullable)
        if t in ("bool", "uuid"):
            return WriteValue(t, expr, w)
        if t in _RUN:
            return WriteValue("fixed", expr, w, run=self.run_name((t,)))
        writer = fn(self.m.structs[t], self.suffix(self.m.structs[t], version), "write")
        if nullable:
            null = "b'\\x00'" if f.tagged_in(version) else "b'\\xff'"
            return WriteValue("nullable_struct", expr, w, writer=writer, null=null)
        return WriteValue("struct", expr, w, writer=writer)

    def write_field(self, f: MessageField, s: MessageStruct, version: int) -> WriteField:
        expr = f"v.{f.name}"
        nullable = f.nullable_in(version)
        if f.type != "array":
            return WriteField(expr, self.write_value(f.type, f, s, version, expr, nullable))
        item = f.items or ""
        array = WriteField(
            expr, where=self.where(s, f, version), compact=self.m.flexible(version), nullable=nullable
        )
        if item == "uuid":
            return replace(array, items="uuid")
        if item in _RUN:
            return replace(array, items="fixed", fmt=MESSAGE_FIXED[item][0])
        return replace(array, items="values", item=self.write_value(item, f, s, version, "item", False))

    def writer(self, s: MessageStruct, version: int) -> WriterPlan:
        present = s.fields_in(version)
        absent = [
            (f"v.{f.name}", self.default(f), self.where(s, f, version))
            for f in s.fields
            if version not in f.versions
        ]
        if self.has_unknown and not self.m.flexible(version):
            where = repr(f"{self.m.name} {self.label(s, version)} {s.name} tagged fields")
            absent.append(("v.unknown_tagged_fields", "()", where))
        steps: list[WriteRun | WriteField] = []
        for run in self.runs_of(present, version):
            f = run[0]
            if f.type in _RUN and len(run) > 1:
                values = tuple(f"v.{g.name}.bytes" if g.type == "uuid" else f"v.{g.name}" for g in run)
                steps.append(WriteRun(self.run_name(tuple(g.type for g in run)), values))
            else:
                steps.append(self.write_field(f, s, version))
        tagged: list[tuple[str, int, WriteField]] = []
        if self.m.flexible(version):
            for f in present:
                if not f.tagged_in(version) or f.tag is None:
                    continue
                default = self.default(f)
                test = {
                    "None": f"v.{f.name} is not None",
                    "False": f"v.{f.name}",
                    "True": f"not v.{f.name}",
                }.get(default, f"v.{f.name} != {default}")  # a bool is tested as itself (ruff E712)
                tagged.append((test, f.tag, self.write_field(f, s, version)))
        return WriterPlan(
            fn(s, self.suffix(s, version), "write"),
            s.name,
            self.what(s, version),
            tuple(absent),
            tuple(steps),
            self.m.flexible(version),
            tuple(tagged),
        )

    # -- the Construct reference --------------------------------------------------------------------------
    def construct_of(self, t: str, f: MessageField, version: int, nullable: bool) -> ConstructType:
        compact = self.m.flexible(version)
        if t in _CONSTRUCT:
            return ConstructType("int", _CONSTRUCT[t])
        if t in ("bool", "uuid"):
            return ConstructType(t)
        if t in ("string", "bytes"):
            return ConstructType("sized", string=t == "string", compact=compact, nullable=nullable)
        ref = f"{snake(t)}_v{version}"
        if nullable:
            return ConstructType("nullable_struct", ref, tagged=f.tagged_in(version))
        return ConstructType("struct", ref)

    def construct_field(self, f: MessageField, version: int) -> ConstructType:
        nullable = f.nullable_in(version)
        if f.type == "array":
            item = self.construct_of(f.items or "", f, version, False)
            return ConstructType("array", compact=self.m.flexible(version), nullable=nullable, item=item)
        return self.construct_of(f.type, f, version, nullable)

    def construct(self, s: MessageStruct, version: int) -> ConstructPlan:
        present = s.fields_in(version)
        flexible = self.m.flexible(version)
        return ConstructPlan(
            f"{snake(s.name)}_v{version}",
            s.name,
            tuple((f.name, self.construct_field(f, version)) for f in present if not f.tagged_in(version)),
            flexible,
            tuple(
                (f.tag, f.name, self.construct_field(f, version), self.default(f))
                for f in present
                if flexible and f.tagged_in(version) and f.tag is not None
            ),
            tuple((f.name, self.default(f)) for f in s.fields if version not in f.versions),
        )

    def run(self) -> MessagePlan:
        self.classes()
        order = self._dependency_order()
        for name in order:
            struct = self.m.structs[name]
            for group in self.groups(struct):
                for version in group:
                    self.labels[name, version] = "/".join(f"v{v}" for v in group)
                    self.suffixes[name, version] = f"v{group[0]}"
                self.plan.functions += [self.reader(struct, group[0]), self.writer(struct, group[0])]
        self.plan.shared = {v: self.suffixes[self.m.name, v] for v in self.m.versions}
        for version in self.m.versions:
            for name in order:
                self.plan.constructs.append(self.construct(self.m.structs[name], version))
        return self.plan


def plan_message(message: Message) -> MessagePlan:
    return MessagePlanner(message).run()
