"""Diff two revisions of a message-spec schema (``schemas/messages/*.yaml``, one file for every
version of a message), each change classified under docs/review-rules.md (rules M1-M4, N1, D1).

A message version bump is a small diff of one file: the ``valid_versions`` range grows and the new
fields say ``versions: N+``. What must not change is every version the old file already had:
its untagged fields, in order, with their wire types and nullability, its flexibility, and the
meaning of its tags.
"""

from __future__ import annotations

from kafkaspec.spec.message_model import Message, MessageField, MessageStruct

from .diff import DOCS, KEEP_VERSIONS, NAMES, NEW_TAG, NEW_VERSION, SAME_VERSION, Change, Diff, doc_change


def _wire(f: MessageField, version: int) -> tuple:
    return (f.items if f.type == "array" else "", f.type, f.nullable_in(version))


def _type(f: MessageField, version: int) -> str:
    t = f"[]{f.items}" if f.type == "array" else f.type
    return t + ("?" if f.nullable_in(version) else "")


def _struct_changes(
    o: MessageStruct, n: MessageStruct, version: int, old: Message, new: Message
) -> list[Change]:
    out: list[Change] = []
    where = f"{o.name} v{version}"
    ou = [f for f in o.fields_in(version) if not f.tagged_in(version)]
    nu = [f for f in n.fields_in(version) if not f.tagged_in(version)]
    if [_wire(f, version) for f in ou] != [_wire(f, version) for f in nu]:
        before = ", ".join(f"{f.name} {_type(f, version)}" for f in ou)
        after = ", ".join(f"{f.name} {_type(f, version)}" for f in nu)
        out.append(Change("layout", where, f"untagged fields [{before}] -> [{after}]", True, SAME_VERSION))
    else:
        for f, g in zip(ou, nu):
            if f.name != g.name:
                out.append(Change("renamed", f"{where}.{f.name}", f"{f.name} -> {g.name}", False, NAMES))
    ot = {f.tag: f for f in o.fields_in(version) if f.tagged_in(version)}
    nt = {f.tag: f for f in n.fields_in(version) if f.tagged_in(version)}
    for tag in sorted(set(ot) | set(nt), key=lambda t: t or 0):
        if tag not in nt:
            out.append(
                Change("removed", f"{where}.{ot[tag].name}", f"tag {tag} no longer read", True, SAME_VERSION)
            )
        elif tag not in ot:
            out.append(
                Change(
                    "added",
                    f"{where}.{nt[tag].name}",
                    f"tagged field {tag} ({_type(nt[tag], version)})",
                    False,
                    NEW_TAG,
                )
            )
        elif _wire(ot[tag], version) != _wire(nt[tag], version):
            out.append(
                Change(
                    "retyped",
                    f"{where}.{nt[tag].name}",
                    f"tag {tag}: {_type(ot[tag], version)} -> {_type(nt[tag], version)}",
                    True,
                    SAME_VERSION,
                )
            )
    return out


def diff_messages(old: Message, new: Message, old_label: str = "", new_label: str = "") -> Diff:
    """Every change from ``old`` to ``new`` (two revisions of one message's schema), classified."""
    changes: list[Change] = []
    if old.name != new.name:
        changes.append(Change("renamed", "", f"{old.name} -> {new.name}", False, NAMES))
    old_versions, new_versions = set(old.versions), set(new.versions)
    for v in sorted(old_versions - new_versions):
        changes.append(
            Change(
                "removed",
                f"v{v}",
                f"version {v} dropped (valid_versions {old.valid_versions} -> {new.valid_versions})",
                True,
                KEEP_VERSIONS,
            )
        )
    for v in sorted(new_versions - old_versions):
        fields = [f"{s.name}.{f.name}" for s in new.structs.values() for f in s.fields if f.versions.lo == v]
        changes.append(
            Change(
                "version",
                f"v{v}",
                "new version" + (f", new fields: {', '.join(fields)}" if fields else ""),
                False,
                NEW_VERSION,
            )
        )
    if old.type_ids != new.type_ids:
        changes.append(
            Change("type ids", "", f"{list(old.type_ids)} -> {list(new.type_ids)}", True, SAME_VERSION)
        )
    for v in sorted(old_versions & new_versions):
        if old.flexible(v) != new.flexible(v):
            changes.append(
                Change(
                    "flexible",
                    f"v{v}",
                    f"flexible {old.flexible(v)} -> {new.flexible(v)}",
                    True,
                    SAME_VERSION,
                )
            )
            continue
        for name in sorted(set(old.structs) | set(new.structs)):
            o, n = old.structs.get(name), new.structs.get(name)
            if o is None or n is None:
                used = any(
                    f.struct == name and v in f.versions
                    for s in (old if n is None else new).structs.values()
                    for f in s.fields
                )
                if used:
                    changes.append(
                        Change("removed" if n is None else "added", name, "structure", True, SAME_VERSION)
                    )
                continue
            changes += _struct_changes(o, n, v, old, new)
    if old.doc != new.doc:
        changes.append(Change("doc", "", doc_change(old.doc, new.doc), False, DOCS))
    for name in sorted(set(old.structs) & set(new.structs)):
        nf = {f.name: f for f in new.structs[name].fields}
        for f in old.structs[name].fields:
            g = nf.get(f.name)
            if g is not None and g.doc != f.doc:
                changes.append(Change("doc", f"{name}.{f.name}", doc_change(f.doc, g.doc), False, DOCS))
    return Diff(old_label or old.name, new_label or new.name, "message", _dedupe(changes))


def _dedupe(changes: list[Change]) -> list[Change]:
    seen, out = set(), []
    for c in changes:
        key = (c.kind, c.field.split(" v")[0] if c.rule == NAMES else c.field, c.detail)
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out
