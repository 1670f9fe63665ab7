"""Hypothesis strategies derived from the schema model (kafkaspec.spec), not from the generated code.

``value_strategy(schemas, struct, bases)`` draws a value of a structure's
generated NamedTuple: every exposed field in field order, with

- fixed-width integers over their whole range (int8 .. uint32),
- zigzag varint / varlong and unsigned varint over their whole range,
- bytes / strings that fit their length prefix, ``None`` when nullable,
- arrays of nested structures (small, so nesting stays fast), counts that fit
  their prefix, nested structures by name,
- bit fields composed from their defined bits (enum bits take enum values only,
  so a compression bit field names a real codec),
- const fields set to their constant, checksum fields left ``None`` (the codecs compute them),
- relative fields (``relative_to``) exposed as absolute values: a delta over the
  stored type's range plus the base the parent passes in.

A structure the builder cannot express raises :class:`Unsupported` naming the
structure, the field and why, so the differential test can fail or xfail with that
reason instead of silently leaving the structure out.
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st

from kafkaspec.spec import CAMEL, FIXED_TYPES, Field, SchemaSet, Struct

#: inclusive value ranges of every integer type the schema language knows
INT_RANGES: dict[str, tuple[int, int]] = {
    "int8": (-(1 << 7), (1 << 7) - 1),
    "int16": (-(1 << 15), (1 << 15) - 1),
    "int32": (-(1 << 31), (1 << 31) - 1),
    "int64": (-(1 << 63), (1 << 63) - 1),
    "uint8": (0, (1 << 8) - 1),
    "uint16": (0, (1 << 16) - 1),
    "uint32": (0, (1 << 32) - 1),
    "varint": (-(1 << 31), (1 << 31) - 1),
    "varlong": (-(1 << 63), (1 << 63) - 1),
    "uvarint": (0, (1 << 32) - 1),
}
#: largest byte length each length prefix can carry (kept small: the point is the codec, not the size)
MAX_BLOB = {"int16": 40, "int32": 40, "varint": 40, "uvarint": 40, "rest": 40}
#: longest array drawn inside a structure (nesting multiplies it)
MAX_ITEMS = 3


class Unsupported(Exception):
    """The strategy builder cannot derive values for this structure; the message says why."""


@dataclass(frozen=True)
class Shape:
    """How the differential helper drives one structure's generated API."""

    struct: Struct
    headed: bool  # decode_<snake>/encode_<snake>(**fields) instead of the *_array functions
    bases: tuple[str, ...]  # relative bases the *_array functions take, sorted
    single: bool  # a checksum without a length field runs to the end: one item per buffer


def shape_of(struct: Struct) -> Shape:
    bases = tuple(sorted({f.relative_to.base for f in struct.fields if f.relative_to}))
    leading_fixed = bool(struct.fields) and struct.fields[0].type in FIXED_TYPES
    headed = struct.discriminator is not None and leading_fixed
    has_length = any(f.length_of for f in struct.fields)
    greedy = any(
        (f.type in ("bytes", "string") and f.length == "rest") or (f.type == "array" and f.size == "rest")
        for f in struct.fields
    )
    single = headed or greedy or (any(f.checksum for f in struct.fields) and not has_length)
    return Shape(struct, headed, bases, single)


def _int(ftype: str) -> st.SearchStrategy[int]:
    lo, hi = INT_RANGES[ftype]
    # Edge values first: hypothesis favours them anyway, but the varint byte-length
    # boundaries are what breaks codecs, so name them.
    edges = [
        v
        for v in (
            lo,
            hi,
            0,
            -1,
            1,
            63,
            64,
            -64,
            -65,
            127,
            128,
            8191,
            8192,
            -8192,
            -8193,
            (1 << 31) - 1,
            -(1 << 31),
            1 << 31,
            1 << 35,
        )
        if lo <= v <= hi
    ]
    return st.one_of(st.sampled_from(edges), st.integers(lo, hi))


