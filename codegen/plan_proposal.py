"""Plan the codecs of proposal structures (``schemas/proposals/``, ``status: proposal``): the KIP-98
draft's message set and message, which the wire formats never used.

Proposals use two features of the schema language that no wire structure has: optional fields
(``present_if: attributes.null_key == 0``) and arrays sized in bytes (``size: rest``), plus a
checksum that trails the fields it covers. Their codecs are straight-line: one reader and one
writer per structure, field by field, with no columnar or batched path (a proposal is decoded for
review and tests, never in bulk). The main planner (:mod:`codegen.plan`) keeps its fixed-presence
fast paths; this module plans only what proposals need and refuses anything else with a clear
error, so a new proposal feature fails at generation time, not in the generated code.

What the plan decides, per field: how it is read and written (``kind``), the Python condition of
its presence over the decoded locals, what a ``rest`` length leaves for the fixed-width fields
after it, which ranges the length and checksum fields cover, and which presence bits the writer
derives from a value being None (a bytes field present when ``bit == 0`` is null exactly when
the bit is set, as the draft says of the key and value).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kafkaspec.spec import FIXED_TYPES, Bit, Field, SchemaSet, Struct, snake
from kafkaspec.spec.types import FIELD_TYPES

from .naming import const_name, mask_value
from .plan import Planner


def _loc(name: str) -> str:
    """The local variable of a field in the generated reader and writer (never a parameter's name)."""
    return f"f_{name}"


class ProposalPlanError(ValueError):
    """A proposal uses a feature this planner does not generate."""


@dataclass
class PField:
    f: Field
    name: str
    local: str
    #: fixed, uvarint, bytes or array
    kind: str
    #: "Kip98Message.key": what errors name
    where: str
    #: struct format of a fixed-width field (">q") and its size
    fmt: str = ""
    size: int = 0
    #: Python condition (over decoded locals) for the field to be on the wire; "" = always
    cond: str = ""
    #: the same over a Construct context (``this``)
    cond_this: str = ""
    #: bytes: the local holding its length, or "" to run to the fixed-width fields after it
    length_local: str = ""
    #: bytes/array: bytes of the fixed-width fields after it ("rest" stops before them)
    trailing: int = 0
    #: index of the last field a length field covers (the structure's end) and of its first
    covers_from: int = -1
    #: a checksum: its algorithm, the index range [first, last] it covers, and whether it leads
    checksum_from: int = -1
    checksum_to: int = -1
    leading_checksum: bool = False
    #: a length field hidden from the typed value: the bytes field whose length it holds
    length_for: str = ""
    #: exposed in the typed value (and its name there and default)
    exposed: bool = True
    exposed_name: str = ""
    default: str = "0"
    hint: str = "int"
    #: the doc of the exposed value (a relative field's says it is absolute)
    doc: str = ""
    #: a relative field: the base parameter it is stored against
    base: str = ""
    #: array: the item structure's codec (snake name, module, class) and how its bases are passed
    item_snake: str = ""
    item_module: str = ""
    item_class: str = ""
    item_bases: list[tuple[str, str]] = field(default_factory=list)
    #: array: expression (over decoded locals) of its codec, "" = never compressed
    codec: str = ""
    #: bytes: (owner local, bit mask) of the presence bit the writer sets when the value is None
    null_bit: tuple[str, str] | None = None
    #: Construct type of a fixed-width field
    construct: str = ""


@dataclass
class ProposalPlan:
    s: Struct
    name: str
    snake: str
    module: str
    fields: list[PField]
    bases: list[str]
    exposed: list[PField]
    #: fields whose length field or checksum comes first in encode: (index, kind)
    checksums: list[PField]
    lengths: list[PField]
    #: the presence bits the writer derives, per owner local: [(mask name, value local)]
    derived_bits: dict[str, list[tuple[str, str]]]
    #: every bit field, whose ``<BIT>_MASK`` and ``<BIT>_SHIFT`` the module declares: (owner field, bit)
    masks: list[tuple[str, Bit]]
    items: list[tuple[str, str, str]]
    #: the Construct layout: nested groups of field indexes (see :func:`construct_layout`)
    layout: list
    uses_codec: bool = False


def _bit(s: Struct, owner: str, bit: str) -> Bit:
    b = next(b for b in s.field(owner).bits if b.name == bit)
    if b.hi != b.lo:
        raise ProposalPlanError(f"{s.name}: present_if names {owner}.{bit}, which is more than one bit wide")
    return b


def _present(value: str, b: Bit, when: int) -> str:
    """The condition that one-bit flag ``b`` of ``value`` is ``when`` (0 or 1), by its named mask."""
    return f"{value} & {const_name(b.name)}_MASK {'!=' if when else '=='} 0"


def plan_proposal(s: Struct, schemas: SchemaSet) -> ProposalPlan:
    names = [f.name for f in s.fields]
    length_refs = {f.length: f.name for f in s.fields if f.type in ("bytes", "string") and f.length in names}
    pfs: list[PField] = []
    for i, f in enumerate(s.fields):
        where = f"{s.name}.{f.name}"
        pf = PField(
            f, f.name, _loc(f.name), "", where, exposed_name=f.exposed_name, doc=Planner.exposed_doc(f)
        )
        if f.present_if:
            pf.cond = " and ".join(_present(_loc(o), _bit(s, o, b), v) for o, b, v in f.present_if)
            pf.cond_this = " and ".join(_present(f"this.{o}", _bit(s, o, b), v) for o, b, v in f.present_if)
        if f.fixed:
            pf.kind, pf.size = "fixed", FIXED_TYPES[f.type][1]
            pf.fmt = ">" + FIXED_TYPES[f.type][0]
            pf.construct = FIELD_TYPES[f.type].construct
        elif f.type == "uvarint":
            pf.kind = "uvarint"
        elif f.type == "bytes":
            pf.kind, pf.default, pf.hint = "bytes", "None", "bytes | None"
            if f.length in names:
                pf.length_local = _loc(f.length)
            elif f.length != "rest":
                raise ProposalPlanError(
                    f"{where}: a proposal's bytes need a length field or 'rest', not {f.length!r}"
                )
            if len(f.present_if) == 1 and f.present_if[0].value == 0:
                o, b, _ = f.present_if[0]
                pf.null_bit = (_loc(o), f"{const_name(_bit(s, o, b).name)}_MASK")
        elif f.type == "array" and f.size == "rest":
            item = schemas.resolve(f.item_type)
            pf.kind, pf.default, pf.hint = "array", "()", "Sequence"
            pf.item_snake, pf.item_module, pf.item_class = snake(item.name), item.module, item.name
            pf.item_bases = [
                (b, _loc(f.relative_bases.get(b, b)))
                for b in sorted({x.relative_to.base for x in item.fields if x.relative_to})
            ]
            if f.compressed_by:
                owner, bit_name = f.compressed_by
                codec_bit = next(b for b in s.field(owner).bits if b.name == bit_name)
                pf.codec = mask_value(_loc(owner), codec_bit)
        else:
            raise ProposalPlanError(
                f"{where}: type {f.type!r} (size {f.size!r}) is not generated for proposals"
            )
        if f.type in ("bytes", "array"):
            # "rest" (or a bytes field whose length field is absent) stops before the fixed-width
            # fields after it; a later variable-size field must be optional (absent whenever this
            # one runs to the rest: the reader's end check catches a layout that breaks this)
            later = s.fields[i + 1 :]
            if any(not x.fixed and not x.present_if for x in later):
                raise ProposalPlanError(
                    f"{where}: a field running to the rest must be followed by fixed-width "
                    "or optional fields only"
                )
            pf.trailing = sum(FIXED_TYPES[x.type][1] for x in later if x.fixed and not x.present_if)
        if f.length_of:
            if f.length_of.end != "end" or f.length_of.start != (
                names[i + 1] if i + 1 < len(names) else None
            ):
                raise ProposalPlanError(f"{where}: a length must cover the next field to the end")
            if f.present_if:
                raise ProposalPlanError(f"{where}: a length field cannot be optional")
            pf.covers_from, pf.exposed = i + 1, False
        if f.checksum:
            if f.checksum.algorithm != "crc32":
                raise ProposalPlanError(f"{where}: only crc32 checksums are generated for proposals")
            pf.checksum_from = names.index(f.checksum.start)
            pf.checksum_to = len(names) - 1 if f.checksum.end == "end" else names.index(f.checksum.end)
            pf.leading_checksum = f.checksum.end == "end"
            if not pf.leading_checksum and pf.checksum_to != i - 1:
                raise ProposalPlanError(f"{where}: a trailing checksum must follow the last field it covers")
            pf.default, pf.hint = "None", "int | None"
        if f.name in length_refs:
            pf.length_for, pf.exposed = length_refs[f.name], False
        if f.relative_to:
            pf.base, pf.default, pf.hint = f.relative_to.base, "None", "int | None"
            if f.type != "uvarint" or f.relative_to.default != "index":
                raise ProposalPlanError(
                    f"{where}: relative fields of proposals are uvarints defaulting to the index"
                )
        if f.const is not None:
            pf.default = repr(f.const)
        elif f.has_default and pf.kind in ("fixed", "uvarint") and not f.relative_to and not f.checksum:
            pf.default = repr(f.default)
        pfs.append(pf)
    derived: dict[str, list[tuple[str, str]]] = {}
    for pf in pfs:
        if pf.null_bit:
            derived.setdefault(pf.null_bit[0], []).append((pf.null_bit[1], pf.local))
    bases = sorted({f.relative_to.base for f in s.fields if f.relative_to})
    items = sorted({(pf.item_snake, pf.item_module, pf.item_class) for pf in pfs if pf.kind == "array"})
    return ProposalPlan(
        s=s,
        name=s.name,
        snake=snake(s.name),
        module=s.module,
        fields=pfs,
        bases=bases,
        exposed=[pf for pf in pfs if pf.exposed],
        checksums=[pf for pf in pfs if pf.checksum_from >= 0],
        lengths=[pf for pf in pfs if pf.covers_from >= 0],
        derived_bits=derived,
        masks=[(f.name, b) for f in s.fields for b in f.bits],
        items=items,
        layout=construct_layout(pfs),
        uses_codec=any(pf.codec for pf in pfs),
    )


def construct_layout(pfs: list[PField]) -> list:
    """The Construct nesting of a structure's fields, as a list of entries: a field index, or
    ``("sized", length index, [entries])`` for the fields a length covers (a ``FixedSized``), or
    ``("covered", checksum index, [entries])`` for the fields a checksum covers (a ``RawCopy``, whose
    bytes the reference checks). Ranges must nest: a checksum range inside a length range."""

    def build(lo: int, hi: int, inside: tuple[int, ...] = ()) -> list:
        out: list = []
        i = lo
        while i <= hi:
            pf = pfs[i]
            cover = next(
                (
                    c
                    for c in pfs
                    if c.checksum_from == i and c.checksum_to <= hi and pfs.index(c) not in inside
                ),
                None,
            )
            if cover is not None:
                out.append(
                    ("covered", pfs.index(cover), build(i, cover.checksum_to, (*inside, pfs.index(cover))))
                )
                i = cover.checksum_to + 1
                continue
            out.append(i)
            if pf.covers_from >= 0:
                out.append(("sized", i, build(pf.covers_from, len(pfs) - 1, inside)))
                return out
            i += 1
        return out

    return build(0, len(pfs) - 1)
