"""Construct planning: the reference codec's field definitions, grouped under the length and
checksum fields that wrap them, and where its names come from.

A part of :class:`codegen.plan.Planner` (it inherits these methods and supplies ``schemas``,
``imports``, ``codec_bit`` and ``magic``).
"""

from __future__ import annotations

from kafkaspec.spec import FIXED_TYPES, VAR_TYPES, Field, Struct, snake
from kafkaspec.spec.types import FIELD_TYPES

from .naming import bit_value
from .plan_model import ConstructGroup
from .plan_parts import PlannerParts

#: the Construct class of every integer type of the record formats (from the type registry)
CONSTRUCT_INTS = {n: t.construct for n, t in FIELD_TYPES.items() if n in (*FIXED_TYPES, *VAR_TYPES)}


class ConstructPlanner(PlannerParts):
    def reference_names_from(self, s: Struct) -> dict[str, str]:
        """Where the reference codec's own names come from: its typed tuple and its item structures' codecs."""
        out = {s.name: f"kafkaspec.generated.{s.module}"}
        for imp in self.imports(s):
            for name in (f"{imp.snake}_construct", f"_{imp.snake}_rebase", f"_{imp.snake}_unbase"):
                out[name] = f".{imp.module}"
        return out

    def construct_groups(self, s: Struct) -> list[ConstructGroup]:
        """Fields grouped by nesting: each length or checksum field wraps the fields after it."""
        groups: list[ConstructGroup] = []
        fields: list[tuple[str, str]] = []
        for f in s.fields:
            if f.length_of:
                groups.append(ConstructGroup(fields, "length", f.name, self.construct_of(f, s)))
                fields = []
            elif f.checksum:
                groups.append(ConstructGroup(fields, "checksum", f.name, f.checksum.algorithm))
                fields = []
            else:
                fields.append((f.name, self.construct_of(f, s)))
        return [*groups, ConstructGroup(fields)]

    def construct_of(self, f: Field, s: Struct) -> str:
        if f.const is not None:
            return f"Const({f.const}, {CONSTRUCT_INTS[f.type]})"
        if f.count_of:
            return f"Rebuild({CONSTRUCT_INTS[f.type]}, len_(this.{f.count_of}))"
        if f.type in CONSTRUCT_INTS:
            return CONSTRUCT_INTS[f.type]
        if f.type in ("bytes", "string"):
            enc = ', encoding="utf-8"' if f.type == "string" else ""
            if f.length in CONSTRUCT_INTS:
                return f"KafkaBytes({CONSTRUCT_INTS[f.length]}, nullable={f.nullable}{enc})"
            if f.length == "rest":
                return "GreedyBytes"
            return f"Bytes(this.{f.length})"
        if f.type == "array":
            item = f"{snake(self.schemas.resolve(f.item_type).name)}_construct"
            if f.count in CONSTRUCT_INTS and f.nullable:
                inner = f"NullableArray({CONSTRUCT_INTS[f.count]}, {item})"
            elif f.count in CONSTRUCT_INTS:
                inner = f"PrefixedArray({CONSTRUCT_INTS[f.count]}, {item})"
            elif f.count:
                inner = f"Array(this.{f.count}, {item})"
            elif f.size == "rest":
                inner = f"GreedyItems({item})"
            else:
                inner = f"FixedSized(this.{f.size}, GreedyItems({item}))"
            if f.compressed_by:
                b = self.codec_bit(s, f)
                codec = f"lambda ctx: {bit_value('ctx.' + f.compressed_by.field, b)}"
                return f"KafkaCompressed({codec}, {inner}, magic={self.magic(s)})"
            return inner
        return f"{snake(self.schemas.resolve(f.type).name)}_construct"
