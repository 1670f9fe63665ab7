"""Load and validate the YAML schemas into the model of :mod:`kafkaspec.spec.model`. One module because the
checks of a file and between files share one walk and one wording of errors.

Every problem is reported as a :class:`SchemaError` whose message names the
file, the field and what is wrong, e.g.
``record_v2.yaml: field 'key': unknown length prefix 'int8' (expected one of: int16, int32, varint, uvarint)``.
:func:`load` checks each file, then the references between files, then runs
the lint (:mod:`kafkaspec.spec.lint`).
"""

from __future__ import annotations

import importlib.resources
import re
from pathlib import Path
from typing import Any

from kafkaspec.codec.extras import missing

try:
    import yaml
except ModuleNotFoundError as exc:
    raise missing(exc, "review", "reading kafkaspec's YAML schemas") from None

from .lint import lint_problems
from .message_loader import load_message
from .message_model import KEYED_FAMILIES, Message
from .model import (
    CAMEL,
    CHECKSUM_ALGORITHMS,
    FIXED_TYPES,
    VAR_TYPES,
    Bit,
    Checksum,
    CompressedBy,
    Discriminator,
    Dispatch,
    Enum,
    EnumValue,
    Field,
    LengthOf,
    PresentIf,
    RelativeTo,
    SchemaSet,
    Struct,
)
from .types import NULLABLE_PREFIX_TYPES, PREFIX_TYPES

#: The keys each part of a schema file may have (anything else is an error).

STRUCT_KEYS = {"name", "version", "since", "doc", "fields", "discriminator", "status", "kind", "cases", "on"}
FIELD_KEYS = {
    "name",
    "type",
    "doc",
    "since",
    "default",
    "const",
    "enum",
    "bits",
    "length_of",
    "count_of",
    "checksum",
    "length",
    "nullable",
    "items",
    "count",
    "compressed_by",
    "relative_to",
    "relative_bases",
    "size",
    "present_if",
}
BIT_KEYS = {"name", "bit", "bits", "enum", "doc", "since"}
ENUM_VALUE_KEYS = {"name", "value", "doc", "since"}


class SchemaError(ValueError):
    """A schema file is not valid; the message names file, field and problem."""


class _Ctx:
    def __init__(self, path: Path):
        self.path = path
        self.where = ""
        self.status = "current"

    def fail(self, problem: str) -> SchemaError:
        return SchemaError(f"{self.path.name}: {self.where}{problem}")


def _require(ctx: _Ctx, doc: dict, key: str, kind: type | tuple) -> Any:
    if key not in doc:
        raise ctx.fail(f"missing required key '{key}'")
    value = doc[key]
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        expected = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise ctx.fail(f"'{key}' must be {expected}, got {type(value).__name__}")
    return value


def _text(ctx: _Ctx, doc: dict, key: str) -> str:
    value = _require(ctx, doc, key, str)
    if not value.strip():
        raise ctx.fail(f"'{key}' is empty")
    return " ".join(value.split())


def _range(ctx: _Ctx, spec: Any, key: str) -> tuple[str, str]:
    """A ``{from, to}`` range: (first field, "end" or the last field); a checksum's algorithm is read by the caller."""
    if not isinstance(spec, dict) or set(spec) - {"from", "to", "algorithm"} or "from" not in spec:
        raise ctx.fail(f"'{key}' must be a mapping with 'from' and 'to'")
    if (
        key == "checksum"
        and ctx.status == "proposal"
        and isinstance(spec.get("to"), str)
        and spec["to"] != "end"
    ):
        # a checksum over a range of earlier fields (KIP-98 draft's trailing CRC): review tooling only
        return spec["from"], spec["to"]
    if spec.get("to") != "end":
        raise ctx.fail(f"'{key}' must run to the end of the structure (to: end), got {spec.get('to')!r}")
    return spec["from"], "end"


