"""Names and small expressions in generated code: safe local variables for schema fields, constant
names, the value of a bit field."""

from __future__ import annotations

import keyword
from collections.abc import Callable, Mapping

from kafkaspec.spec import Bit

#: :func:`codegen.render.resolve_names`, as the renderers of messages and proposals receive it
Resolver = Callable[[str, Mapping[str, "str | None"]], str]

#: names the generated bodies use for themselves; a field with one of these names gets a trailing _
RESERVED = {
    "buf",
    "pos",
    "end",
    "start",
    "items",
    "item",
    "append",
    "count",
    "out",
    "verify",
    "index",
    "parts",
    "mv",
    "type",
}
#: the precomputed tables of encoded varints, by varint kind
VAR_TABLES = {"varint": "VARINT_BYTES", "uvarint": "UVARINT_BYTES"}


def local(name: str) -> str:
    """A safe local variable name for a field."""
    return f"{name}_" if name in RESERVED or keyword.iskeyword(name) else name


def a(name: str) -> str:
    """``name`` after its indefinite article: "an OffsetCommitValue", "an UnregisterBrokerRecord", "a
    UserScramCredentialRecord" (a "you" sound), "a Record"."""
    vowel = name[:1] in "AEIO" or (name[:1] == "U" and not name.startswith(("Us", "Uni")))
    return f"{'an' if vowel else 'a'} {name}"


def const_name(name: str) -> str:
    return name.upper()


def mask_value(expr: str, b: Bit) -> str:
    """The value of bit field ``b`` of ``expr`` by the module's named ``<BIT>_MASK`` and ``<BIT>_SHIFT``
    constants (the fast codecs declare them; a one-bit flag tests its mask alone: ``bool(x & MASK)``)."""
    name = const_name(b.name)
    return f"({expr} & {name}_MASK) >> {name}_SHIFT" if b.lo else f"{expr} & {name}_MASK"
