"""``kafkaspec.values`` reads schemas and decodes values; it builds no Arrow. The Arrow types and columns
of decoded values are :mod:`kafkaspec.arrow.value_types` and :mod:`kafkaspec.arrow.value_columns`, so no
module of the package loads pyarrow: not by an import statement (at the top, in a function or under
``if TYPE_CHECKING:``), nor by name through a helper (``require("pyarrow", ...)``, ``import_module``).

Run as a script to check another tree: ``PYTHONPATH=tests python tests/values/test_values_without_arrow.py ROOT``.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

from test_architecture import REPO, in_package, module_files

ARROW = "pyarrow"


def arrow_loads(root: Path = REPO) -> list[str]:
    """``module:line`` of every place a module of kafkaspec.values loads pyarrow."""
    out = []
    for name, path in module_files(root).items():
        if not in_package(name, "kafkaspec.values"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            elif isinstance(node, ast.Call):
                names = [
                    a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)
                ]
            else:
                continue
            if any(n == ARROW or n.startswith(ARROW + ".") for n in names):
                out.append(f"{name}:{node.lineno}")
    return out


def test_no_values_module_loads_pyarrow():
    assert arrow_loads() == []


def test_the_check_sees_each_way_of_loading_it(tmp_path):
    values = tmp_path / "kafkaspec" / "values"
    values.mkdir(parents=True)
    (values / "__init__.py").write_text("")
    (values / "top.py").write_text("import pyarrow as pa\n")
    (values / "inner.py").write_text("def f():\n    from pyarrow import compute\n")
    (values / "named.py").write_text("def f():\n    return require('pyarrow', 'spark', 'columns')\n")
    (values / "clean.py").write_text("import json\nfrom .top import pa\n")
    assert sorted(arrow_loads(tmp_path)) == [
        "kafkaspec.values.inner:2",
        "kafkaspec.values.named:2",
        "kafkaspec.values.top:1",
    ]


if __name__ == "__main__":
    found = arrow_loads(Path(sys.argv[1]) if len(sys.argv) > 1 else REPO)
    print("\n".join(found) or "no module of kafkaspec.values loads pyarrow")
    sys.exit(1 if found else 0)
