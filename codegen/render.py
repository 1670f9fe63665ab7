"""Render the planned structures through the Jinja2 templates into ``generated/``."""

from __future__ import annotations

import ast
import builtins
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import fields
from pathlib import Path

import jinja2

from kafkaspec.spec import SchemaSet
from kafkaspec.spec.types import FIELD_TYPES, Width

from .naming import a, const_name, local, mask_value
from .plan import Planner, dispatch_plan
from .plan_model import At, ConstantRef, ConstantSum, Encoded, EncodedKind, ValueOf
from .plan_trace import TracePlanner
from .render_message import render_messages
from .render_proposal import render_proposals
from .wire import wire_types

TEMPLATES = Path(__file__).parent / "templates"

#: where each name a generated module may use comes from (``None``: ``import <name>``)
SOURCES: dict[str, str | None] = {
    "struct": None,
    "Iterator": "collections.abc",
    "Sequence": "collections.abc",
    "chain": "itertools",
    "islice": "itertools",
    "repeat": "itertools",
    "starmap": "itertools",
    "itemgetter": "operator",
    "mul": "operator",
    "sub": "operator",
    "NamedTuple": "typing",
    **dict.fromkeys(
        (
            "Adapter",
            "Array",
            "Bytes",
            "Const",
            "FixedSized",
            "GreedyBytes",
            "Int8sb",
            "Int8ub",
            "Int16sb",
            "Int16ub",
            "Int32sb",
            "Int32ub",
            "Int64sb",
            "Prefixed",
            "PrefixedArray",
            "Rebuild",
            "Struct",
            "VarInt",
            "ZigZag",
            "len_",
            "this",
        ),
        "construct",
    ),
    **dict.fromkeys(
        ("Checksummed", "GreedyItems", "KafkaBytes", "KafkaCompressed", "NullableArray", "flatten", "nest"),
        "kafkaspec.codec._construct",
    ),
    **dict.fromkeys(
        ("ColumnItems", "fill_sparse", "fill_sparse_index", "fill_sparse_offsets", "transpose"),
        "kafkaspec.codec.columns",
    ),
    "decode_run": "kafkaspec.codec.shapes",
    "encode_shaped": "kafkaspec.codec.shape_encode",
    **dict.fromkeys(("DEFAULT_MAX_DECOMPRESSED", "compress", "decompress"), "kafkaspec.codec.compression"),
    **dict.fromkeys(("chained", "crc32", "crc32c"), "kafkaspec.codec.crc"),
    **dict.fromkeys(
        (
            "CorruptRecordError",
            "InvalidLengthError",
            "InvalidMagicError",
            "KafkaFormatError",
            "LimitExceededError",
            "TruncatedError",
        ),
        "kafkaspec.errors",
    ),
    **dict.fromkeys(
        (
            "INDEX_VARINTS",
            "INT8",
            "UVARINT_BYTES",
            "VARINT_BYTES",
            "ZIGZAG_1",
            "ZIGZAG_2",
            "encode_uvarint",
            "encode_varint",
            "encode_varlong",
            "read_uvarint",
            "read_varint",
            "read_varlong",
        ),
        "kafkaspec.codec.varint",
    ),
}
#: module-level helpers a fast codec may use, each defined only where the body uses it
HELPERS: dict[str, str] = {
    "_new": "_new = tuple.__new__",
    "_I16": '_I16 = struct.Struct(">h")',
    "_I32": '_I32 = struct.Struct(">i")',
    "_NULL16": "_NULL16 = _I16.pack(-1)  # a null length prefix",
    "_NULL32": "_NULL32 = _I32.pack(-1)  # a null length prefix",
    "_COLUMNS_FROM": "_COLUMNS_FROM = 16  # from this many items on, encoding a column at a time pays off",
    "_BYTE": "_BYTE = tuple(bytes((i,)) for i in range(256))  # one-byte encodings, without a pack call",
}
_SECTIONS = ("stdlib", "construct", "kafkaspec", "local")


