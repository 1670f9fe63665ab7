"""The generated modules hold only what they use, and say layout sizes by their constants' names."""

from __future__ import annotations

import ast
import importlib
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from kafkaspec.codegen.render import RUFF_VERSION

ROOT = Path(__file__).resolve().parents[2]
MODULES = sorted((ROOT / "generated").rglob("*.py"))
#: parameters that a generated function takes for its API's sake though its body may not read them:
#: every decode_<snake>_rest takes the head check_<snake> was given (Message v0/v1 read nothing from it)
API_PARAMETERS = {"head", "self", "context", "path"}


def _ids(node: ast.AST, ctx: type) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ctx)}


def test_ruff_finds_no_unused_import_or_variable():
    ruff = Path(sys.executable).parent / "ruff"
    result = subprocess.run(
        [str(ruff), "check", "--select", "F401,F811,F841,I", "--no-cache", "generated"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(ROOT / "generated").as_posix())
def test_every_name_is_used(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    loaded = _ids(tree, ast.Load)
    unused = [
        t.id
        for node in tree.body
        if isinstance(node, ast.Assign)
        for t in node.targets
        if isinstance(t, ast.Name) and t.id.startswith("_") and t.id not in loaded
    ]
    assert not unused, f"module-level helpers nothing uses: {unused}"
    for fn in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)):
        reads = _ids(fn, ast.Load)
        params = [a.arg for a in (*fn.args.args, *fn.args.kwonlyargs) if a.arg not in API_PARAMETERS]
        assert not [p for p in params if p not in reads], f"{fn.name}: parameters it ignores"
        assert not sorted(_ids(fn, ast.Store) - reads - {"_"}), f"{fn.name}: locals it never reads"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(ROOT / "generated").as_posix())
def test_fast_codecs_name_their_layout_sizes(path):
    """Head sizes and the smallest lengths are written as constants (RECORD_BATCH_OVERHEAD,
    MIN_BATCH_LENGTH), not as the numbers 61 or 49, in every function body."""
    if "reference" in path.parts or path.name == "__init__.py":
        return
    module = importlib.import_module(
        "kafkaspec.generated." + ".".join(path.relative_to(ROOT / "generated").with_suffix("").parts)
    )
    sizes = {
        value
        for name, value in vars(module).items()
        if re.fullmatch(r"(MIN_)?[A-Z_]+_(OVERHEAD|SIZE|LENGTH|END)", name)
        and isinstance(value, int)
        and value > 8
    }
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for fn in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)):
        literals = {n.value for n in ast.walk(fn) if isinstance(n, ast.Constant) and type(n.value) is int}
        assert not literals & sizes, f"{fn.name} writes layout sizes {sorted(literals & sizes)} as numbers"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(ROOT / "generated").as_posix())
def test_fast_codecs_name_their_bit_masks(path):
    """A bit field is read through the module's ``<BIT>_MASK`` (and ``<BIT>_SHIFT``) constants, never
    with its mask spelled as a number (``attributes & 7``, ``& 16``), in every function body."""
    if "reference" in path.parts or path.name == "__init__.py":
        return
    module = importlib.import_module(
        "kafkaspec.generated." + ".".join(path.relative_to(ROOT / "generated").with_suffix("").parts)
    )
    masks = {
        name: value
        for name, value in vars(module).items()
        if name.endswith("_MASK") and isinstance(value, int)
    }
    # the mask itself, and a multi-bit field's mask shifted down (``(x >> 3) & 7``); a module may import
    # a mask without its shift (a tracing decoder reads the codec bits by the fast codec's mask)
    spelled = set(masks.values()) | {v >> ((v & -v).bit_length() - 1) for v in masks.values() if v & (v - 1)}
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for fn in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)):
        literal = sorted(
            {
                side.value
                for n in ast.walk(fn)
                if isinstance(n, ast.BinOp) and isinstance(n.op, ast.BitAnd)
                for side in (n.left, n.right)
                if isinstance(side, ast.Constant) and side.value in spelled
            }
        )
        assert not literal, (
            f"{fn.name} masks bit fields with the numbers {literal}, not their _MASK constants"
        )


def test_generation_pins_its_formatter():
    """Generated code is formatted by ruff: pyproject's codegen extra (which dev includes) pins the
    version codegen checks for."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert f"ruff=={RUFF_VERSION}" in extras["codegen"]
    assert any(d.startswith("kafkaspec[") and "codegen" in d for d in extras["dev"])
