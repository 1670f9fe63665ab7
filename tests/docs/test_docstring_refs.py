"""Every cross-reference in a docstring (or ``#:`` comment) of kafkaspec/ names something that exists.

The roles :data:`ROLES` (``:class:`X```, ``:func:`~m.f```, ...) as Sphinx reads them: a leading ``~``
only shortens the text shown, ``title <target>`` names ``target``, a leading ``!`` is no link. A
target is resolved as Sphinx's Python domain does, from where the docstring is: in the enclosing class
(``:meth:`read``` in a method of a class), then the module; a relative target
(``.x.Y``, ``~.x.Y``) against the module, then the module's package and the packages above it; an
absolute one (``kafkaspec.x.Y``, ``pyarrow.Table``) by importing it; a bare name may also be a builtin
(``:exc:`ValueError```). An ``:attr:`` may name an instance attribute, found as ``self.<name> =`` in
the class's source or as an annotation of the class (dataclass or NamedTuple fields). An old module
path kept for one release (``kafkaspec.logdir._moved``) is no target: a reference names where the thing
lives now.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import inspect
import io
import re
import tokenize
import warnings
from pathlib import Path

from kafkaspec.logdir._moved import MOVED

REPO = Path(__file__).resolve().parent.parent.parent
PACKAGE = REPO / "kafkaspec"
ROLES = ("mod", "class", "func", "meth", "data", "attr", "exc")
REFERENCE = re.compile(r":(?:py:)?(" + "|".join(ROLES) + r"):`([^`]+)`")


def module_name(path: Path, root: Path = REPO) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def docstrings(path: Path):
    """(the dotted name of the enclosing class or None, text) of every docstring of ``path`` (the
    module's, each class's and function's, nested ones too) and of every ``#:`` comment (the
    documentation of an attribute, which Sphinx's autodoc reads too)."""
    source = path.read_text(encoding="utf-8")
    found: list[tuple[str | None, str]] = []
    classes: list[tuple[int, int, str]] = []  # (first line, last line, dotted name)

    def visit(node: ast.AST, cls: str | None) -> None:
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = ast.get_docstring(node, clean=False)
            if doc:
                found.append((cls, doc))
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                name = child.name if cls is None else f"{cls}.{child.name}"
                classes.append((child.lineno, child.end_lineno or child.lineno, name))
                visit(child, name)
            elif isinstance(child, ast.stmt):
                visit(child, cls)

    visit(ast.parse(source), None)
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT and token.string.startswith("#:"):
            line = token.start[0]
            inner = [c for c in classes if c[0] <= line <= c[1]]
            found.append((max(inner)[2] if inner else None, token.string))
    return found


def references(text: str):
    """(role, target) of each reference in ``text``, targets as Sphinx reads them."""
    for role, body in REFERENCE.findall(text):
        body = body.strip()
        if body.startswith("!"):
            continue
        title = re.fullmatch(r".*<([^<>]+)>", body, re.S)
        target = title.group(1) if title else body
        target = target.lstrip("~").removesuffix("()")
        yield role, target


_MISSING = object()


def lookup(dotted: str):
    """The object a dotted path names (importing the longest module prefix), or _MISSING. An old path
    kept for one release (``kafkaspec.logdir._moved``, or a name found with a DeprecationWarning) is no
    target: the reference must name where the thing lives now."""
    if any(dotted == old or dotted.startswith(old + ".") for old in MOVED):
        return _MISSING
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        obj = _lookup(dotted)
    if any(issubclass(w.category, DeprecationWarning) and "moved" in str(w.message) for w in caught):
        return _MISSING
    return obj


def _lookup(dotted: str):
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for j, part in enumerate(parts[i:], start=i):
            try:
                nxt = getattr(obj, part, _MISSING)
            except Exception:  # a module __getattr__ that fails otherwise than with AttributeError
                nxt = _MISSING
            if nxt is _MISSING:
                if j == len(parts) - 1 and inspect.isclass(obj) and _instance_attribute(obj, part):
                    return part
                return _MISSING
            obj = nxt
        return obj
    return _MISSING


def _instance_attribute(cls: type, name: str) -> bool:
    """``name`` is an attribute of instances of ``cls`` (or of a base): set as ``self.name`` or annotated."""
    for klass in cls.__mro__:
        if name in getattr(klass, "__annotations__", {}):
            return True
        try:
            source = inspect.getsource(klass)
        except (OSError, TypeError):
            continue
        if re.search(rf"\bself\.{re.escape(name)}\s*(:[^=\n]+)?=", source):
            return True
    return False


def resolves(target: str, module: str, cls: str | None) -> bool:
    """Whether ``target``, cited in ``module`` (in the class ``cls``, if any), names something."""
    if target.startswith("."):
        rel = target[1:]
        bases = [module]
        package = module.rpartition(".")[0]
        while package:
            bases.append(package)
            package = package.rpartition(".")[0]
        return any(lookup(f"{base}.{rel}") is not _MISSING for base in bases)
    candidates = []
    if cls:
        scopes = cls.split(".")
        for i in range(len(scopes), 0, -1):
            candidates.append(f"{module}.{'.'.join(scopes[:i])}.{target}")
    candidates.append(f"{module}.{target}")
    candidates.append(target)
    if any(lookup(c) is not _MISSING for c in candidates):
        return True
    head = target.split(".")[0]
    return hasattr(builtins, head) and lookup_in(getattr(builtins, head), target.split(".")[1:])


def lookup_in(obj, parts) -> bool:
    for part in parts:
        obj = getattr(obj, part, _MISSING)
        if obj is _MISSING:
            return False
    return True


def broken_references(root: Path = PACKAGE) -> list[str]:
    out = []
    for path in sorted(root.rglob("*.py")):
        module = module_name(path, root.parent)
        for cls, doc in docstrings(path):
            for role, target in references(doc):
                if not resolves(target, module, cls):
                    out.append(f"{path.relative_to(root.parent)}: :{role}:`{target}`")
    return out


def test_every_docstring_reference_resolves():
    broken = broken_references()
    assert not broken, f"{len(broken)} docstring references name nothing:\n" + "\n".join(broken)


def test_the_check_is_not_vacuous():
    """Targets that exist resolve, and what does not exist, an old path kept for one release, a private
    name of another module or a bare name the module does not hold, does not."""
    here = "kafkaspec.spark.read.source"
    assert resolves(".planning", here, None)
    assert resolves("kafkaspec.arrow.ranges.Walk", here, None)
    assert resolves(".audit.audit_rows", here, None)
    assert resolves("ValueError", here, None)
    assert resolves("at", "kafkaspec.errors", "KafkaFormatError")  # a method, from its class's docstring
    assert resolves("reason", "kafkaspec.errors", "KafkaFormatError")  # set in __init__
    assert not resolves(".columnar", here, None)
    assert not resolves(".columnar.Walk", here, None)
    assert not resolves("kafkaspec.logdir.segment", here, None)  # moved to kafkaspec.logdir.kafka.segment
    assert not resolves("KafkaFormatError", "kafkaspec.commands._explain_files", None)
    assert list(references(":class:`~.x.Y` :func:`f()` :meth:`title <a.b>` :class:`!Z` :data:`D`")) == [
        ("class", ".x.Y"),
        ("func", "f"),
        ("meth", "a.b"),
        ("data", "D"),
    ]


def test_doc_comments_are_read_in_their_class(tmp_path):
    path = tmp_path / "m.py"
    path.write_text(
        '"""Module."""\n\n#: top\nX = 1\n\n\nclass A:\n    """A."""\n\n    #: in A\n    y = 2\n\n'
        "    class B:\n        def f(self):\n            #: in B\n            self.z = 3\n\n\n#: after\nW = 4\n"
    )
    assert docstrings(path) == [
        (None, "Module."),
        ("A", "A."),
        (None, "#: top"),
        ("A", "#: in A"),
        ("A.B", "#: in B"),
        (None, "#: after"),
    ]
