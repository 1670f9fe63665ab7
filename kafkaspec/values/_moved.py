"""Old import paths of the modules that left :mod:`kafkaspec.values` in 0.15 (issue 40: Arrow in one home).

``import kafkaspec.values.arrow_types`` still works for one release: the old name is the new module
(the same object), with a :class:`DeprecationWarning` naming the new path. Installed by
:mod:`kafkaspec.values` when it is imported. The new modules are in :mod:`kafkaspec.arrow`, a layer
above this one: they are named here as text, loaded only by a caller of the old name.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import warnings
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType

#: old module name -> where it lives now
MOVED: dict[str, str] = {
    "kafkaspec.values.arrow_types": "kafkaspec.arrow.value_types",
}


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname not in MOVED:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec: ModuleSpec) -> ModuleType:
        new = MOVED[spec.name]
        warnings.warn(
            f"{spec.name} moved to {new}; the old name goes in the next release",
            DeprecationWarning,
            stacklevel=2,
        )
        return importlib.import_module(new)

    def exec_module(self, module: ModuleType) -> None:
        """The module is the new one, already executed."""


def install() -> None:
    if not any(isinstance(f, _Alias) for f in sys.meta_path):
        sys.meta_path.insert(0, _Alias())