def _bits(ctx: _Ctx, spec: Any, width: int) -> tuple[Bit, ...]:
    if not isinstance(spec, list):
        raise ctx.fail("'bits' must be a list of bit fields")
    out: list[Bit] = []
    used = 0
    for b in spec:
        if not isinstance(b, dict):
            raise ctx.fail("each bit field must be a mapping")
        unknown = set(b) - BIT_KEYS
        if unknown:
            raise ctx.fail(f"bit field has unknown key(s): {', '.join(sorted(unknown))}")
        name = _require(ctx, b, "name", str)
        if "bit" in b:
            lo = hi = _require(ctx, b, "bit", int)
        elif "bits" in b:
            m = re.fullmatch(r"(\d+)-(\d+)", str(b["bits"]))
            if not m:
                raise ctx.fail(f"bit field '{name}': bits must look like '0-2', got {b['bits']!r}")
            lo, hi = int(m[1]), int(m[2])
        else:
            raise ctx.fail(f"bit field '{name}' needs 'bit' or 'bits'")
        if not 0 <= lo <= hi < width:
            raise ctx.fail(f"bit field '{name}': bits {lo}-{hi} do not fit in {width} bits")
        mask = ((1 << (hi - lo + 1)) - 1) << lo
        if used & mask:
            raise ctx.fail(f"bit field '{name}' overlaps another bit field")
        used |= mask
        out.append(Bit(name, lo, hi, b.get("enum"), " ".join(str(b.get("doc", "")).split()), b.get("since")))
    return tuple(out)


def _field(ctx: _Ctx, raw: Any, index: int) -> Field:
    if not isinstance(raw, dict):
        raise ctx.fail(f"field #{index} must be a mapping")
    ctx.where = ""
    name = _require(ctx, raw, "name", str)
    ctx.where = f"field '{name}': "
    unknown = set(raw) - FIELD_KEYS
    if unknown:
        raise ctx.fail(f"unknown key(s): {', '.join(sorted(unknown))}")
    ftype = _require(ctx, raw, "type", str)
    doc = _text(ctx, raw, "doc")
    f = Field(name=name, type=ftype, doc=doc, since=raw.get("since"))
    if "default" in raw:
        f.default, f.has_default = raw["default"], True
    if "present_if" in raw:
        f.present_if = _present_if(ctx, raw["present_if"])
    if ftype in FIXED_TYPES or ftype in VAR_TYPES:
        width = FIXED_TYPES[ftype][1] * 8 if ftype in FIXED_TYPES else 64
        if "const" in raw:
            f.const = _require(ctx, raw, "const", int)
        f.enum = raw.get("enum")
        if "bits" in raw:
            f.bits = _bits(ctx, raw["bits"], width)
        if "length_of" in raw:
            f.length_of = LengthOf(*_range(ctx, raw["length_of"], "length_of"))
        if "count_of" in raw:
            f.count_of = _require(ctx, raw, "count_of", str)
        if "checksum" in raw:
            spec = raw["checksum"]
            frm, to = _range(ctx, spec, "checksum")
            algorithm = spec.get("algorithm")
            if algorithm not in CHECKSUM_ALGORITHMS:
                raise ctx.fail(f"unknown checksum algorithm {algorithm!r} (expected one of: crc32, crc32c)")
            if ftype != "uint32":
                raise ctx.fail("a checksum field must be uint32")
            f.checksum = Checksum(algorithm, frm, to)
        if "relative_to" in raw:
            spec = raw["relative_to"]
            if not isinstance(spec, dict) or "base" not in spec or "as" not in spec:
                raise ctx.fail("'relative_to' must be a mapping with 'base' and 'as'")
            f.relative_to = RelativeTo(spec["base"], spec["as"], spec.get("default"))
        for key in ("length", "nullable", "items", "count", "compressed_by", "size"):
            if key in raw:
                raise ctx.fail(f"'{key}' does not apply to type {ftype}")
    elif ftype in ("bytes", "string"):
        f.length = _require(ctx, raw, "length", str)
        f.nullable = bool(raw.get("nullable", False))
        if "compressed_by" in raw:
            f.compressed_by = _compressed_by(ctx, raw["compressed_by"])
        for key in ("const", "bits", "items", "count", "length_of", "count_of", "checksum"):
            if key in raw:
                raise ctx.fail(f"'{key}' does not apply to type {ftype}")
    elif ftype == "array":
        f.items = _require(ctx, raw, "items", str)
        if ("count" in raw) == ("size" in raw):
            raise ctx.fail(
                "an array needs exactly one of 'count' (a prefix type or field) or 'size' (a field or 'rest')"
            )
        f.count = raw.get("count")
        f.size = raw.get("size")
        f.nullable = bool(raw.get("nullable", False))
        if f.nullable and f.count not in NULLABLE_PREFIX_TYPES:
            either = "' or '".join(NULLABLE_PREFIX_TYPES)
            raise ctx.fail(f"a nullable array needs a signed count prefix ('count: {either}'; -1 is null)")
        if "compressed_by" in raw:
            f.compressed_by = _compressed_by(ctx, raw["compressed_by"])
        bases = raw.get("relative_bases", {})
        if not isinstance(bases, dict):
            raise ctx.fail("'relative_bases' must map base names to fields")
        f.relative_bases = dict(bases)
        for key in ("const", "bits", "length", "length_of", "count_of", "checksum"):
            if key in raw:
                raise ctx.fail(f"'{key}' does not apply to type array")
    elif CAMEL.match(ftype):
        pass  # a nested structure, resolved after all files are loaded
    else:
        raise ctx.fail(
            f"unknown type '{ftype}' (expected an integer type, varint, varlong, uvarint, bytes, string, array or a structure name)"
        )
    return f


