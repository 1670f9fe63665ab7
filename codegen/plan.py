"""Plan what the templates emit: turn a validated :class:`Struct` into a typed
:class:`~codegen.plan_model.StructPlan` (its parts are defined in plan_model.py). One module because
the decisions every collaborator reads (names, layout constants, item references) are made here once.

Every decision is made here: coalescing fixed-width runs, byte offsets and the layout constants
that name them, local names, encode order, checks, which helpers and parameters a module needs.
The templates (codegen/templates/) write out the plan's fields; they do not decide.

The planner holds the shared decisions (struct names, layout constants, item references, codec bits)
and the decode steps; its collaborators plan the encoders (:mod:`codegen.plan_encode`), the Construct
definitions (:mod:`codegen.plan_construct`) and the layout specs of the shape runs
(:mod:`codegen.plan_shape`). Local and constant names come from :mod:`codegen.naming`.
"""

from __future__ import annotations

from dataclasses import replace

from kafkaspec.spec import (
    FIXED_TYPES,
    VAR_TYPES,
    Bit,
    Dispatch,
    Field,
    SchemaSet,
    Struct,
    snake,
)
from kafkaspec.spec.types import FIELD_TYPES, min_size

from .naming import const_name, local
from .plan_construct import ConstructPlanner
from .plan_encode import EncodePlanner
from .plan_model import (
    At,
    BitOf,
    Check,
    CheckKind,
    Constant,
    ConstantRef,
    ConstantSum,
    DispatchPlan,
    ExposedColumn,
    ExposedKind,
    InlineItems,
    ItemRef,
    RebasedArray,
    Relative,
    Step,
    StepKind,
    StructPlan,
    TupleField,
    Value,
    ValueOf,
)
from .plan_shape import ShapePlanner
from .wire import fixed_prefix, var_prefix


