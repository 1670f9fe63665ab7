"""Attribute bits are read by their names: no bare bit literal on an attributes value.

The meaning of a batch's or a message's attribute bits lives in the schemas and reaches the code as the
generated ``<BIT>_MASK`` and ``<BIT>_SHIFT`` constants (``COMPRESSION_MASK``, ``TIMESTAMP_TYPE_MASK``...).
A literal ``attributes & 7`` or ``attrs & 0x10`` says the same thing a second time, where a reader cannot
see which bits it means and a schema change cannot reach it. This scans every module of kafkaspec/ and
generated/ (hand-written and generated trace code alike) for ``&`` between an attributes value (a name,
attribute, subscript or key whose name contains a word of ATTRIBUTE_WORDS, shifted or not) and an integer literal.

A mask of whole bytes (``0xFF``, ``0xFFFF``) is allowed: it converts a width (a signed byte to its
unsigned index), it does not select bits.

Run as a script to check another tree: ``python tests/test_named_masks.py ROOT``.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
#: what the scan covers: the runtime and the generated codecs (kafkaspec/generated is a link to generated/)
ROOTS = ("kafkaspec", "generated")
#: what an attributes value is called: ``attributes``, ``attrs``, and the 0.7 wire format's ``compression``
#: byte (its codec bits and nothing else yet)
ATTRIBUTE_WORDS = ("attr", "compression")
#: masks that convert a width rather than select bits
WHOLE_BYTES = {0xFF, 0xFFFF, 0xFFFF_FFFF}


def _names_attributes(node: ast.expr) -> bool:
    """Whether ``node`` is an attributes value: ``attributes``, ``h.attributes``, ``attrs[i]``,
    ``values["attributes"]``, ``batch.get("attributes", 0)``, ``attributes.value``, shifted or not."""
    for part in ast.walk(node):
        if isinstance(part, ast.Name):
            word = part.id
        elif isinstance(part, ast.Attribute):
            word = part.attr
        elif isinstance(part, ast.Constant) and isinstance(part.value, str):
            word = part.value
        else:
            continue
        if any(part in word.lower() for part in ATTRIBUTE_WORDS):
            return True
    return False


def _bit_literal(node: ast.expr) -> bool:
    return (
        isinstance(node, ast.Constant)
        and type(node.value) is int
        and node.value not in WHOLE_BYTES
        or isinstance(node, ast.UnaryOp)
        and isinstance(node.op, ast.Invert)
        and _bit_literal(node.operand)
    )


def bare_masks(source: str, filename: str = "<string>") -> list[tuple[int, str]]:
    """(line, expression) of each ``&`` of an attributes value with a bit literal in ``source``."""
    found = []
    for node in ast.walk(ast.parse(source, filename=filename)):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitAnd):
            pairs = ((node.left, node.right), (node.right, node.left))
            if any(_names_attributes(value) and _bit_literal(mask) for value, mask in pairs):
                found.append((node.lineno, ast.unparse(node)))
    return sorted(found)


def scan(root: Path = REPO) -> list[str]:
    """``path:line: expression`` for every bare attribute bit literal under ``root``'s ROOTS."""
    out = []
    for top in ROOTS:
        base = root / top
        files = [p for p in sorted(base.rglob("*.py")) if not (top == "kafkaspec" and "generated" in p.parts)]
        for path in files:
            for line, expr in bare_masks(path.read_text(encoding="utf-8"), str(path)):
                out.append(f"{path.relative_to(root)}:{line}: {expr}")
    return out


def test_the_scan_finds_each_spelling():
    source = (
        "a = h.attributes & 7\n"
        "b = (attributes >> 3) & 1\n"
        "c = attrs[i] & 0x10\n"
        "d = 8 & head.attributes\n"
        "e = f_attributes & ~0x7F\n"
        'f = values["attributes"] & 0x07\n'
        'g = (batch.get("attributes", 0) >> 5) & 1\n'
        "h = not (attributes.value >> 3) & 1\n"
        "i = message.compression & 7\n"
    )
    assert [line for line, _ in bare_masks(source)] == [1, 2, 3, 4, 5, 6, 7, 8, 9]


def test_the_scan_allows_named_masks_and_whole_bytes():
    source = (
        "a = h.attributes & COMPRESSION_MASK\n"
        "b = (attributes & TIMESTAMP_TYPE_MASK) >> TIMESTAMP_TYPE_SHIFT\n"
        "c = _BYTE[attributes & 0xFF]\n"
        "d = offset & 7\n"
    )
    assert bare_masks(source) == []


def test_no_bare_bit_literal_on_an_attributes_value():
    found = scan()
    assert not found, "attribute bits tested by literal; use the generated <BIT>_MASK names:\n" + "\n".join(
        found
    )


if __name__ == "__main__":
    problems = scan(Path(sys.argv[1]) if len(sys.argv) > 1 else REPO)
    print("\n".join(problems) or "no bare attribute bit literals")
    sys.exit(1 if problems else 0)
