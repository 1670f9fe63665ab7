"""Structural diff of two schema versions, each change classified under docs/review-rules.md.
One module because the rules and the field matching they apply to are one algorithm (renderers: 40 lines).

Fields are matched by name; an unmatched old field and an unmatched new field
of the same type at the same fixed byte offset (or, for variable-size fields,
the same position) are a rename. Matched fields whose relative order changed
are "moved" (the fields outside the longest run kept in order).
"""

from __future__ import annotations

from dataclasses import dataclass

from kafkaspec.spec import Enum, Field, Struct

# Rule ids, as written in docs/review-rules.md.
SAME_LAYOUT = "W1"  # within a version, the byte layout never changes
SAME_COMPUTED = "W2"  # within a version, constants, checksums and lengths never change
BITS = "W3"  # within a version, bits are only ever added, in unused positions
NAMES = "N1"  # renames are wire-compatible
DOCS = "D1"  # doc, since and default edits are compatible
ENUM_VALUES = "E1"  # enum values are only added
MAGIC_AT = "V1"  # the discriminator (magic byte) stays where it is
PREFIX = "V2"  # every field before the magic byte is unchanged
AFTER_MAGIC = "V3"  # a new version may change anything after the magic byte
NO_MAGIC = "V4"  # a new version of a structure without a magic byte is chosen by its container
PROPOSAL = "P1"  # a proposal has no readers
# message-spec schemas (schemas/messages/, every version in one file; kafkaspec.review.message_diff)
SAME_VERSION = "M1"  # a version the message already has never changes on the wire
NEW_VERSION = "M2"  # a new version may change anything: readers know its number
NEW_TAG = "M3"  # tagged fields may be added to flexible versions: readers keep unknown tags
KEEP_VERSIONS = "M4"  # versions are never dropped: old data holds them

RULE_TEXT = {
    SAME_LAYOUT: "within a version a field is never added, removed, moved, retyped or shifted",
    SAME_COMPUTED: "within a version constants, checksums, lengths and relative fields never change",
    BITS: "within a version bits are only assigned in unused positions",
    NAMES: "a rename changes no byte on the wire",
    DOCS: "doc, since and default edits change no byte on the wire",
    ENUM_VALUES: "enum values may be added, never removed or renumbered",
    MAGIC_AT: "the magic byte stays at its offset (16 for log entries)",
    PREFIX: "every field before the magic byte keeps its position, width and meaning",
    AFTER_MAGIC: "a new version may change anything after the magic byte",
    NO_MAGIC: "a new version of a structure without a magic byte is chosen by its container's version",
    PROPOSAL: "a proposal is never on the wire, so it has no readers to break",
    SAME_VERSION: "a version the message already has keeps its untagged fields, their order, types and "
    "nullability, its flexibility and its tags",
    NEW_VERSION: "a new version may add, remove or change fields: readers choose the layout by its number",
    NEW_TAG: "a tagged field may be added to existing flexible versions: readers keep unknown tags",
    KEEP_VERSIONS: "a version is never dropped: logs written with it are still read",
}


@dataclass(frozen=True)
class Change:
    kind: str  # added removed renamed retyped moved shifted const bits enum checksum length doc since default ...
    field: str  # field (or "field.bit", "Enum.value"); "" for the structure itself
    detail: str
    breaking: bool
    rule: str


@dataclass
class Diff:
    old_label: str
    new_label: str
    mode: str  # "same version", "new version", "enums"
    changes: list[Change]

    @property
    def breaking(self) -> list[Change]:
        return [c for c in self.changes if c.breaking]

    @property
    def verdict(self) -> str:
        return "breaking" if self.breaking else "compatible"


def type_text(f: Field) -> str:
    if f.type in ("bytes", "string"):
        return f"{f.type}({f.length}{', nullable' if f.nullable else ''})"
    if f.type == "array":
        return f"array<{f.items}>({f.count or 'size ' + str(f.size)})"
    return f.type


def _at(offs: dict[str, int], name: str) -> str:
    return f" at byte {offs[name]}" if name in offs else ""