class Planner:
    """Plans one structure's fast codec (:meth:`plan`), with three collaborators for the parts that
    stand on their own: the encoder's pieces and columns (:attr:`encoder`), the Construct reference
    (:attr:`constructs`) and the shape runs (:attr:`shapes`)."""

    def __init__(self, schemas: SchemaSet):
        self.schemas = schemas
        self.shapes = ShapePlanner(self)
        self.encoder = EncodePlanner(self)
        self.constructs = ConstructPlanner(self)

    # -- helpers ---------------------------------------------------------
    @staticmethod
    def struct_const(registry: dict[str, str], fmt: str) -> str:
        if fmt not in registry:
            registry[fmt] = f"_S{len(registry)}"
        return registry[fmt]

    def min_size(self, s: Struct) -> int:
        """The fewest bytes an item of ``s`` takes (at least 1): bounds a hostile array count. An
        optional field counts, as before: the bound is a guard, not a decoder."""
        total = 0
        for f in s.fields:
            if f.type in ("bytes", "string"):
                total += min_size(f.length)
            elif f.type == "array":
                total += min_size(f.count)
            else:
                total += min_size(f.type)
        return max(total, 1)

    @staticmethod
    def uses_varints(steps: list[Step]) -> bool:
        """Whether decoding these steps reads a varint (and so needs the zigzag tables)."""
        return any(st.kind == "var" or var_prefix(st.prefix) for st in steps)

    @staticmethod
    def bases_of(s: Struct) -> list[str]:
        return sorted({f.relative_to.base for f in s.fields if f.relative_to})

    def item_ref(self, ref: str) -> ItemRef:
        s = self.schemas.resolve(ref)
        return ItemRef(s.name, s.module, snake(s.name), tuple(self.bases_of(s)))

    # -- the plan of one structure -------------------------------------------
    def plan(self, s: Struct) -> StructPlan:
        structs: dict[str, str] = {}
        steps = self.decode_steps(s, structs)
        leading = steps[0] if steps and steps[0].kind == "fixed" else None
        headed = self.headed(s, steps)
        head = leading if headed else None  # the leading run of a headed entry
        exposed = [f for f in s.fields if not (f.length_of or f.count_of)]
        pieces, final_parts = self.encoder.encode_pieces(s, structs, flat=headed)
        relatives = [self.relative(f) for f in s.fields if f.relative_to]
        sparse = {f.name for f in exposed if self.is_sparse(f)}
        disc_field = s.field(s.discriminator.field) if s.discriminator else None
        groups = self.constructs.construct_groups(s)
        return StructPlan(
            s=s,
            class_name=s.name,
            snake=snake(s.name),
            module=s.module,
            steps=steps,
            structs=structs,
            headed=headed,
            header_step=head,
            rest_steps=steps[1:] if headed else steps,
            rest_uses_varints=self.uses_varints(steps[1:] if headed else steps),
            exposed=exposed,
            tuple_fields=[self.tuple_field(f) for f in exposed],
            bases=self.bases_of(s),
            relatives=relatives,
            rebased_arrays=[
                RebasedArray(
                    f.name,
                    snake(self.schemas.resolve(f.item_type).name),
                    [f.relative_bases.get(b, b) for b in self.item_ref(f.item_type).bases],
                )
                for f in s.fields
                if f.type == "array" and f.relative_bases
            ],
            constants=self.constants(s),
            bits=[(f, b) for f in s.fields for b in f.bits],
            pieces_reversed=list(reversed(pieces)),
            final_parts=final_parts,
            names_from=self.names_from(s),
            reference_names_from=self.constructs.reference_names_from(s),
            construct=groups,
            has_length=any(f.length_of for f in s.fields),
            compressed=any(step.codec for step in steps),
            verifies=any(c.kind == "checksum" for step in steps for c in step.checks),
            check_locals=[(local(c.f.name), c.f.name) for c in head.checks] if head else [],
            rest_locals=self.rest_locals(head, steps[1:]) if head else [],
            # a string decoded here: its own, or one of items decoded inline (the columnar decoder
            # decodes items by their own call, which handles their strings)
            has_strings=any(f.type == "string" for f in s.fields)
            or any(i.f.type == "string" for step in steps if step.inline for i in step.inline.steps),
            own_strings=any(f.type == "string" for f in s.fields),
            # a bytes slice moves pos without reading: a decoder checks the end once after the loop
            slices=any(step.kind == "bytes" for step in steps),
            min_size_const=self.min_size_const(s),
            # an item's const and checksum fields are written from the schema, not from the item
            encode_unpack=[
                "_" if f.const is not None or f.checksum else local(f.exposed_name) for f in exposed
            ],
            encode_needs_index=any(r.default == "index" for r in relatives),
            decoded_values=[
                ValueOf(local(f.name), base=f.relative_to.base if f.relative_to else "") for f in exposed
            ],
            headed_values=[
                ValueOf(f.name, head=True) if head and f in head.fields else ValueOf(local(f.name))
                for f in exposed
            ],
            run_item=[local(f.name) for f in head.fields] + [local(st.f.name) for st in steps[1:]]
            if head
            else [],
            disc_field=disc_field,
            params=self.encoder.encode_params(s),
            columns=self.encoder.column_encode(s, structs, exposed),
            column_fields=[self.exposed_column(f, sparse) for f in exposed],
            sparse=sparse,
            count_column=next((f.exposed_name for f in exposed if f.type != "array"), ""),
            raw_int8=[c.f.name for c in (self.exposed_column(f, sparse) for f in exposed) if c.raw_int8],
            columns_step=steps[1] if headed and len(steps) == 2 and steps[1].kind == "array" else None,
            needs_size=any(step.kind == "var" and step.checks for step in steps),
            # item loops check a length field once the item is read (``pos != end``), not before,
            # unless a compressed region must be cut at that length first
            late_length=not any(step.codec for step in steps),
            # entries with a discriminator and no nested array (legacy messages) also get a
            # decoder of back-to-back runs: a compressed wrapper's inner message set
            run_decoder=headed and not any(step.kind == "array" for step in steps[1:]),
            shape_spec=self.shapes.shape_spec(s, steps, exposed) if not headed else (),
            run_step=replace(
                head, checks=[c for c in head.checks if not (c.kind == "const" and c.f is disc_field)]
            )
            if head
            else None,
        )

    @staticmethod
    def headed(s: Struct, steps: list[Step]) -> bool:
        """A headed entry (a discriminator and a leading fixed run: legacy messages, batches): one
        entry's encoder, no array encoder."""
        return s.discriminator is not None and bool(steps) and steps[0].kind == "fixed"

    @staticmethod
    def magic(s: Struct) -> int:
        """The structure's magic constant (2 where it has none: the v2 formats)."""
        return next((f.const for f in s.fields if f.name == "magic" and f.const is not None), 2)

    @staticmethod
    def rest_locals(head: Step, rest: list[Step]) -> list[tuple[str, str]]:
        """The head fields that decoding the rest reads (counts, lengths, the codec's attribute,
        bases), as (local, field name)."""
        wanted = set()
        for step in rest:
            wanted |= {step.ref, *step.bases}
            if step.codec and step.f.compressed_by:
                wanted.add(local(step.f.compressed_by.field))
        return [(local(f.name), f.name) for f in head.fields if local(f.name) in wanted]

    @staticmethod
    def is_sparse(f: Field) -> bool:
        """Columns the columnar decoder fills in bulk: a fixed-width integer with a default, an
        array whose default is empty, or a delta that defaults to the item index (a record's
        offset delta). The loop only notes the items that differ."""
        if f.relative_to:
            return f.relative_to.default == "index"
        if not f.has_default or f.const is not None:
            return False
        if f.type == "array":
            return f.default == [] and var_prefix(f.count)
        return bool(f.fixed) and not f.bits

    def exposed_column(self, f: Field, sparse: set[str]) -> ExposedColumn:
        name, loc = f.exposed_name, local(f.name)
        if f.type == "array":
            item = self.item_ref(f.item_type).name
            return ExposedColumn(
                f, loc, name, ExposedKind.SPARSE_ARRAY if f.name in sparse else ExposedKind.ARRAY, item=item
            )
        if f.name not in sparse:
            return ExposedColumn(f, loc, name, ExposedKind.PLAIN)
        if f.relative_to:
            return ExposedColumn(f, loc, name, ExposedKind.SPARSE_INDEX)
        # int8 columns stay the unsigned byte in the loop; the few non-default items are converted
        return ExposedColumn(
            f, loc, name, ExposedKind.SPARSE, raw_int8=f.type == "int8" and f.default == 0, default=f.default
        )

    def relative(self, f: Field) -> Relative:
        assert f.relative_to is not None, f.name
        rel = f.relative_to
        return Relative(f.name, local(f.name), rel.as_name, rel.base, rel.default)

    def tuple_field(self, f: Field) -> TupleField:
        default: Value
        if f.type == "array":
            default = ()
        elif f.const is not None:
            default = f.const
        elif f.has_default:
            default = () if isinstance(f.default, list) else f.default
        else:
            default = None
        t = FIELD_TYPES.get(f.type)
        if t is None:  # a nested structure
            hint, optional = f.type, True
        elif t.hint == "int":
            hint, optional = "int", default is None
        elif t.hint == "Sequence":
            hint, optional = "Sequence", f.nullable
        else:  # bytes and strings may always be null in the record formats
            hint, optional = t.hint, True
        return TupleField(f.exposed_name, hint, default, self.exposed_doc(f), optional)

    @staticmethod
    def exposed_doc(f: Field) -> str:
        """The doc of the value users see: a relative field is exposed as an absolute value, while
        the schema's doc describes the stored delta."""
        if not f.relative_to:
            return f.doc
        base, as_name, default = f.relative_to.base, f.relative_to.as_name, f.relative_to.default
        text = (
            f"The {as_name} itself (absolute), {base} + {f.name}; the stored {f.name} is the "
            f"{as_name[0].lower()}{f.doc.strip()[1:]}"
        )
        if default == "index":
            text += f" When encoding, None means {base} + the item's index."
        elif default == "base":
            text += f" When encoding, None means {base} (a {f.name} of 0)."
        return text

    def constants(self, s: Struct) -> list[Constant]:
        """Chained layout constants of the leading fixed-width fields, like DefaultRecordBatch.java."""
        out: list[Constant] = []
        prev = None
        for f in s.fields:
            name = const_name(f.name)
            offset: int | ConstantSum = 0 if prev is None else ConstantSum(f"{prev}_OFFSET", f"{prev}_LENGTH")
            out.append(Constant(f"{name}_OFFSET", offset))
            if not f.fixed:
                break
            out.append(Constant(f"{name}_LENGTH", FIXED_TYPES[f.type][1]))
            prev = name
        else:
            out.append(
                Constant(f"{const_name(snake(s.name))}_SIZE", ConstantSum(f"{prev}_OFFSET", f"{prev}_LENGTH"))
            )
            return out + self.derived_constants(s)
        if len(out) > 1:
            out.append(
                Constant(
                    f"{const_name(snake(s.name))}_OVERHEAD",
                    ConstantRef(out[-1].name),
                    "bytes before the first variable-size field",
                )
            )
        if s.discriminator is None:  # array items: a count read from the data is bounded by this
            out.append(Constant(self.min_size_const(s), self.min_size(s), "smallest encoded size"))
        return out + self.derived_constants(s)

    def min_size_const(self, s: Struct) -> str:
        """The constant bounding how many items can fit in the bytes left (a hostile count)."""
        if all(f.fixed for f in s.fields):
            return f"{const_name(snake(s.name))}_SIZE"
        return f"MIN_{const_name(snake(s.name))}_SIZE"

    def head_size_const(self, s: Struct) -> str:
        """The constant naming the size of the leading fixed-width fields."""
        every_fixed = all(f.fixed for f in s.fields)
        return f"{const_name(snake(s.name))}_{'SIZE' if every_fixed else 'OVERHEAD'}"

    def derived_constants(self, s: Struct) -> list[Constant]:
        """Where a length field of the leading fixed-width fields starts counting, and its smallest value."""
        out: list[Constant] = []
        for i, f in enumerate(s.fields):
            if not f.fixed:
                break
            if f.length_of:
                name = const_name(f.name)
                out.append(
                    Constant(
                        f"{name}_END",
                        ConstantSum(f"{name}_OFFSET", f"{name}_LENGTH"),
                        f"{f.name} counts from here",
                    )
                )
                if i + 1 < len(s.fields) and s.fields[i + 1].fixed:
                    out.append(
                        Constant(
                            f"MIN_{name}",
                            ConstantSum(self.head_size_const(s), f"{name}_END", minus=True),
                            f"the fixed-width fields {f.name} covers",
                        )
                    )
        return out

    def names_from(self, s: Struct) -> dict[str, str]:
        """Where the fast codec's names that are not in render.SOURCES come from: its item structures'
        codecs (sibling modules) and the enums of its bit fields."""
        out = {}
        for imp in self.imports(s):
            for name in (
                imp.name,
                f"{imp.name}Columns",
                f"decode_{imp.snake}_array",
                f"decode_{imp.snake}_columns",
                f"encode_{imp.snake}_array",
                f"encode_{imp.snake}_array_parts",
                f"{imp.snake}_column_parts",
                f"{imp.snake}_pieces",
                f"MIN_{const_name(imp.snake)}_SIZE",
            ):
                out[name] = f".{imp.module}"
        for f in s.fields:
            for b in f.bits:
                if b.enum:
                    out[b.enum] = out["members"] = "kafkaspec.generated.enums"
        return out

    def imports(self, s: Struct) -> list[ItemRef]:
        refs: list[ItemRef] = []
        for f in s.fields:
            ref = f.items or (f.type if f.type[0].isupper() else None)
            if ref and (item := self.item_ref(ref)) not in refs:
                refs.append(item)
        return refs

    # -- decode ------------------------------------------------------------------
    def decode_steps(self, s: Struct, structs: dict[str, str]) -> list[Step]:
        steps: list[Step] = []
        run: list[Field] = []

        def flush() -> None:
            nonlocal run
            if run:
                steps.append(self.fixed_step(s, run, structs, leading=run[0] is s.fields[0]))
            run = []

        for f in s.fields:
            if f.fixed:
                run.append(f)
                continue
            flush()
            if f.type in VAR_TYPES:
                step = Step(StepKind.VAR, [f], var=f.type)
                if f.length_of:
                    step.checks.append(Check(CheckKind.LENGTH, f))
                steps.append(step)
            elif f.type in ("bytes", "string"):
                steps.append(self._prefixed(Step(StepKind.BYTES, [f]), f.prefix, structs))
            elif f.type == "array":
                step = self._prefixed(Step(StepKind.ARRAY, [f]), f.prefix, structs)
                if f.size:
                    step.prefix = "size" if f.size != "rest" else "rest"
                    step.ref = local(f.size) if f.size != "rest" else ""
                step.item = self.item_ref(f.item_type)
                step.bases = [local(f.relative_bases.get(b, b)) for b in step.item.bases]
                step.codec = self.codec_of(s, f)
                step.codec_magic = self.magic(s)
                if var_prefix(step.prefix) and not step.codec:
                    step.inline = self.inline_items(self.schemas.resolve(f.item_type))
                steps.append(step)
            else:
                steps.append(Step(StepKind.STRUCT, [f], item=self.item_ref(f.type)))
        flush()
        return steps

    def inline_items(self, item: Struct) -> InlineItems | None:
        """The items of a flat structure (one-byte integers, varints, byte strings: no length, checksum,
        relative or nested field) decoded in the enclosing loop; None for any other."""
        if any(
            f.length_of or f.count_of or f.checksum or f.relative_to or f.const is not None or f.bits
            for f in item.fields
        ):
            return None
        steps = self.decode_steps(item, {})
        if not all(
            st.kind in ("var", "bytes") or (st.kind == "fixed" and st.size == 1 and not st.checks)
            for st in steps
        ):
            return None
        prefix = f"{snake(item.name)}_"
        return InlineItems(
            item.name,
            item.name,
            steps,
            self.min_size_const(item),
            prefix,
            [prefix + local(f.name) for f in item.fields],
        )

    def fixed_step(self, s: Struct, run: list[Field], structs: dict[str, str], *, leading: bool) -> Step:
        """A run of fixed-width fields, unpacked at once, and its checks. The leading run sits at fixed
        offsets from the structure's start: its checks are written with the layout constants; a later
        run's relative to ``pos`` after it."""
        fmt = ">" + "".join(FIXED_TYPES[f.type][0] for f in run)
        size = sum(FIXED_TYPES[f.type][1] for f in run)
        # a one-byte run is read as buf[pos], without a struct
        step = Step(
            StepKind.FIXED,
            list(run),
            struct=self.struct_const(structs, fmt) if size > 1 else "",
            size=size,
            size_expr=self.head_size_const(s) if leading else "",
        )
        at = 0
        for f in run:
            at += FIXED_TYPES[f.type][1]
            name, back = const_name(f.name), size - at
            # where the field sits: at its layout constant in the leading run, else before ``pos``
            where = At(f"{name}_OFFSET") if leading else At(back=back + FIXED_TYPES[f.type][1])
            if f.const is not None:
                step.checks.append(Check(CheckKind.CONST, f, at=where))
            if f.length_of:
                if leading:
                    end, least = At(f"{name}_END"), f"MIN_{name}" if back else 0
                else:
                    end, least = At(back=back), back
                step.checks.append(Check(CheckKind.LENGTH, f, end=end, min=least, covers_fixed=back > 0))
            if f.checksum:
                start = At(f"{const_name(f.checksum.start)}_OFFSET") if leading else At(back=back)
                step.checks.append(
                    Check(CheckKind.CHECKSUM, f, algorithm=f.checksum.algorithm, covers_from=start)
                )
            if f.count_of and f.type.startswith("int"):
                # a signed count: negative is refused with the head, before anything reads the items
                step.checks.append(Check(CheckKind.COUNT, f, at=where))
        return step

    def codec_of(self, s: Struct, f: Field) -> BitOf | None:
        """The bit field (of a decoded local) giving the codec of a compressed field, or None."""
        if not f.compressed_by:
            return None
        return BitOf(local(f.compressed_by.field), self.codec_bit(s, f))

    @staticmethod
    def codec_bit(s: Struct, f: Field) -> Bit:
        assert f.compressed_by is not None, f.name
        return next(b for b in s.field(f.compressed_by.field).bits if b.name == f.compressed_by.bit)

    def _prefixed(self, step: Step, prefix: str, structs: dict[str, str]) -> Step:
        if fixed_prefix(prefix):
            step.prefix = prefix
            # the helpers the encoder packs with: _I16, _I32
            step.prefix_struct = f"_I{FIELD_TYPES[prefix].size * 8}"
        elif var_prefix(prefix) or prefix == "rest":
            step.prefix = prefix
        else:
            step.prefix = "ref"
            step.ref = local(prefix)
        return step


def dispatch_plan(d: Dispatch, schemas: SchemaSet) -> DispatchPlan:
    cases = [(value, schemas.resolve(ref)) for value, ref in sorted(d.cases.items())]
    return DispatchPlan(d, cases, sorted({s.module for _, s in cases}))