def _present_if(ctx: _Ctx, spec: Any) -> tuple[PresentIf, ...]:
    """``present_if: attributes.null_key == 0 [and ...]``: an optional field, as in the KIP-98 draft."""
    if ctx.status != "proposal":
        raise ctx.fail(
            "'present_if' is only supported in status: proposal schemas (their straight-line codecs read it; the struct codecs' columnar paths do not)"
        )
    out = []
    for term in str(spec).split(" and "):
        m = re.fullmatch(r"\s*([a-z][a-z0-9_]*)\.([a-z][a-z0-9_]*)\s*==\s*(\d+)\s*", term)
        if not m:
            raise ctx.fail(f"'present_if' must look like 'field.bit == 0 [and field.bit == 1]', got {spec!r}")
        out.append(PresentIf(m[1], m[2], int(m[3])))
    return tuple(out)


def _compressed_by(ctx: _Ctx, spec: Any) -> CompressedBy:
    if not isinstance(spec, str) or spec.count(".") != 1:
        raise ctx.fail(f"'compressed_by' must name a bit field as 'field.bit', got {spec!r}")
    owner, bit = spec.split(".")
    return CompressedBy(owner, bit)


def _check_struct(ctx: _Ctx, s: Struct) -> None:
    """Checks within one structure: references point at real fields, in the right order."""
    names = [f.name for f in s.fields]
    seen: set[str] = set()
    for i, f in enumerate(s.fields):
        ctx.where = f"field '{f.name}': "
        if f.name in seen:
            raise ctx.fail("duplicate field name")
        seen.add(f.name)
        later = names[i + 1 :]
        earlier = names[:i]
        if f.length_of:
            start = f.length_of.start
            if start not in names:
                raise ctx.fail(f"length_of starts at '{start}', which is not a field of {s.name}")
            if start != (later[0] if later else None):
                raise ctx.fail(
                    f"length_of must start at the next field ('{later[0] if later else 'end'}'), not '{start}'"
                )
            if f.type not in PREFIX_TYPES:
                raise ctx.fail(f"a length field must be {', '.join(PREFIX_TYPES[:-1])} or {PREFIX_TYPES[-1]}")
        if f.checksum and f.checksum.end == "end" and f.checksum.start not in later:
            raise ctx.fail(
                f"checksum range starts at '{f.checksum.start}', which is not a later field of {s.name}"
            )
        if f.checksum and f.checksum.end != "end":
            frm, to = f.checksum.start, f.checksum.end
            if frm not in earlier or to not in earlier or earlier.index(frm) > earlier.index(to):
                raise ctx.fail(
                    f"checksum range {frm}..{to} must run over earlier fields of {s.name}, in order"
                )
        for owner, bit, _ in f.present_if:
            if owner not in earlier or bit not in [b.name for b in s.field(owner).bits]:
                raise ctx.fail(f"present_if names '{owner}.{bit}', which is not a bit of an earlier field")
        if f.count_of:
            target = f.count_of
            if target not in names:
                raise ctx.fail(f"count_of names '{target}', which is not a field of {s.name}")
            tf = s.field(target)
            if tf.type != "array" or tf.count != f.name:
                raise ctx.fail(f"count_of names '{target}', which must be an array with 'count: {f.name}'")
        if f.type == "array":
            if f.count and f.count not in PREFIX_TYPES and f.count not in earlier:
                raise ctx.fail(
                    f"count '{f.count}' is neither a prefix type ({', '.join(PREFIX_TYPES)}) nor an earlier field"
                )
            if f.size and f.size != "rest" and f.size not in earlier:
                raise ctx.fail(f"size '{f.size}' is neither 'rest' nor an earlier field")
            if f.size and s.status != "proposal":
                raise ctx.fail(
                    "arrays sized in bytes ('size') are only supported in status: proposal schemas; use a bytes field or a count"
                )
            for base, src in f.relative_bases.items():
                if src not in names:
                    raise ctx.fail(
                        f"relative base '{base}' reads field '{src}', which is not a field of {s.name}"
                    )
        if (
            f.type in ("bytes", "string")
            and f.length not in PREFIX_TYPES
            and f.length not in earlier
            and f.length != "rest"
        ):
            raise ctx.fail(
                f"unknown length prefix '{f.length}' (expected one of: {', '.join(PREFIX_TYPES)}, rest, or an earlier field)"
            )
        if f.compressed_by:
            owner, bit = f.compressed_by
            if owner not in earlier:
                raise ctx.fail(f"compressed_by names '{owner}', which is not an earlier field")
            if bit not in [b.name for b in s.field(owner).bits]:
                raise ctx.fail(f"compressed_by names bit '{bit}', which field '{owner}' does not define")
            if i != len(s.fields) - 1:
                raise ctx.fail("a compressed region must be the last field")
        if f.relative_to and f.relative_to.default not in (None, "index", "base"):
            raise ctx.fail(f"relative_to default must be 'index' or 'base', got {f.relative_to.default!r}")
    ctx.where = ""


