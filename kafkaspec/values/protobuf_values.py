"""Parsed Protobuf messages as plain Python values: each field of the message by name; a field with
presence (proto2, proto3 ``optional``, a oneof member, a message) that is not set is None, a proto3
field without presence its default; enums as their value names, maps as dicts, repeated fields as
lists. Fields the writer's schema does not have, and enum numbers the enum does not name, are errors
(never kept silently). Messages come from :mod:`.protobuf`.
"""

from __future__ import annotations

from typing import Any

__all__ = ["repeated", "to_python"]


def to_python(msg: Any, strict: bool, where: str) -> dict[str, Any]:
    """A parsed message as a dict of plain values (see the module's docstring); with ``strict``, a
    field number the schema does not have or an enum number the enum does not name is a ValueError."""
    from google.protobuf import unknown_fields

    d = msg.DESCRIPTOR
    if strict:
        unknown = unknown_fields.UnknownFieldSet(msg)
        if len(unknown):
            raise ValueError(
                f"field number {unknown[0].field_number} is not a field of {d.full_name} ({where})"
            )
    out: dict[str, Any] = {}
    for name, kind, f, convert in _plan(d):
        v = getattr(msg, name)
        if kind == "map":
            out[name] = (
                {k: x for k, x in v.items()}
                if convert is None
                else {k: convert(f, x, strict, where) for k, x in v.items()}
            )
        elif kind == "repeated":
            out[name] = list(v) if convert is None else [convert(f, x, strict, where) for x in v]
        elif kind == "presence" and not msg.HasField(name):
            out[name] = None
        else:
            out[name] = v if convert is None else convert(f, v, strict, where)
    return out


#: message descriptor -> (field name, map/repeated/presence/plain, the field whose values convert, how)
_PLANS: dict[Any, list[tuple[str, str, Any, Any]]] = {}


def _plan(d: Any) -> list[tuple[str, str, Any, Any]]:
    """How each field of a message turns into a plain value, worked out once per message type."""
    got = _PLANS.get(d)
    if got is None:
        got = []
        for f in d.fields:
            if f.message_type is not None and f.message_type.GetOptions().map_entry:
                vf = f.message_type.fields_by_name["value"]
                got.append((f.name, "map", vf, _scalar if vf.message_type or vf.enum_type else None))
                continue
            kind = "repeated" if repeated(f) else "presence" if f.has_presence else "plain"
            got.append((f.name, kind, f, _scalar if f.message_type or f.enum_type else None))
        if len(_PLANS) > 10_000:  # bounded: a run over many schemas does not keep every plan
            _PLANS.clear()
        _PLANS[d] = got
    return got


def repeated(f: Any) -> bool:
    return bool(f.is_repeated) if hasattr(f, "is_repeated") else bool(f.label == f.LABEL_REPEATED)


def _scalar(f: Any, v: Any, strict: bool, where: str) -> Any:
    if f.message_type is not None:
        return to_python(v, strict, where)
    if f.enum_type is not None:
        named = f.enum_type.values_by_number.get(v)
        if named is None:
            if strict:
                raise ValueError(
                    f"enum {f.enum_type.full_name} has no value {v} (field {f.full_name}, {where})"
                )
            return None
        return named.name
    return v
