"""Every python block of the pages a reader copies from one at a time (docs/python-api.md,
docs/tables.md) runs alone: each name it uses is imported or assigned in the block itself, never left
over from the block before (the page test runs the blocks of a page in one namespace, which would hide
that)."""

from __future__ import annotations

import ast
import builtins

import pytest
from support.docblocks import REPO, blocks

PAGES = ["docs/python-api.md", "docs/tables.md"]


def _unbound(code: str) -> set[str]:
    """Names ``code`` reads at its top level that it never binds (imports, assignments, loops, with,
    functions, classes, comprehensions), builtins aside."""
    tree = ast.parse(code)
    bound = set(dir(builtins))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            bound |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            bound.add(node.id)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    return used - bound


@pytest.mark.parametrize("page", PAGES)
def test_each_python_block_runs_alone(page):
    lonely = {
        b.where: sorted(_unbound(b.code))
        for b in blocks(REPO / page)
        if b.language == "python" and not b.skip
    }
    assert lonely and not {where: names for where, names in lonely.items() if names}
