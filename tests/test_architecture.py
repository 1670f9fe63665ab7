"""The import rules: layers with arrows one way, and no import cycles.

Layers (docs/architecture.md, "Layout"):

* the **runtime**: the top-level modules of kafkaspec/ (the public API, codecs' helpers), its
  runtime packages (``kafkaspec.payloads``: Kafka's own payloads; ``kafkaspec.explain``) and
  ``kafkaspec.generated`` (generated/), what ``import kafkaspec`` loads;
* the **spec** layer, ``kafkaspec.spec``: YAML -> validated, linted model (PyYAML, no Jinja2);
* the **generator**, ``kafkaspec.codegen`` (codegen/, Jinja2), and the **review** tooling,
  ``kafkaspec.review``: both build on the spec layer;
* the log directories, Arrow, Spark and the CLI (``kafkaspec.logdir``, ``kafkaspec.arrow``,
  ``kafkaspec.spark``, ``kafkaspec.commands``, ``kafkaspec.cli``), built on the runtime.

Two kinds of check: in a subprocess, what ``import kafkaspec`` and reading a batch really load
(``sys.modules``); and statically (``ast``), every import statement of the hand-written and
generated code, at module level or inside a function, except under ``if TYPE_CHECKING:``.

Run as a script to print the import graph (package-level edges, then any module cycles)::

    python tests/test_architecture.py [ROOT] [--modules]
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import textwrap
from collections import defaultdict
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

#: source folder -> the package name it is installed as (pyproject's package-dir)
TREES = {"kafkaspec": "kafkaspec", "codegen": "kafkaspec.codegen", "generated": "kafkaspec.generated"}

#: subpackages of kafkaspec that are not runtime; kafkaspec.cli is the CLI's entry module
NON_RUNTIME = ("kafkaspec.spec", "kafkaspec.codegen", "kafkaspec.review", "kafkaspec.logdir",
               "kafkaspec.arrow", "kafkaspec.spark", "kafkaspec.commands", "kafkaspec.cli")

#: what the runtime must not load: the generator, the spec layer, review tooling, and their libraries
#: (construct too: the Construct reference codecs load only for those who use them)
RUNTIME_FORBIDDEN = ("jinja2", "yaml", "construct", "kafkaspec.codegen", "kafkaspec.spec", "kafkaspec.review")

#: runtime subpackages shown as one node each in the printed graph
RUNTIME_PACKAGES = ("kafkaspec.payloads", "kafkaspec.explain")

#: the Construct building blocks, and the only package allowed to import them
CONSTRUCT_ADAPTERS = {"kafkaspec._construct": "kafkaspec.generated.reference",
                      "kafkaspec.payloads._construct": "kafkaspec.generated.reference"}


# -- the static import graph -----------------------------------------------------------------------

def module_files(root: Path = REPO) -> dict[str, Path]:
    """Every module of the three installed trees, by its installed name."""
    out: dict[str, Path] = {}
    for folder, package in TREES.items():
        base = root / folder
        for path in sorted(base.rglob("*.py")):
            rel = path.relative_to(base).with_suffix("")
            parts = list(rel.parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join([package, *parts])] = path
    # codegen/ and generated/ are mapped under kafkaspec/, never found through it
    return out


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _import_nodes(tree: ast.AST):
    """Every Import/ImportFrom, in functions too, skipping the body of ``if TYPE_CHECKING:``."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        stack.extend(ast.iter_child_nodes(node))


def imports_of(name: str, path: Path, known: set[str]) -> list[tuple[str, int]]:
    """(imported module, line) for every import in the module ``name``: internal modules by their full
    installed name (``from pkg import sub`` names the submodule), anything else by its top-level name."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: list[tuple[str, int]] = []
    for node in _import_nodes(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                out.append((_internal_or_top(alias.name, known), node.lineno))
            continue
        if node.level:
            base_parts = package.split(".")
            base_parts = base_parts[: len(base_parts) - (node.level - 1)]
            target = ".".join(base_parts + ([node.module] if node.module else []))
        else:
            target = node.module or ""
        for alias in node.names:
            sub = f"{target}.{alias.name}"
            out.append((sub if sub in known else _internal_or_top(target, known), node.lineno))
    return list(dict.fromkeys(out))  # `from m import a, b` is one edge


def _internal_or_top(module: str, known: set[str]) -> str:
    if module in known:
        return module
    if module.split(".")[0] == "kafkaspec":
        return module  # an internal name that does not exist: reported as it is
    return module.split(".")[0]


def import_graph(root: Path = REPO) -> dict[str, list[tuple[str, int]]]:
    """module -> [(imported module, line), ...] over kafkaspec/, codegen/ and generated/."""
    files = module_files(root)
    known = set(files)
    return {name: imports_of(name, path, known) for name, path in files.items()}


def is_runtime(module: str) -> bool:
    """kafkaspec's own top-level modules and the generated codecs."""
    return module.startswith("kafkaspec") and not any(
        module == p or module.startswith(p + ".") for p in NON_RUNTIME)


def in_package(module: str, *packages: str) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)


