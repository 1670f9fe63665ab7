"""Generated modules write each piece of logic once: a structure's bit properties are shared by its
typed value and its head, and a compressed region is decompressed and checked by one function that
the tuple and the columnar decoders both call."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MODULES = sorted(p for p in (ROOT / "generated").rglob("*.py") if p.name != "__init__.py")


def _ids(path: Path) -> str:
    return path.relative_to(ROOT / "generated").as_posix()


def _body(fn: ast.FunctionDef) -> str:
    """The statements of ``fn`` without its docstring, as an AST dump (comparable across classes)."""
    body = fn.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    return ast.dump(ast.Module(body=body, type_ignores=[]))


@pytest.mark.parametrize("path", MODULES, ids=_ids)
def test_no_property_is_written_twice(path):
    seen: dict[tuple[str, str], str] = {}
    for cls in (n for n in ast.parse(path.read_text(encoding="utf-8")).body if isinstance(n, ast.ClassDef)):
        for fn in (n for n in cls.body if isinstance(n, ast.FunctionDef) and n.decorator_list):
            key = (fn.name, _body(fn))
            assert key not in seen, f"{cls.name}.{fn.name} repeats {seen[key]}.{fn.name}"
            seen[key] = cls.name


@pytest.mark.parametrize("path", MODULES, ids=_ids)
def test_a_region_is_decompressed_in_one_place(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    callers = [
        fn.name
        for fn in ast.walk(tree)
        if isinstance(fn, ast.FunctionDef)
        for n in ast.walk(fn)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "decompress"
    ]
    assert len(callers) <= 1, f"decompress is called by {callers}"


def test_a_head_reads_its_bits_with_the_values_properties():
    from kafkaspec.generated.enums import CompressionType
    from kafkaspec.generated.record_batch_v2 import RecordBatch, RecordBatchHead, decode_record_batch_head

    for name in ("compression", "timestamp_type", "is_transactional", "is_control", "has_delete_horizon"):
        assert getattr(RecordBatchHead, name) is getattr(RecordBatch, name)
    head = decode_record_batch_head(
        bytes(8)
        + (49).to_bytes(4, "big")
        + bytes(4)
        + b"\x02"
        + bytes(4)
        + (0x33).to_bytes(2, "big")
        + bytes(49 - 11)
    )
    assert (
        head.compression,
        head.timestamp_type,
        head.is_transactional,
        head.is_control,
        head.has_delete_horizon,
    ) == (CompressionType.LZ4, 0, True, True, False)
