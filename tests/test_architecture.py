"""The import rules: one ordered list of layers, each importing only layers below it, and no cycles.

The layers (docs/architecture.md, "Layering"), lowest first, are :data:`LAYERS`: the errors; the
codec layer (``kafkaspec.codec``, the one package generated code imports besides the errors); the
generated codecs; the applications of the codecs (Kafka's own payloads, the values of user
topics); the public record API (``kafkaspec`` and its top-level modules); the explainer; the spec
layer; the log directories; Spark; the review tooling; the generator; the CLI. ``import kafkaspec``
loads the bottom five only.

Two kinds of check: in a subprocess, what ``import kafkaspec`` and reading a batch really load
(``sys.modules``); and statically (``ast``), every import statement of the hand-written and
generated code, at module level, inside a function or under ``if TYPE_CHECKING:`` (an import a type
checker follows is an arrow too).

Run as a script to print the import graph (package-level edges, then any module cycles and any
import against the layers)::

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
from typing import NamedTuple

import pytest

REPO = Path(__file__).resolve().parent.parent

#: source folder -> the package name it is installed as (pyproject's package-dir)
TREES = {"kafkaspec": "kafkaspec", "codegen": "kafkaspec.codegen", "generated": "kafkaspec.generated"}


class Layer(NamedTuple):
    """A layer: the packages (or modules) in it, the layers below it that it may import (None: every
    one), and the restricted libraries (:data:`RESTRICTED`) it may import."""

    name: str
    packages: tuple[str, ...]
    may_import: tuple[str, ...] | None = None
    libraries: tuple[str, ...] = ()


#: The layers, lowest first. A module belongs to the layer of the longest package that holds it
#: (``kafkaspec`` itself holds the top-level modules: the record API). A module may import its own
#: layer and the layers below it (only those in ``may_import`` when it is given), never one above.
LAYERS: tuple[Layer, ...] = (
    Layer("errors", ("kafkaspec.errors",), ()),
    # varints, checksums, compression, column and shape helpers, message-spec primitives, and the
    # Construct building blocks of the reference codecs (only those load Construct)
    Layer("codec", ("kafkaspec.codec",), ("errors",), ("construct",)),
    Layer("generated", ("kafkaspec.generated",), ("codec", "errors"), ("construct",)),
    # what the codecs are applied to: Kafka's own payloads, the values of user topics
    Layer("payloads", ("kafkaspec.payloads", "kafkaspec.values")),
    Layer("record API", ("kafkaspec",)),
    Layer("explain", ("kafkaspec.explain",)),
    # YAML -> validated model; kafkaspec.codec.extras names a missing PyYAML
    Layer("spec", ("kafkaspec.spec",), ("codec",), ("yaml",)),
    # batches -> Arrow columns (the columnar engine, the kafkalog schema); knows no log directory:
    # kafkaspec.logdir's Partition.to_arrow calls down into it
    Layer("arrow", ("kafkaspec.arrow",)),
    # the log directories, in wings, each importing only the wings below it
    Layer("logdir.store", ("kafkaspec.logdir.store",)),
    Layer("logdir.kafka", ("kafkaspec.logdir.kafka",)),
    Layer("logdir.tiered", ("kafkaspec.logdir.tiered",)),
    # choosing the reader of a path (open_log) over the layouts
    Layer("logdir.open", ("kafkaspec.logdir.detect",)),
    Layer("logdir.verify", ("kafkaspec.logdir.verify",)),
    Layer("logdir.write", ("kafkaspec.logdir.write",)),
    # the package itself: the public names, re-exported, and the old module paths (logdir/_moved.py)
    Layer("logdir", ("kafkaspec.logdir",)),
    # reads byte ranges of segments into Arrow for Spark's tasks: over the log directories
    Layer("arrow.ranges", ("kafkaspec.arrow.ranges",)),
    # Iceberg and Delta tables as a destination, Spark-free: over the read plan and the log directories
    Layer("tables", ("kafkaspec.tables",)),
    Layer("spark", ("kafkaspec.spark",)),
    Layer("review", ("kafkaspec.review",), None, ("yaml",)),
    Layer("codegen", ("kafkaspec.codegen",), None, ("jinja2", "yaml")),
    Layer("cli", ("kafkaspec.commands", "kafkaspec.cli", "kafkaspec.__main__"), None, ("yaml",)),
)

#: libraries only the layers that name them may import (the runtime never loads them)
RESTRICTED = ("construct", "jinja2", "yaml")

#: Import cycles allowed for now, each a set of modules, with why. A stale entry fails the cycle
#: test, so an allowance goes when its cycle does.
ALLOWED_CYCLES: tuple[frozenset[str], ...] = ()

#: what the runtime must not load: the generator, the spec layer, review tooling, and their libraries
#: (construct too: the Construct reference codecs load only for those who use them)
RUNTIME_FORBIDDEN = ("jinja2", "yaml", "construct", "kafkaspec.codegen", "kafkaspec.spec", "kafkaspec.review")

#: runtime subpackages shown as one node each in the printed graph
RUNTIME_PACKAGES = ("kafkaspec.codec", "kafkaspec.payloads", "kafkaspec.values", "kafkaspec.explain")

#: non-runtime packages, each one node in the printed graph; kafkaspec.cli is the CLI's entry module
NON_RUNTIME = (
    "kafkaspec.spec",
    "kafkaspec.codegen",
    "kafkaspec.review",
    "kafkaspec.logdir",
    "kafkaspec.arrow",
    "kafkaspec.spark",
    "kafkaspec.commands",
    "kafkaspec.cli",
    "kafkaspec.__main__",
)

#: the Construct building blocks, and the only package allowed to import them
CONSTRUCT_ADAPTERS = {
    "kafkaspec.codec._construct": "kafkaspec.generated.reference",
    "kafkaspec.codec._message_construct": "kafkaspec.generated.reference",
}


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


def _import_nodes(tree: ast.AST):
    """Every Import/ImportFrom, in functions and under ``if TYPE_CHECKING:`` too."""
    stack = [tree]
    while stack:
        node = stack.pop()
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


def layer_of(module: str) -> Layer | None:
    """The layer of an internal module: that of the longest package holding it (None: in no layer)."""
    best: tuple[int, Layer] | None = None
    for layer in LAYERS:
        for p in layer.packages:
            if in_package(module, p) and (best is None or len(p) > best[0]):
                best = (len(p), layer)
    return best[1] if best else None


def allowed(source: Layer, target: Layer) -> bool:
    """The one rule: a layer imports itself and layers below it (only those it names, if it names any)."""
    if target == source:
        return True
    below = LAYERS[: LAYERS.index(source)]
    return target in below and (source.may_import is None or target.name in source.may_import)


def layer_violations(graph: dict[str, list[tuple[str, int]]]) -> list[str]:
    """Every import against the layers, and every module in no layer."""
    bad = []
    for src, targets in sorted(graph.items()):
        source = layer_of(src)
        if source is None:
            bad.append(f"{src} is in no layer (tests/test_architecture.py LAYERS)")
            continue
        for dst, line in targets:
            if dst in RESTRICTED:
                ok = dst in source.libraries
            elif dst.startswith("kafkaspec"):
                target = layer_of(dst)
                ok = target is not None and allowed(source, target)
            else:
                continue
            if not ok:
                target_name = dst if dst in RESTRICTED else getattr(layer_of(dst), "name", "no layer")
                bad.append(f"{src} ({source.name}) -> {dst} ({target_name}) (line {line})")
    return bad


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
    return [
        f"{src} -> {dst} (line {line})" for src in component for dst, line in graph[src] if dst in members
    ]


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
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd="/", check=False
    )
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
    return [
        f"{src} -> {dst} (line {line})"
        for src, targets in sorted(graph.items())
        if source_ok(src)
        for dst, line in targets
        if target_bad(dst)
    ]


def test_the_graph_sees_every_tree(graph):
    """The static checks below have something to check: all three trees, imports inside functions."""
    assert {
        "kafkaspec",
        "kafkaspec.records",
        "kafkaspec.spec.loader",
        "kafkaspec.codegen",
        "kafkaspec.generated.record_batch_v2",
        "kafkaspec.review.locate",
    } <= set(graph)
    assert "yaml" in {t for t, _ in graph["kafkaspec.spec.loader"]}
    assert any(t == "kafkaspec.spec" for t, _ in graph["kafkaspec.review.locate"])
    # imports inside a function count: the CLI's review command loads the review package lazily
    assert any(t.startswith("kafkaspec.review") for t, _ in graph["kafkaspec.commands.review"])


def test_no_import_cycles(graph):
    found = [c for c in cycles(graph) if frozenset(c) not in ALLOWED_CYCLES]
    assert not found, "import cycles:\n" + "\n".join(
        "  " + " <-> ".join(c) + "\n    " + "\n    ".join(_cycle_edges(graph, c)) for c in found
    )
    stale = [sorted(a) for a in ALLOWED_CYCLES if sorted(a) not in cycles(graph)]
    assert not stale, f"ALLOWED_CYCLES names cycles that are gone, delete them: {stale}"


def test_type_checking_imports_count(graph):
    """An import under ``if TYPE_CHECKING:`` is an arrow too: spec/model.py names message_model's
    Message there (the graph sees it, so the cycle a shared helper made is gone, not hidden)."""
    assert any(t == "kafkaspec.spec.message_model" for t, _ in graph["kafkaspec.spec.model"])


def test_every_module_is_in_a_layer_and_imports_only_below(graph):
    """The one layering rule (:data:`LAYERS`): generated code imports only the codec layer and the
    errors, the codec layer only the errors, the runtime nothing of the spec layer, the generator,
    review tooling, log directories, Spark or the CLI, and so on up."""
    bad = layer_violations(graph)
    assert not bad, "imports against the layers:\n  " + "\n  ".join(bad)


def test_the_layer_rule_is_not_vacuous():
    """The rule refuses what it must: generated code importing the record API, the codec layer
    importing generated code, the runtime importing the spec layer or yaml, the spec layer importing
    the runtime, a module in no layer."""
    fake = {
        "kafkaspec": [],
        "kafkaspec.generated.x": [("kafkaspec.records", 1), ("kafkaspec.codec.varint", 2)],
        "kafkaspec.codec.y": [("kafkaspec.generated.x", 1), ("kafkaspec.errors", 2)],
        "kafkaspec.records": [("kafkaspec.spec.loader", 1), ("yaml", 2), ("kafkaspec.payloads.decode", 3)],
        "kafkaspec.spec.z": [("kafkaspec.records", 1), ("yaml", 2)],
    }
    assert layer_violations(fake) == [
        "kafkaspec.codec.y (codec) -> kafkaspec.generated.x (generated) (line 1)",
        "kafkaspec.generated.x (generated) -> kafkaspec.records (record API) (line 1)",
        "kafkaspec.records (record API) -> kafkaspec.spec.loader (spec) (line 1)",
        "kafkaspec.records (record API) -> yaml (yaml) (line 2)",
        "kafkaspec.spec.z (spec) -> kafkaspec.records (record API) (line 1)",
    ]
    assert layer_of("kafkaspec.nowhere") is not None  # the root holds every top-level name ...
    assert layer_of("kafkaspec.codec.varint").name == "codec"  # ... but the longest package wins
    assert layer_violations({"os.path": []}) == ["os.path is in no layer (tests/test_architecture.py LAYERS)"]


def test_only_the_reference_codecs_import_the_construct_adapters(graph):
    assert set(CONSTRUCT_ADAPTERS) <= set(graph)
    bad = _edges(graph, lambda s: True, lambda t: t in CONSTRUCT_ADAPTERS)
    bad = [
        e
        for e in bad
        if not any(e.startswith(CONSTRUCT_ADAPTERS[t]) for t in CONSTRUCT_ADAPTERS if f" -> {t} " in e)
    ]
    assert not bad, "a Construct adapter is imported outside the reference codecs:\n  " + "\n  ".join(bad)


def test_only_the_generate_command_calls_the_generator_and_through_its_package(graph):
    """Outside codegen/, the generator is reached through its public package only (``kafkaspec.codegen.main``)."""
    bad = _edges(
        graph, lambda s: not in_package(s, "kafkaspec.codegen"), lambda t: t.startswith("kafkaspec.codegen.")
    )
    bad += _edges(
        graph,
        lambda s: not in_package(s, "kafkaspec.codegen", "kafkaspec.commands.generate"),
        lambda t: t == "kafkaspec.codegen",
    )
    assert not bad, "the generator's modules are imported from outside:\n  " + "\n  ".join(bad)


def test_nothing_imports_the_bare_folder_names():
    """``codegen`` and ``generated`` are installed as kafkaspec.codegen and kafkaspec.generated: one name each."""
    bad = []
    for folder in ("kafkaspec", "codegen", "generated", "tests", "bench"):
        for path in sorted((REPO / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            for node in _import_nodes(tree):
                names = (
                    [a.name for a in node.names]
                    if isinstance(node, ast.Import)
                    else ([node.module] if node.module and not node.level else [])
                )
                bad += [
                    f"{path.relative_to(REPO)}:{node.lineno}: import {n}"
                    for n in names
                    if n.split(".")[0] in ("codegen", "generated")
                ]
    assert not bad, "imports of a bare folder name:\n  " + "\n  ".join(bad)


# -- module size ---------------------------------------------------------------------------------

#: the most lines a hand-written module (kafkaspec/, codegen/) may have without a reason ...
MAX_LINES = 450
#: ... which is one line in the first paragraph of its docstring, opening with these words
ONE_MODULE = "One module because"

#: Modules over :data:`MAX_LINES` with no reason yet, each split by job (or given its reason) on a
#: helper's branch of issue 40 in parallel. The lead empties this list as those branches merge; an
#: entry that is under the limit or has its reason (a stale one) fails the test, as does a new long
#: module that is not here.
PENDING_SPLIT: tuple[str, ...] = ()


def first_paragraph(text: str) -> str:
    """The first paragraph of a module's docstring, its lines joined by single spaces ("" if none)."""
    doc = ast.get_docstring(ast.parse(text)) or ""
    return " ".join(doc.split("\n\n", 1)[0].split())


