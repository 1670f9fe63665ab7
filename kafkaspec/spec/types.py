"""The field-type registry: everything the spec layer and the generator know about a wire type, in one place.

A schema names a field's type with a word (``int32``, ``uvarint``, ``bytes``, ``float64``...). Every
consumer of the spec needs a different fact about that word: the struct planner its struct code and
minimum size (to bound a hostile array count), the Construct planner its Construct name, the docs its
size ("4", "1-5", "variable"), the typed tuples their Python hint, the tracer its reader and value range,
the overhead tables how many bytes a value takes. Before this module each of them kept a table of its
own and the tables drifted (the docs said a uvarint is 1-10 bytes while the runtime reads at most 5).
Now each fact is written once, here, and the tables are derived from :data:`FIELD_TYPES`.

Kafka's varints are 32-bit (``varint``, ``uvarint``: at most 5 bytes, as ``ByteUtils.readUnsignedVarint``
reads them) or 64-bit (``varlong``: at most 10 bytes).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Width(Enum):
    """How a type's encoded size is known."""

    #: always the same number of bytes (a big-endian integer, a bool, a double, a uuid)
    FIXED = "fixed"
    #: a variable-length integer: 1 to ``max_size`` bytes, its value decides
    VAR = "var"
    #: a byte string: a length prefix (named by the field) and that many bytes
    PREFIXED = "prefixed"
    #: items of another type: a count prefix (named by the field) and the items
    ARRAY = "array"


class Family(Enum):
    """Which schema language may name a type: the record formats (schemas/*.yaml), Kafka's message
    spec (schemas/messages/), or both."""

    RECORD = "record"
    MESSAGE = "message"
    BOTH = "both"


@dataclass(frozen=True)
class FieldType:
    """One wire type and every fact the spec's consumers need of it."""

    name: str
    width: Width
    family: Family
    #: Python type hint of a value (the typed tuples' annotation)
    hint: str
    #: struct format character(s), without the byte order (FIXED only)
    struct_code: str = ""
    #: the fewest bytes it takes; for FIXED also the most
    min_size: int = 0
    #: the most bytes it takes (None: unbounded)
    max_size: int | None = None
    #: the Construct class the reference codecs use ("" for none)
    construct: str = ""
    #: integers: the value range (inclusive); a zigzag varint maps it onto the unsigned range
    low: int = 0
    high: int = 0
    zigzag: bool = False
    #: the tracer's struct format when it differs from ``struct_code`` (a bool is traced as its byte,
    #: so that a value other than 0 or 1 is shown as it is)
    trace_code: str = ""
    #: integers: it may prefix a byte string (its length) or an array (its count); a fixed-width prefix
    #: says null with -1
    prefix: bool = False

    @property
    def fixed(self) -> bool:
        return self.width is Width.FIXED

    @property
    def size(self) -> int:
        """The encoded size of a FIXED type; asking it of any other type is a planner's mistake."""
        if not self.fixed:
            raise ValueError(f"{self.name} has no fixed size ({self.width.value})")
        return self.min_size

    @property
    def bits(self) -> int:
        """Integers: the width of the value in bits (32 for varint and uvarint, 64 for varlong)."""
        return (self.high - self.low).bit_length()

    @property
    def doc_size(self) -> str:
        """The size column of the reference docs: ``4``, ``1-5`` or ``variable``."""
        if self.fixed:
            return str(self.min_size)
        if self.max_size is None:
            return "variable"
        return f"{self.min_size}-{self.max_size}"

    @property
    def tracer(self) -> tuple[str, int] | tuple[int, int, int]:
        """What ``kafkaspec explain``'s tracer reads it with: a FIXED type's struct format and size;
        a varint's most bytes and value range."""
        if self.fixed:
            return (">" + (self.trace_code or self.struct_code), self.min_size)
        if self.width is Width.VAR:
            assert self.max_size is not None
            return (self.max_size, self.low, self.high)
        raise ValueError(f"the tracer reads {self.name} by its prefix, not as a value")


def _int(
    name: str, code: str, size: int, signed: bool, family: Family = Family.RECORD, prefix: bool = False
) -> FieldType:
    bits = size * 8
    low, high = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    construct = f"Int{bits}{'s' if signed else 'u'}b"
    return FieldType(name, Width.FIXED, family, "int", code, size, size, construct, low, high, prefix=prefix)


def _var(name: str, bits: int, zigzag: bool, prefix: bool = False) -> FieldType:
    low, high = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if zigzag else (0, (1 << bits) - 1)
    most = -(-bits // 7)  # 7 value bits per byte: 32 bits -> 5 bytes, 64 bits -> 10 bytes
    return FieldType(
        name,
        Width.VAR,
        Family.RECORD,
        "int",
        "",
        1,
        most,
        "ZigZag" if zigzag else "VarInt",
        low,
        high,
        zigzag,
        prefix=prefix,
    )


#: every wire type a schema may name, by its schema word (in the order Kafka's message spec lists them,
#: which the loader's "expected one of" messages keep)
FIELD_TYPES: dict[str, FieldType] = {
    t.name: t
    for t in (
        FieldType("bool", Width.FIXED, Family.MESSAGE, "bool", "?", 1, 1, "", 0, 1, trace_code="B"),
        _int("int8", "b", 1, True, Family.BOTH),
        _int("int16", "h", 2, True, Family.BOTH, prefix=True),
        _int("uint16", "H", 2, False, Family.BOTH),
        _int("int32", "i", 4, True, Family.BOTH, prefix=True),
        _int("int64", "q", 8, True, Family.BOTH),
        _int("uint8", "B", 1, False),
        _int("uint32", "I", 4, False),
        _var("varint", 32, True, prefix=True),
        _var("varlong", 64, True),
        _var("uvarint", 32, False, prefix=True),
        FieldType("float64", Width.FIXED, Family.MESSAGE, "float", "d", 8, 8, "Float64b"),
        FieldType("uuid", Width.FIXED, Family.MESSAGE, "UUID", "16s", 16, 16),
        FieldType("bytes", Width.PREFIXED, Family.BOTH, "bytes"),
        FieldType("string", Width.PREFIXED, Family.BOTH, "str"),
        FieldType("array", Width.ARRAY, Family.RECORD, "Sequence"),
    )
}


#: the types that may give a byte string's length or an array's count (``length: int32``, ``count:
#: uvarint``), in registry order: the one list the loader, the planners and the templates ask
PREFIX_TYPES = tuple(n for n, t in FIELD_TYPES.items() if t.prefix)
#: the prefixes that can say null (-1): a nullable array's count
NULLABLE_PREFIX_TYPES = tuple(n for n in PREFIX_TYPES if FIELD_TYPES[n].fixed)


def types_of(width: Width, family: Family) -> dict[str, FieldType]:
    """The types of one width a schema language may name, in registry order."""
    return {n: t for n, t in FIELD_TYPES.items() if t.width is width and t.family in (family, Family.BOTH)}


def min_size(name: str | None) -> int:
    """The fewest bytes a field (or a length/count prefix) of this type takes; 0 for none or a
    field-named prefix (a length given by another field takes no bytes of its own)."""
    t = FIELD_TYPES.get(name or "")
    return t.min_size if t is not None and t.width in (Width.FIXED, Width.VAR) else 0