def _lis_keep(seq: list[int]) -> set[int]:
    """Indexes (into seq) of a longest increasing subsequence."""
    tails: list[int] = []  # index into seq of the smallest tail of each length
    prev: list[int | None] = [None] * len(seq)
    for i, v in enumerate(seq):
        lo, hi = 0, len(tails)
        while lo < hi:
            mid = (lo + hi) // 2
            if seq[tails[mid]] < v:
                lo = mid + 1
            else:
                hi = mid
        prev[i] = tails[lo - 1] if lo else None
        if lo == len(tails):
            tails.append(i)
        else:
            tails[lo] = i
    keep: set[int] = set()
    k = tails[-1] if tails else None
    while k is not None:
        keep.add(k)
        k = prev[k]
    return keep


class _Classifier:
    """Decides compatible/breaking for a change, given where it happens."""

    def __init__(self, old: Struct, new: Struct):
        self.same_version = old.name == new.name and old.version == new.version
        # a proposal has no readers, but a new version is still held to the prefix rule
        self.proposal = old.status == "proposal" and self.same_version
        self.old_offs, self.new_offs = old.fixed_offsets(), new.fixed_offsets()
        self.magic_old = old.discriminator
        self.magic_new = new.discriminator

    @property
    def mode(self) -> str:
        return "same version" if self.same_version else "new version"

    def before_magic(self, old_name: str | None, new_name: str | None) -> bool:
        for disc, offs, name in (
            (self.magic_old, self.old_offs, old_name),
            (self.magic_new, self.new_offs, new_name),
        ):
            if disc and name and name in offs and offs[name] < disc[1]:
                return True
        return False

    def layout(self, old_name: str | None, new_name: str | None, kind: str) -> tuple[bool, str]:
        """A change to the bytes of a field."""
        if self.proposal:
            return False, PROPOSAL
        if self.same_version:
            return True, SAME_COMPUTED if kind in (
                "const",
                "checksum",
                "length",
                "relative",
                "present",
                "compressed",
            ) else SAME_LAYOUT
        if not (self.magic_old or self.magic_new):
            return False, NO_MAGIC
        if self.before_magic(old_name, new_name):
            return True, PREFIX
        return False, AFTER_MAGIC


def _field_changes(o: Field, n: Field, cls: _Classifier) -> list[Change]:
    out: list[Change] = []
    name = n.name

    def add(kind: str, detail: str, wire: bool = True, breaking: bool | None = None, rule: str | None = None):
        if wire:
            b, r = cls.layout(o.name, n.name, kind)
        else:
            b, r = False, DOCS
        out.append(Change(kind, name, detail, b if breaking is None else breaking, rule or r))

    if type_text(o) != type_text(n):
        add("retyped", f"type {type_text(o)} -> {type_text(n)}")
    if o.const != n.const:
        add("const", f"constant {o.const} -> {n.const}")
    if o.enum != n.enum:
        add("enum", f"enum {o.enum} -> {n.enum}")
    if o.checksum != n.checksum:
        add("checksum", f"checksum {_checksum_text(o)} -> {_checksum_text(n)}")
    if (o.length_of is None) != (n.length_of is None) or (
        o.length_of and n.length_of and not _same_start(o.length_of.start, n.length_of.start, cls)
    ):
        add("length", f"length covers {_cover(o)} -> {_cover(n)}")
    if o.relative_to != n.relative_to:
        add("relative", f"relative_to {_plain(o.relative_to)} -> {_plain(n.relative_to)}")
    if o.present_if != n.present_if:
        add("present", f"present_if {_present(o)} -> {_present(n)}")
    if o.compressed_by != n.compressed_by:
        add("compressed", f"compressed_by {_plain(o.compressed_by)} -> {_plain(n.compressed_by)}")
    out += _bit_changes(o, n, cls)
    if o.default != n.default:
        add("default", f"default {o.default!r} -> {n.default!r}", wire=False)
    if o.since != n.since:
        add("since", f"since {o.since} -> {n.since}", wire=False)
    if o.doc != n.doc:
        add("doc", doc_change(o.doc, n.doc), wire=False)
    return out


def _same_start(old_from: str, new_from: str, cls: _Classifier) -> bool:
    """Two length fields cover the same bytes when they start at the same field or byte offset."""
    if old_from == new_from:
        return True
    a, b = cls.old_offs.get(old_from), cls.new_offs.get(new_from)
    return a is not None and a == b


