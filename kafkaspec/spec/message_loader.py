"""Load and validate one message-spec schema (``kind: message``, ``schemas/messages/*.yaml``).

Every problem is a :class:`~kafkaspec.spec.loader.SchemaError` naming the file, the structure and
field, and what is wrong, e.g. ``leader_change_message.yaml: Voter.voter_id: tag 0 is also used
by 'leader_id'``. The doc and naming rules of the lint apply here too: every message, structure and
field has doc text, and field names are snake_case (Kafka's names, ``LeaderId`` -> ``leader_id``).
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import yaml

from .message_model import (
    FAMILIES,
    KAFKA_STATUSES,
    MESSAGE_PRIMITIVES,
    NULLABLE_TYPES,
    Message,
    MessageField,
    MessageStruct,
    Versions,
    parse_versions,
)
from .model import CAMEL, SNAKE, snake

MESSAGE_KEYS = {
    "kind",
    "name",
    "doc",
    "family",
    "type_ids",
    "valid_versions",
    "flexible_versions",
    "fields",
    "structs",
    "value",
    "kafka_status",
    "kafka_releases",
    "layout_of",
    "layout",
}
#: what an earlier layout (``layout:``) may say about the newest layout's fields
LAYOUT_KEYS = {"drop", "change"}
#: what ``layout: change:`` may give a field: its type (Kafka 4.0's uint16 epochs) and doc, not its name
CHANGE_KEYS = {"type", "doc", "versions", "default"}
STRUCT_KEYS = {"name", "doc", "fields"}
FIELD_KEYS = {
    "name",
    "type",
    "items",
    "doc",
    "versions",
    "nullable_versions",
    "tagged_versions",
    "tag",
    "default",
    "fields",
}
#: the widest value of each integer type, for defaults
_INT_RANGES = {"int8": 8, "int16": 16, "int32": 32, "int64": 64}


class _Fail:
    def __init__(self, path: Path, error: type[Exception]):
        self.path, self.error, self.where = path, error, ""

    def __call__(self, problem: str) -> Exception:
        return self.error(f"{self.path.name}: {self.where}{problem}")


def load_message(path: Path, raw: dict, error: type[Exception]) -> Message:
    """Build a :class:`Message` from the parsed YAML of ``path``; problems raise ``error``."""
    fail = _Fail(path, error)
    unknown = set(raw) - MESSAGE_KEYS
    if unknown:
        raise fail(f"unknown top-level key(s): {', '.join(sorted(unknown))}")
    name = _need(fail, raw, "name", str)
    if not CAMEL.match(name):
        raise fail(f"message name '{name}' must be CamelCase")
    doc = _doc(fail, raw)
    family = _need(fail, raw, "family", str)
    if family not in FAMILIES:
        raise fail(f"family must be one of {', '.join(FAMILIES)}, got {family!r}")
    ids = raw.get("type_ids")
    if (
        not isinstance(ids, list)
        or not ids
        or not all(isinstance(i, int) and not isinstance(i, bool) and i >= 0 for i in ids)
    ):
        raise fail(f"'type_ids' must list {FAMILIES[family]} (non-negative integers)")
    valid = _versions(fail, raw, "valid_versions", required=True)
    assert valid is not None
    if valid.hi is None:
        raise fail(f"valid_versions must be closed (like '0-3'), got '{valid}'")
    flexible = _versions(fail, raw, "flexible_versions", required=True, none_ok=True)
    value = raw.get("value")
    if value is not None and (not isinstance(value, str) or not CAMEL.match(value)):
        raise fail(f"'value' must name the value message (CamelCase), got {value!r}")
    status = raw.get("kafka_status", "current")
    if status not in KAFKA_STATUSES:
        raise fail(f"kafka_status must be one of {', '.join(KAFKA_STATUSES)}, got {status!r}")
    releases = raw.get("kafka_releases")
    if releases is not None and not (isinstance(releases, str) and releases.strip()):
        raise fail(
            f"'kafka_releases' must be text naming Kafka releases (like '4.0' or '4.1+'), got {releases!r}"
        )
    layout_of = raw.get("layout_of")
    if layout_of is not None:
        if not isinstance(layout_of, str) or not CAMEL.match(layout_of) or layout_of == name:
            raise fail(f"'layout_of' must name another message (CamelCase), got {layout_of!r}")
        if releases is None or value is not None:
            raise fail(
                "an earlier layout ('layout_of') needs 'kafka_releases' and is a value or record, not a key"
            )
    if "layout" in raw:
        raw = {**raw, **_earlier_layout(fail, path, raw)}
    structs: dict[str, MessageStruct] = {}
    pending: list[tuple[str, str, Any]] = [(name, doc, _need(fail, raw, "fields", list))]
    common = raw.get("structs", [])
    if not isinstance(common, list):
        raise fail("'structs' must be a list of structures")
    for s in common:
        fail.where = ""
        if not isinstance(s, dict) or set(s) - STRUCT_KEYS:
            raise fail(f"each entry of 'structs' must be a mapping of {', '.join(sorted(STRUCT_KEYS))}")
        sname = _need(fail, s, "name", str)
        fail.where = f"{sname}: "
        pending.append((sname, _doc(fail, s), _need(fail, s, "fields", list)))
    while pending:
        sname, sdoc, raw_fields = pending.pop(0)
        fail.where = f"{sname}: "
        if not CAMEL.match(sname):
            raise fail("structure names must be CamelCase")
        if sname in structs or any(p[0] == sname for p in pending):
            raise fail("structure defined twice")
        if not raw_fields and sname != name:
            raise fail("'fields' is empty")  # a message may be empty (NoOpRecord); a nested structure may not
        fields = []
        for raw_field in raw_fields:
            f, nested = _field(fail, sname, raw_field, valid, flexible)
            fields.append(f)
            if nested is not None:
                pending.append((f.struct or "", f.doc, nested))
        _check_unique(fail, sname, fields)
        structs[sname] = MessageStruct(sname, sdoc, tuple(fields))
    fail.where = ""
    for s in structs.values():
        for f in s.fields:
            if f.struct and f.struct not in structs:
                fail.where = f"{s.name}.{f.name}: "
                raise fail(f"unknown structure '{f.struct}' (define it with 'fields:' or under 'structs:')")
    return Message(
        name, doc, family, tuple(ids), valid, flexible, structs, path, value, status, releases, layout_of
    )


def _earlier_layout(fail: _Fail, path: Path, raw: dict) -> dict[str, Any]:
    """The ``fields`` and ``structs`` of an earlier layout: the newest layout's (``layout_of``, in its
    own file beside this one), less the fields ``layout: drop:`` names, with what ``layout: change:``
    gives a field replacing its keys. Saying only the difference keeps the two from drifting apart."""
    layout, newest = raw["layout"], raw.get("layout_of")
    if not newest:
        raise fail("'layout' says how an earlier layout differs from the newest: it needs 'layout_of'")
    if "fields" in raw or "structs" in raw:
        raise fail(
            "an earlier layout with 'layout' takes its fields and structs from the newest: no 'fields' or 'structs'"
        )
    if not isinstance(layout, dict):
        raise fail(f"'layout' must be a mapping of {', '.join(sorted(LAYOUT_KEYS))}")
    unknown = set(layout) - LAYOUT_KEYS
    if unknown:
        raise fail(f"unknown key(s) in 'layout': {', '.join(sorted(unknown))}")
    source = path.with_name(f"{snake(newest)}.yaml")
    try:
        base = yaml.safe_load(source.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise fail(f"'layout_of' {newest}: cannot read {source.name} ({exc})") from None
    if not isinstance(base, dict) or base.get("name") != newest or not isinstance(base.get("fields"), list):
        raise fail(f"'layout_of' {newest}: {source.name} does not define the message {newest}")
    fields = copy.deepcopy(base["fields"])
    names = [f.get("name") for f in fields if isinstance(f, dict)]
    drop = layout.get("drop", [])
    if not isinstance(drop, list) or not all(isinstance(n, str) for n in drop):
        raise fail("'drop' must list field names")
    change = layout.get("change", {})
    if not isinstance(change, dict):
        raise fail("'change' must map field names to the keys they take in this layout")
    for key, wanted in (("drop", drop), ("change", list(change))):
        missing = [n for n in wanted if n not in names]
        if missing:
            raise fail(f"{key}: {newest} has no field '{missing[0]}'")
    for fname, keys in change.items():
        if not isinstance(keys, dict) or not keys or set(keys) - CHANGE_KEYS:
            raise fail(f"change: {fname}: only {', '.join(sorted(CHANGE_KEYS))} can change")
        fields[names.index(fname)].update(keys)
    return {
        "fields": [f for f, n in zip(fields, names, strict=True) if n not in drop],
        "structs": copy.deepcopy(base.get("structs", [])),
    }


def _need(fail: _Fail, raw: dict, key: str, kind: type) -> Any:
    if key not in raw:
        raise fail(f"missing required key '{key}'")
    if not isinstance(raw[key], kind):
        raise fail(f"'{key}' must be {kind.__name__}, got {type(raw[key]).__name__}")
    return raw[key]


def _doc(fail: _Fail, raw: dict) -> str:
    text = _need(fail, raw, "doc", str)
    if not text.strip():
        raise fail("'doc' is empty")
    return " ".join(text.split())


def _versions(
    fail: _Fail, raw: dict, key: str, required: bool = False, none_ok: bool = False
) -> Versions | None:
    if key not in raw:
        if required:
            raise fail(f"missing required key '{key}'")
        return None
    try:
        v = parse_versions(raw[key])
    except ValueError as exc:
        raise fail(f"'{key}': {exc}") from None
    if v is None and not none_ok:
        raise fail(f"'{key}' cannot be 'none'")
    return v


def _field(
    fail: _Fail, owner: str, raw: Any, valid: Versions, flexible: Versions | None
) -> tuple[MessageField, Any]:
    if not isinstance(raw, dict):
        raise fail("each field must be a mapping")
    name = raw.get("name")
    if not isinstance(name, str):
        raise fail("a field has no 'name'")
    fail.where = f"{owner}.{name}: "
    unknown = set(raw) - FIELD_KEYS
    if unknown:
        raise fail(f"unknown key(s): {', '.join(sorted(unknown))}")
    if not SNAKE.match(name):
        raise fail("field names must be snake_case (Kafka's name in snake_case)")
    doc = _doc(fail, raw)
    ftype = _need(fail, raw, "type", str)
    items = raw.get("items")
    if ftype == "array":
        if not isinstance(items, str):
            raise fail("an array needs 'items' (a primitive type or a structure name)")
        if items not in MESSAGE_PRIMITIVES and not CAMEL.match(items):
            raise fail(f"unknown item type '{items}'")
    elif items is not None:
        raise fail("'items' is only for arrays")
    elif ftype not in MESSAGE_PRIMITIVES and not CAMEL.match(ftype):
        raise fail(
            f"unknown type '{ftype}' (expected one of {', '.join(MESSAGE_PRIMITIVES)}, array, or a structure name)"
        )
    struct = next((t for t in (ftype, items) if t and t[0].isupper()), None)
    nested = raw.get("fields")
    if nested is not None and struct is None:
        raise fail("'fields' defines a nested structure: the type must be a structure or an array of one")
    versions = _versions(fail, raw, "versions", required=True)
    assert versions is not None
    if versions.lo not in valid or (versions.hi is not None and not versions.within(valid)):
        raise fail(f"versions '{versions}' are not within the message's valid_versions '{valid}'")
    nullable = _versions(fail, raw, "nullable_versions")
    kind = "array" if ftype == "array" else "struct" if struct else ftype
    if nullable is not None:
        if kind not in NULLABLE_TYPES:
            raise fail(f"type {ftype} cannot be nullable (only {', '.join(NULLABLE_TYPES)})")
        if not nullable.within(versions):
            raise fail(f"nullable_versions '{nullable}' are not within the field's versions '{versions}'")
    tagged = _versions(fail, raw, "tagged_versions")
    tag = raw.get("tag")
    if (tagged is None) != (tag is None):
        raise fail("a tagged field needs both 'tag' and 'tagged_versions'")
    if tag is not None:
        if not isinstance(tag, int) or isinstance(tag, bool) or tag < 0:
            raise fail(f"'tag' must be a non-negative integer, got {tag!r}")
        assert tagged is not None
        if flexible is None or not tagged.within(flexible):
            raise fail(
                f"tagged_versions '{tagged}' must be flexible versions (flexible_versions: "
                f"'{flexible or 'none'}')"
            )
        if not tagged.within(versions):
            raise fail(f"tagged_versions '{tagged}' are not within the field's versions '{versions}'")
    default = _default(fail, raw, ftype, nullable)
    return MessageField(
        name, ftype, doc, versions, items, nullable, tagged, tag, default, "default" in raw
    ), nested


def _default(fail: _Fail, raw: dict, ftype: str, nullable: Versions | None) -> Any:
    if "default" not in raw:
        return None
    value = raw["default"]
    if value is None:
        if nullable is None:
            raise fail("default null needs nullable_versions")
        return None
    if ftype in _INT_RANGES:
        bits = _INT_RANGES[ftype]
        if (
            not isinstance(value, int)
            or isinstance(value, bool)
            or not -(1 << bits - 1) <= value < 1 << bits - 1
        ):
            raise fail(f"default {value!r} is not an {ftype}")
    elif ftype == "uint16":
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 1 << 16:
            raise fail(f"default {value!r} is not a uint16")
    elif ftype == "bool":
        if not isinstance(value, bool):
            raise fail(f"default {value!r} is not a bool (true or false)")
    elif ftype == "float64":
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise fail(f"default {value!r} is not a float64")
        value = float(value)
    elif ftype == "string":
        if not isinstance(value, str):
            raise fail(f"default {value!r} is not a string")
    else:
        raise fail(f"a {ftype} field takes no default but null")
    return value


def _check_unique(fail: _Fail, owner: str, fields: list[MessageField]) -> None:
    names: set[str] = set()
    tags: dict[int, str] = {}
    for f in fields:
        fail.where = f"{owner}.{f.name}: "
        if f.name in names:
            raise fail("duplicate field name")
        names.add(f.name)
        if f.tag is not None:
            if f.tag in tags:
                raise fail(f"tag {f.tag} is also used by '{tags[f.tag]}'")
            tags[f.tag] = f.name
    fail.where = ""


__all__ = ["load_message"]
