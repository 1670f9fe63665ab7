"""The message-spec model: Kafka's own payloads (control record values, KRaft metadata records,
group-coordinator and transaction-log keys and values) as typed values.

These payloads use Kafka's message-spec encoding, not the record formats the rest of the spec
describes: one schema file covers every version of a message (as Kafka's JSON does), each field
says the versions it exists in, and "flexible" versions use compact (unsigned-varint, length + 1)
strings, bytes and arrays and end every structure with tagged fields. :mod:`.message_loader`
builds this model from ``schemas/messages/*.yaml``; the generator and the review tooling read it.
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .naming import snake
from .types import Family, Width, types_of

#: The primitive field types of the message-spec encoding: struct format and size (fixed ones).
MESSAGE_FIXED: dict[str, tuple[str, int]] = {
    n: (t.struct_code, t.size) for n, t in types_of(Width.FIXED, Family.MESSAGE).items()
}
#: Variable-size primitives (a length prefix: int16/int32, or a compact unsigned varint).
MESSAGE_VARIABLE = ("string", "bytes")
#: Every type an array may hold besides a structure.
MESSAGE_PRIMITIVES = (*MESSAGE_FIXED, *MESSAGE_VARIABLE)
#: Types that may be null in their ``nullable_versions``.
NULLABLE_TYPES = ("string", "bytes", "array", "struct")
#: The families of payloads, and what each message's ``type_ids`` are there.
FAMILIES = {
    "control": "the control record type (key) whose value this message is",
    "metadata": "the api key of the KRaft metadata record",
    "remote_log": "the api key of the __remote_log_metadata record",
    "group": "the key versions (record types) of __consumer_offsets that select this key",
    "transaction": "the key versions of __transaction_state that select this key",
    "share": "the key versions (record types) of __share_group_state that select this key",
    "consumer_protocol": "which bytes of a classic consumer group's member (GroupMetadataValue, protocol type "
    "consumer) hold it: 0 the subscription, 1 the assignment (our numbering; Kafka has none)",
}
#: The families whose records are a key and a value, each starting with an int16 (the key's names
#: the record type): a key message names its value message, which is selected through it.
KEYED_FAMILIES = ("group", "transaction", "share")

#: what ``kafka_status`` may say of a message
KAFKA_STATUSES = {
    "current": "Kafka's newest release writes it",
    "removed": "an older release wrote it; Kafka removed it since (kept to read old logs)",
    "unreleased": "written only by development builds of Kafka, never by a release",
}

_VERSIONS = re.compile(r"^(\d+)(?:(\+)|-(\d+))?$")


@dataclass(frozen=True, slots=True)
class Versions:
    """A version range: ``"0+"`` (lo=0, hi=None), ``"1-3"``, ``"2"``."""

    lo: int
    hi: int | None

    def __contains__(self, version: object) -> bool:
        return isinstance(version, int) and self.lo <= version and (self.hi is None or version <= self.hi)

    def within(self, other: Versions) -> bool:
        """Every version of this range is in ``other``."""
        if self.lo < other.lo:
            return False
        return other.hi is None or (self.hi is not None and self.hi <= other.hi)

    def __str__(self) -> str:
        if self.hi is None:
            return f"{self.lo}+"
        return str(self.lo) if self.lo == self.hi else f"{self.lo}-{self.hi}"


def parse_versions(text: object) -> Versions | None:
    """``"0+"``, ``"1-3"``, ``"2"`` (or an int) -> :class:`Versions`; ``"none"`` -> None; else ValueError."""
    if text == "none":
        return None
    m = _VERSIONS.match(str(text)) if isinstance(text, int | str) and not isinstance(text, bool) else None
    if not m:
        raise ValueError(f"versions must look like '0+', '1-3', '2' or 'none', got {text!r}")
    lo = int(m[1])
    hi = None if m[2] else int(m[3]) if m[3] else lo
    if hi is not None and hi < lo:
        raise ValueError(f"version range {text!r} is empty")
    return Versions(lo, hi)


@dataclass(frozen=True, slots=True)
class MessageField:
    """One field of a message or of a structure nested in it."""

    name: str
    #: a primitive (:data:`MESSAGE_PRIMITIVES`), ``array``, or the name of a structure of the message
    type: str
    doc: str
    versions: Versions
    #: an array's item type: a primitive or a structure name
    items: str | None = None
    nullable_versions: Versions | None = None
    tagged_versions: Versions | None = None
    tag: int | None = None
    #: the value a field takes in versions it is absent from, and that a tagged field omits
    default: Any = None
    #: the schema gives ``default:`` (else Kafka's default for the type applies)
    has_default: bool = False

    @property
    def struct(self) -> str | None:
        """The structure this field holds (itself, or as array items), if any."""
        for t in (self.type, self.items):
            if t and t[0].isupper():
                return t
        return None

    def nullable_in(self, version: int) -> bool:
        return self.nullable_versions is not None and version in self.nullable_versions

    def tagged_in(self, version: int) -> bool:
        return self.tagged_versions is not None and version in self.tagged_versions


@dataclass(frozen=True, slots=True)
class MessageStruct:
    """A structure: the message itself or one nested in it (array items, a struct-typed field)."""

    name: str
    doc: str
    fields: tuple[MessageField, ...]

    def fields_in(self, version: int) -> list[MessageField]:
        """The fields on the wire in ``version``, untagged ones in order, then the tagged ones by tag."""
        present = [f for f in self.fields if version in f.versions]
        return [f for f in present if not f.tagged_in(version)] + sorted(
            (f for f in present if f.tagged_in(version)), key=lambda f: f.tag or 0
        )


@dataclass(frozen=True, slots=True)
class Message:
    """One message of Kafka's message-spec encoding with every version it has (one schema file)."""

    name: str
    doc: str
    family: str
    #: control type / metadata api key / key versions that select this key (see :data:`FAMILIES`)
    type_ids: tuple[int, ...]
    valid_versions: Versions
    flexible_versions: Versions | None
    #: the message itself, and every structure nested in it, by name
    structs: dict[str, MessageStruct]
    path: Path
    #: for a key message: the value message stored under it
    value: str | None = None
    #: whether Kafka still writes it: one of :data:`KAFKA_STATUSES`
    kafka_status: str = "current"
    #: the Kafka releases that write this message (or this layout), as text ("4.0", "4.1+")
    kafka_releases: str | None = None
    #: for an earlier layout: the message whose same versions Kafka once wrote this way (the
    #: early-access share records of Kafka 4.0); read where the newest layout does not fit
    layout_of: str | None = None

    @property
    def module(self) -> str:
        """The generated module's name (``generated/messages/<module>.py``)."""
        return snake(self.name)

    @property
    def root(self) -> MessageStruct:
        return self.structs[self.name]

    @property
    def versions(self) -> list[int]:
        hi = self.valid_versions.hi
        assert hi is not None, "the loader requires a closed valid_versions range"
        return list(range(self.valid_versions.lo, hi + 1))

    def flexible(self, version: int) -> bool:
        return self.flexible_versions is not None and version in self.flexible_versions


#: the zero uuid, Kafka's default for uuid fields
ZERO_UUID = uuid.UUID(int=0)


def type_default(f: MessageField) -> Any:
    """Kafka's default for a field with no ``default:``: 0, False, "", b"", [], the zero uuid, or a
    structure of defaults (None here: the generated classes build it)."""
    t = f.type
    if t == "array":
        return []
    return {"bool": False, "string": "", "bytes": b"", "uuid": ZERO_UUID, "float64": 0.0}.get(
        t, 0 if t in MESSAGE_FIXED else None
    )
