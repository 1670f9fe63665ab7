"""Encode planning: the parameters of a structure's encoder, its pieces in encode order (a length or
checksum field ends its piece and sees the bytes after it), and the column-at-a-time encoder of
array items.

A collaborator of :class:`codegen.plan.Planner` (``planner.encoder``): it asks the planner for the
shared facts (``item_ref``, ``codec_of``, ``tuple_field``, ``magic``, ``struct_const``) and the shape
planner whether an item structure has a shape path.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol

from kafkaspec.spec import FIXED_TYPES, PREFIX_TYPES, VAR_TYPES, Field, SchemaSet, Struct

from .naming import VAR_TABLES, local
from .plan_model import (
    BitOf,
    Column,
    ColumnEncoder,
    ColumnKind,
    Encoded,
    EncodedKind,
    ItemRef,
    Param,
    Piece,
    PieceKind,
    TupleField,
)
from .plan_shape import ShapePlanner
from .wire import var_prefix


class EncodeFacts(Protocol):
    """What the encode planner asks of the planner (:class:`codegen.plan.Planner` is one)."""

    schemas: SchemaSet
    shapes: ShapePlanner

    def item_ref(self, ref: str) -> ItemRef: ...
    def tuple_field(self, f: Field) -> TupleField: ...
    def codec_of(self, s: Struct, f: Field) -> BitOf | None: ...
    def magic(self, s: Struct) -> int: ...
    def struct_const(self, registry: dict[str, str], fmt: str) -> str: ...


class EncodePlanner:
    def __init__(self, planner: EncodeFacts):
        self.planner = planner

    def encode_params(self, s: Struct) -> list[Param]:
        out = []
        for f in s.fields:
            if f.length_of or f.count_of or f.checksum or f.const is not None:
                continue
            default = self.planner.tuple_field(f).default
            out.append(Param(local(f.exposed_name), default, required=default is None and not f.has_default))
        return out

    def column_encode(self, s: Struct, structs: dict[str, str], exposed: list[Field]) -> ColumnEncoder | None:
        """Plan a column-at-a-time encoder for array items, or None where the shape needs the general loop.

        Each field becomes one or two columns of byte strings built by C-level ``map`` calls;
        a value outside the common case raises and the caller falls back to the general loop.
        """
        if s.discriminator is not None:
            return None
        columns: list[Column] = []
        formats: list[tuple[int, str]] = []  # registered in ``structs`` only once the plan is known to hold
        length_prefix = False
        names = [f.name for f in exposed]
        for i, f in enumerate(s.fields):
            if f.length_of and i == 0 and var_prefix(f.type):
                length_prefix = True
                continue
            if f.computed:
                return None
            col = names.index(f.name)
            if f.fixed:
                if f.type in ("int8", "uint8"):
                    columns.append(Column(ColumnKind.BYTE, col))
                else:
                    formats.append((len(columns), ">" + FIXED_TYPES[f.type][0]))
                    columns.append(Column(ColumnKind.PACK, col))
            elif f.type in VAR_TYPES:
                rel = f.relative_to
                columns.append(
                    Column(
                        ColumnKind.VAR,
                        col,
                        table=VAR_TABLES.get(f.type, "VARINT_BYTES"),
                        base=rel.base if rel else None,
                        default=rel.default if rel else None,
                    )
                )
            elif f.type in ("bytes", "string") and f.length in VAR_TABLES:
                columns.append(
                    Column(ColumnKind.BYTES, col, table=VAR_TABLES[f.length], string=f.type == "string")
                )
            elif f.type == "array" and f.count in VAR_TABLES and not self.planner.item_ref(f.item_type).bases:
                # items that have a column encoder of their own are encoded all at once, every
                # item's items flattened into one call (a record's headers: one call per batch)
                item = self.planner.schemas.resolve(f.item_type)
                flat = self.column_encode(
                    item, {}, [g for g in item.fields if not (g.length_of or g.count_of)]
                )
                columns.append(
                    Column(
                        ColumnKind.ARRAY,
                        col,
                        table=VAR_TABLES[f.count],
                        item=self.planner.item_ref(f.item_type).snake,
                        flat=flat is not None,
                        pairs=flat is not None and flat.pairs,
                    )
                )
            else:
                return None
        for at, fmt in formats:
            c = columns[at]
            columns[at] = Column(c.kind, c.col, struct=self.planner.struct_const(structs, fmt))
        # what a column given as None (every item the field's default) holds
        columns = [
            replace(
                c, value=self.planner.tuple_field(exposed[c.col]).default, nullable=exposed[c.col].nullable
            )
            for c in columns
        ]
        pairs = not length_prefix and [(c.kind, c.string, c.nullable) for c in columns] == [
            ("bytes", True, False),
            ("bytes", False, True),
        ]
        return ColumnEncoder(
            length_prefix,
            columns,
            width=len(exposed),
            needs_n=any(c.default or (c.flat and length_prefix) for c in columns),
            pairs=pairs,
        )

    def encode_pieces(
        self, s: Struct, structs: dict[str, str], flat: bool = False
    ) -> tuple[list[Piece], list[str]]:
        """Pieces in field order, and the parts the encoder finally joins; a length or checksum field
        ends its piece, and pieces are encoded last to first so every computed field sees the bytes
        it covers."""
        groups: list[tuple[PieceKind, list[Field]]] = []
        current: list[Field] = []
        for f in s.fields:
            if f.fixed:
                current.append(f)
                if f.length_of or f.checksum:
                    groups.append((PieceKind.FIXED, current))
                    current = []
                continue
            if current:
                groups.append((PieceKind.FIXED, current))
                current = []
            groups.append((PieceKind.SINGLE, [f]))
        if current:
            groups.append((PieceKind.FIXED, current))
        pieces = [self.piece(s, i, kind, fields, structs) for i, (kind, fields) in enumerate(groups)]
        # Encode last to first. In an item loop (``flat`` False) a computed piece joins the parts
        # after it into a suffix, which it measures or checksums. A whole entry's encoder (``flat``)
        # instead covers the parts after it (its length the sum of theirs, its checksum chained over
        # them) and joins every part once at the end: a large payload is copied once, not once per
        # enclosing length or checksum (each large copy costs page faults here, not just bandwidth).
        pending: list[str] = []
        suffix = ""
        covered: list[str] = []
        for p in reversed(pieces):
            if p.computed is not None:
                if flat:
                    covered = p.cover = pending + covered
                else:
                    p.join = pending + ([suffix] if suffix else [])
                    suffix = p.suffix = f"s{p.index}"
                pending = list(p.own)
            else:
                pending = p.own + pending
        for p in pieces:  # computed values read what they cover
            p.values = [self.piece_value(f, p) for f in p.fields]
        return pieces, pending + (covered if flat else [suffix] if suffix else [])

    def piece(
        self, s: Struct, i: int, kind: PieceKind, fields: list[Field], structs: dict[str, str]
    ) -> Piece:
        last = fields[-1]
        p = Piece(
            kind,
            fields,
            i,
            computed=last if (last.length_of or last.checksum) else None,
            codec_magic=self.planner.magic(s),
        )
        p.byte = kind is PieceKind.FIXED and len(fields) == 1 and last.type in ("int8", "uint8")
        if kind is PieceKind.FIXED and not p.byte:
            p.struct = self.planner.struct_const(
                structs, ">" + "".join(FIXED_TYPES[f.type][0] for f in fields)
            )
        p.own = self._own_parts(p)
        if kind is PieceKind.SINGLE:
            p.codec = self.planner.codec_of(s, last)
            if last.type == "array":
                p.item = self.planner.item_ref(last.item_type)
                p.item_bases = [local(last.relative_bases.get(b, b)) for b in p.item.bases]
                # a compressible region of items that may be encoded as parts (records of one shape):
                # kept as a list, so that uncompressed it is copied once, into the entry itself
                if p.codec and self.planner.shapes.shaped(last.item_type) and not p.own[:-1]:
                    p.parts = True
                    p.own = [f"*d{i}"]
            elif last.type[0].isupper():
                p.item = self.planner.item_ref(last.type)
        return p

    @staticmethod
    def piece_value(f: Field, p: Piece) -> Encoded:
        """What a fixed piece packs for ``f``: its constant, a count, a length or checksum of what it
        covers, or its own value."""
        cover = None if p.cover is None else tuple(p.cover)
        if f.const is not None:
            return Encoded(EncodedKind.CONST, const=f.const)
        if f.count_of:
            return Encoded(EncodedKind.COUNT, local(f.count_of))
        if f.length_of:
            return Encoded(EncodedKind.LENGTH, suffix=p.suffix, cover=cover)
        if f.checksum:
            return Encoded(EncodedKind.CHECKSUM, algorithm=f.checksum.algorithm, suffix=p.suffix, cover=cover)
        return Encoded(EncodedKind.FIELD, local(f.name))

    @staticmethod
    def _own_parts(p: Piece) -> list[str]:
        i = p.index
        if p.kind is PieceKind.FIXED:
            return [f"p{i}"]
        f = p.fields[0]
        if f.type in ("bytes", "string", "array"):
            prefix = f.length if f.type != "array" else f.count
            has_prefix = prefix in PREFIX_TYPES
            return [f"p{i}", f"d{i}"] if has_prefix else [f"d{i}"]
        return [f"p{i}"]
