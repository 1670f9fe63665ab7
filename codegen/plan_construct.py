"""Construct planning: the reference codec's field definitions, grouped under the length and
checksum fields that wrap them, and where its names come from.

A collaborator of :class:`codegen.plan.Planner` (``planner.constructs``): it asks the planner for
``schemas``, ``imports``, ``codec_bit`` and ``magic``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol

from kafkaspec.spec import FIXED_TYPES, VAR_TYPES, Bit, Field, SchemaSet, Struct, snake
from kafkaspec.spec.types import FIELD_TYPES

from .naming import const_name
from .plan_model import ConstructGroup, ConstructKind, ConstructOf, ItemRef

#: the Construct class of every integer type of the record formats (from the type registry)
CONSTRUCT_INTS = {n: t.construct for n, t in FIELD_TYPES.items() if n in (*FIXED_TYPES, *VAR_TYPES)}


class ConstructFacts(Protocol):
    """What the Construct planner asks of the planner (:class:`codegen.plan.Planner` is one)."""

    schemas: SchemaSet

    def imports(self, s: Struct) -> list[ItemRef]: ...
    def codec_bit(self, s: Struct, f: Field) -> Bit: ...
    def magic(self, s: Struct) -> int: ...


class ConstructPlanner:
    def __init__(self, planner: ConstructFacts):
        self.planner = planner

    def reference_names_from(self, s: Struct) -> dict[str, str]:
        """Where the reference codec's own names come from: its typed tuple and its item structures' codecs."""
        out = {s.name: f"kafkaspec.generated.{s.module}"}
        for f in s.fields:  # bit fields are read by the fast codec's named masks
            for b in f.bits:
                for suffix in ("_MASK", "_SHIFT"):
                    out[const_name(b.name) + suffix] = f"kafkaspec.generated.{s.module}"
        for imp in self.planner.imports(s):
            for name in (f"{imp.snake}_construct", f"_{imp.snake}_rebase", f"_{imp.snake}_unbase"):
                out[name] = f".{imp.module}"
        return out

    def construct_groups(self, s: Struct) -> list[ConstructGroup]:
        """Fields grouped by nesting: each length or checksum field wraps the fields after it."""
        groups: list[ConstructGroup] = []
        fields: list[tuple[str, ConstructOf]] = []
        for f in s.fields:
            if f.length_of:
                groups.append(
                    ConstructGroup(fields, "length", f.name, wrapper_construct=self.construct_of(f, s))
                )
                fields = []
            elif f.checksum:
                groups.append(ConstructGroup(fields, "checksum", f.name, algorithm=f.checksum.algorithm))
                fields = []
            else:
                fields.append((f.name, self.construct_of(f, s)))
        return [*groups, ConstructGroup(fields)]

    def construct_of(self, f: Field, s: Struct) -> ConstructOf:
        if f.const is not None:
            return ConstructOf(ConstructKind.CONST, CONSTRUCT_INTS[f.type], value=f.const)
        if f.count_of:
            return ConstructOf(ConstructKind.COUNT, CONSTRUCT_INTS[f.type], ref=f.count_of)
        if f.type in CONSTRUCT_INTS:
            return ConstructOf(ConstructKind.INT, CONSTRUCT_INTS[f.type])
        if f.type in ("bytes", "string"):
            if f.length in CONSTRUCT_INTS:
                return ConstructOf(
                    ConstructKind.BYTES,
                    CONSTRUCT_INTS[f.length],
                    nullable=f.nullable,
                    string=f.type == "string",
                )
            if f.length == "rest":
                return ConstructOf(ConstructKind.GREEDY_BYTES)
            assert f.length, f.name  # the spec layer gives every byte string a length
            return ConstructOf(ConstructKind.SIZED_BYTES, ref=f.length)
        if f.type == "array":
            item = snake(self.planner.schemas.resolve(f.item_type).name)
            if f.count in CONSTRUCT_INTS:
                kind = ConstructKind.NULLABLE_ARRAY if f.nullable else ConstructKind.PREFIXED_ARRAY
                array = ConstructOf(kind, CONSTRUCT_INTS[f.count], item=item)
            elif f.count:
                array = ConstructOf(ConstructKind.COUNTED_ARRAY, ref=f.count, item=item)
            elif f.size == "rest":
                array = ConstructOf(ConstructKind.GREEDY_ARRAY, item=item)
            else:
                assert f.size, f.name  # the spec layer gives every array a count or a size
                array = ConstructOf(ConstructKind.SIZED_ARRAY, ref=f.size, item=item)
            if f.compressed_by:
                return replace(
                    array,
                    codec=self.planner.codec_bit(s, f),
                    codec_field=f.compressed_by.field,
                    magic=self.planner.magic(s),
                )
            return array
        return ConstructOf(ConstructKind.STRUCT, item=snake(self.planner.schemas.resolve(f.type).name))