def _cover(f: Field) -> str:
    return f"{f.length_of.start}..end" if f.length_of else "nothing"


def _checksum_text(f: Field) -> str:
    return f"{f.checksum.algorithm} over {f.checksum.start}..{f.checksum.end}" if f.checksum else "none"


def _plain(ref: tuple | None) -> tuple | None:
    """A field reference as a plain tuple, as the diff has always printed it: ``('base_offset', 'offset', 'index')``."""
    return None if ref is None else tuple(ref)


def _present(f: Field) -> str:
    return " and ".join(f"{o}.{b} == {v}" for o, b, v in f.present_if) or "always"


def _bit_changes(o: Field, n: Field, cls: _Classifier) -> list[Change]:
    out: list[Change] = []
    old_bits = {b.name: b for b in o.bits}
    new_bits = {b.name: b for b in n.bits}
    by_pos_old = {(b.lo, b.hi): b for b in o.bits}
    renamed: dict[str, str] = {}
    for name, b in new_bits.items():
        if (
            name not in old_bits
            and (b.lo, b.hi) in by_pos_old
            and by_pos_old[(b.lo, b.hi)].name not in new_bits
        ):
            renamed[by_pos_old[(b.lo, b.hi)].name] = name
    used_old = 0
    for b in o.bits:
        used_old |= b.mask

    def wire(kind: str) -> tuple[bool, str]:
        b, r = cls.layout(o.name, n.name, kind)
        return b, (BITS if r in (SAME_LAYOUT, SAME_COMPUTED) else r)

    for old_name, new_name in renamed.items():
        out.append(
            Change("renamed", f"{n.name}.{new_name}", f"bit field {old_name} -> {new_name}", False, NAMES)
        )
    for name, b in new_bits.items():
        if name in old_bits or name in renamed.values():
            continue
        bits = _bits_text(b)
        if b.mask & used_old:
            brk, rule = wire("bits")
            out.append(
                Change(
                    "bits",
                    f"{n.name}.{name}",
                    f"bit field added at {bits}, over bits that had another meaning",
                    brk,
                    rule,
                )
            )
        else:
            rule = (
                PROPOSAL
                if cls.proposal
                else (BITS if cls.same_version else cls.layout(o.name, n.name, "bits")[1])
            )
            brk = False if rule in (BITS, PROPOSAL) else cls.layout(o.name, n.name, "bits")[0]
            out.append(
                Change(
                    "bits", f"{n.name}.{name}", f"bit field added at {bits} (previously unused)", brk, rule
                )
            )
    for name, b in old_bits.items():
        if name in new_bits or name in renamed:
            continue
        brk, rule = wire("bits")
        out.append(Change("bits", f"{o.name}.{name}", f"bit field removed from {_bits_text(b)}", brk, rule))
    for name, b in old_bits.items():
        nb = new_bits.get(renamed.get(name, name))
        if nb is None:
            continue
        label = f"{n.name}.{nb.name}"
        if (b.lo, b.hi) != (nb.lo, nb.hi):
            brk, rule = wire("bits")
            out.append(
                Change("bits", label, f"bit field moved {_bits_text(b)} -> {_bits_text(nb)}", brk, rule)
            )
        if b.enum != nb.enum:
            brk, rule = wire("bits")
            out.append(Change("enum", label, f"enum {b.enum} -> {nb.enum}", brk, rule))
        if b.doc != nb.doc:
            out.append(Change("doc", label, doc_change(b.doc, nb.doc), False, DOCS))
        if b.since != nb.since:
            out.append(Change("since", label, f"since {b.since} -> {nb.since}", False, DOCS))
    return out


def doc_change(old: str, new: str, width: int = 48) -> str:
    """'doc: "...old words..." -> "...new words..."', cut to the part that differs."""
    start = 0
    while start < min(len(old), len(new)) and old[start] == new[start]:
        start += 1
    start = max(0, old.rfind(" ", 0, start) + 1)

    def cut(text: str) -> str:
        part = text[start:]
        part = part if len(part) <= width else part[: width - 3] + "..."
        return ("..." if start else "") + part

    return f'doc "{cut(old)}" -> "{cut(new)}"'


def _bits_text(b) -> str:
    return f"bit {b.lo}" if b.lo == b.hi else f"bits {b.lo}-{b.hi}"


