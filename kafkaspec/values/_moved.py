"""Old import paths of the modules that left :mod:`kafkaspec.values` in 0.15 (issue 40: Arrow in one home).

``import kafkaspec.values.arrow_types`` still works for one release: the old name is the new module
(the same object), with a :class:`DeprecationWarning` naming the new path. Installed by
:mod:`kafkaspec.values` when it is imported. The new modules are in :mod:`kafkaspec.arrow`, a layer
above this one: they are named here as text, loaded only by a caller of the old name.
"""

from __future__ import annotations

from ..codec.moved import alias_modules

#: old module name -> where it lives now
MOVED: dict[str, str] = {
    "kafkaspec.values.arrow_types": "kafkaspec.arrow.value_types",
}


def install() -> None:
    alias_modules(MOVED)
