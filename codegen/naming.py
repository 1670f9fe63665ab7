"""Names in generated code: safe local variables for schema fields, and constant names."""

from __future__ import annotations

import keyword

#: names the generated bodies use for themselves; a field with one of these names gets a trailing _
RESERVED = {"buf", "pos", "end", "start", "items", "item", "append", "count", "out", "verify", "index", "parts", "mv", "type"}
#: the precomputed tables of encoded varints, by varint kind
VAR_TABLES = {"varint": "VARINT_BYTES", "uvarint": "UVARINT_BYTES"}


def local(name: str) -> str:
    """A safe local variable name for a field."""
    return f"{name}_" if name in RESERVED or keyword.iskeyword(name) else name


def const_name(name: str) -> str:
    return name.upper()
