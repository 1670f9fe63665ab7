"""The optional parts of kafkaspec and the one-line error that names the extra to install.

``pip install kafkaspec`` brings only what reading and writing Kafka's formats and the CLI need.
The rest comes with extras, so a user who only dumps segments does not install Spark:

* ``spark``: numpy, pyarrow and pyspark (the ``kafkalog`` Spark source, the pipeline, Arrow output,
  object stores) and pycryptodome (encrypted tiered segments);
* ``review``: PyYAML, to read the YAML schemas (``kafkaspec review``, :mod:`kafkaspec.spec`);
* ``codegen``: PyYAML and Jinja2, the code generator (``kafkaspec generate``);
* ``reference``: Construct, the reference codecs (``kafkaspec.generated.reference``).

A module that needs one calls :func:`require` where it would import it, so a missing package is
:class:`MissingExtraError` (a ``ModuleNotFoundError``) saying what needs it and what to install,
which the CLI prints as one line, instead of a bare "No module named 'yaml'" from deep inside.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from ..errors import MissingExtraError as MissingExtraError

#: the distribution name pip knows, where it differs from the module name
DISTRIBUTIONS = {"yaml": "PyYAML", "jinja2": "Jinja2", "Crypto": "pycryptodome"}


def require(module: str, extra: str, needed_for: str) -> ModuleType:
    """Import ``module``, or raise :class:`MissingExtraError` naming ``extra`` and what needs it."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        raise missing(exc, extra, needed_for) from None


def missing(exc: ModuleNotFoundError, extra: str, needed_for: str) -> MissingExtraError:
    """The error for ``exc``, a failed import of the ``extra``'s package: ``raise missing(...) from None``
    in an ``except ModuleNotFoundError`` around the imports (which keeps them visible to type checkers)."""
    name = (exc.name or "").split(".")[0] or "a package"
    package = DISTRIBUTIONS.get(name, name)
    return MissingExtraError(
        f"{needed_for} needs {package}, which is not installed: pip install 'kafkaspec[{extra}]'",
        name=exc.name,
    )


def require_spark(needed_for: str, modules: tuple[str, ...] = ("numpy", "pyarrow", "pyspark")) -> None:
    """Check that the ``spark`` extra's packages among ``modules`` are installed."""
    for module in modules:
        require(module, "spark", needed_for)


__all__ = ["MissingExtraError", "missing", "require", "require_spark"]