def _loaded_names(tree: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _member_key(name: str) -> tuple:
    """isort's order of imported names (ruff's default): CONSTANTS, Classes, then the rest, naturally sorted."""
    kind = 0 if len(name) > 1 and name.isupper() else 1 if name[0].isupper() else 2
    return kind, [int(part) if part.isdigit() else part.lower() for part in re.split(r"(\d+)", name)]


def resolve_names(text: str, sources: Mapping[str, str | None]) -> str:
    """Fill a rendered module's ``# @imports`` and ``# @helpers`` lines with exactly what its body uses.

    ``sources`` adds the module's own names (an item structure's codec, from a sibling module) to
    :data:`SOURCES`. Names the body defines itself are not imported.
    """
    body = text.replace("# @imports\n", "").replace("# @helpers\n", "")
    tree = ast.parse(body)
    defined = {
        t.id
        for node in tree.body
        if isinstance(node, ast.Assign)
        for t in node.targets
        if isinstance(t, ast.Name)
    }
    defined |= {node.name for node in tree.body if isinstance(node, ast.FunctionDef | ast.ClassDef)}
    used = _loaded_names(tree) - defined
    helpers: list[str] = []
    pending = [name for name in HELPERS if name in used]
    while pending:  # helpers may use other helpers (_NULL16 packs with _I16) and imports
        name = pending.pop(0)
        if name in helpers:
            continue
        helpers.append(name)
        needs = _loaded_names(ast.parse(HELPERS[name]))
        used |= needs
        pending += [n for n in HELPERS if n in needs and n not in helpers]
    known = {**SOURCES, **sources}
    bound = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    bound |= {
        a.arg
        for n in ast.walk(tree)
        if isinstance(n, ast.arguments)
        for a in (*n.posonlyargs, *n.args, *n.kwonlyargs, n.vararg, n.kwarg)
        if a is not None
    }
    bound |= {n.name for n in ast.walk(tree) if isinstance(n, ast.ExceptHandler) and n.name}
    unknown = {n for n in used if n not in known and n not in HELPERS} - bound - set(dir(builtins))
    if unknown:
        raise ValueError(f"generated code uses names with no known source: {sorted(unknown)}")
    groups: dict[str, dict[str | None, list[str]]] = {s: {} for s in _SECTIONS}
    for name in sorted(used & known.keys()):
        module = known[name]
        section = (
            "local"
            if module and module.startswith(".")
            else "construct"
            if module == "construct"
            else "kafkaspec"
            if module and module.startswith("kafkaspec")
            else "stdlib"
        )
        groups[section].setdefault(module, []).append(name)
    blocks = []
    for section in _SECTIONS:
        modules = groups[section]
        lines = [f"import {name}" for name in sorted(modules.get(None, []))]
        lines += [
            f"from {module} import {', '.join(sorted(names, key=_member_key))}"
            for module, names in sorted((m, n) for m, n in modules.items() if m is not None)
        ]
        if lines:
            blocks.append("\n".join(lines))
    text = text.replace("# @imports\n", "\n\n".join(blocks) + "\n")
    order = [name for name in HELPERS if name in helpers]  # definition order: _I16 before _NULL16
    return text.replace("# @helpers\n", "".join(HELPERS[name] + "\n" for name in order))


def value_of(v: ValueOf) -> str:
    """A decoded field's value as an expression: the head's attribute, a local, or base + delta."""
    if v.head:
        return f"head.{v.name}"
    return f"{v.base} + {v.name}" if v.base else v.name


def encoded(v: Encoded) -> str:
    """What an encoder packs for a field, as an expression (see :class:`~codegen.plan_model.Encoded`)."""
    if v.kind == EncodedKind.CONST:
        return str(v.const)
    if v.kind == EncodedKind.COUNT:
        return f"len({v.name})"
    if v.kind == EncodedKind.LENGTH:
        if v.cover is None:
            return f"len({v.suffix})"
        return (
            " + ".join(f"sum(map(len, {part[1:]}))" if part[0] == "*" else f"len({part})" for part in v.cover)
            or "0"
        )
    if v.kind == EncodedKind.CHECKSUM:
        if v.cover is None:
            return f"{v.algorithm}({v.suffix})"
        return chained_checksum(v.algorithm, list(v.cover))
    return v.name


def chained_checksum(alg: str, parts: list[str]) -> str:
    """The checksum ``alg`` of ``parts`` (``*name``: a list of parts) as one expression, chained: the
    leading plain parts joined (small: head fields, a key), the last part and every list part fed to
    the checksum as they are (a payload is never copied for its checksum)."""
    groups: list[str] = []
    lead: list[str] = []
    for i, part in enumerate(parts):
        if part[0] == "*" or i == len(parts) - 1:
            if lead:
                groups.append(lead[0] if len(lead) == 1 else f'b"".join(({", ".join(lead)},))')
                lead = []
            groups.append(part)
        else:
            lead.append(part)
    expr = "0"
    for g in groups:
        expr = (
            f"chained({alg}, {g[1:]}, {expr})"
            if g[0] == "*"
            else (f"{alg}({g})" if expr == "0" else f"{alg}({g}, {expr})")
        )
    return expr if groups else f'{alg}(b"")'


def position(at: At) -> str:
    """A decoder's byte position: ``start + CONST`` (the leading run), ``pos - n`` or ``pos``."""
    if at.const:
        return f"start + {at.const}"
    return f"pos - {at.back}" if at.back else "pos"


def constant_value(v: int | ConstantSum | ConstantRef) -> str:
    """A layout constant's value as written: a number, another constant's name, or two chained."""
    if isinstance(v, ConstantSum):
        return f"{v.left} {'-' if v.minus else '+'} {v.right}"
    if isinstance(v, ConstantRef):
        return v.name
    return repr(v)


def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        autoescape=False,
    )
    env.filters["pyrepr"] = repr
    env.filters["local"] = local
    env.filters["a"] = a  # "an OffsetCommitValue": docstrings read as English
    env.filters["mask_value"] = mask_value
    # a comma list: "a, b" (call arguments), and as a tuple's items ("a," when there is one)
    env.filters["value"] = value_of
    env.filters["constant"] = constant_value
    env.filters["at"] = position
    env.filters["encoded"] = encoded
    env.filters["args"] = lambda items: ", ".join(map(str, items))
    env.filters["tuple"] = lambda items: ", ".join(map(str, items)) + ("," if len(items) == 1 else "")
    env.globals["local"] = local  # the planner's safe local names, so templates and plans agree
    env.globals["wire"] = wire_types(env)  # a type word's reads and writes (codegen/wire.py)
    return env


