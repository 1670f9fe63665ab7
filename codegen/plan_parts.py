"""What the parts of :class:`codegen.plan.Planner` may ask of one another.

The planner is one class written in four modules (plan.py, plan_encode.py, plan_construct.py,
plan_shape.py); each part calls methods another part defines. :class:`PlannerParts` declares them
for the type checker, so that each part is checked on its own; at run time it is an empty base.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kafkaspec.spec import Bit, Field, SchemaSet, Struct

    from .plan_model import BitOf, ItemRef, Step, TupleField


class PlannerParts:
    if TYPE_CHECKING:
        schemas: SchemaSet

        @staticmethod
        def _struct_const(registry: dict[str, str], fmt: str) -> str: ...
        @staticmethod
        def bases_of(s: Struct) -> list[str]: ...
        @staticmethod
        def headed(s: Struct, steps: list[Step]) -> bool: ...
        @staticmethod
        def magic(s: Struct) -> int: ...
        @staticmethod
        def codec_bit(s: Struct, f: Field) -> Bit: ...
        def item_ref(self, ref: str) -> ItemRef: ...
        def tuple_field(self, f: Field) -> TupleField: ...
        def imports(self, s: Struct) -> list[ItemRef]: ...
        def decode_steps(self, s: Struct, structs: dict[str, str]) -> list[Step]: ...
        def codec_of(self, s: Struct, f: Field) -> BitOf | None: ...
        def shaped(self, ref: str) -> bool: ...
