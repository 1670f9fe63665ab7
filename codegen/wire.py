"""The generator's wire types: a schema's type word with the code a fast codec reads and writes it by.

The facts of a type (width, size, zigzag, whether it may prefix a length or a count) live once, in the
spec's registry (:mod:`kafkaspec.spec.types`). This adds the behaviour, one template of macros per
family in ``templates/wire/``: ``fixed.j2`` (big-endian integers), ``var.j2`` (varints), and the two
prefixes that are not types, ``rest.j2`` (the bytes up to the end) and ``ref.j2`` (an earlier field).
Each family's template has the same macros (``read``, ``write``, ``read_length``, ``null_length``,
``empty_count``, as far as the family has them), so a template asks ``wire(word).write(value)`` instead
of switching on the word, as Kafka's generator asks its ``FieldType`` subclasses and franz-go its
``Type`` implementations.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeGuard

import jinja2

from kafkaspec.spec.types import FIELD_TYPES, PREFIX_TYPES, FieldType, Width

#: the template family of each width of the registry
FAMILIES = {Width.FIXED: "fixed", Width.VAR: "var", Width.PREFIXED: "bytes", Width.ARRAY: "array"}


def family(word: str) -> str:
    """The template family of a type word or prefix: ``fixed``, ``var``, ``bytes`` (bytes and string),
    ``array``, ``struct`` (a CamelCase word, a nested structure), ``rest``, or ``ref`` (a word naming an
    earlier field, which holds a length or count)."""
    facts = FIELD_TYPES.get(word)
    if facts is not None:
        return FAMILIES[facts.width]
    if word[:1].isupper():
        return "struct"
    return "rest" if word == "rest" else "ref"


def var_prefix(word: str | None) -> TypeGuard[str]:
    """Whether a length or count prefix is a varint (read inline, the one-byte case first)."""
    return word in PREFIX_TYPES and FIELD_TYPES[word].width is Width.VAR


def fixed_prefix(word: str | None) -> TypeGuard[str]:
    """Whether a length or count prefix is a fixed-width integer (it has a cell of its own in a
    layout, and says null with -1)."""
    return word in PREFIX_TYPES and FIELD_TYPES[word].fixed


class Wire:
    """One type word as the templates see it: the registry's facts (``t.name``, ``t.size``,
    ``t.zigzag``, ``t.prefix``...) and its family's macros, each called with the type first."""

    def __init__(self, word: str, macros: Any):
        self.word = word
        self.facts: FieldType | None = FIELD_TYPES.get(word)
        self._macros = macros

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        if self.facts is not None and hasattr(self.facts, name):
            return getattr(self.facts, name)
        macro = getattr(self._macros, name, None)
        if macro is None:
            raise AttributeError(f"{self.word} ({family(self.word)}) has no {name!r}")
        return lambda *args: macro(self, *args)

    @property
    def name(self) -> str:
        return self.word

    @property
    def prefix(self) -> bool:
        """It is a length or count prefix type (a field-named length or ``rest`` is not)."""
        return self.word in PREFIX_TYPES

    @property
    def text(self) -> bool:
        """A string: UTF-8 text on the wire, a ``str`` in the typed tuple."""
        return self.facts is not None and self.facts.hint == "str"

    @property
    def var(self) -> bool:
        return self.facts is not None and self.facts.width is Width.VAR


def wire_types(env: jinja2.Environment) -> Callable[[str], Wire]:
    """The templates' ``wire(word)``: the :class:`Wire` of a type word, its family's macros loaded once."""
    cache: dict[str, Wire] = {}

    def wire(word: str) -> Wire:
        if word not in cache:
            cache[word] = Wire(word, env.get_template(f"wire/{family(word)}.j2").module)
        return cache[word]

    return wire
