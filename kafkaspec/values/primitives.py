"""Kafka's own serializers, read back: ``StringSerializer`` (UTF-8), ``IntegerSerializer`` and
``LongSerializer`` (big-endian two's complement, 4 and 8 bytes), ``DoubleSerializer`` (IEEE 754
big-endian), ``UUIDSerializer`` (the UUID's text, ``8-4-4-4-12`` hex, in UTF-8), plain JSON text, and
raw bytes. Each raises :class:`ValueError` with the reason when the bytes are not what it writes.
"""

from __future__ import annotations

import base64
import json
import struct
import uuid
from collections.abc import Callable
from typing import Any

__all__ = ["MAX_NESTING", "PRIMITIVES", "nesting"]


def _string(b: bytes) -> str:
    try:
        return b.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"not UTF-8: {exc.reason} at byte {exc.start}") from None


def _fixed(size: int, fmt: str, name: str) -> Callable[[bytes], Any]:
    s = struct.Struct(fmt)

    def read(b: bytes) -> Any:
        if len(b) != size:
            raise ValueError(f"{len(b)} bytes, not the {size} of a {name}")
        return s.unpack(b)[0]

    return read


def _uuid(b: bytes) -> str:
    text = _string(b)
    try:
        u = uuid.UUID(text)
    except ValueError:
        raise ValueError(f"{text[:40]!r} is not a UUID's text") from None
    if len(text) != 36 or str(u) != text.lower():
        raise ValueError(f"{text[:40]!r} is not a UUID as Kafka's UUIDSerializer writes it (8-4-4-4-12 hex)")
    return str(u)


#: the deepest nesting of a decoded value (JSON, or Avro of a recursive type): deeper ones are errors of their
#: records, so that every decoded value can be written as JSON again (Python's encoder stops near 1,000)
MAX_NESTING = 500


def _no_constant(name: str) -> Any:
    raise ValueError(f"not JSON: {name} is not a JSON number")


def _finite(text: str) -> float:
    got = float(text)
    if got in (float("inf"), float("-inf")):  # it would be written back as Infinity, which is not JSON
        raise ValueError(f"not JSON here: {text[:40]} is beyond a double's range")
    return got


def _json(b: bytes) -> Any:
    try:
        value = json.loads(_string(b), parse_constant=_no_constant, parse_float=_finite)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not JSON: {exc.msg} at character {exc.pos}") from None
    except RecursionError:  # Python's reader stops near 1,000 levels
        raise ValueError(f"not JSON here: nested more than {MAX_NESTING} levels deep") from None
    if nesting(value) > MAX_NESTING:
        raise ValueError(f"not JSON here: nested more than {MAX_NESTING} levels deep")
    return value


def nesting(value: Any) -> int:
    """How many levels of dicts and lists ``value`` nests (walked without recursion)."""
    deepest = 0
    todo = [(value, 1)]
    while todo:
        v, depth = todo.pop()
        if isinstance(v, dict):
            v = list(v.values())
        if isinstance(v, list):
            deepest = max(deepest, depth)
            todo.extend((x, depth + 1) for x in v if isinstance(x, dict | list))
    return deepest


#: format name -> reader of the whole value
PRIMITIVES: dict[str, Callable[[bytes], Any]] = {
    "string": _string,
    "int": _fixed(4, ">i", "int (IntegerSerializer)"),
    "long": _fixed(8, ">q", "long (LongSerializer)"),
    "double": _fixed(8, ">d", "double (DoubleSerializer)"),
    "uuid": _uuid,
    "json": _json,
    "bytes": bytes,
}


def json_text(value: Any) -> str:
    """A decoded value as compact JSON text: bytes as base64; decimals, datetimes and UUIDs as strings."""
    return json.dumps(value, default=_default, separators=(",", ":"), ensure_ascii=False)


def _default(o: Any) -> Any:
    if isinstance(o, bytes | bytearray | memoryview):
        return base64.b64encode(bytes(o)).decode()
    return str(o)