def load_file(path: Path) -> tuple[list[Struct | Dispatch | Message], dict[str, Enum]]:
    ctx = _Ctx(path)
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise ctx.fail(f"not valid YAML: {exc}") from None
    if not isinstance(raw, dict):
        raise ctx.fail("a schema file must be a YAML mapping")
    if "enums" in raw:
        return [], _load_enums(ctx, raw["enums"])
    if raw.get("kind") == "message":  # Kafka's message-spec encoding: one file, every version
        return [load_message(path, raw, SchemaError)], {}
    unknown = set(raw) - STRUCT_KEYS
    if unknown:
        raise ctx.fail(f"unknown top-level key(s): {', '.join(sorted(unknown))}")
    name = _require(ctx, raw, "name", str)
    if not CAMEL.match(name):
        raise ctx.fail(f"structure name '{name}' must be CamelCase")
    since = _require(ctx, raw, "since", str)
    doc = _text(ctx, raw, "doc")
    status = raw.get("status", "current")
    ctx.status = status
    if status not in ("current", "legacy", "proposal"):
        raise ctx.fail(f"status must be current, legacy or proposal, got {status!r}")
    if raw.get("kind") == "dispatch":
        on = _require(ctx, raw, "on", dict)
        cases = _require(ctx, raw, "cases", dict)
        return [
            Dispatch(
                name,
                since,
                doc,
                int(on.get("offset", 0)),
                on.get("type", "int8"),
                {int(k): v for k, v in cases.items()},
                path,
                status=status,
            )
        ], {}
    version = _require(ctx, raw, "version", int)
    fields_raw = _require(ctx, raw, "fields", list)
    if not fields_raw:
        raise ctx.fail("'fields' is empty")
    fields = [_field(ctx, f, i) for i, f in enumerate(fields_raw)]
    disc = raw.get("discriminator")
    s = Struct(
        name,
        version,
        since,
        doc,
        fields,
        path,
        status,
        Discriminator(disc["field"], int(disc["offset"])) if disc else None,
    )
    _check_struct(ctx, s)
    return [s], {}


def _load_enums(ctx: _Ctx, raw: Any) -> dict[str, Enum]:
    if not isinstance(raw, dict):
        raise ctx.fail("'enums' must map enum names to definitions")
    out = {}
    for name, spec in raw.items():
        ctx.where = f"enum '{name}': "
        if not isinstance(spec, dict):
            raise ctx.fail("must be a mapping")
        values = []
        seen_names, seen_values = set(), set()
        for v in _require(ctx, spec, "values", list):
            vname, value = v.get("name"), v.get("value")
            if not isinstance(vname, str) or not isinstance(value, int):
                raise ctx.fail("each value needs a string 'name' and an integer 'value'")
            if vname in seen_names or value in seen_values:
                raise ctx.fail(f"duplicate value '{vname}' = {value}")
            seen_names.add(vname)
            seen_values.add(value)
            # unknown keys (e.g. an unquoted "doc: a, b" in a flow mapping) are reported by the lint
            values.append(
                EnumValue(
                    vname,
                    value,
                    " ".join(str(v.get("doc", "")).split()),
                    v.get("since"),
                    tuple(sorted(map(str, set(v) - ENUM_VALUE_KEYS))),
                )
            )
        out[name] = Enum(
            name,
            _text(ctx, spec, "doc"),
            spec.get("since"),
            tuple(values),
            tuple(spec.get("reserved", ())),
            ctx.path,
        )
    ctx.where = ""
    return out


