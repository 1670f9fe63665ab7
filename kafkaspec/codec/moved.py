"""Old module names kept importable for one release: the old name *is* the new module (the same object,
so a monkeypatch through either name is seen by both), with a :class:`DeprecationWarning` naming the
new path. Each package that moved modules keeps its table (``logdir/_moved.py``, ``values/_moved.py``)
and calls :func:`alias_modules` when it is imported; the new modules are named as text, so a table in a
low layer may point into a higher one, loaded only by a caller of the old name.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import warnings
from collections.abc import Mapping, Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def __init__(self, moved: Mapping[str, str]) -> None:
        self.moved = moved

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname not in self.moved:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec: ModuleSpec) -> ModuleType:
        new = self.moved[spec.name]
        warnings.warn(
            f"{spec.name} moved to {new}; the old name goes in the next release",
            DeprecationWarning,
            stacklevel=2,
        )
        return importlib.import_module(new)

    def exec_module(self, module: ModuleType) -> None:
        """The module is the new one, already executed."""


def alias_modules(moved: Mapping[str, str]) -> None:
    """Make each old name of ``moved`` (old module name -> new) import its new module (once per table)."""
    if not any(isinstance(f, _Alias) and f.moved is moved for f in sys.meta_path):
        sys.meta_path.insert(0, _Alias(moved))