def long_without_reason(texts: dict[str, str]) -> list[str]:
    """The modules of ``texts`` (path -> source) over :data:`MAX_LINES` lines whose docstring's first
    paragraph gives no reason (:data:`ONE_MODULE`), with their line counts."""
    return [
        f"{path} ({len(text.splitlines())} lines)"
        for path, text in sorted(texts.items())
        if len(text.splitlines()) > MAX_LINES and ONE_MODULE not in first_paragraph(text)
    ]


def test_no_long_module_without_a_reason():
    """Short modules with one job each: a hand-written module over :data:`MAX_LINES` lines says in the
    first paragraph of its docstring, in one line, why it is one module ("One module because ...")."""
    texts = {
        str(path.relative_to(REPO)): path.read_text(encoding="utf-8")
        for folder in ("kafkaspec", "codegen")
        for path in sorted((REPO / folder).rglob("*.py"))
    }
    long = long_without_reason(texts)
    bad = [entry for entry in long if entry.split(" (")[0] not in PENDING_SPLIT]
    assert not bad, (
        f"modules over {MAX_LINES} lines: split each by job, or say why it is one module in the first "
        f'paragraph of its docstring ("{ONE_MODULE} ..."):\n  ' + "\n  ".join(bad)
    )
    stale = [p for p in PENDING_SPLIT if not any(entry.split(" (")[0] == p for entry in long)]
    assert not stale, f"PENDING_SPLIT names modules now short or with their reason, delete them: {stale}"