def render_all(schemas: SchemaSet, root: Path) -> dict[str, str]:
    """Return {file name: source} for every module generated from ``schemas`` (unformatted)."""
    env = environment()
    planner = Planner(schemas)
    out: dict[str, str] = {}
    for s in sorted(schemas.structs.values(), key=lambda s: s.module):
        if s.status == "proposal":
            continue  # optional fields, byte-sized arrays, trailing checksums: render_proposal.py
        plan = planner.plan(s)
        source = s.path.relative_to(root.parent).as_posix()
        values = {f.name: getattr(plan, f.name) for f in fields(plan)}
        out[f"{s.module}.py"] = resolve_names(
            env.get_template("struct.py.j2").render(source=source, **values), plan.names_from
        )
        out[f"reference/{s.module}.py"] = resolve_names(
            env.get_template("reference.py.j2").render(source=source, **values), plan.reference_names_from
        )
    out["enums.py"] = env.get_template("enums.py.j2").render(
        enums=sorted(schemas.enums.values(), key=lambda e: e.name)
    )
    for d in schemas.dispatches:
        out[f"{d.module}.py"] = env.get_template("dispatch.py.j2").render(
            source=d.path.relative_to(root.parent).as_posix(), **vars(dispatch_plan(d, schemas))
        )
    out.update(render_messages(schemas, root, env, resolve_names))
    out.update(render_proposals(schemas, root, env, resolve_names))
    out["reference/__init__.py"] = env.get_template("reference_init.py.j2").render()
    out.update(render_traces(schemas, root, env, planner))
    out["__init__.py"] = env.get_template("init.py.j2").render()
    return out