def diff_structs(old: Struct, new: Struct, old_label: str = "", new_label: str = "") -> Diff:
    cls = _Classifier(old, new)
    changes: list[Change] = []
    old_label = old_label or f"{old.name} v{old.version}"
    new_label = new_label or f"{new.name} v{new.version}"

    # structure-level
    if cls.magic_old != cls.magic_new:
        if cls.proposal:
            brk, rule = False, PROPOSAL
        elif cls.magic_old and cls.magic_new and cls.magic_old.offset == cls.magic_new.offset:
            brk, rule = False, NAMES
        else:
            brk, rule = True, MAGIC_AT
        detail = f"discriminator {_plain(cls.magic_old)} -> {_plain(cls.magic_new)}"
        changes.append(Change("discriminator", "", detail, brk, rule))
    if old.status != new.status:
        changes.append(Change("status", "", f"status {old.status} -> {new.status}", False, DOCS))
    if old.since != new.since:
        changes.append(Change("since", "", f"since {old.since} -> {new.since}", False, DOCS))
    if old.doc != new.doc:
        changes.append(Change("doc", "", "structure doc text edited", False, DOCS))

    # match fields: by name, then renames
    old_names = [f.name for f in old.fields]
    new_names = [f.name for f in new.fields]
    pairs: dict[str, str] = {n: n for n in old_names if n in new_names}
    un_old = [f for f in old.fields if f.name not in pairs]
    un_new = [f for f in new.fields if f.name not in pairs.values()]
    for of in list(un_old):
        for nf in un_new:
            same_type = type_text(of) == type_text(nf)
            o_at, n_at = cls.old_offs.get(of.name), cls.new_offs.get(nf.name)
            if o_at is not None or n_at is not None:
                match = same_type and o_at == n_at
            else:
                match = same_type and old_names.index(of.name) == new_names.index(nf.name)
            if match:
                pairs[of.name] = nf.name
                un_old.remove(of)
                un_new.remove(nf)
                changes.append(Change("renamed", nf.name, f"renamed {of.name} -> {nf.name}", False, NAMES))
                break

    for nf in un_new:
        brk, rule = cls.layout(None, nf.name, "added")
        changes.append(
            Change("added", nf.name, f"added {type_text(nf)}{_at(cls.new_offs, nf.name)}", brk, rule)
        )
    for of in un_old:
        brk, rule = cls.layout(of.name, None, "removed")
        changes.append(
            Change("removed", of.name, f"removed {type_text(of)}{_at(cls.old_offs, of.name)}", brk, rule)
        )

    # order and byte positions of matched fields
    common = [n for n in old_names if n in pairs]
    seq = [new_names.index(pairs[n]) for n in common]
    keep = _lis_keep(seq)
    moved = {common[i] for i in range(len(common)) if i not in keep}
    for on in common:
        nn = pairs[on]
        o_at, n_at = cls.old_offs.get(on), cls.new_offs.get(nn)
        where = ""
        if o_at != n_at:
            where = f"byte {o_at if o_at is not None else 'variable'} -> {n_at if n_at is not None else 'variable'}"
        if on in moved:
            prev = new_names[new_names.index(nn) - 1] if new_names.index(nn) else None
            detail = f"moved {'after ' + prev if prev else 'to the start'}" + (f" ({where})" if where else "")
            brk, rule = cls.layout(on, nn, "moved")
            changes.append(Change("moved", nn, detail, brk, rule))
        elif where:
            brk, rule = cls.layout(on, nn, "shifted")
            changes.append(Change("shifted", nn, f"position {where}", brk, rule))
        changes += _field_changes(old.field(on), new.field(nn), cls)
    return Diff(old_label, new_label, cls.mode, changes)