def test_the_module_size_rule_is_not_vacuous():
    """The rule counts lines and reads only the docstring's first paragraph."""
    body = "x = 1\n" * MAX_LINES
    reason = f'"""Summary.\n{ONE_MODULE} it is one algorithm.\n\nMore."""\n'
    late = f'"""Summary.\n\n{ONE_MODULE} it is one algorithm."""\n'
    texts = {"short.py": "x = 1\n" * MAX_LINES, "long.py": body + "y = 2\n", "reason.py": reason + body}
    texts["late.py"] = late + body
    texts["comment.py"] = f"# {ONE_MODULE} it is one algorithm\n" + body
    assert long_without_reason(texts) == [
        f"comment.py ({MAX_LINES + 1} lines)",
        f"late.py ({MAX_LINES + 3} lines)",
        f"long.py ({MAX_LINES + 1} lines)",
    ]


# -- the printed graph -----------------------------------------------------------------------------


def describe(root: Path = REPO, modules: bool = False) -> str:
    g = import_graph(root)
    lines = [
        f"# import graph of {root} (kafkaspec/, codegen/ as kafkaspec.codegen, generated/ as "
        "kafkaspec.generated); package-level edges, imports inside functions included"
    ]
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
        allowance = " (allowed: ALLOWED_CYCLES)" if frozenset(c) in ALLOWED_CYCLES else ""
        lines.append("  " + " <-> ".join(c) + allowance)
        lines += ["    " + e for e in _cycle_edges(g, c)]
    bad = layer_violations(g)
    lines.append("")
    lines.append(f"# layers, lowest first: {' < '.join(layer.name for layer in LAYERS)}")
    lines.append(f"# imports against the layers: {len(bad) or 'none'}")
    lines += ["  " + b for b in bad]
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
