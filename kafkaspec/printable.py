"""Text from the data made safe to print on a terminal, and JSON that is always JSON.

Keys, values, headers, topic and host names come from whoever wrote the log. Printed raw, an
escape sequence in them retitles or clears the terminal, a bidi override reorders what the reader
sees, and a newline forges a line of output. Every text output of the CLI goes through
:func:`escape` (bytes through :func:`escape_bytes`), every JSON line through :func:`json_text`.

The rule is Python's own ``str.isprintable`` (the one ``repr`` uses, so ``kafkaspec explain``, which
shows strings by ``repr``, escapes the same characters): a character that is not printable (C0
controls, DEL, C1 controls, format characters such as the bidi overrides, line and paragraph
separators, spaces other than ' ', surrogates, unassigned code points) is written as a backslash
escape. The escaping is unambiguous: a backslash is doubled, a character below U+0080 is ``\\xNN``
(``\\t``, ``\\n``, ``\\r`` for those three), any other character ``\\uNNNN`` or ``\\UNNNNNNNN``, and
only a byte that is not UTF-8 is ``\\xNN`` with NN from 80 to ff. Text that needs no escape (nearly
all of it) is returned as is after one C-speed check, so printing stays linear and cheap.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

_NAMED = {0x09: "\\t", 0x0A: "\\n", 0x0D: "\\r", 0x5C: "\\\\"}
#: the code points below this are cached in the table (bounded: at most this many entries)
_CACHED = 0x10000


def _escaped(cp: int) -> str:
    """What code point ``cp`` prints as."""
    if cp in _NAMED:
        return _NAMED[cp]
    c = chr(cp)
    if c.isprintable():
        return c
    if 0xDC80 <= cp <= 0xDCFF:  # a byte that is not UTF-8, as bytes.decode(errors="surrogateescape") keeps it
        return f"\\x{cp - 0xDC00:02x}"
    if cp < 0x80:
        return f"\\x{cp:02x}"
    return f"\\u{cp:04x}" if cp <= 0xFFFF else f"\\U{cp:08x}"


class _Table(dict[int, str]):
    """A ``str.translate`` table filled on first use of each code point (those below ``_CACHED``)."""

    def __missing__(self, cp: int) -> str:
        out = _escaped(cp)
        if cp < _CACHED:
            self[cp] = out
        return out


_TABLE = _Table()


def escape(text: str) -> str:
    """``text`` with every character that is not printable, and the backslash, escaped."""
    if text.isprintable() and "\\" not in text:
        return text
    return text.translate(_TABLE)


def escape_bytes(data: bytes | bytearray | memoryview) -> str:
    """Bytes as text: their UTF-8 characters escaped as :func:`escape` does, and each byte that is not
    part of UTF-8 as ``\\xNN`` (so ``b"\\xff"`` prints ``\\xff`` and U+0080 prints ``\\u0080``)."""
    return escape(bytes(data).decode("utf-8", "surrogateescape"))


def finite(value: Any) -> Any:
    """``value`` with every float that is NaN or infinite replaced by the string ``"NaN"``,
    ``"Infinity"`` or ``"-Infinity"`` (JSON has no such numbers; these are the names JavaScript and
    Java print), in nested dicts and lists too."""
    if isinstance(value, float):
        if math.isfinite(value):
            return value
        return "NaN" if value != value else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [finite(v) for v in value]
    return value


#: what may need a \u escape (a newline between the tokens of indented JSON is kept: strings never hold one)
_NOT_PRINTABLE_IN_JSON = re.compile(r"[^\x20-\x7e\n]")


def _json_escape(match: re.Match[str]) -> str:
    c = match.group()
    if c.isprintable():
        return c
    cp = ord(c)
    if cp > 0xFFFF:  # JSON writes a code point beyond the BMP as a UTF-16 surrogate pair
        cp -= 0x10000
        return f"\\u{0xD800 + (cp >> 10):04x}\\u{0xDC00 + (cp & 0x3FF):04x}"
    return f"\\u{cp:04x}"


_encode = json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode


def json_text(value: Any, *, indent: int | None = None) -> str:
    """``value`` as JSON that is valid and safe to print: non-finite floats as strings
    (:func:`finite`; ``allow_nan=False`` refuses any that reach the encoder another way), UTF-8
    text kept, and every character that is not printable written as ``\\uXXXX``, which JSON reads
    back as the same string."""
    encode = (
        _encode
        if indent is None
        else json.JSONEncoder(ensure_ascii=False, allow_nan=False, indent=indent).encode
    )
    try:
        text = encode(value)
    except ValueError:  # a NaN or infinity: the rare path, so the common one does not copy the value
        text = encode(finite(value))
    if text.isprintable():
        return text
    return _NOT_PRINTABLE_IN_JSON.sub(_json_escape, text)
