"""Plan the codecs of one message-spec message (``kind: message``): for every version and every
structure in it, the statements of a straight-line reader and writer (no version test at run time:
one function per structure and group of versions that lay it out alike, named "v0/v2" in its errors
so that an error still names the version read), the typed NamedTuples, and the Construct definitions of the
reference codec.

Decisions made here, once: consecutive fixed-width fields (ints, float64, uuid) are read and written
by one precompiled ``struct.Struct``; arrays of fixed-width primitives by one ``unpack_from`` sized
by their count (checked against the bytes left first); strings, bytes, counts and tagged fields by
the bounds-checked helpers of :mod:`kafkaspec.codec.message_types`. Field locals are ``f_<name>``, so no
schema name can shadow the function's own ``buf``, ``pos`` and ``end``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kafkaspec.spec import snake
from kafkaspec.spec.message_model import MESSAGE_FIXED, Message, MessageField, MessageStruct, type_default
from kafkaspec.spec.types import FIELD_TYPES

from .naming import a

#: fixed-width types a struct run may hold (bool is read alone: only 0 and 1 are accepted)
_RUN = {k: v for k, v in MESSAGE_FIXED.items() if k != "bool"}
#: the Construct class of the fixed-width primitives that have one (bool and uuid have adapters)
_CONSTRUCT = {n: FIELD_TYPES[n].construct for n in MESSAGE_FIXED if FIELD_TYPES[n].construct}


@dataclass
class ClassPlan:
    name: str
    doc: str
    #: (name, annotation, default expression, doc)
    fields: list[tuple[str, str, str, str]]


@dataclass
class MessagePlan:
    message: Message
    snake: str
    classes: list[ClassPlan]
    #: name -> struct format of the precompiled fixed runs
    runs: dict[str, str] = field(default_factory=dict)
    #: source of every reader and writer function
    functions: list[str] = field(default_factory=list)
    versions: list[int] = field(default_factory=list)
    flexible: list[int] = field(default_factory=list)
    #: version -> name suffix of its top-level reader and writer (versions laid out alike share one)
    shared: dict[int, str] = field(default_factory=dict)
    #: the reference codec: one Construct definition per (structure, version), in dependency order
    constructs: list[str] = field(default_factory=list)


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
        """The versions of ``s`` grouped by layout: two versions whose reader and writer are the same
        once the version marks are blanked read and write the same bytes, so they share them. Nested
        structures are grouped first, so a call to one of them already names its group."""
        by_layout: dict[tuple[str, str], list[int]] = {}
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
        self,
        t: str,
        f: MessageField,
        s: MessageStruct,
        version: int,
        target: str,
        end: str,
        indent: str,
        nullable: bool,
    ) -> list[str]:
        """Statements reading one value of type ``t`` into ``target`` (not a fixed run)."""
        w = self.where(s, f, version)
        compact = self.m.flexible(version)
        if t == "string":
            return [
                f"{indent}{target}, pos = read_string(buf, pos, {end}, {w}, compact={compact}, nullable={nullable})"
            ]
        if t == "bytes":
            return [
                f"{indent}{target}, pos = read_bytes(buf, pos, {end}, {w}, compact={compact}, nullable={nullable})"
            ]
        if t == "bool":
            return [f"{indent}{target}, pos = read_bool(buf, pos, {end}, {w})"]
        if t == "uuid":
            return [f"{indent}{target}, pos = read_uuid(buf, pos, {end}, {w})"]
        if t in _RUN:
            run = self.run_name((t,))
            size = MESSAGE_FIXED[t][1]
            return [
                f"{indent}if {end} - pos < {size}:",
                f"{indent}    raise truncated({w}, pos, {size}, {end})",
                f"{indent}({target},) = {run}.unpack_from(buf, pos)",
                f"{indent}pos += {size}",
            ]
        reader = fn(self.m.structs[t], self.suffix(self.m.structs[t], version), "read")
        if nullable:
            # a nullable structure starts with a presence mark: int8 -1 (null) or 1; as a tagged
            # field, an unsigned varint 0 (null) or 1, as Kafka's generated code writes them
            null, mark = ("0x00", "uvarint 0") if f.tagged_in(version) else ("0xFF", "int8 -1")
            return [
                f"{indent}if pos >= {end}:",
                f"{indent}    raise truncated({w}, pos, 1, {end})",
                f"{indent}if buf[pos] == {null}:  # {mark}: null",
                f"{indent}    {target} = None",
                f"{indent}    pos += 1",
                f"{indent}elif buf[pos] == 1:",
                f"{indent}    {target}, pos = {reader}(buf, pos + 1, {end})",
                f"{indent}else:",
                f"{indent}    raise bad_presence({w}, buf[pos], pos)",
            ]
        return [f"{indent}{target}, pos = {reader}(buf, pos, {end})"]

    def read_field(self, f: MessageField, s: MessageStruct, version: int, end: str, indent: str) -> list[str]:
        target = f"f_{f.name}"
        nullable = f.nullable_in(version)
        if f.type != "array":
            return self.read_value(f.type, f, s, version, target, end, indent, nullable)
        w = self.where(s, f, version)
        item = f.items or ""
        # at least one byte per item, as Kafka's readers require (an item of no bytes would let a
        # hostile count loop without consuming input)
        lines = [
            f"{indent}n, pos = read_count(buf, pos, {end}, {w}, compact={self.m.flexible(version)}, nullable={nullable}, "
            f"min_size={max(self.min_size(item, version), 1)})"
        ]
        body = indent
        if nullable:
            lines += [f"{indent}if n == -1:", f"{indent}    {target} = None", f"{indent}else:"]
            body = indent + "    "
        if item == "uuid":
            lines += [
                f"{body}{target} = [UUID(bytes=bytes(buf[at : at + 16])) for at in range(pos, pos + 16 * n, 16)]",
                f"{body}pos += 16 * n",
            ]
        elif item in _RUN:
            fmt, size = MESSAGE_FIXED[item]
            lines += [
                f"{body}{target} = list(struct.unpack_from(f'>{{n}}{fmt}', buf, pos))",
                f"{body}pos += {size} * n",
            ]
        else:
            lines += [f"{body}{target} = []", f"{body}append = {target}.append", f"{body}for _ in range(n):"]
            lines += self.read_value(item, f, s, version, "item", end, body + "    ", False)
            lines += [f"{body}    append(item)"]
        return lines

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

    def reader(self, s: MessageStruct, version: int) -> str:
        present = s.fields_in(version)
        name = fn(s, self.suffix(s, version), "read")
        lines = [
            f"def {name}(buf, pos: int, end: int) -> tuple[{s.name}, int]:",
            f'    """Read {self.what(s, version)} at ``pos``, inside ``buf[:end]``."""',
        ]
        for run in self.runs_of(present, version):
            f = run[0]
            if f.type in _RUN and (len(run) > 1 or f.type == "uuid"):
                size = sum(MESSAGE_FIXED[g.type][1] for g in run)
                lines += [
                    f"    if end - pos < {size}:",
                    f"        raise truncated({self.where(s, f, version)}, pos, {size}, end)",
                    f"    {', '.join('f_' + g.name for g in run)}, = {self.run_name(tuple(g.type for g in run))}"
                    f".unpack_from(buf, pos)",
                    f"    pos += {size}",
                ]
                lines += [f"    f_{g.name} = UUID(bytes=f_{g.name})" for g in run if g.type == "uuid"]
            else:
                lines += self.read_field(f, s, version, "end", "    ")
        tagged = [f for f in present if f.tagged_in(version)]
        if self.m.flexible(version):
            w = repr(f"{self.m.name} {self.label(s, version)} {s.name} tagged fields")
            lines += [f"    f_{f.name} = {self.default(f)}" for f in tagged]
            if not tagged:
                lines.append(f"    unknown, pos = read_unknown_tags(buf, pos, end, {w})")
            else:
                lines += [
                    f"    n, pos = read_uvarint(buf, pos, end, {w})",
                    "    unknown = []",
                    "    seen = set()",
                    "    for _ in range(n):",
                    f"        tag, pos, stop = read_tag_header(buf, pos, end, {w})",
                    "        if tag in seen:",
                    f"            raise repeated_tag({w}, tag, pos)",
                    "        seen.add(tag)",
                ]
                keyword = "if"
                for f in tagged:
                    lines += [f"        {keyword} tag == {f.tag}:", "            start = pos"]
                    lines += self.read_field(f, s, version, "stop", "            ")
                    lines += [
                        "            if pos != stop:",
                        f"                raise tagged_size_mismatch({w}, tag, start, stop, pos)",
                    ]
                    keyword = "elif"
                lines += [
                    "        else:",
                    "            unknown.append((tag, bytes(buf[pos:stop])))",
                    "            pos = stop",
                ]
        args = []
        for f in s.fields:
            args.append(f"f_{f.name}" if version in f.versions else self.default(f))
        if self.has_unknown:
            args.append("unknown" if self.m.flexible(version) else "()")
        lines.append(f"    return {s.name}({', '.join(args)}), pos")
        return "\n".join(lines)

    # -- writers -------------------------------------------------------------------------------------
    def write_value(
        self, t: str, f: MessageField, s: MessageStruct, version: int, expr: str, indent: str, nullable: bool
    ) -> list[str]:
        w = self.where(s, f, version)
        compact = self.m.flexible(version)
        if t == "string":
            return [f"{indent}out.append(encode_string({expr}, {w}, compact={compact}, nullable={nullable}))"]
        if t == "bytes":
            return [f"{indent}out.append(encode_bytes({expr}, {w}, compact={compact}, nullable={nullable}))"]
        if t == "bool":
            return [f"{indent}out.append(b'\\x01' if {expr} else b'\\x00')"]
        if t == "uuid":
            return [f"{indent}out.append({expr}.bytes)"]
        if t in _RUN:
            return [f"{indent}out.append({self.run_name((t,))}.pack({expr}))"]
        writer = fn(self.m.structs[t], self.suffix(self.m.structs[t], version), "write")
        if nullable:
            null = "b'\\x00'" if f.tagged_in(version) else "b'\\xff'"
            return [
                f"{indent}if {expr} is None:",
                f"{indent}    out.append({null})",
                f"{indent}else:",
                f"{indent}    out.append(b'\\x01')",
                f"{indent}    {writer}({expr}, out)",
            ]
        return [f"{indent}{writer}({expr}, out)"]

    def write_field(self, f: MessageField, s: MessageStruct, version: int, indent: str) -> list[str]:
        expr = f"v.{f.name}"
        nullable = f.nullable_in(version)
        if f.type != "array":
            return self.write_value(f.type, f, s, version, expr, indent, nullable)
        w = self.where(s, f, version)
        item = f.items or ""
        lines = [
            f"{indent}out.append(encode_count({expr}, {w}, compact={self.m.flexible(version)}, nullable={nullable}))"
        ]
        body = indent
        if nullable:
            lines.append(f"{indent}if {expr} is not None:")
            body = indent + "    "
        if item == "uuid":
            lines.append(f"{body}out += [u.bytes for u in {expr}]")
        elif item in _RUN:
            fmt = MESSAGE_FIXED[item][0]
            lines.append(f"{body}out.append(struct.pack(f'>{{len({expr})}}{fmt}', *{expr}))")
        else:
            lines.append(f"{body}for item in {expr}:")
            lines += self.write_value(item, f, s, version, "item", body + "    ", False)
        return lines

    def writer(self, s: MessageStruct, version: int) -> str:
        present = s.fields_in(version)
        lines = [
            f"def {fn(s, self.suffix(s, version), 'write')}(v: {s.name}, out: list) -> None:",
            f'    """Append the bytes of {self.what(s, version)} to ``out``."""',
        ]
        for f in s.fields:
            if version not in f.versions:
                lines.append(f"    absent(v.{f.name}, {self.default(f)}, {self.where(s, f, version)})")
        if self.has_unknown and not self.m.flexible(version):
            lines.append(
                f"    absent(v.unknown_tagged_fields, (), {repr(f'{self.m.name} {self.label(s, version)} {s.name} tagged fields')})"
            )
        for run in self.runs_of(present, version):
            f = run[0]
            if f.type in _RUN and len(run) > 1:
                values = ", ".join(f"v.{g.name}.bytes" if g.type == "uuid" else f"v.{g.name}" for g in run)
                lines.append(f"    out.append({self.run_name(tuple(g.type for g in run))}.pack({values}))")
            else:
                lines += self.write_field(f, s, version, "    ")
        if self.m.flexible(version):
            lines.append("    tags = list(v.unknown_tagged_fields)")
            for f in (f for f in present if f.tagged_in(version)):
                default = self.default(f)
                test = {
                    "None": f"v.{f.name} is not None",
                    "False": f"v.{f.name}",
                    "True": f"not v.{f.name}",
                }.get(default, f"v.{f.name} != {default}")  # a bool is tested as itself (ruff E712)
                lines += [f"    if {test}:", "        outer, out = out, []"]
                lines += self.write_field(f, s, version, "        ")
                lines += [f"        tags.append(({f.tag}, b''.join(out)))", "        out = outer"]
            lines.append("    out.append(encode_tagged(tags))")
        return "\n".join(lines)

    # -- the Construct reference --------------------------------------------------------------------------
    def construct_of(self, t: str, f: MessageField, version: int, nullable: bool) -> str:
        compact = self.m.flexible(version)
        if t in _CONSTRUCT:
            return _CONSTRUCT[t]
        if t == "bool":
            return "KafkaBool"
        if t == "uuid":
            return "KafkaUuid"
        if t in ("string", "bytes"):
            return f"KafkaSized({t == 'string'}, compact={compact}, nullable={nullable})"
        ref = f"{snake(t)}_v{version}"
        if nullable:
            return f"NullableStruct({ref}, tagged=True)" if f.tagged_in(version) else f"NullableStruct({ref})"
        return ref

    def construct_field(self, f: MessageField, version: int) -> str:
        nullable = f.nullable_in(version)
        if f.type == "array":
            item = self.construct_of(f.items or "", f, version, False)
            return f"KafkaArray({item}, compact={self.m.flexible(version)}, nullable={nullable})"
        return self.construct_of(f.type, f, version, nullable)

    def construct(self, s: MessageStruct, version: int) -> str:
        present = s.fields_in(version)
        parts = [
            f"    {f.name!r} / {self.construct_field(f, version)},"
            for f in present
            if not f.tagged_in(version)
        ]
        if self.m.flexible(version):
            tagged = ", ".join(
                f"{f.tag}: ({f.name!r}, {self.construct_field(f, version)}, {self.default(f)})"
                for f in present
                if f.tagged_in(version)
            )
            parts.append(f"    'tagged_fields' / TaggedFields({{{tagged}}}),")
        absent = ", ".join(f"{f.name!r}: {self.default(f)}" for f in s.fields if version not in f.versions)
        return "\n".join(
            [
                f"{snake(s.name)}_v{version} = MessageStruct(",
                f"    {s.name},",
                "    Struct(",
                *("    " + p for p in parts),
                "    ),",
                f"    absent={{{absent}}},",
                ")",
            ]
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
