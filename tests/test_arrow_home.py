"""Arrow has one home, ``kafkaspec.arrow``: its imports run one way.

The rules of ``test_architecture.py`` skip imports under ``if TYPE_CHECKING:``; these count them too,
since a type-only import back is still a cycle a reader has to follow (``logdir/arrow.py`` <->
``logdir/layout.py`` was one). ``kafkaspec.arrow`` must not import ``kafkaspec.spark`` at all (Spark's
package is the glue on top: Spark types, options, the DataSource classes), and among the modules of
``kafkaspec.arrow`` and ``kafkaspec.logdir`` no Arrow module (those of ``kafkaspec.arrow``, and
``kafkaspec.arrow.schema``, the schema's documented name) may be part of an import cycle.

Run as a script to check another tree: ``python tests/test_arrow_home.py ROOT``.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

from test_architecture import REPO, cycles, in_package, module_files


def all_imports(root: Path = REPO) -> dict[str, list[tuple[str, int]]]:
    """module -> [(imported internal module, line)], every import statement counted (functions and
    ``if TYPE_CHECKING:`` blocks included); ``from pkg import sub`` names the submodule."""
    files = module_files(root)
    known = set(files)
    graph: dict[str, list[tuple[str, int]]] = {}
    for name, path in files.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges: list[tuple[str, int]] = []
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.Import):
                edges += [(a.name, node.lineno) for a in node.names if a.name in known]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    parts = package.split(".")
                    target = ".".join(
                        parts[: len(parts) - (node.level - 1)] + ([node.module] if node.module else [])
                    )
                else:
                    target = node.module or ""
                for a in node.names:
                    sub = f"{target}.{a.name}"
                    if sub in known:
                        edges.append((sub, node.lineno))
                    elif target in known:
                        edges.append((target, node.lineno))
        graph[name] = list(dict.fromkeys(edges))
    return graph


HOMES = ("kafkaspec.arrow", "kafkaspec.logdir")
ARROW = ("kafkaspec.arrow", "kafkaspec.arrow.schema")


def problems(root: Path = REPO) -> list[str]:
    graph = all_imports(root)
    out = [
        f"{src} -> {dst} (line {line}): kafkaspec.arrow must not import Spark's glue"
        for src, edges in graph.items()
        if in_package(src, "kafkaspec.arrow")
        for dst, line in edges
        if in_package(dst, "kafkaspec.spark")
    ]
    inside = {
        m: [(d, line) for d, line in edges if in_package(d, *HOMES)]
        for m, edges in graph.items()
        if in_package(m, *HOMES)
    }
    for component in cycles(inside):
        if any(in_package(m, *ARROW) for m in component):
            members = set(component)
            out.append(
                "import cycle (TYPE_CHECKING imports counted): "
                + "; ".join(
                    f"{src} -> {dst} (line {line})"
                    for src in component
                    for dst, line in inside[src]
                    if dst in members
                )
            )
    return out


def test_arrow_imports_run_one_way():
    found = problems()
    assert not found, "\n  ".join(["", *found])


def test_the_one_arrow_package_holds_the_engine_reader_and_schema():
    modules = module_files()
    for name in (
        "kafkaspec.arrow.engine",
        "kafkaspec.arrow.ranges",
        "kafkaspec.arrow.schema",
        "kafkaspec.arrow.partitions",
    ):
        assert name in modules, name
    assert "kafkaspec.lockstep" not in modules and "kafkaspec.spark.columnar" not in modules


def test_sparks_record_columns_are_the_arrow_schema():
    """Spark's record columns are derived from the Arrow schema: same names in the same order."""
    from kafkaspec.arrow.schema import SCHEMA
    from kafkaspec.spark.read.schema import RECORD_COLUMNS

    assert [name for name, _ in RECORD_COLUMNS] == SCHEMA.names


READ_A_RANGE = textwrap.dedent("""
    import sys
    import kafkaspec
    from kafkaspec.arrow.ranges import ReadRange, read_records
    data = kafkaspec.build_batch([kafkaspec.Record(key=b"k", value=b"v", timestamp=1)] * 3)
    for engine in (True, False):
        rows = sum(rb.num_rows for rb in read_records(ReadRange("t.log", "t", 0, 0, len(data), lockstep=engine),
                                                      buf=bytes(data)))
        assert rows == 3, rows
    print(sorted(m for m in sys.modules if m.split(".")[0] == "pyspark" or m.startswith("kafkaspec.spark")))
""")


def test_the_range_reader_loads_no_spark():
    """The range reader (what each Spark task runs, and the benchmark and tests run directly) is
    Spark-free: reading a range, with either engine, loads neither PySpark nor ``kafkaspec.spark``."""
    out = subprocess.run([sys.executable, "-c", READ_A_RANGE], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout


if __name__ == "__main__":
    found = problems(Path(sys.argv[1]) if len(sys.argv) > 1 else REPO)
    print("\n".join(found) or "no problem")
    sys.exit(1 if found else 0)
