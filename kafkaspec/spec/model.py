"""The spec model: what a loaded, validated schema says, as typed values.

Plain data, no I/O and no YAML: :mod:`kafkaspec.spec.loader` builds it from
the files, and the generator (``kafkaspec.codegen``) and the review tooling
(:mod:`kafkaspec.review`) read it.

The references a field makes to other fields are named tuples
(:class:`RelativeTo`, :class:`Checksum`, :class:`CompressedBy`,
:class:`LengthOf`, :class:`PresentIf`, :class:`Discriminator`): read them by
name (``f.checksum.algorithm``); they stay tuples, so unpacking works too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from .naming import snake
from .types import Family, Width, types_of

if TYPE_CHECKING:
    from .message_model import Message

#: Fixed-width big-endian integers: struct format character and size in bytes (from the registry).
FIXED_TYPES: dict[str, tuple[str, int]] = {
    n: (t.struct_code, t.size) for n, t in types_of(Width.FIXED, Family.RECORD).items()
}
#: Variable-length integers: zigzag varint (32-bit), zigzag varlong (64-bit), unsigned varint.
VAR_TYPES = tuple(types_of(Width.VAR, Family.RECORD))
#: The other field types; any CamelCase type names a nested structure.
OTHER_TYPES = ("bytes", "string", "array")
CHECKSUM_ALGORITHMS = ("crc32", "crc32c")

#: Field, bit field and enum value names.
SNAKE = re.compile(r"^[a-z][a-z0-9_]*$")
#: Structure and enum names (and nested structure types).
CAMEL = re.compile(r"^[A-Z][A-Za-z0-9]*$")


class LengthOf(NamedTuple):
    """``length_of: {from: start, to: end}``: the field holds the byte length of ``start``..``end``."""

    #: the first field counted (always the next field)
    start: str
    #: always ``"end"``: the range runs to the end of the structure
    end: str


class Checksum(NamedTuple):
    """``checksum: {algorithm, from: start, to: end}``: a CRC over a range of fields."""

    #: ``"crc32"`` (IEEE) or ``"crc32c"`` (Castagnoli)
    algorithm: str
    #: the first field covered
    start: str
    #: ``"end"`` (to the end of the structure, a later range) or the last earlier field covered
    #: (a trailing checksum over earlier fields; proposals only)
    end: str


class CompressedBy(NamedTuple):
    """``compressed_by: field.bit``: the codec of a compressed region comes from a bit field."""

    #: the earlier integer field holding the bit field
    field: str
    #: the bit field (an enum of codecs) inside it
    bit: str


class RelativeTo(NamedTuple):
    """``relative_to: {base, as, default}``: a delta on the wire, exposed as an absolute value."""

    #: the base the delta is relative to (a name in the enclosing array's ``relative_bases``)
    base: str
    #: the name users see for the absolute value
    as_name: str
    #: what the delta defaults to when building: ``"index"`` (the record's position),
    #: ``"base"`` (zero) or None (no default)
    default: str | None


class PresentIf(NamedTuple):
    """One term of ``present_if: field.bit == value [and ...]`` (proposals only)."""

    #: the earlier field holding the bit
    field: str
    #: the bit field
    bit: str
    #: the value the bit must have for the field to be on the wire
    value: int


class Discriminator(NamedTuple):
    """``discriminator: {field, offset}``: the field a dispatch reads to choose this structure."""

    #: the integer field
    field: str
    #: its byte offset from the start of the structure
    offset: int


@dataclass(frozen=True, slots=True)
class EnumValue:
    """One named value of an enum."""

    name: str
    value: int
    doc: str
    since: str | None
    #: keys the loader did not know (reported by the lint, e.g. an unquoted "doc: a, b")
    unknown_keys: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Enum:
    """A named set of integer values (``enums.yaml``)."""

    name: str
    doc: str
    since: str | None
    values: tuple[EnumValue, ...]
    #: values deliberately left unnamed inside the enum's range (the lint's completeness rule)
    reserved: tuple[int, ...] = ()
    #: the file that defines the enum (for lint messages)
    path: Path | None = None


@dataclass(frozen=True, slots=True)
class Bit:
    """A bit field inside an integer field: bits lo..hi inclusive."""

    name: str
    lo: int
    hi: int
    enum: str | None
    doc: str
    since: str | None

    @property
    def mask(self) -> int:
        """The bits of the field, in place (``0b111`` for bits 0-2)."""
        return ((1 << (self.hi - self.lo + 1)) - 1) << self.lo


@dataclass(slots=True)
class Field:
    """One field of a structure, in wire order."""

    name: str
    #: a :data:`FIXED_TYPES` or :data:`VAR_TYPES` name, ``bytes``, ``string``, ``array``, or a structure name
    type: str
    doc: str
    since: str | None = None
    default: Any = None
    has_default: bool = False
    const: int | None = None
    enum: str | None = None
    bits: tuple[Bit, ...] = ()
    length_of: LengthOf | None = None
    #: the array whose element count this field holds
    count_of: str | None = None
    checksum: Checksum | None = None
    #: bytes/string: a prefix type, the name of an earlier field, or ``"rest"``
    length: str | None = None
    nullable: bool = False
    #: array: the element structure
    items: str | None = None
    #: array: a count prefix type or the name of an earlier field
    count: str | None = None
    #: array: byte size, the name of an earlier field or ``"rest"`` (proposals only)
    size: str | None = None
    compressed_by: CompressedBy | None = None
    relative_to: RelativeTo | None = None
    #: array: base name -> the field of this structure that holds it (for the items' relative fields)
    relative_bases: dict[str, str] = field(default_factory=dict)
    #: on the wire only when every term holds (proposals only)
    present_if: tuple[PresentIf, ...] = ()

    @property
    def fixed(self) -> bool:
        """A fixed-width integer."""
        return self.type in FIXED_TYPES

    @property
    def item_type(self) -> str:
        """The item structure of an array field (the loader requires one)."""
        if self.items is None:
            raise ValueError(f"{self.name} is not an array field")
        return self.items

    @property
    def prefix(self) -> str:
        """What gives a byte string's length or an array's count: a prefix type (``int32``, ``uvarint``),
        ``rest``, or the name of the field holding it; "" for none."""
        return (self.length if self.type in ("bytes", "string") else self.count or self.size) or ""

    @property
    def computed(self) -> bool:
        """A length, checksum or count that the builder computes."""
        return self.length_of is not None or self.checksum is not None or self.count_of is not None

    @property
    def exposed_name(self) -> str:
        """The name users see: relative fields are exposed as absolute values."""
        return self.relative_to.as_name if self.relative_to else self.name


@dataclass(slots=True)
class Struct:
    """One version of a structure: one schema file."""

    name: str
    version: int
    since: str
    doc: str
    fields: list[Field]
    path: Path
    #: ``current``, ``legacy`` or ``proposal`` (never generated)
    status: str = "current"
    discriminator: Discriminator | None = None

    @property
    def module(self) -> str:
        """The generated module's name: ``record_batch_v2``."""
        return f"{snake(self.name)}_v{self.version}"

    @property
    def ref(self) -> str:
        """``Name@version``."""
        return f"{self.name}@{self.version}"

    def field(self, name: str) -> Field:
        """The field called ``name`` (KeyError if none)."""
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(name)

    def index(self, name: str) -> int:
        """The position of the field called ``name`` (ValueError if none)."""
        return [f.name for f in self.fields].index(name)

    def fixed_offsets(self) -> dict[str, int]:
        """Byte offsets of the fields at a fixed position: every field before them is fixed-width and always
        present. The first other field is included (it starts at a fixed byte); the fields after it are not."""
        return self._fixed_walk()[0]

    @property
    def fixed_prefix(self) -> int:
        """Bytes of the leading run of fixed-width, always-present fields."""
        return self._fixed_walk()[1]

    def _fixed_walk(self) -> tuple[dict[str, int], int]:
        """The fixed offsets, and where the leading run of fixed-width, always-present fields ends."""
        out: dict[str, int] = {}
        at = 0
        for f in self.fields:
            out[f.name] = at
            if not f.fixed or f.present_if:
                break
            at += FIXED_TYPES[f.type][1]
        return out, at


@dataclass(slots=True)
class Dispatch:
    """Choose a structure by a discriminator found at a fixed byte offset."""

    name: str
    since: str
    doc: str
    offset: int
    type: str
    #: discriminator value -> structure reference (``Name@version``)
    cases: dict[int, str]
    path: Path
    version: int = 0
    status: str = "current"

    @property
    def module(self) -> str:
        """The generated module's name."""
        return snake(self.name)


@dataclass(slots=True)
class SchemaSet:
    """Every structure, enum and dispatch of a schema folder, cross-checked."""

    structs: dict[str, Struct]  # by "Name@version"
    enums: dict[str, Enum]
    dispatches: list[Dispatch]
    #: the message-spec payloads (``kind: message``, :mod:`.message_model`), by name
    messages: dict[str, Message] = field(default_factory=dict)

    def resolve(self, ref: str) -> Struct:
        """Resolve 'Name' (only one version exists) or 'Name@version'."""
        if ref in self.structs:
            return self.structs[ref]
        matches = [s for s in self.structs.values() if s.name == ref]
        if len(matches) != 1:
            raise KeyError(ref)
        return matches[0]
