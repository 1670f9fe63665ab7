"""Readers and writers never ask which kind of storage a path is in: only ``kafkaspec.logdir.store`` does.

A local folder and an object-store prefix are one interface (``logdir.store.fs`` for reading,
``logdir.store.location`` for writing); what really differs between them is a capability there
(``reads_are_requests``, ``Output.whole``). This test scans every hand-written module outside
``kafkaspec/logdir/store/`` (``ast``, so text in strings and comments does not count) and fails on a new
kind branch: a call of ``is_remote`` or ``local_path``, or an ``isinstance`` check against ``RemotePath``.
"""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "kafkaspec"
#: the one place that may branch on the kind of path
STORE = PACKAGE / "logdir" / "store"
#: calls that ask the kind of a path
KIND_CALLS = ("is_remote", "local_path")
#: the class whose isinstance check is a kind branch
REMOTE = "RemotePath"


def _name(node: ast.expr) -> str | None:
    """``f`` of ``f(...)`` and of ``module.f(...)``."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def kind_branches(source: str, filename: str = "<source>") -> list[str]:
    """``line: what`` for every kind branch in ``source``."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if not isinstance(node, ast.Call):
            continue
        name = _name(node.func)
        if name in KIND_CALLS:
            found.append(f"{node.lineno}: {name}()")
        elif name == "isinstance" and len(node.args) == 2:
            classes = node.args[1]
            names = classes.elts if isinstance(classes, ast.Tuple) else [classes]
            if any(_name(c) == REMOTE for c in names):
                found.append(f"{node.lineno}: isinstance(..., {REMOTE})")
    return found


def test_the_scan_finds_each_kind_of_branch() -> None:
    source = (
        "if is_remote(p): pass\n"
        "if fs.local_path(p): pass\n"
        "if isinstance(p, RemotePath): pass\n"
        "if isinstance(p, (str, storage.RemotePath)): pass\n"
        "if isinstance(p, Path) and reads_are_requests(p): pass\n"
        "text = 'is_remote(p) in a string'\n"
    )
    assert kind_branches(source) == [
        "1: is_remote()",
        "2: local_path()",
        "3: isinstance(..., RemotePath)",
        "4: isinstance(..., RemotePath)",
    ]


def test_no_module_outside_the_store_branches_on_the_kind_of_path() -> None:
    found = [
        f"{path.relative_to(REPO)}:{where}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if not path.is_relative_to(STORE)
        for where in kind_branches(path.read_text(encoding="utf-8"), str(path))
    ]
    assert found == [], (
        "these branch on the kind of path; ask logdir.store for the capability instead "
        "(fs.reads_are_requests, fs.getter, fs.check_entry, fs.bucket_root, Location):\n" + "\n".join(found)
    )