def cycles(graph: dict[str, list[tuple[str, int]]]) -> list[list[str]]:
    """The strongly connected components with more than one module (or a self-import), as lists."""
    nodes = sorted(graph)
    edges = {n: sorted({t for t, _ in graph[n] if t in graph}) for n in nodes}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0

    def visit(v: str) -> None:  # Tarjan; the graph is a few hundred modules, recursion is fine
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on_stack.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in edges[v]:
                found.append(sorted(component))

    for n in nodes:
        if n not in index:
            visit(n)
    return sorted(found)


def _cycle_edges(graph, component: list[str]) -> list[str]:
    members = set(component)
    return [f"{src} -> {dst} (line {line})" for src in component for dst, line in graph[src] if dst in members]


def group(module: str) -> str:
    """The package-level node a module belongs to (the runtime's top-level modules stay separate)."""
    for p in (*NON_RUNTIME, *RUNTIME_PACKAGES, "kafkaspec.generated"):
        if in_package(module, p):
            return p
    return module


# -- (a) what importing and reading load -----------------------------------------------------------

READ_A_BATCH = textwrap.dedent("""
    import json, sys
    import kafkaspec
    from kafkaspec import Record
    seen = []
    for magic in MAGICS:
        data = kafkaspec.build_batch([Record(key=b"k", value=b"v", timestamp=1_700_000_000_000,
                                             headers=[("h", b"1")] if magic == 2 else [])], magic=magic)
        for batch in kafkaspec.iter_batches(data):
            for r in batch:
                seen.append((batch.magic, r.offset, r.key, r.value))
    assert len(seen) == len(MAGICS), seen
    print(json.dumps(sorted(sys.modules)))
""")


def _loaded_modules(code: str) -> list[str]:
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd="/", check=False)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def _forbidden(loaded: list[str]) -> list[str]:
    return [m for m in loaded if any(m == f or m.startswith(f + ".") for f in RUNTIME_FORBIDDEN)]


def _summary(bad: list[str]) -> str:
    """``construct (11 modules), yaml (1 module)``: the forbidden packages and how much of each loaded."""
    roots: dict[str, int] = defaultdict(int)
    for m in bad:
        roots[next(f for f in RUNTIME_FORBIDDEN if m == f or m.startswith(f + "."))] += 1
    return ", ".join(f"{r} ({n} module{'s' if n > 1 else ''})" for r, n in roots.items())


def test_import_kafkaspec_loads_no_generator_spec_or_review():
    loaded = _loaded_modules("import json, sys, kafkaspec; print(json.dumps(sorted(sys.modules)))")
    assert "kafkaspec" in loaded
    bad = _forbidden(loaded)
    assert not bad, f"`import kafkaspec` loads {_summary(bad)}: {', '.join(bad)}"


@pytest.mark.parametrize("magic", [2, 1, 0])
def test_reading_a_batch_loads_no_generator_spec_or_review(magic):
    loaded = _loaded_modules(READ_A_BATCH.replace("MAGICS", f"[{magic}]"))
    assert "kafkaspec.records" in loaded
    bad = _forbidden(loaded)
    assert not bad, f"building and reading a magic-{magic} batch loads {_summary(bad)}: {', '.join(bad)}"


DECODE_A_PAYLOAD = textwrap.dedent("""
    import json, sys
    from kafkaspec import payloads
    # a FeatureLevelRecord (api key 12, v0): frame 1, key 12, version 0, name "x", level 1, no tags
    value = bytes([1, 12, 0, 2]) + b"x" + bytes([0, 1, 0])
    d = payloads.decode("__cluster_metadata", None, value)
    assert d.type == "FeatureLevelRecord" and d.value["name"] == "x", d
    print(json.dumps(sorted(sys.modules)))
""")


def test_decoding_a_payload_loads_no_construct_generator_or_spec():
    """The payload package's public API runs on the fast codecs; its Construct adapter stays unloaded."""
    loaded = _loaded_modules(DECODE_A_PAYLOAD)
    assert "kafkaspec.generated.messages.feature_level_record" in loaded
    bad = _forbidden(loaded) + [m for m in loaded if m in CONSTRUCT_ADAPTERS]
    assert not bad, f"decoding a payload loads {', '.join(bad)}"


def test_the_module_check_is_not_vacuous():
    """The check above sees what a subprocess loads: the spec layer does load yaml."""
    loaded = _loaded_modules("import json, sys, kafkaspec.spec; print(json.dumps(sorted(sys.modules)))")
    assert {"yaml", "kafkaspec.spec", "kafkaspec.spec.loader"} <= set(_forbidden(loaded))


# -- (b) the static rules --------------------------------------------------------------------------

@pytest.fixture(scope="module")
def graph():
    return import_graph()


def _edges(graph, source_ok, target_bad) -> list[str]:
    return [f"{src} -> {dst} (line {line})" for src, targets in sorted(graph.items()) if source_ok(src)
            for dst, line in targets if target_bad(dst)]


