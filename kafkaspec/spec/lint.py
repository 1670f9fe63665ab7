"""The schema lint: rules a protocol owner relies on when reviewing a schema.

:func:`kafkaspec.spec.load` runs it after the structural checks, so
``make generate`` refuses a schema that breaks a rule. Each problem names the
file, the field and the rule, in the validator's own style, e.g.
``record_v2.yaml: field 'length': missing required key 'since'``.

Rules (docs/review-rules.md lists them for reviewers):

* **doc and since** -- every structure, field, bit field, enum and enum value
  has doc text; every structure and field says the Kafka version that
  introduced it (``since: "0.11.0"``).
* **names** -- field, bit field and enum value names are snake_case.
* **complete enums** -- an enum names every value between its smallest and
  largest value, or lists the gaps under ``reserved:``; an enum on a bit field
  fits in its bits, and a one-bit field's enum names both 0 and 1.
* **references** -- length, count, size and discriminator references point at
  real integer fields; the discriminator offset is the field's real byte offset.
"""

from __future__ import annotations

import re

from .model import FIXED_TYPES, SNAKE, VAR_TYPES, Dispatch, Enum, SchemaSet, Struct
from .types import PREFIX_TYPES

#: A Kafka release: "0.8.0", "0.11.0", "3.9.0" (a fourth part is allowed for 0.8.2.2-style versions).
KAFKA_VERSION = re.compile(r"^\d+(\.\d+){1,3}$")
INTEGER_TYPES = (*FIXED_TYPES, *VAR_TYPES)


def lint_problems(schemas: SchemaSet) -> list[str]:
    """Every lint problem of every schema, in file order (the loader raises the first one)."""
    problems: list[str] = []
    for s in sorted(schemas.structs.values(), key=lambda s: (s.path.as_posix(), s.version)):
        problems += _struct(s, schemas)
    for d in sorted(schemas.dispatches, key=lambda d: d.path.as_posix()):
        problems += _dispatch(d)
    for e in sorted(schemas.enums.values(), key=lambda e: e.name):
        problems += _enum(e, _enum_file(schemas, e))
    return problems


def _enum_file(schemas: SchemaSet, e: Enum) -> str:
    return e.path.name if e.path else "enums.yaml"


def _since(value: object, where: str, file: str) -> list[str]:
    if value is None:
        return [f"{file}: {where}missing required key 'since'"]
    if not isinstance(value, str) or not KAFKA_VERSION.match(value):
        return [f"{file}: {where}'since' must be a Kafka version like \"0.11.0\", got {value!r}"]
    return []


def _struct(s: Struct, schemas: SchemaSet) -> list[str]:
    file = s.path.name
    out = _since(s.since, "", file)
    integer_fields = {f.name for f in s.fields if f.type in INTEGER_TYPES}
    for f in s.fields:
        where = f"field '{f.name}': "
        if not SNAKE.match(f.name):
            out.append(f"{file}: {where}name must be snake_case")
        out += _since(f.since, where, file)
        if f.relative_to and not SNAKE.match(f.relative_to.as_name):
            out.append(f"{file}: {where}relative_to name '{f.relative_to.as_name}' must be snake_case")
        for ref_key, ref in (("length", f.length), ("count", f.count), ("size", f.size)):
            if ref and ref not in PREFIX_TYPES and ref != "rest" and ref not in integer_fields:
                out.append(
                    f"{file}: {where}{ref_key} names '{ref}', which is not an integer field of {s.name}"
                )
        for b in f.bits:
            bwhere = f"{where}bit field '{b.name}': "
            if not SNAKE.match(b.name):
                out.append(f"{file}: {bwhere}name must be snake_case")
            if not b.doc:
                out.append(f"{file}: {bwhere}missing required key 'doc'")
            if b.since is not None:
                out += _since(b.since, bwhere, file)
            enum = schemas.enums.get(b.enum) if b.enum else None
            if enum:
                width = b.hi - b.lo + 1
                too_big = [v.value for v in enum.values if not 0 <= v.value < (1 << width)]
                if too_big:
                    out.append(
                        f"{file}: {bwhere}enum '{enum.name}' value {too_big[0]} does not fit in {width} bit(s)"
                    )
                named = {v.value for v in enum.values}
                if width == 1 and not {0, 1} <= named | set(enum.reserved):
                    missing = min({0, 1} - named - set(enum.reserved))
                    out.append(f"{file}: {bwhere}enum '{enum.name}' names no value for {missing}")
        if f.enum and f.enum in schemas.enums and f.type in FIXED_TYPES:
            size = FIXED_TYPES[f.type][1] * 8
            lo, hi = (
                (0, (1 << size) - 1)
                if f.type.startswith("u")
                else (-(1 << (size - 1)), (1 << (size - 1)) - 1)
            )
            bad = [v.value for v in schemas.enums[f.enum].values if not lo <= v.value <= hi]
            if bad:
                out.append(f"{file}: {where}enum '{f.enum}' value {bad[0]} does not fit in {f.type}")
    if s.discriminator:
        name, offset = s.discriminator
        if name not in integer_fields:
            out.append(f"{file}: discriminator names '{name}', which is not an integer field of {s.name}")
        else:
            actual = s.fixed_offsets().get(name)
            if actual != offset:
                where = "not at a fixed offset" if actual is None else f"at byte {actual}"
                out.append(
                    f"{file}: discriminator '{name}' is declared at byte {offset} but the field is {where}"
                )
    return out


def _dispatch(d: Dispatch) -> list[str]:
    return _since(d.since, "", d.path.name)


def _enum(e: Enum, file: str) -> list[str]:
    where = f"enum '{e.name}': "
    out = [] if e.since is None else _since(e.since, where, file)
    values = sorted(v.value for v in e.values)
    for v in e.values:
        if not SNAKE.match(v.name):
            out.append(f"{file}: {where}value '{v.name}': name must be snake_case")
        if v.unknown_keys:
            out.append(f"{file}: {where}value '{v.name}': unknown key(s): {', '.join(v.unknown_keys)}")
        if not v.doc:
            out.append(f"{file}: {where}value '{v.name}': missing required key 'doc'")
        if v.since is not None:
            out += _since(v.since, f"{where}value '{v.name}': ", file)
    if values:
        gaps = sorted(set(range(values[0], values[-1] + 1)) - set(values) - set(e.reserved))
        if gaps:
            out.append(
                f"{file}: {where}no value named {gaps[0]} (name it, or list it under 'reserved' if the gap is deliberate)"
            )
    return out