def load(root: Path, lint: bool = True) -> SchemaSet:
    """Load every ``*.yaml`` under ``root``, cross-check references between files,
    then run the lint (:mod:`kafkaspec.spec.lint`: doc, since, names, enums, references); the first
    problem is raised as :class:`SchemaError` (``lint=False``: load without it, as review tooling does)."""
    structs: dict[str, Struct] = {}
    enums: dict[str, Enum] = {}
    dispatches: list[Dispatch] = []
    messages: dict[str, Message] = {}
    for path in sorted(root.rglob("*.yaml")):
        items, file_enums = load_file(path)
        for name in file_enums:
            if name in enums:
                raise SchemaError(f"{path.name}: enum '{name}' is defined twice")
        enums.update(file_enums)
        for item in items:
            if isinstance(item, Dispatch):
                dispatches.append(item)
                continue
            if isinstance(item, Message):
                if item.name in messages:
                    raise SchemaError(
                        f"{path.name}: message {item.name} is also defined in {messages[item.name].path.name}"
                    )
                messages[item.name] = item
                continue
            if item.ref in structs:
                raise SchemaError(
                    f"{path.name}: {item.name} version {item.version} is also defined in {structs[item.ref].path.name}"
                )
            structs[item.ref] = item
    schemas = SchemaSet(structs, enums, dispatches, messages)
    _check_message_ids(messages)
    for s in structs.values():
        ctx = _Ctx(s.path)
        for f in s.fields:
            ctx.where = f"field '{f.name}': "
            for enum in [f.enum, *(b.enum for b in f.bits)]:
                if enum and enum not in enums:
                    raise ctx.fail(f"unknown enum '{enum}'")
            for ref in (f.items, f.type if CAMEL.match(f.type) else None):
                if ref:
                    try:
                        schemas.resolve(ref)
                    except KeyError:
                        raise ctx.fail(f"unknown structure '{ref}'") from None
    for d in dispatches:
        for value, ref in d.cases.items():
            try:
                schemas.resolve(ref)
            except KeyError:
                raise SchemaError(f"{d.path.name}: case {value}: unknown structure '{ref}'") from None
    if lint:
        problems = lint_problems(schemas)
        if problems:
            raise SchemaError(problems[0])
    return schemas


def _check_message_ids(messages: dict[str, Message]) -> None:
    """Each type id selects one message of its family; a key's value message exists."""
    seen: dict[tuple[str, int], str] = {}
    for m in messages.values():
        newest = messages.get(m.layout_of) if m.layout_of else None
        if m.layout_of and (
            newest is None or newest.family != m.family or newest.layout_of or newest.kafka_releases is None
        ):
            raise SchemaError(
                f"{m.path.name}: layout_of names '{m.layout_of}', which must be a {m.family} message "
                f"with kafka_releases of its own and no layout_of"
            )
    for m in sorted(messages.values(), key=lambda m: m.path.as_posix()):
        if m.layout_of:
            continue  # an earlier layout: read through the message it is a layout of
        if m.value is not None and (m.value not in messages or messages[m.value].family != m.family):
            raise SchemaError(f"{m.path.name}: value message '{m.value}' is not a {m.family} message")
        if m.family in KEYED_FAMILIES and m.value is None:
            continue  # a value message: selected through its key
        for i in m.type_ids:
            other = seen.setdefault((m.family, i), m.name)
            if other != m.name:
                raise SchemaError(f"{m.path.name}: {m.family} type id {i} is also {other}'s")


def bundled_schemas() -> Path:
    """The schema folder installed with the package (``schemas/``, package data ``kafkaspec.schemas``)."""
    root = importlib.resources.files("kafkaspec.schemas")
    if not isinstance(root, Path) or not root.is_dir():
        raise SchemaError(f"the bundled schemas are not a folder on disk ({root}): pass the schema folder")
    return root
