"""Plan what the templates emit: turn a validated :class:`Struct` into render-ready steps.

The templates stay declarative; every decision about coalescing fixed-width
runs, byte offsets, local names, encode order and checks is made here.
"""

from __future__ import annotations

import keyword
from dataclasses import dataclass, field

from kafkaspec.spec import FIXED_TYPES, Dispatch, Field, SchemaSet, Struct, snake

CONSTRUCT_INTS = {
    "int8": "Int8sb", "int16": "Int16sb", "int32": "Int32sb", "int64": "Int64sb",
    "uint8": "Int8ub", "uint16": "Int16ub", "uint32": "Int32ub",
    "varint": "ZigZag", "varlong": "ZigZag", "uvarint": "VarInt",
}
RESERVED = {"buf", "pos", "end", "start", "items", "item", "append", "count", "out", "verify", "index", "parts", "mv", "type"}
#: minimum encoded size of a field, used to bound hostile array counts
MIN_SIZE = {"varint": 1, "varlong": 1, "uvarint": 1, "int16": 2, "int32": 4}


def local(name: str) -> str:
    """A safe local variable name for a field."""
    return f"{name}_" if name in RESERVED or keyword.iskeyword(name) else name


def const_name(name: str) -> str:
    return name.upper()


@dataclass
class Step:
    kind: str  # fixed | var | bytes | array | struct
    fields: list[Field] = field(default_factory=list)
    struct: str = ""  # name of the precompiled struct.Struct for fixed runs
    fmt: str = ""
    size: int = 0
    var: str = ""  # varint | varlong | uvarint (var steps, varint prefixes)
    prefix: str = ""  # bytes/array prefix kind: int16, int32, varint, uvarint, ref, rest
    prefix_struct: str = ""
    ref: str = ""  # local name of the field giving a length or count
    item: dict | None = None  # plan of the array item / nested struct
    codec_expr: str = ""  # expression giving the codec number of a compressed region
    codec_magic: int = 2  # the magic a compressed region's codec is read for (lz4 framing differs)
    bases: list[str] = field(default_factory=list)  # arguments passed for relative fields
    checks: list[dict] = field(default_factory=list)  # post-decode checks of fixed fields
    size_expr: str = ""  # the layout constant naming ``size`` (the leading run only)

    @property
    def f(self) -> Field:
        return self.fields[0]