def diff_enums(old: dict[str, Enum], new: dict[str, Enum], old_label: str, new_label: str) -> Diff:
    changes: list[Change] = []
    for name in sorted(set(old) | set(new)):
        if name not in new:
            changes.append(Change("removed", name, "enum removed", True, ENUM_VALUES))
            continue
        if name not in old:
            changes.append(Change("added", name, "enum added", False, ENUM_VALUES))
            continue
        o, n = old[name], new[name]
        ov = {v.name: v for v in o.values}
        nv = {v.name: v for v in n.values}
        o_by_value = {v.value: v for v in o.values}
        for v in n.values:
            label = f"{name}.{v.name}"
            if v.name in ov:
                if ov[v.name].value != v.value:
                    changes.append(
                        Change(
                            "renumbered", label, f"value {ov[v.name].value} -> {v.value}", True, ENUM_VALUES
                        )
                    )
                if ov[v.name].doc != v.doc:
                    changes.append(Change("doc", label, "doc text edited", False, DOCS))
                if ov[v.name].since != v.since:
                    changes.append(
                        Change("since", label, f"since {ov[v.name].since} -> {v.since}", False, DOCS)
                    )
            elif v.value in o_by_value and o_by_value[v.value].name not in nv:
                changes.append(
                    Change(
                        "renamed",
                        label,
                        f"renamed {o_by_value[v.value].name} -> {v.name} (value {v.value})",
                        False,
                        NAMES,
                    )
                )
            else:
                changes.append(Change("added", label, f"value {v.value} added", False, ENUM_VALUES))
        renamed_from = {
            o_by_value[v.value].name for v in n.values if v.name not in ov and v.value in o_by_value
        }
        for v in o.values:
            if v.name not in nv and v.name not in renamed_from:
                changes.append(
                    Change("removed", f"{name}.{v.name}", f"value {v.value} removed", True, ENUM_VALUES)
                )
        if o.doc != n.doc:
            changes.append(Change("doc", name, "enum doc text edited", False, DOCS))
    return Diff(old_label, new_label, "enums", changes)


MODE_TEXT = {
    "same version": "same structure and version: the layout is frozen (rules W1-W3, N1, D1, P1)",
    "new version": "a new version: the prefix up to the magic byte is frozen, the rest is free (rules V1-V4, N1, D1)",
    "enums": "shared enums (rules E1, N1, D1)",
    "message": "a message-spec schema, every version in one file: existing versions are frozen, new ones free "
    "(rules M1-M4, N1, D1)",
}


def _ordered(d: Diff) -> list[Change]:
    """Breaking changes first, then other wire changes, then doc-only edits (each in schema order)."""
    return sorted(d.changes, key=lambda c: (not c.breaking, c.rule == DOCS))


def render_text(d: Diff) -> str:
    lines = [f"{d.old_label} -> {d.new_label}", f"rules: {MODE_TEXT[d.mode]}; see docs/review-rules.md", ""]
    if not d.changes:
        lines.append("  no changes")
    width = max((len(c.field) for c in d.changes), default=0)
    kinds = max((len(c.kind) for c in d.changes), default=0)
    for c in _ordered(d):
        verdict = "BREAKING  " if c.breaking else "compatible"
        lines.append(
            f"  {verdict}  {c.kind.ljust(kinds)}  {(c.field or '(structure)').ljust(width)}  {c.detail}  [{c.rule}]"
        )
    lines += ["", _summary(d)]
    for rule in sorted({c.rule for c in d.breaking}):
        lines.append(f"  {rule}: {RULE_TEXT[rule]}")
    return "\n".join(lines)


def render_markdown(d: Diff) -> str:
    lines = [
        f"### Schema diff: `{d.old_label}` → `{d.new_label}`",
        "",
        f"Rules: {MODE_TEXT[d.mode]}; see [docs/review-rules.md](docs/review-rules.md).",
        "",
    ]
    if d.changes:
        lines += ["| Verdict | Change | Field | Detail | Rule |", "|---|---|---|---|---|"]
        for c in _ordered(d):
            verdict = "**breaking**" if c.breaking else "compatible"
            field = f"`{c.field}`" if c.field else "(structure)"
            lines.append(f"| {verdict} | {c.kind} | {field} | {c.detail.replace('|', '/')} | {c.rule} |")
    else:
        lines.append("No changes.")
    lines += ["", f"**{_summary(d)}**"]
    rules = sorted({c.rule for c in d.breaking})
    if rules:
        lines.append("")
        lines += [f"- {rule}: {RULE_TEXT[rule]}" for rule in rules]
    return "\n".join(lines)


def _summary(d: Diff) -> str:
    n_break = len(d.breaking)
    return f"verdict: {d.verdict.upper()} ({n_break} breaking, {len(d.changes) - n_break} compatible)"
