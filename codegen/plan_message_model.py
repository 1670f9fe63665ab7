"""The typed plan of a message-spec message: what :mod:`codegen.plan_message` decides and the templates
(``message.py.j2`` with ``message_reader.j2``, ``message_writer.j2``, ``message_construct.j2``) write
out, and what :mod:`codegen.plan_message_trace` decides for its tracing decoder (``trace_message.py.j2``
with ``message_trace.j2``). Every step is a record whose ``kind`` names the macro that writes it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from kafkaspec.spec.message_model import Message


@dataclass
class ClassPlan:
    name: str
    doc: str
    #: (name, annotation, default expression, doc)
    fields: list[tuple[str, str, str, str]]


@dataclass
class MessagePlan:
    message: Message
    snake: str
    classes: list[ClassPlan]
    #: name -> struct format of the precompiled fixed runs
    runs: dict[str, str] = field(default_factory=dict)
    #: every reader and writer, in order (plans: message_reader.j2 and message_writer.j2 write them)
    functions: list[ReaderPlan | WriterPlan] = field(default_factory=list)
    versions: list[int] = field(default_factory=list)
    flexible: list[int] = field(default_factory=list)
    #: version -> name suffix of its top-level reader and writer (versions laid out alike share one)
    shared: dict[int, str] = field(default_factory=dict)
    #: the reference codec: one Construct definition per (structure, version), in dependency order
    constructs: list[ConstructPlan] = field(default_factory=list)


@dataclass(frozen=True)
class ReadValue:
    """One value read into ``target`` (``message_reader.j2``'s ``read_value``), by its ``kind``: a helper
    of :mod:`kafkaspec.codec.message_types` (``string``, ``bytes``, ``bool``, ``uuid``), a precompiled
    struct (``fixed``: ``run``, ``size``), a nested structure's reader (``struct``: ``reader``), or that
    reader after a presence mark (``nullable_struct``: ``null`` byte, ``mark`` said in a comment)."""

    kind: str
    target: str
    end: str
    where: str
    compact: bool = False
    nullable: bool = False
    run: str = ""
    size: int = 0
    reader: str = ""
    null: str = ""
    mark: str = ""


@dataclass(frozen=True)
class ReadField:
    """One field outside a fixed run: a ``value``, or (``value`` None) an array: its count, then its
    ``items``: ``uuid``, ``fixed`` (one ``unpack_from`` of ``fmt``, ``size`` bytes each) or ``values``
    (``item`` read once per element)."""

    target: str
    value: ReadValue | None = None
    end: str = ""
    where: str = ""
    compact: bool = False
    nullable: bool = False
    min_size: int = 1
    items: str = ""
    fmt: str = ""
    size: int = 0
    item: ReadValue | None = None
    kind: str = "field"


@dataclass(frozen=True)
class ReadRun:
    """Consecutive fixed-width fields read by one precompiled struct (``run``); uuids then made UUIDs."""

    names: tuple[str, ...]
    run: str
    size: int
    where: str
    uuids: tuple[str, ...]
    kind: str = "run"


@dataclass(frozen=True)
class ReaderPlan:
    """One structure's reader for a group of versions (``message_reader.j2``'s ``reader``): its steps
    in wire order, then (flexible versions) its tagged fields, then the value it returns."""

    name: str
    struct: str
    what: str
    steps: tuple[ReadRun | ReadField, ...]
    flexible: bool
    #: the tagged fields: their defaults (local, expression) and their reads by tag
    tagged_defaults: tuple[tuple[str, str], ...]
    tagged: tuple[tuple[int, ReadField], ...]
    tags_where: str
    args: tuple[str, ...]
    kind: str = "reader"


@dataclass(frozen=True)
class WriteValue:
    """One value appended to ``out`` from ``expr`` (``message_writer.j2``'s ``write_value``), by its
    ``kind``: a helper of :mod:`kafkaspec.codec.message_types` (``string``, ``bytes``), a byte
    (``bool``), its bytes (``uuid``), a precompiled struct (``fixed``: ``run``), a nested structure's
    writer (``struct``: ``writer``), or that writer after a presence mark (``nullable_struct``: ``null``,
    the source of the null mark)."""

    kind: str
    expr: str
    where: str
    compact: bool = False
    nullable: bool = False
    run: str = ""
    writer: str = ""
    null: str = ""


@dataclass(frozen=True)
class WriteField:
    """One field outside a fixed run: a ``value``, or (``value`` None) an array: its count, then its
    ``items``: ``uuid``, ``fixed`` (one ``pack`` of ``fmt``) or ``values`` (``item`` per element)."""

    expr: str
    value: WriteValue | None = None
    where: str = ""
    compact: bool = False
    nullable: bool = False
    items: str = ""
    fmt: str = ""
    item: WriteValue | None = None
    kind: str = "field"


@dataclass(frozen=True)
class WriteRun:
    """Consecutive fixed-width fields packed by one precompiled struct (``run``)."""

    run: str
    values: tuple[str, ...]
    kind: str = "run"


@dataclass(frozen=True)
class WriterPlan:
    """One structure's writer for a group of versions (``message_writer.j2``'s ``writer``): the fields
    the versions lack must hold their defaults (``absent``: value, default, where), then its steps in
    wire order, then (flexible versions) its tagged fields: (test for a value worth writing, tag, field)."""

    name: str
    struct: str
    what: str
    absent: tuple[tuple[str, str, str], ...]
    steps: tuple[WriteRun | WriteField, ...]
    flexible: bool
    tagged: tuple[tuple[str, int, WriteField], ...]
    kind: str = "writer"


@dataclass(frozen=True)
class ConstructType:
    """The Construct definition of one value of the reference codec (``message_construct.j2``), by its
    ``kind``: a Construct class (``int``: ``name``), ``bool``, ``uuid``, a length-prefixed string or byte
    string (``sized``), a nested structure's definition (``struct``: ``name``; ``nullable_struct``
    after its presence mark), or an ``array`` of ``item``."""

    kind: str
    name: str = ""
    string: bool = False
    compact: bool = False
    nullable: bool = False
    tagged: bool = False
    item: ConstructType | None = None


@dataclass(frozen=True)
class ConstructPlan:
    """One structure's Construct definition for one version: its untagged ``fields`` (name, type) in
    wire order, its tagged fields (tag, name, type, default) and the defaults of the fields it lacks."""

    name: str
    struct: str
    fields: tuple[tuple[str, ConstructType], ...]
    flexible: bool
    tagged: tuple[tuple[int, str, ConstructType, str], ...]
    absent: tuple[tuple[str, str], ...]


class TraceKind(StrEnum):
    """Which call on the explain tracer traces one value of a message (``message_trace.j2``'s
    ``tracers`` table has a macro for each; a StrEnum: the templates look it up by its value)."""

    #: ``t.integer``: a fixed-width number or a bool
    INTEGER = "integer"
    #: ``t.blob``: a string or byte string after its length prefix, or a uuid (16 bytes)
    BLOB = "blob"
    #: ``t.nested``: a structure, by its tracing function
    NESTED = "nested"
    #: ``t.nullable``: a structure after its presence mark
    NULLABLE = "nullable"
    #: ``t.array``: a count, then one value per item
    ARRAY = "array"


@dataclass(frozen=True)
class TraceValue:
    """One value traced by one call on the tracer, by its ``kind``: ``integer`` (``type`` its word),
    ``blob`` (after its ``prefix``: ``int16``, ``int32`` or ``compact``; ``size`` for a uuid's 16 bytes),
    ``nested`` (the structure's tracing function ``inner``), or ``nullable`` (that function after a
    presence ``prefix``: ``int8``, or ``uvarint`` in a tagged field). ``label`` is the expression naming
    the value (a field's name, or ``t.take_label()`` for an array's item), ``doc`` the key of its doc
    line in the module's ``DOCS``."""

    kind: TraceKind
    label: str
    type: str
    doc: str
    prefix: str = ""
    size: int = 0
    nullable: bool = False
    inner: str = ""


@dataclass(frozen=True)
class TraceArray:
    """An array field: its count (``prefix``: ``int32`` or ``compact``), then ``item`` traced once per
    element; ``min_size`` the fewest bytes an element takes (bounds a hostile count)."""

    name: str
    type: str
    doc: str
    prefix: str
    item: TraceValue
    min_size: int
    nullable: bool = False
    kind: TraceKind = TraceKind.ARRAY


@dataclass(frozen=True)
class TracerPlan:
    """One structure's tracing function for one version (``message_trace.j2``'s ``tracer``): its
    untagged fields in wire order, then (flexible versions) its tagged fields as (tag, name, step)."""

    name: str
    struct: str
    version: int
    steps: tuple[TraceValue | TraceArray, ...]
    flexible: bool
    tagged: tuple[tuple[int, str, TraceValue | TraceArray], ...] = ()
