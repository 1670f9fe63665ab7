"""Every exception class of kafkaspec is indexed by :mod:`kafkaspec.errors`: defined there, or listed in
its :data:`~kafkaspec.errors.ELSEWHERE` with its module and one line, and importable from there.

The scan is static (``ast``) over the hand-written trees (kafkaspec/ and codegen/, installed as
kafkaspec.codegen): a class is an exception class when one of its bases is a built-in exception or an
exception class of the scan (by name, to a fixed point). A class whose name starts with ``_`` is a
signal between the functions of its module, raised and caught there: it is not indexed.
"""

from __future__ import annotations

import ast
import builtins
import subprocess
import sys
from pathlib import Path

import kafkaspec.errors as errors

REPO = Path(__file__).resolve().parent.parent
TREES = {"kafkaspec": "kafkaspec", "codegen": "kafkaspec.codegen"}


def _builtin_exception(name: str) -> bool:
    obj = getattr(builtins, name, None)
    return isinstance(obj, type) and issubclass(obj, BaseException)


def exception_classes(root: Path = REPO) -> dict[str, list[str]]:
    """Class name -> the modules (installed names) that define an exception class of that name."""
    defs: list[tuple[str, str, list[str]]] = []  # (module, class, base names)
    for folder, package in TREES.items():
        base = root / folder
        for path in sorted(base.rglob("*.py")):
            parts = list(path.relative_to(base).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            module = ".".join([package, *parts])
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ClassDef):
                    bases = [ast.unparse(b).rsplit(".", 1)[-1].split("[")[0] for b in node.bases]
                    defs.append((module, node.name, bases))
    known: set[str] = set()
    while True:
        more = {
            name
            for _, name, bases in defs
            if name not in known and any(_builtin_exception(b) or b in known for b in bases)
        }
        if not more:
            break
        known |= more
    found: dict[str, list[str]] = {}
    for module, name, _ in defs:
        if name in known:
            found.setdefault(name, []).append(module)
    return found


def unindexed(found: dict[str, list[str]]) -> list[str]:
    """Each public exception class neither defined in kafkaspec.errors nor listed in ELSEWHERE (under
    the module that defines it), as ``module.Class``."""
    out = []
    for name, modules in sorted(found.items()):
        if name.startswith("_"):
            continue
        for module in modules:
            if module == "kafkaspec.errors":
                continue
            if errors.ELSEWHERE.get(name, ("",))[0] != module:
                out.append(f"{module}.{name}")
    return out


def test_every_exception_class_is_in_the_index():
    missing = unindexed(exception_classes())
    assert not missing, (
        "exception classes kafkaspec.errors does not index (define them there, or add them to "
        f"ELSEWHERE with their module and one line): {missing}"
    )


def test_a_new_exception_class_fails_the_index(tmp_path):
    """The check is not vacuous: a new class, even one deriving from an indexed class, is found."""
    for folder in TREES:
        (tmp_path / folder).mkdir()
    (tmp_path / "kafkaspec" / "errors.py").write_text("class KafkaFormatError(ValueError):\n    pass\n")
    (tmp_path / "kafkaspec" / "thing.py").write_text(
        "from . import errors\n\n\n"
        "class NewError(errors.KafkaFormatError):\n    pass\n\n\n"
        "class Newer(NewError):\n    pass\n\n\n"
        "class _Signal(Exception):\n    pass\n\n\n"
        "class NotOne(dict[str, int]):\n    pass\n"
    )
    (tmp_path / "codegen" / "plan.py").write_text("class PlanWarning(UserWarning):\n    pass\n")
    found = exception_classes(tmp_path)
    assert set(found) == {"KafkaFormatError", "NewError", "Newer", "_Signal", "PlanWarning"}
    assert unindexed(found) == [
        "kafkaspec.thing.NewError",
        "kafkaspec.thing.Newer",
        "kafkaspec.codegen.plan.PlanWarning",
    ]


def test_the_index_names_real_classes_importable_from_errors():
    """Each ELSEWHERE entry: the module defines that exception class, kafkaspec.errors gives the same
    class, and its line is one short line."""
    found = exception_classes()
    for name, (module, line) in errors.ELSEWHERE.items():
        assert module in found.get(name, []), f"ELSEWHERE[{name!r}]: {module} defines no such exception class"
        cls = getattr(errors, name)
        assert isinstance(cls, type) and issubclass(cls, BaseException)
        assert cls.__module__ == module, (name, cls.__module__)
        assert line and "\n" not in line and len(line) <= 100, name
    assert not set(errors.ELSEWHERE) & set(vars(errors)), "defined in errors.py and listed in ELSEWHERE"


def test_importing_errors_loads_no_other_module_of_kafkaspec():
    """The index costs nothing: ``import kafkaspec.errors`` loads no module of ELSEWHERE."""
    code = (
        "import sys, kafkaspec.errors; "
        "print(sorted(m for m in sys.modules if m.startswith('kafkaspec') and m != 'kafkaspec.errors'))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    loaded = eval(out)  # a printed list of module names
    assert not {m for m, _ in errors.ELSEWHERE.values()} & set(loaded), loaded
