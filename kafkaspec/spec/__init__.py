"""The spec layer: YAML schemas in, a validated and linted model out.

* :mod:`.model` -- the model (structures, fields, enums, dispatches) and the type tables;
* :mod:`.loader` -- :func:`load` a schema folder (or :func:`load_file` one file), raising
  :class:`SchemaError` with a message that names the file, the field and the problem;
  :func:`bundled_schemas` is the installed copy of schemas/ (package data ``kafkaspec.schemas``);
* :mod:`.lint` -- the review rules (docs/review-rules.md) that :func:`load` enforces.

Arrows point one way: the generator (``kafkaspec.codegen``, Jinja2) and the review tooling
(:mod:`kafkaspec.review`) build on this package; it imports PyYAML and nothing of theirs, and the
runtime codecs never import it.
"""

from .lint import lint_problems
from .loader import SchemaError, bundled_schemas, load, load_file
from .model import (
    CAMEL,
    CHECKSUM_ALGORITHMS,
    FIXED_TYPES,
    OTHER_TYPES,
    SNAKE,
    VAR_TYPES,
    Bit,
    Checksum,
    CompressedBy,
    Discriminator,
    Dispatch,
    Enum,
    EnumValue,
    Field,
    LengthOf,
    PresentIf,
    RelativeTo,
    SchemaSet,
    Struct,
    snake,
)
from .types import PREFIX_TYPES

__all__ = [
    "CAMEL",
    "CHECKSUM_ALGORITHMS",
    "FIXED_TYPES",
    "OTHER_TYPES",
    "PREFIX_TYPES",
    "SNAKE",
    "VAR_TYPES",
    "Bit",
    "Checksum",
    "CompressedBy",
    "Discriminator",
    "Dispatch",
    "Enum",
    "EnumValue",
    "Field",
    "LengthOf",
    "PresentIf",
    "RelativeTo",
    "SchemaError",
    "SchemaSet",
    "Struct",
    "bundled_schemas",
    "lint_problems",
    "load",
    "load_file",
    "snake",
]