def render_traces(
    schemas: SchemaSet, root: Path, env: jinja2.Environment, planner: Planner
) -> dict[str, str]:
    """The tracing decoders (``generated/trace/``, planned by :mod:`.plan_trace`): {file name: source}."""
    tracer = TracePlanner(schemas, planner.min_size)
    out: dict[str, str] = {}
    for s in sorted(schemas.structs.values(), key=lambda s: s.module):
        if s.status == "proposal":
            continue
        plan = tracer.plan(s)
        names = {plan.class_name: f"..{s.module}", **dict.fromkeys(plan.enums, "kafkaspec.generated.enums")}
        for f in s.fields:  # a codec bit is read by the fast codec's named mask
            for b in f.bits:
                names.update(
                    dict.fromkeys(
                        (f"{const_name(b.name)}_MASK", f"{const_name(b.name)}_SHIFT"), f"..{s.module}"
                    )
                )
        for tf in plan.fields:
            if tf.item_module:
                names[tf.item_function] = f".{tf.item_module}"
        values = {f.name: getattr(plan, f.name) for f in fields(plan)}
        source = s.path.relative_to(root.parent).as_posix()
        out[f"trace/{s.module}.py"] = resolve_names(
            env.get_template("trace.py.j2").render(source=source, **values), names
        )
    formats = tracer.formats()
    out["trace/__init__.py"] = env.get_template("trace_init.py.j2").render(
        formats=formats, modules=sorted({f.module for f in formats if f.module})
    )
    out["trace/types.py"] = env.get_template("trace_types.py.j2").render(
        fixed=[(n, t.tracer) for n, t in FIELD_TYPES.items() if t.fixed and n != "uuid"],
        var=[(n, t.tracer) for n, t in FIELD_TYPES.items() if t.width is Width.VAR],
    )
    return out


#: the ruff that formats generated/ (pinned in pyproject.toml): another version may format differently
RUFF_VERSION = "0.17.6"


def format_sources(sources: dict[str, str]) -> dict[str, str]:
    """Format with ruff so the output is stable and reads like hand-written code."""
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    if ruff is None:
        raise SystemExit("codegen needs ruff to format its output: pip install ruff (or 'make generate')")
    version = subprocess.run([ruff, "--version"], capture_output=True, text=True, check=False).stdout.split()
    if version[-1:] != [RUFF_VERSION]:
        raise SystemExit(
            f"codegen formats with ruff {RUFF_VERSION} (pinned in pyproject.toml), found {' '.join(version)}:"
            f" pip install ruff=={RUFF_VERSION} (or 'make generate')"
        )
    # one ruff run over a scratch copy of every module (a process per module took most of make generate)
    with tempfile.TemporaryDirectory(prefix="kafkaspec-codegen-") as tmp:
        root = Path(tmp)
        for name, text in sources.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text, encoding="utf-8")
        result = subprocess.run(
            [
                ruff,
                "format",
                "--no-cache",
                "--isolated",
                "--line-length",
                "110",
                "--target-version",
                "py311",
                ".",
            ],
            cwd=root,
            capture_output=True,
            text=True,
            check=False,
        )
        if result.returncode != 0:
            raise SystemExit(f"ruff could not format the generated code:\n{result.stderr}")
        return {name: (root / name).read_text(encoding="utf-8") for name in sources}


def write(sources: dict[str, str], out_dir: Path, pattern: str = "*.py") -> list[str]:
    """Write the files (names relative to ``out_dir``, ``/``-separated), remove stale ones matching
    ``pattern`` in ``out_dir`` and its subfolders; return the names that changed."""
    out_dir.mkdir(parents=True, exist_ok=True)
    changed = []
    for stale in out_dir.rglob(pattern):
        name = stale.relative_to(out_dir).as_posix()
        if name not in sources and "__pycache__" not in stale.parts:
            stale.unlink()
            changed.append(name)
    for name, text in sorted(sources.items()):
        path = out_dir / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            changed.append(name)
    return changed