class StrategyBuilder:
    """Derive value strategies for every structure of a :class:`SchemaSet`."""

    def __init__(self, schemas: SchemaSet, classes):
        self.schemas = schemas
        #: ``classes(struct) -> NamedTuple class`` (the generated typed value)
        self.classes = classes

    # -- checks ------------------------------------------------------------------
    def check(self, s: Struct, seen: tuple[str, ...] = ()) -> None:
        """Raise :class:`Unsupported` if some field of ``s`` (or a nested structure) cannot be drawn."""
        if s.ref in seen:
            raise Unsupported(f"{s.ref}: recursive structure via {' -> '.join(seen)}")
        for f in s.fields:
            where = f"{s.ref} field '{f.name}'"
            if f.type in INT_RANGES:
                continue
            if f.type in ("bytes", "string"):
                if f.compressed_by:
                    raise Unsupported(f"{where}: compressed bytes fields are not drawn yet")
                continue
            if f.type == "array":
                if f.size and f.size != "rest":
                    raise Unsupported(
                        f"{where}: arrays sized by a byte-size field ('size: {f.size}') are not drawn yet"
                    )
                self.check(self.schemas.resolve(f.items), (*seen, s.ref))
                continue
            if CAMEL.match(f.type):
                self.check(self.schemas.resolve(f.type), (*seen, s.ref))
                continue
            raise Unsupported(f"{where}: type {f.type!r} is unknown to the strategy builder")

    # -- strategies ----------------------------------------------------------------
    def value(self, s: Struct, bases: dict[str, int] | None = None) -> st.SearchStrategy:
        """A strategy for one value of ``s``'s NamedTuple; ``bases`` maps relative base names to ints."""
        self.check(s)
        return st.composite(lambda draw: self._draw(draw, s, dict(bases or {})))()

    def _draw(self, draw, s: Struct, bases: dict[str, int]):
        values: dict[str, object] = {}  # by schema field name, in field order
        sized: dict[str, int] = {}  # earlier int fields that carry a later field's length or count
        for f in s.fields:
            if f.type in ("bytes", "string") and f.length not in MAX_BLOB:
                sized[f.length] = -1
            if (
                f.type == "array"
                and f.count
                and f.count not in ("int16", "int32", "varint", "uvarint")
                and not any(g.count_of == f.name for g in s.fields)
            ):
                sized[f.count] = -1
        for f in s.fields:
            if f.length_of or f.count_of:
                continue  # computed, not part of the typed value
            values[f.name] = self._field(draw, s, f, values, bases)
        # fields that give a later field's length/count must agree with it
        for f in s.fields:
            if f.type in ("bytes", "string") and f.length in sized:
                v = values[f.name]
                values[f.length] = 0 if v is None else len(v.encode() if isinstance(v, str) else v)
            if f.type == "array" and f.count in sized:
                values[f.count] = len(values[f.name])
        cls = self.classes(s)
        return cls(*(values[f.name] for f in s.fields if not (f.length_of or f.count_of)))

    def _field(self, draw, s: Struct, f: Field, values: dict, bases: dict[str, int]):
        if f.const is not None:
            return f.const
        if f.checksum:
            return None  # computed by both codecs; the helper fills in the real value
        if f.bits:
            return self._bits(draw, f)
        if f.relative_to:
            base_name = f.relative_to.base
            delta = draw(_int(f.type))
            return bases.get(base_name, 0) + delta
        if f.enum and f.type in INT_RANGES:
            return draw(st.sampled_from([v.value for v in self.schemas.enums[f.enum].values]) | _int(f.type))
        if f.type in INT_RANGES:
            return draw(_int(f.type))
        if f.type in ("bytes", "string"):
            limit = MAX_BLOB.get(f.length, 40)
            if f.type == "bytes":
                blob = st.binary(max_size=limit)
            else:
                blob = st.text(max_size=limit // 4)
            return draw(st.none() | blob) if f.nullable else draw(blob)
        if f.type == "array":
            item = self.schemas.resolve(f.items)
            item_bases = {b: values[src] for b, src in f.relative_bases.items()}
            items = st.lists(self.value(item, item_bases), max_size=MAX_ITEMS)
            return draw(st.none() | items) if f.nullable else draw(items)
        if CAMEL.match(f.type):
            return draw(self.value(self.schemas.resolve(f.type), bases))
        raise Unsupported(f"{s.ref} field '{f.name}': type {f.type!r}")

    def _bits(self, draw, f: Field) -> int:
        lo, hi = INT_RANGES[f.type]
        width = FIXED_TYPES[f.type][1] * 8 if f.type in FIXED_TYPES else 64
        out = 0
        for b in f.bits:
            if b.enum:
                choice = draw(st.sampled_from([v.value for v in self.schemas.enums[b.enum].values]))
            else:
                choice = draw(st.integers(0, (1 << (b.hi - b.lo + 1)) - 1))
            out |= choice << b.lo
        if lo < 0 and out >= 1 << (width - 1):
            out -= 1 << width  # a signed field: the top bit makes it negative
        return out
