"""Items of one shape encoded with C-level calls: support for the generated array encoders.

The encode side of :mod:`kafkaspec.codec.shapes`. When every item given (as columns) has one layout but
for the widths of its varints (the same byte-string lengths, no nulls where a length is needed,
the same array counts, the same strings), each encoded item is constant pieces (the varint length
prefixes, the strings, one-byte ints that are equal in every item) between variable ones (the
byte strings' contents, the varints). Where every varint takes one byte, every item has one length
(the constant part plus one per varint) and the array is one join of one join per item over the
columns zipped side by side (constant pieces repeated, adjacent ones merged); where varint widths
vary, each item's pieces are joined first and its length measured. Either way no join per array
element (header) and no Python code per item.

:func:`encode_shaped` reads the layout spec of :mod:`kafkaspec.codec.shapes`; when encoding, a ``("var",
base, none)`` entry also says what None means (``"index"``: the item's index, ``"base"``: the base
itself, i.e. a delta of 0). It returns None for anything outside one shape (a length that differs,
a null, a varint beyond two bytes, a value of a type the general loop would refuse or treat
otherwise): the caller's column path or general loop encodes it then, or says what is wrong.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import chain, repeat
from operator import add, sub
from typing import Any

from .varint import INDEX_VARINTS, VARINT_BYTES

_varint = VARINT_BYTES.__getitem__
_join = b"".join
#: from this many bytes an item on, the items are returned as their pieces, joined once by what encloses
#: them (each join of large items would copy their bytes once more; large copies cost page faults here)
_LARGE = 2048


class _Layout:
    """What :func:`_fields` collects: the parts (one piece per item each, constants merged), the
    constant size and the varint columns whose widths vary."""

    __slots__ = ("const", "parts", "size", "widths")

    def __init__(self) -> None:
        self.const: list[bytes] = []  # constant pieces not yet in parts
        self.parts: list[Any] = []
        self.size = 0  # bytes every item has (after its length)
        self.widths: list[Any] = []  # varint columns: their widths add to the item's size

    def variable(self, pieces: Any) -> None:
        if self.const:
            self.parts.append(repeat(b"".join(self.const)))
            self.const = []
        self.parts.append(pieces)


def _fields(
    spec: Sequence[tuple],
    cols: Sequence[Any],
    defaults: Iterable[Any],
    n: int,
    bases: Sequence[int],
    out: _Layout,
) -> bool:
    """Add the fields of ``spec`` (no length entry) over ``cols`` to ``out``; False when the items
    do not share one shape."""
    for step, col, default in zip(spec, cols, defaults, strict=True):
        kind = step[0]
        if kind == "int8":
            if col is None:
                if type(default) is not int:
                    return False
                one = (default & 0xFF).to_bytes()
            else:
                packed = bytes(col)  # ints 0..255 only (a negative, a float: not here)
                one = packed[:1]
                if packed.count(one) != n:
                    return False
            out.const.append(one)
            out.size += 1
        elif kind == "var":
            none = step[2] if len(step) > 2 else None
            if col is None or (col[0] is None and col.count(None) == n):
                if none == "base":
                    out.const.append(b"\x00")
                    out.size += 1
                    continue
                if none != "index" or n > len(INDEX_VARINTS):
                    return False
                pieces: Sequence[bytes] = INDEX_VARINTS[:n]
            else:  # a None among ints fails in sub; beyond two bytes fails in the table
                base = bases[step[1]] if step[1] >= 0 else 0
                pieces = list(map(_varint, map(sub, col, repeat(base))))
            out.variable(pieces)
            out.widths.append(pieces)
        elif kind == "bytes":
            if col is None or (col[0] is None and col.count(None) == n):  # every item null
                if not step[1] or (col is None and default is not None):
                    return False
                out.const.append(b"\x01")
                out.size += 1
            elif step[2]:  # a string: the same one in every item
                first = col[0]
                if type(first) is not str or col.count(first) != n:
                    return False
                encoded = first.encode()
                out.const += (_varint(len(encoded)), encoded)
                out.size += len(encoded) + len(_varint(len(encoded)))
            else:
                lens = list(map(len, col))  # len(None) fails
                length = lens[0]
                if lens.count(length) != n:
                    return False
                prefix = _varint(length)
                out.const.append(prefix)
                out.size += len(prefix) + length
                out.variable(col)
        elif kind == "array":
            if col is None:
                if default:
                    return False
                out.const.append(b"\x00")
                out.size += 1
                continue
            counts = list(map(len, col))
            count = counts[0]
            if counts.count(count) != n:
                return False
            prefix = _varint(count)
            out.const.append(prefix)
            out.size += len(prefix)
            inner = step[2]
            width = len(inner)
            for slot in zip(*col):  # element j of every item
                fields = tuple(zip(*slot, strict=True))
                if len(fields) != width:
                    return False
                if not _fields(inner, fields, repeat(None, width), n, (), out):
                    return False
        else:
            return False
    return True


def encode_shaped(
    spec: Sequence[tuple], cols: Sequence[Any], defaults: Sequence[Any], n: int, bases: Sequence[int]
) -> list[bytes] | None:
    """The ``n`` items of ``cols`` (one column per exposed field, None: every item holds the field's
    entry of ``defaults``) encoded back to back as laid out by ``spec`` (which starts with the
    item's own length), as parts to join (one, or every piece of items of ``_LARGE`` bytes and
    more), or None when they do not share one shape."""
    if not n or spec[0] != ("length",):
        return None
    out = _Layout()
    try:
        if not _fields(spec[1:], cols, defaults, n, bases, out):
            return None
        if out.const:
            out.parts.append(repeat(b"".join(out.const)))
        size = out.size
        if size >= _LARGE:  # large items: one join of every piece, so their bytes are copied once
            lengths: Any = repeat(size, n)
            for pieces in out.widths:
                lengths = map(add, lengths, map(len, pieces))
            return list(chain.from_iterable(zip(map(_varint, lengths), *out.parts)))
        for pieces in out.widths:  # varints one byte each (the common case) keep the size constant
            if len(b"".join(pieces)) != len(pieces):  # widths vary: each item's length is measured
                bodies = list(map(_join, zip(*out.parts)))
                return [_join(chain.from_iterable(zip(map(_varint, map(len, bodies)), bodies)))]
            size += 1
        return [_join(map(_join, zip(repeat(_varint(size)), *out.parts)))]
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError):
        return None
