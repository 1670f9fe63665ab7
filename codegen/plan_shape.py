"""Shape planning: the layout spec of a structure whose items can be taken in runs of one shape
(``kafkaspec.codec.shapes`` decodes such runs, ``kafkaspec.codec.shape_encode`` encodes them), read from its
decode steps.

A collaborator of :class:`codegen.plan.Planner` (``planner.shapes``): it asks the planner for
``decode_steps``, ``bases_of``, ``headed`` and ``schemas``.
"""

from __future__ import annotations

from typing import Protocol

from kafkaspec.spec import Field, SchemaSet, Struct

from .plan_model import ShapeEntry, ShapeKind, Step


class ShapeFacts(Protocol):
    """What the shape planner asks of the planner (:class:`codegen.plan.Planner` is one)."""

    schemas: SchemaSet

    def decode_steps(self, s: Struct, structs: dict[str, str]) -> list[Step]: ...
    def bases_of(self, s: Struct) -> list[str]: ...
    def headed(self, s: Struct, steps: list[Step]) -> bool: ...


class ShapePlanner:
    def __init__(self, planner: ShapeFacts):
        self.planner = planner

    def shaped(self, ref: str) -> bool:
        """Whether the array encoder of ``ref``'s items has a shape path (``encode_<item>_array_parts``)."""
        s = self.planner.schemas.resolve(ref)
        steps = self.planner.decode_steps(s, {})
        if self.planner.headed(s, steps):
            return False  # a headed entry: no array encoder
        return bool(self.shape_spec(s, steps, [f for f in s.fields if not (f.length_of or f.count_of)]))

    def shape_spec(self, s: Struct, steps: list[Step], exposed: list[Field]) -> tuple[ShapeEntry, ...]:
        """The layout spec ``kafkaspec.codec.shapes.decode_run`` reads (its module docstring), or () when the
        structure is not one it can take: its own length first (a varint), then only what
        :meth:`_shape_steps` accepts, in the order of the typed tuple's fields."""
        if not steps or steps[0].kind != "var" or not any(c.kind == "length" for c in steps[0].checks):
            return ()
        rest = self._shape_steps(steps[1:], self.planner.bases_of(s))
        if not rest or [st.f for st in steps[1:]] != exposed:
            return ()
        return (ShapeEntry(ShapeKind.LENGTH), *rest)

    def _shape_steps(self, steps: list[Step], bases: list[str]) -> list[ShapeEntry]:
        """Each step as a spec entry: a one-byte int8 without checks, a zigzag varint or varlong
        (relative: the index of its base, and what None means when encoding: "index" or "base"), a byte string with a varint length, an array with a varint
        count whose items are flat and decoded inline; [] when a step is none of these."""
        out: list[ShapeEntry] = []
        for st in steps:
            f = st.f
            if st.kind == "fixed" and st.size == 1 and f.type == "int8" and not st.checks:
                out.append(ShapeEntry(ShapeKind.INT8))
            elif st.kind == "var" and st.var in ("varint", "varlong") and not st.checks:
                none = (
                    f.relative_to.default
                    if f.relative_to and f.relative_to.default in ("index", "base")
                    else None
                )
                base = bases.index(f.relative_to.base) if f.relative_to else -1
                out.append(ShapeEntry(ShapeKind.VAR, base=base, none=none))
            elif st.kind == "bytes" and st.prefix == "varint":
                out.append(ShapeEntry(ShapeKind.BYTES, nullable=bool(f.nullable), string=f.type == "string"))
            elif st.kind == "array" and st.prefix == "varint" and st.inline and not f.nullable:
                inner = self._shape_steps(st.inline.steps, [])
                if not inner:
                    return []
                out.append(ShapeEntry(ShapeKind.ARRAY, item=st.inline.class_name, inner=tuple(inner)))
            else:
                return []
        return out