class Planner:
    def __init__(self, schemas: SchemaSet):
        self.schemas = schemas

    # -- helpers ---------------------------------------------------------
    def _struct_const(self, registry: dict[str, str], fmt: str) -> str:
        if fmt not in registry:
            registry[fmt] = f"_S{len(registry)}"
        return registry[fmt]

    def min_size(self, s: Struct) -> int:
        total = 0
        for f in s.fields:
            if f.fixed:
                total += FIXED_TYPES[f.type][1]
            elif f.type in MIN_SIZE:
                total += MIN_SIZE[f.type]
            elif f.type in ("bytes", "string"):
                total += MIN_SIZE.get(f.length, 0)
            elif f.type == "array" and f.count in MIN_SIZE:
                total += MIN_SIZE[f.count]
        return max(total, 1)

    @staticmethod
    def uses_varints(steps: list[Step]) -> bool:
        """Whether decoding these steps reads a varint (and so needs the zigzag tables)."""
        return any(st.kind == "var" or st.prefix in ("varint", "uvarint") for st in steps)

    def item_plan(self, ref: str) -> dict:
        s = self.schemas.resolve(ref)
        return {
            "name": s.name,
            "module": s.module,
            "snake": snake(s.name),
            "bases": sorted({f.relative_to[0] for f in s.fields if f.relative_to}),
            "relative": [(f.relative_to[1], f.relative_to[0]) for f in s.fields if f.relative_to],
            "min_size": self.min_size(s),
        }

    # -- the plan of one structure -------------------------------------------
    def plan(self, s: Struct) -> dict:
        structs: dict[str, str] = {}
        steps = self.decode_steps(s, structs)
        leading = steps[0] if steps and steps[0].kind == "fixed" else None
        headed = s.discriminator is not None and leading is not None
        exposed = [f for f in s.fields if not (f.length_of or f.count_of)]
        length_field = next((f for f in s.fields if f.length_of), None)
        return {
            "s": s,
            "class_name": s.name,
            "snake": snake(s.name),
            "module": s.module,
            "steps": steps,
            "structs": structs,
            "headed": headed,
            "header_step": leading if headed else None,
            "rest_steps": steps[1:] if headed else steps,
            "rest_uses_varints": self.uses_varints(steps[1:] if headed else steps),
            "exposed": exposed,
            "tuple_fields": [self.tuple_field(f) for f in exposed],
            "bases": sorted({f.relative_to[0] for f in s.fields if f.relative_to}),
            "constants": self.constants(s),
            "bits": [(f, b) for f in s.fields for b in f.bits],
            "pieces": (pieces := self.encode_pieces(s, structs)),
            "final_parts": self.final_parts,
            "pieces_reversed": list(reversed(pieces)),
            "imports": self.imports(s),
            "names_from": self.names_from(s),
            "reference_names_from": self.reference_names_from(s),
            "construct": self.construct_groups(s),
            "min_size": self.min_size(s),
            "has_length": length_field is not None,
            "length_local": local(length_field.name) if length_field else "",
            "magic": self.magic(s),
            "compressed": any(step.codec_expr for step in steps),
            "verifies": any(c["kind"] == "checksum" for step in steps for c in step.checks),
            "check_locals": [(local(c["f"].name), c["f"].name) for c in leading.checks] if headed else [],
            "rest_locals": self.rest_locals(leading, steps[1:]) if headed else [],
            # an item's const and checksum fields are written from the schema, not from the item
            "has_strings": any(f.type == "string" for f in s.fields),
            # a bytes slice moves pos without reading: a decoder checks the end once after the loop
            "slices": any(step.kind == "bytes" for step in steps),
            "min_size_const": self.min_size_const(s),
            "encode_unpack": ["_" if f.const is not None or f.checksum else local(f.exposed_name) for f in exposed],
            "head_checks": self.head_checks(leading) if headed else "",
            "enum_bits": [(f, b) for f in s.fields for b in f.bits if b.enum],
            "disc_offset": f"{const_name(s.discriminator[0])}_OFFSET" if s.discriminator else "",
            "params": self.encode_params(s),
            "columns": self.column_encode(s, structs, exposed),
            "sparse": {f.name for f in exposed if self.is_sparse(f)},
            "needs_size": any(step.kind == "var" and step.checks for step in steps),
            # item loops check a length field once the item is read (``pos != end``), not before,
            # unless a compressed region must be cut at that length first
            "late_length": not any(step.codec_expr for step in steps),
            # entries with a discriminator and no nested array (legacy messages) also get a
            # decoder of back-to-back runs: a compressed wrapper's inner message set
            "run_decoder": headed and not any(step.kind == "array" for step in steps[1:]),
        }

    @staticmethod
    def magic(s: Struct) -> int:
        """The structure's magic constant (2 where it has none: the v2 formats)."""
        return next((f.const for f in s.fields if f.name == "magic" and f.const is not None), 2)

    @staticmethod
    def rest_locals(head: Step, rest: list[Step]) -> list[str]:
        """The head fields that decoding the rest reads: counts, lengths, the codec's attribute, bases."""
        wanted = set()
        for step in rest:
            wanted |= {step.ref, *step.bases}
            if step.codec_expr:
                wanted.add(local(step.f.compressed_by[0]))
        return [(local(f.name), f.name) for f in head.fields if local(f.name) in wanted]

    @staticmethod
    def head_checks(step: Step) -> str:
        """What :func:`check_<snake>` checks, in words."""
        words = {"const": "{} is {}", "length": "{} fits the buffer", "checksum": "{} matches"}
        parts = [words[c["kind"]].format(c["f"].name, c["f"].const) for c in step.checks]
        return ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1] if parts else "nothing"

    @staticmethod
    def is_sparse(f: Field) -> bool:
        """Columns the columnar decoder fills in bulk: a fixed-width integer with a default, an
        array whose default is empty, or a delta that defaults to the item index (a record's
        offset delta). The loop only notes the items that differ."""
        if f.relative_to:
            return f.relative_to[2] == "index"
        if not f.has_default or f.const is not None:
            return False
        if f.type == "array":
            return f.default == [] and f.count in ("varint", "uvarint")
        return bool(f.fixed) and not f.bits

    def tuple_field(self, f: Field) -> dict:
        if f.type == "array":
            default = "()"
        elif f.const is not None:
            default = repr(f.const)
        elif f.has_default:
            default = "()" if isinstance(f.default, list) else repr(f.default)
        else:
            default = "None"
        hints = {"bytes": "bytes | None", "string": "str | None", "array": "Sequence"}
        hint = hints.get(f.type, "int | None" if default == "None" else "int")
        if f.type not in hints and not (f.fixed or f.type in MIN_SIZE or f.type == "uvarint"):
            hint = f"{f.type} | None"
        return {"name": f.exposed_name, "hint": hint, "default": default, "doc": self.exposed_doc(f)}

    @staticmethod
    def exposed_doc(f: Field) -> str:
        """The doc of the value users see: a relative field is exposed as an absolute value, while
        the schema's doc describes the stored delta."""
        if not f.relative_to:
            return f.doc
        base, as_name, default = f.relative_to
        text = (f"The {as_name} itself (absolute), {base} + {f.name}; the stored {f.name} is the "
                f"{as_name[0].lower()}{f.doc.strip()[1:]}")
        if default == "index":
            text += f" When encoding, None means {base} + the item's index."
        elif default == "base":
            text += f" When encoding, None means {base} (a {f.name} of 0)."
        return text

    def encode_params(self, s: Struct) -> list[dict]:
        out = []
        for f in s.fields:
            if f.length_of or f.count_of or f.checksum or f.const is not None:
                continue
            tf = self.tuple_field(f)
            out.append({"name": local(f.exposed_name), "default": None if tf["default"] == "None" and not f.has_default else tf["default"]})
        return out

    def column_encode(self, s: Struct, structs: dict[str, str], exposed: list[Field]) -> dict | None:
        """Plan a column-at-a-time encoder for array items, or None where the shape needs the general loop.

        Each field becomes one or two columns of byte strings built by C-level ``map`` calls;
        a value outside the common case raises and the caller falls back to the general loop.
        """
        if s.discriminator is not None:
            return None
        columns: list[dict] = []
        formats: dict[str, str] = {}  # registered in ``structs`` only once the plan is known to hold
        length_prefix = False
        names = [f.name for f in exposed]
        for i, f in enumerate(s.fields):
            if f.length_of and i == 0 and f.type in ("varint", "uvarint"):
                length_prefix = True
                continue
            if f.computed:
                return None
            col = names.index(f.name)
            if f.fixed:
                if f.type in ("int8", "uint8"):
                    columns.append({"kind": "byte", "col": col})
                else:
                    fmt = ">" + FIXED_TYPES[f.type][0]
                    columns.append({"kind": "pack", "col": col, "struct": self._struct_const(formats, fmt)})
            elif f.type in ("varint", "varlong", "uvarint"):
                table = "UVARINT_BYTES" if f.type == "uvarint" else "VARINT_BYTES"
                rel = f.relative_to
                columns.append({"kind": "var", "col": col, "table": table,
                                "base": rel[0] if rel else None, "default": rel[2] if rel else None})
            elif f.type in ("bytes", "string") and f.length in ("varint", "uvarint"):
                columns.append({"kind": "bytes", "col": col, "string": f.type == "string",
                                "table": "UVARINT_BYTES" if f.length == "uvarint" else "VARINT_BYTES"})
            elif f.type == "array" and f.count in ("varint", "uvarint") and not self.item_plan(f.items)["bases"]:
                columns.append({"kind": "array", "col": col, "item": self.item_plan(f.items)["snake"],
                                "table": "UVARINT_BYTES" if f.count == "uvarint" else "VARINT_BYTES"})
            else:
                return None
        renamed = {name: self._struct_const(structs, fmt) for fmt, name in formats.items()}
        for c in columns:
            if c["kind"] == "pack":
                c["struct"] = renamed[c["struct"]]
        return {"length_prefix": length_prefix, "columns": columns,
                "index_default": any(c.get("default") == "index" for c in columns),
                "needs_n": any(c.get("default") for c in columns)}

    def constants(self, s: Struct) -> list[tuple[str, str, str]]:
        """Chained layout constants of the leading fixed-width fields, like DefaultRecordBatch.java."""
        out: list[tuple[str, str, str]] = []
        prev = None
        for f in s.fields:
            name = const_name(f.name)
            offset = "0" if prev is None else f"{prev}_OFFSET + {prev}_LENGTH"
            out.append((f"{name}_OFFSET", offset, ""))
            if not f.fixed:
                break
            out.append((f"{name}_LENGTH", str(FIXED_TYPES[f.type][1]), ""))
            prev = name
        else:
            out.append((f"{const_name(snake(s.name))}_SIZE", f"{prev}_OFFSET + {prev}_LENGTH", ""))
            return out + self.derived_constants(s)
        if len(out) > 1:
            out.append((f"{const_name(snake(s.name))}_OVERHEAD", out[-1][0], "bytes before the first variable-size field"))
        if s.discriminator is None:  # array items: a count read from the data is bounded by this
            out.append((self.min_size_const(s), str(self.min_size(s)), "smallest encoded size"))
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

    def derived_constants(self, s: Struct) -> list[tuple[str, str, str]]:
        """Where a length field of the leading fixed-width fields starts counting, and its smallest value."""
        out: list[tuple[str, str, str]] = []
        for i, f in enumerate(s.fields):
            if not f.fixed:
                break
            if f.length_of:
                name = const_name(f.name)
                out.append((f"{name}_END", f"{name}_OFFSET + {name}_LENGTH",
                            f"{f.name} counts from here"))
                if i + 1 < len(s.fields) and s.fields[i + 1].fixed:
                    out.append((f"MIN_{name}", f"{self.head_size_const(s)} - {name}_END",
                                f"the fixed-width fields {f.name} covers"))
        return out

    def names_from(self, s: Struct) -> dict[str, str]:
        """Where the fast codec's names that are not in render.SOURCES come from: its item structures'
        codecs (sibling modules) and the enums of its bit fields."""
        out = {}
        for imp in self.imports(s):
            for name in (imp["name"], f"{imp['name']}Columns", f"decode_{imp['snake']}_array",
                         f"decode_{imp['snake']}_columns", f"encode_{imp['snake']}_array"):
                out[name] = f".{imp['module']}"
        for f in s.fields:
            for b in f.bits:
                if b.enum:
                    out[b.enum] = out["members"] = "kafkaspec.generated.enums"
        return out

    def reference_names_from(self, s: Struct) -> dict[str, str]:
        """Where the reference codec's own names come from: its typed tuple and its item structures' codecs."""
        out = {s.name: f"kafkaspec.generated.{s.module}"}
        for imp in self.imports(s):
            for name in (f"{imp['snake']}_construct", f"_{imp['snake']}_rebase", f"_{imp['snake']}_unbase"):
                out[name] = f".{imp['module']}"
        return out

    def imports(self, s: Struct) -> list[dict]:
        refs = []
        for f in s.fields:
            ref = f.items or (f.type if f.type[0].isupper() else None)
            if ref:
                plan = self.item_plan(ref)
                if plan not in refs:
                    refs.append(plan)
        return refs

    # -- decode ------------------------------------------------------------------
    def decode_steps(self, s: Struct, structs: dict[str, str]) -> list[Step]:
        steps: list[Step] = []
        run: list[Field] = []

        def flush():
            nonlocal run
            if run:
                fmt = ">" + "".join(FIXED_TYPES[f.type][0] for f in run)
                size = sum(FIXED_TYPES[f.type][1] for f in run)
                # a one-byte run is read as buf[pos], without a struct
                struct_name = self._struct_const(structs, fmt) if size > 1 else ""
                step = Step("fixed", list(run), struct=struct_name, fmt=fmt, size=size)
                # the leading run sits at fixed offsets from the structure's start: its checks are
                # written with the layout constants; a later run's relative to ``pos`` after it
                leading = run[0] is s.fields[0]
                if leading:
                    step.size_expr = self.head_size_const(s)
                at = 0
                for f in run:
                    at += FIXED_TYPES[f.type][1]
                    name = const_name(f.name)
                    if f.const is not None:
                        back = size - at + FIXED_TYPES[f.type][1]
                        step.checks.append({"kind": "const", "f": f,
                                            "at": f"start + {name}_OFFSET" if leading else f"pos - {back}"})
                    if f.length_of:
                        back = size - at
                        check = {"kind": "length", "f": f, "back": back}
                        if leading:
                            check["end"] = f"start + {name}_END + {local(f.name)}"
                            check["min"] = f"MIN_{name}" if back else "0"
                        else:
                            check["end"] = f"pos - {back} + {local(f.name)}" if back else f"pos + {local(f.name)}"
                            check["min"] = str(back)
                        step.checks.append(check)
                    if f.checksum:
                        back = size - at
                        step.checks.append({"kind": "checksum", "f": f, "algorithm": f.checksum[0],
                                            "from": f"start + {const_name(f.checksum[1])}_OFFSET"
                                            if leading else f"pos - {back}"})
                steps.append(step)
            run = []

        for f in s.fields:
            if f.fixed:
                run.append(f)
                continue
            flush()
            if f.type in ("varint", "varlong", "uvarint"):
                step = Step("var", [f], var=f.type)
                if f.length_of:
                    step.checks.append({"kind": "length", "f": f, "back": 0})
                steps.append(step)
            elif f.type in ("bytes", "string"):
                steps.append(self._prefixed(Step("bytes", [f]), f.length, structs, s))
            elif f.type == "array":
                step = self._prefixed(Step("array", [f]), f.count or f.size, structs, s)
                if f.size:
                    step.prefix = "size" if f.size != "rest" else "rest"
                    step.ref = local(f.size) if f.size != "rest" else ""
                step.item = self.item_plan(f.items)
                step.bases = [local(f.relative_bases.get(b, b)) for b in step.item["bases"]]
                step.codec_expr = self.codec_expr(s, f)
                step.codec_magic = self.magic(s)
                steps.append(step)
            else:
                step = Step("struct", [f])
                step.item = self.item_plan(f.type)
                steps.append(step)
        flush()
        return steps

    @staticmethod
    def codec_expr(s: Struct, f: Field) -> str:
        """Expression (over decoded locals) giving the codec of a compressed field, or ''."""
        if not f.compressed_by:
            return ""
        owner, bit = f.compressed_by
        b = next(b for b in s.field(owner).bits if b.name == bit)
        if b.lo:
            return f"({local(owner)} >> {b.lo}) & {(1 << (b.hi - b.lo + 1)) - 1}"
        return f"{local(owner)} & {b.mask}"

    def _prefixed(self, step: Step, prefix: str, structs: dict[str, str], s: Struct) -> Step:
        if prefix in ("int16", "int32"):
            step.prefix = prefix
            step.prefix_struct = self._struct_const(structs, ">" + FIXED_TYPES[prefix][0])
        elif prefix in ("varint", "uvarint"):
            step.prefix = prefix
        elif prefix == "rest":
            step.prefix = "rest"
        else:
            step.prefix = "ref"
            step.ref = local(prefix)
        return step

    # -- encode ------------------------------------------------------------------
    def encode_pieces(self, s: Struct, structs: dict[str, str]) -> list[dict]:
        """Pieces in field order; a length or checksum field ends its piece, and
        pieces are encoded last to first so every computed field sees the bytes it covers."""
        pieces: list[dict] = []
        current: list[Field] = []
        for f in s.fields:
            if f.fixed:
                current.append(f)
                if f.length_of or f.checksum:
                    pieces.append({"kind": "fixed", "fields": current})
                    current = []
                continue
            if current:
                pieces.append({"kind": "fixed", "fields": current})
                current = []
            pieces.append({"kind": "single", "fields": [f]})
        if current:
            pieces.append({"kind": "fixed", "fields": current})
        for i, p in enumerate(pieces):
            p["index"] = i
            p["var"] = f"p{i}"
            # a lone one-byte field is encoded by table look-up (_BYTE), without a struct
            p["byte"] = p["kind"] == "fixed" and len(p["fields"]) == 1 and p["fields"][0].type in ("int8", "uint8")
            if p["kind"] == "fixed" and not p["byte"]:
                fmt = ">" + "".join(FIXED_TYPES[f.type][0] for f in p["fields"])
                p["struct"] = self._struct_const(structs, fmt)
            last = p["fields"][-1]
            p["computed"] = last if (last.length_of or last.checksum) else None
            p["own"] = self._own_parts(p)
            p["codec_expr"] = self.codec_expr(s, last) if p["kind"] == "single" else ""
            p["codec_magic"] = self.magic(s)
        # Encode last to first: a computed piece joins everything after it into a suffix.
        pending: list[str] = []
        suffix = None
        for p in reversed(pieces):
            if p["computed"] is not None:
                p["join"] = pending + ([suffix] if suffix else [])
                suffix = f"s{p['index']}"
                p["suffix"] = suffix
                pending = list(p["own"])
            else:
                p["join"] = None
                pending = p["own"] + pending
        self.final_parts = pending + ([suffix] if suffix else [])
        return pieces

    @staticmethod
    def _own_parts(p: dict) -> list[str]:
        i = p["index"]
        if p["kind"] == "fixed":
            return [f"p{i}"]
        f = p["fields"][0]
        if f.type in ("bytes", "string", "array"):
            prefix = f.length if f.type != "array" else f.count
            has_prefix = prefix in ("int16", "int32", "varint", "uvarint")
            return [f"p{i}", f"d{i}"] if has_prefix else [f"d{i}"]
        return [f"p{i}"]

    # -- construct ---------------------------------------------------------------
    def construct_groups(self, s: Struct) -> list[dict]:
        """Fields grouped by nesting: each length or checksum field wraps the fields after it."""
        groups: list[dict] = [{"fields": [], "wrapper": None}]
        for f in s.fields:
            if f.length_of or f.checksum:
                groups[-1]["wrapper"] = f
                groups.append({"fields": [], "wrapper": None})
            else:
                groups[-1]["fields"].append(f)
        return groups

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
            item = f"{snake(self.schemas.resolve(f.items).name)}_construct"
            if f.count in CONSTRUCT_INTS:
                inner = f"PrefixedArray({CONSTRUCT_INTS[f.count]}, {item})"
            elif f.count:
                inner = f"Array(this.{f.count}, {item})"
            elif f.size == "rest":
                inner = f"GreedyItems({item})"
            else:
                inner = f"FixedSized(this.{f.size}, GreedyItems({item}))"
            if f.compressed_by:
                owner, bit = f.compressed_by
                b = next(b for b in s.field(owner).bits if b.name == bit)
                magic = next((x.const for x in s.fields if x.name == "magic" and x.const is not None), 2)
                codec = f"lambda ctx: (ctx.{owner} >> {b.lo}) & {(1 << (b.hi - b.lo + 1)) - 1}"
                return f"KafkaCompressed({codec}, {inner}, magic={magic})"
            return inner
        return f"{snake(self.schemas.resolve(f.type).name)}_construct"


def dispatch_plan(d: Dispatch, schemas: SchemaSet) -> dict:
    return {
        "d": d,
        "cases": [(value, schemas.resolve(ref)) for value, ref in sorted(d.cases.items())],
    }