def test_the_graph_sees_every_tree(graph):
    """The static checks below have something to check: all three trees, imports inside functions."""
    assert {"kafkaspec", "kafkaspec.records", "kafkaspec.spec.loader", "kafkaspec.codegen",
            "kafkaspec.generated.record_batch_v2", "kafkaspec.review.locate"} <= set(graph)
    assert "yaml" in {t for t, _ in graph["kafkaspec.spec.loader"]}
    assert any(t == "kafkaspec.spec" for t, _ in graph["kafkaspec.review.locate"])
    # imports inside a function count: the CLI's review command loads the review package lazily
    assert any(t.startswith("kafkaspec.review") for t, _ in graph["kafkaspec.commands.review"])


def test_no_import_cycles(graph):
    found = cycles(graph)
    assert not found, "import cycles:\n" + "\n".join(
        "  " + " <-> ".join(c) + "\n    " + "\n    ".join(_cycle_edges(graph, c)) for c in found)


def test_runtime_imports_no_spec_generator_review_logdir_spark_or_cli(graph):
    bad = _edges(graph, is_runtime, lambda t: t.startswith("kafkaspec") and not is_runtime(t)
                 or t in ("yaml", "jinja2"))
    assert not bad, "the runtime reaches outside its layer:\n  " + "\n  ".join(bad)


def test_only_the_reference_codecs_import_the_construct_adapters(graph):
    assert set(CONSTRUCT_ADAPTERS) <= set(graph)
    bad = _edges(graph, lambda s: True, lambda t: t in CONSTRUCT_ADAPTERS)
    bad = [e for e in bad if not any(e.startswith(CONSTRUCT_ADAPTERS[t]) for t in CONSTRUCT_ADAPTERS
                                     if f" -> {t} " in e)]
    assert not bad, "a Construct adapter is imported outside the reference codecs:\n  " + "\n  ".join(bad)


def test_spec_imports_only_itself_and_yaml(graph):
    # kafkaspec.extras (the one-line error naming a missing extra) imports only the standard library
    bad = _edges(graph, lambda s: in_package(s, "kafkaspec.spec"),
                 lambda t: t == "jinja2" or t.startswith("kafkaspec") and not in_package(t, "kafkaspec.spec")
                 and t != "kafkaspec.extras")
    assert not bad, "the spec layer imports the generator, review tooling or the runtime:\n  " + "\n  ".join(bad)


def test_review_imports_no_generator(graph):
    bad = _edges(graph, lambda s: in_package(s, "kafkaspec.review"),
                 lambda t: in_package(t, "kafkaspec.codegen") or t == "jinja2")
    assert not bad, "review tooling imports the generator:\n  " + "\n  ".join(bad)


def test_only_the_generate_command_calls_the_generator_and_through_its_package(graph):
    """Outside codegen/, the generator is reached through its public package only (``kafkaspec.codegen.main``)."""
    bad = _edges(graph, lambda s: not in_package(s, "kafkaspec.codegen"),
                 lambda t: t.startswith("kafkaspec.codegen."))
    bad += _edges(graph, lambda s: not in_package(s, "kafkaspec.codegen", "kafkaspec.commands.generate"),
                  lambda t: t == "kafkaspec.codegen")
    assert not bad, "the generator's modules are imported from outside:\n  " + "\n  ".join(bad)


def test_nothing_imports_the_bare_folder_names():
    """``codegen`` and ``generated`` are installed as kafkaspec.codegen and kafkaspec.generated: one name each."""
    bad = []
    for folder in ("kafkaspec", "codegen", "generated", "tests", "bench"):
        for path in sorted((REPO / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            for node in _import_nodes(tree):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                    [node.module] if node.module and not node.level else [])
                bad += [f"{path.relative_to(REPO)}:{node.lineno}: import {n}" for n in names
                        if n.split(".")[0] in ("codegen", "generated")]
    assert not bad, "imports of a bare folder name:\n  " + "\n  ".join(bad)


# -- the printed graph -----------------------------------------------------------------------------

def describe(root: Path = REPO, modules: bool = False) -> str:
    g = import_graph(root)
    lines = [f"# import graph of {root} (kafkaspec/, codegen/ as kafkaspec.codegen, generated/ as "
             "kafkaspec.generated); package-level edges, imports inside functions included"]
    edges: dict[tuple[str, str], int] = defaultdict(int)
    for src, targets in g.items():
        for dst, _ in targets:
            if dst in g or dst.startswith("kafkaspec"):
                a, b = group(src), group(dst)
            elif dst in ("yaml", "jinja2", "construct"):
                a, b = group(src), dst
            else:
                continue
            if a != b:
                edges[a, b] += 1
    for (a, b), n in sorted(edges.items()):
        lines.append(f"{a} -> {b}  ({n} import{'s' if n > 1 else ''})")
    found = cycles(g)
    lines.append("")
    lines.append(f"# module cycles: {len(found) or 'none'}")
    for c in found:
        lines.append("  " + " <-> ".join(c))
        lines += ["    " + e for e in _cycle_edges(g, c)]
    if modules:
        lines.append("")
        lines.append("# module-level edges")
        for src in sorted(g):
            for dst, line in sorted(set(g[src])):
                lines.append(f"{src} -> {dst} (line {line})")
    return "\n".join(lines)


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    print(describe(Path(args[0]).resolve() if args else REPO, modules="--modules" in sys.argv))
