"""Plan the tracing decoders (``generated/trace/``): for every structure, the fields in wire order
as calls on a tracer that records each field's byte span (``kafkaspec explain`` renders them).

A tracing decoder reads one field at a time, slowly and plainly, so that every byte it consumes
belongs to exactly one recorded span; the fast codec stays what it is. The plan says, per field,
which tracer call reads it and with what: its wire type, its length or count prefix, the field a
length, count or checksum refers to, its bits and enum, the bases of a relative value, the codec
of a compressed region. The templates (``trace.py.j2``, ``trace_init.py.j2``) write the calls out.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from kafkaspec.spec import FIXED_TYPES, PREFIX_TYPES, VAR_TYPES, Dispatch, Field, SchemaSet, Struct, snake

from .naming import local, mask_value


@dataclass(frozen=True)
class TraceBits:
    """A bit field as the tracer names it: (name, lo, hi, enum class name or None, doc)."""

    name: str
    lo: int
    hi: int
    enum: str | None
    doc: str


@dataclass(frozen=True)
class TraceField:
    """One field of a tracing decoder."""

    f: Field
    local: str
    #: int (fixed-width or varint) | bytes | array | struct
    kind: str
    #: bytes/array: int16 | int32 | varint | uvarint (a prefix read in place), ref (an earlier
    #: field's value), rest (to the end of the structure); "" for the others
    prefix: str = ""
    #: prefix "ref": the local holding the length or count
    ref: str = ""
    #: array/struct: the item's trace module and function, its smallest encoded size
    item_module: str = ""
    item_function: str = ""
    item_name: str = ""
    item_min_size: int = 1
    #: array: the item's relative bases, as (keyword, local of this structure)
    bases: list[tuple[str, str]] = field(default_factory=list)
    #: array: expression giving the codec of a compressed region ("" when never compressed)
    codec_expr: str = ""
    codec_magic: int = 2
    #: int: the bit fields, and the enum of the whole value
    bits: list[TraceBits] = field(default_factory=list)
    enum: str | None = None
    #: relative int: the base keyword and the exposed (absolute) name
    base: str = ""
    exposed: str = ""


@dataclass(frozen=True)
class TracePlan:
    """Everything ``trace.py.j2`` writes for one structure."""

    s: Struct
    class_name: str
    snake: str
    module: str
    fields: list[TraceField]
    bases: list[str]
    #: the values of the fast codec's NamedTuple, in order, over the tracer's locals
    values: list[str]
    #: enums the module names (bit fields and enum-typed integers)
    enums: list[str]
    #: item trace modules this one calls
    item_modules: list[str]
    min_size: int


@dataclass(frozen=True)
class TraceFormat:
    """One ``--format`` name and what it decodes: a structure or a dispatch between structures."""

    name: str
    module: str  # trace module of a structure, or "" for a dispatch
    function: str
    doc: str
    #: a dispatch: the discriminator's offset, struct format and the cases (value, module, function)
    offset: int = 0
    fmt: str = ""
    cases: list[tuple[int, str, str]] = field(default_factory=list)
    #: a headed structure (a log or wire entry, found by its discriminator) or a dispatch
    headed: bool = False


def format_name(s: Struct | Dispatch) -> str:
    """``record-batch-v2``, ``message-v0``, ``log-entry``: the module name with dashes."""
    return s.module.replace("_", "-")


class TracePlanner:
    def __init__(self, schemas: SchemaSet, min_size: Callable[[Struct], int]):
        self.schemas = schemas
        self.min_size = min_size

    def item(self, ref: str) -> tuple[str, str, str, int, list[str]]:
        s = self.schemas.resolve(ref)
        bases = sorted({f.relative_to.base for f in s.fields if f.relative_to})
        return s.module, f"trace_{snake(s.name)}", s.name, self.min_size(s), bases

    def plan(self, s: Struct) -> TracePlan:
        out: list[TraceField] = []
        for f in s.fields:
            name = local(f.name)
            if f.type in FIXED_TYPES or f.type in VAR_TYPES:
                bits = [TraceBits(b.name, b.lo, b.hi, b.enum, b.doc) for b in f.bits]
                rel = f.relative_to
                out.append(
                    TraceField(
                        f,
                        name,
                        "int",
                        bits=bits,
                        enum=f.enum,
                        base=rel.base if rel else "",
                        exposed=rel.as_name if rel else "",
                    )
                )
            elif f.type in ("bytes", "string"):
                out.append(TraceField(f, name, "bytes", *self.prefix(f.prefix)))
            elif f.type == "array":
                module, function, item_name, least, bases = self.item(f.item_type)
                codec = ""
                if f.compressed_by:
                    bit = next(
                        b for b in s.field(f.compressed_by.field).bits if b.name == f.compressed_by.bit
                    )
                    codec = mask_value(local(f.compressed_by.field), bit)
                magic = next((g.const for g in s.fields if g.name == "magic" and g.const is not None), 2)
                out.append(
                    TraceField(
                        f,
                        name,
                        "array",
                        *self.prefix(f.count or f.size or "rest"),
                        item_module=module,
                        item_function=function,
                        item_name=item_name,
                        item_min_size=least,
                        bases=[(b, local(f.relative_bases.get(b, b))) for b in bases],
                        codec_expr=codec,
                        codec_magic=magic,
                    )
                )
            else:
                if not f.type[:1].isupper():  # a wire type this planner does not know yet: say so, here
                    raise ValueError(
                        f"{s.ref} field {f.name!r}: type {f.type!r} has no tracing decoder "
                        "(teach codegen/plan_trace.py and kafkaspec/explain/tracer.py to read it)"
                    )
                module, function, item_name, least, _ = self.item(f.type)
                out.append(
                    TraceField(
                        f,
                        name,
                        "struct",
                        item_module=module,
                        item_function=function,
                        item_name=item_name,
                        item_min_size=least,
                    )
                )
        exposed = [f for f in s.fields if not (f.length_of or f.count_of)]
        values = [
            f"{f.relative_to.base} + {local(f.name)}" if f.relative_to else local(f.name) for f in exposed
        ]
        enums = sorted(
            {b.enum for f in s.fields for b in f.bits if b.enum} | {f.enum for f in s.fields if f.enum}
        )
        return TracePlan(
            s=s,
            class_name=s.name,
            snake=snake(s.name),
            module=s.module,
            fields=out,
            bases=sorted({f.relative_to.base for f in s.fields if f.relative_to}),
            values=values,
            enums=enums,
            item_modules=sorted({t.item_module for t in out if t.item_module and t.item_module != s.module}),
            min_size=self.min_size(s),
        )

    @staticmethod
    def prefix(prefix: str) -> tuple[str, str]:
        if prefix in PREFIX_TYPES or prefix == "rest":
            return prefix, ""
        return "ref", local(prefix)

    def formats(self) -> list[TraceFormat]:
        """Every structure and dispatch as a ``--format`` name, structures by module order."""
        out = []
        for s in sorted(self.schemas.structs.values(), key=lambda s: s.module):
            if s.status == "proposal":
                continue
            out.append(
                TraceFormat(
                    format_name(s),
                    s.module,
                    f"trace_{snake(s.name)}",
                    " ".join(s.doc.split()),
                    headed=s.discriminator is not None,
                )
            )
        for d in sorted(self.schemas.dispatches, key=lambda d: d.module):
            cases = [
                (value, self.schemas.resolve(ref).module, f"trace_{snake(self.schemas.resolve(ref).name)}")
                for value, ref in sorted(d.cases.items())
            ]
            out.append(
                TraceFormat(
                    format_name(d),
                    "",
                    "",
                    " ".join(d.doc.split()),
                    offset=d.offset,
                    fmt=">" + FIXED_TYPES[d.type][0],
                    cases=cases,
                    headed=True,
                )
            )
        return out
