"""The typed plan of a structure: what :class:`codegen.plan.Planner` decides and the templates write out.
One module because the records are one vocabulary, the one the templates read.

Plain records with named fields; no logic beyond a convenience property.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from kafkaspec.spec import Bit, Dispatch, Field, Struct

#: a default as the Python value it is (an int, a bool, None, the empty tuple of an array, a string or
#: bytes): the templates write it with the ``pyrepr`` filter
Value = int | float | str | bytes | tuple[()] | None


@dataclass(frozen=True)
class ConstantSum:
    """A layout constant chained on others, like DefaultRecordBatch.java's: ``left + right`` (an
    offset after the field before), or ``left - right`` with ``minus``. The ``constant`` filter of
    ``codegen.render`` writes it."""

    left: str
    right: str
    minus: bool = False


@dataclass(frozen=True)
class ConstantRef:
    """A layout constant that is another one under a second name (a head's overhead is the offset
    of its first variable-size field)."""

    name: str


@dataclass(frozen=True)
class Constant:
    """A module-level layout constant: ``name = value  # comment``; its value a number of bytes or
    chained on other constants."""

    name: str
    value: int | ConstantSum | ConstantRef
    comment: str = ""


@dataclass(frozen=True)
class ItemRef:
    """A nested structure (an array item or a struct-typed field), as its codec's names."""

    name: str  # typed tuple class
    module: str
    snake: str
    bases: tuple[str, ...]  # the relative bases its array codec takes, sorted


class StepKind(StrEnum):
    """What one decoding step reads (a StrEnum: the templates compare it with its value)."""

    FIXED = "fixed"  # a run of fixed-width fields, unpacked at once
    VAR = "var"  # one varint
    BYTES = "bytes"  # a byte string or a string
    ARRAY = "array"  # an array of structures
    STRUCT = "struct"  # a nested structure


class CheckKind(StrEnum):
    """What a check of a fixed-width field verifies (see :class:`Check`)."""

    CONST = "const"
    LENGTH = "length"
    CHECKSUM = "checksum"
    COUNT = "count"


class ColumnKind(StrEnum):
    """How one column of the column-at-a-time encoder is written."""

    BYTE = "byte"  # a one-byte field, by table look-up
    PACK = "pack"  # fixed-width fields packed together
    VAR = "var"  # a varint, by its table of encodings
    BYTES = "bytes"
    ARRAY = "array"


class ExposedKind(StrEnum):
    """How the columnar decoder fills one exposed field (see :class:`ExposedColumn`)."""

    PLAIN = "plain"
    SPARSE = "sparse"
    SPARSE_INDEX = "sparse_index"
    ARRAY = "array"
    SPARSE_ARRAY = "sparse_array"


class ShapeKind(StrEnum):
    """One entry of a layout spec for ``kafkaspec.codec.shapes`` (see :class:`ShapeEntry`)."""

    LENGTH = "length"  # the item's own length, a varint (always first)
    INT8 = "int8"  # a one-byte int8 without checks
    VAR = "var"  # a zigzag varint or varlong
    BYTES = "bytes"  # a byte string or string with a varint length
    ARRAY = "array"  # an array with a varint count of flat items


@dataclass(frozen=True)
class ShapeEntry:
    """One field of a shape spec: what it is; ``macros.j2`` (``shape``) writes it as the tuple
    ``kafkaspec.codec.shapes`` reads."""

    kind: ShapeKind
    base: int = -1  # var: the index of its base among the structure's bases, -1 when absolute
    none: str | None = None  # var: what None means when encoding, "index", "base" or None
    nullable: bool = False  # bytes
    string: bool = False  # bytes: a string, not a byte string
    item: str = ""  # array: the items' class name
    inner: tuple[ShapeEntry, ...] = ()  # array: the items' entries


@dataclass(frozen=True)
class BitOf:
    """A bit field of a decoded local (the compression codec in a batch's attributes): the templates
    read it by the module's named mask and shift (the ``mask_value`` filter)."""

    local: str
    bit: Bit


@dataclass(frozen=True)
class ValueOf:
    """Where a decoder takes the typed tuple's value of one field from: a decoded local, the decoded
    head's attribute (``head``), or a stored delta added to the local holding its base (``base``).
    The ``value`` filter of ``codegen.render`` writes it as an expression."""

    name: str  # the local, or the head's attribute
    head: bool = False
    base: str = ""


@dataclass(frozen=True)
class At:
    """A byte position a decoder computes: in the leading run, the structure's ``start`` plus a layout
    constant (``const``); in a later run, ``back`` bytes before ``pos`` (the position after the run).
    The ``at`` filter of ``codegen.render`` writes it."""

    const: str = ""
    back: int = 0


@dataclass(frozen=True)
class Check:
    """A check of a fixed-width field, right after its run is unpacked.

    ``const``: the field must equal its constant (``at``: where it sits, for the error);
    ``length``: the length counts from ``end`` (the end is there plus the length) and must fit the
    buffer (``min``: the smallest value, the fixed-width bytes it covers: a layout constant's name or
    a number); ``checksum``: the ``algorithm`` over ``covers_from``..end; ``count``: a signed count
    of an array's items must not be negative (``at``: where it sits).
    """

    kind: CheckKind
    f: Field
    at: At | None = None
    end: At | None = None
    min: str | int = 0
    covers_fixed: bool = False
    algorithm: str = ""
    covers_from: At | None = None


@dataclass
class Step:
    """One decoding step: a run of fixed-width fields, a varint, a byte string, an array or a struct."""

    kind: StepKind
    fields: list[Field] = field(default_factory=list)
    struct: str = ""  # name of the precompiled struct.Struct for fixed runs
    size: int = 0
    size_expr: str = ""  # the layout constant naming ``size`` (the leading run only)
    var: str = ""  # varint | varlong | uvarint (var steps, varint prefixes)
    prefix: str = ""  # bytes/array prefix kind: int16, int32, varint, uvarint, ref, size, rest
    prefix_struct: str = ""
    ref: str = ""  # local name of the field giving a length or count
    item: ItemRef | None = None  # the array item / nested struct
    codec: BitOf | None = None  # where the codec number of a compressed region is read
    codec_magic: int = 2  # the magic a compressed region's codec is read for (lz4 framing differs)
    bases: list[str] = field(default_factory=list)  # arguments passed for relative fields
    checks: list[Check] = field(default_factory=list)  # post-decode checks of fixed fields
    inline: InlineItems | None = None  # an array whose items are decoded in the enclosing loop

    @property
    def f(self) -> Field:
        return self.fields[0]


@dataclass(frozen=True)
class InlineItems:
    """The items of a small flat structure (a record's headers), decoded in the enclosing loop: no
    call, no per-call set-up for each item array. Their values go to locals named ``prefix`` + field."""

    name: str  # the item structure's name, for the error messages
    class_name: str
    steps: list[Step]
    min_size_const: str
    prefix: str
    values: list[str]  # the item's typed-tuple values, in field order


class EncodedKind(StrEnum):
    """What an encoder packs for one field (see :class:`Encoded`)."""

    FIELD = "field"  # the field's own value, a local
    CONST = "const"  # the schema's constant
    COUNT = "count"  # the number of items of the array it counts
    LENGTH = "length"  # the length of the bytes it covers
    CHECKSUM = "checksum"  # the checksum of the bytes it covers


@dataclass(frozen=True)
class Encoded:
    """What an encoder packs for one field; the ``encoded`` filter of ``codegen.render`` writes it.

    A length or checksum covers, in an item loop, the ``suffix`` joined after it; in a whole entry's
    encoder the parts in ``cover`` (``*x``: the list of parts ``x``), measured and checksummed as
    they are, so that a payload is never copied for them.
    """

    kind: EncodedKind
    name: str = ""  # field: its local; count: the array's local
    const: int = 0
    algorithm: str = ""  # checksum: a function of kafkaspec.codec.crc
    suffix: str = ""
    cover: tuple[str, ...] | None = None


class PieceKind(StrEnum):
    """How an encoder's piece is written (see :class:`Piece`)."""

    FIXED = "fixed"  # consecutive fixed-width fields, packed by one struct (or one byte by table look-up)
    SINGLE = "single"  # one field of another type, written by its type (``templates/wire/<family>.j2``)


@dataclass
class Piece:
    """One part of the encoder's output, encoded last to first so that every computed field (a
    length or a checksum, which ends its piece) sees the parts after it: joined into ``suffix`` in an
    item loop, as ``cover`` in a whole entry's encoder."""

    kind: PieceKind
    fields: list[Field]
    index: int
    struct: str = ""
    byte: bool = False  # a lone one-byte field, encoded by table look-up (_BYTE)
    computed: Field | None = None
    own: list[str] = field(default_factory=list)  # the locals holding this piece's bytes
    codec: BitOf | None = None
    codec_magic: int = 2
    item: ItemRef | None = None
    item_bases: list[str] = field(default_factory=list)  # locals passed as the item's bases
    join: list[str] | None = None  # a computed piece in an item loop: the parts joined into its suffix
    suffix: str = ""
    cover: list[str] | None = None  # a computed piece of a whole entry: the parts it covers (``*x``: list x)
    parts: bool = False  # an array region kept as a list of parts (``encode_<item>_array_parts``)
    values: list[Encoded] = field(
        default_factory=list
    )  # what each field packs (computed ones read ``cover``)


@dataclass(frozen=True)
class Column:
    """One column of the column-at-a-time encoder of array items."""

    kind: ColumnKind
    col: int
    struct: str = ""
    table: str = ""
    base: str | None = None
    default: str | None = None
    string: bool = False
    item: str = ""
    flat: bool = False  # an array whose items have a column encoder: all items encoded in one call
    value: Value = None  # the item field's default: what a column given as None holds
    pairs: bool = False  # an array whose items are string-keyed pairs (their ``_pieces`` encoder)
    nullable: bool = False


@dataclass(frozen=True)
class ColumnEncoder:
    length_prefix: bool
    columns: list[Column]
    width: int  # the item tuple's number of fields
    needs_n: bool  # the encoder reads the number of items
    pairs: bool = False  # items of two fields, a string (not null) then nullable bytes: a ``_pieces`` encoder


@dataclass(frozen=True)
class TupleField:
    """A field of a structure's typed tuple: its type's name (the registry's hint, or a nested
    structure's class), whether it may also be None, and its default value."""

    name: str
    hint: str
    default: Value  # the tuple field's default value (an array's: ())
    doc: str
    optional: bool = False


@dataclass(frozen=True)
class Param:
    """A keyword parameter of a whole entry's encoder: ``required`` ones have no default."""

    name: str
    default: Value
    required: bool = False


@dataclass(frozen=True)
class Relative:
    """A field stored as a delta from a base and exposed as the absolute value; the ``delta`` macro of
    ``macros.j2`` writes the stored delta from an absolute value."""

    name: str  # stored field
    local: str
    exposed: str
    base: str
    default: str | None  # "index", "base" or None: what None means when encoding


@dataclass(frozen=True)
class RebasedArray:
    """An array whose items have relative fields, and the fields giving their bases."""

    name: str
    item: str  # item snake name
    bases: list[str]  # field names of this structure, one per item base


class ConstructKind(StrEnum):
    """What Construct class the reference codec reads one field with (see :class:`ConstructOf`)."""

    INT = "int"  # the integer class itself (``Int32sb``, ``VarInt``, ...)
    CONST = "const"  # Const(value, int)
    COUNT = "count"  # an array's count: rebuilt from the array it counts
    BYTES = "bytes"  # a byte string or string after an integer length (KafkaBytes)
    GREEDY_BYTES = "greedy_bytes"  # the bytes to the end
    SIZED_BYTES = "sized_bytes"  # as many bytes as an earlier field says
    PREFIXED_ARRAY = "prefixed_array"  # items after an integer count
    NULLABLE_ARRAY = "nullable_array"  # the same, a count of -1 meaning null
    COUNTED_ARRAY = "counted_array"  # as many items as an earlier field says
    GREEDY_ARRAY = "greedy_array"  # items to the end
    SIZED_ARRAY = "sized_array"  # items filling as many bytes as an earlier field says
    STRUCT = "struct"  # a nested structure


@dataclass(frozen=True)
class ConstructOf:
    """The Construct definition of one field of the reference codec: what it is; the ``construct``
    macro of ``macros.j2`` writes it."""

    kind: ConstructKind
    integer: str = ""  # the Construct integer class: the field's own, its length's or its count's
    value: int = 0  # const: the constant
    ref: str = ""  # the earlier field a count, size or length is read from (or an array a count counts)
    nullable: bool = False  # bytes
    string: bool = False  # bytes: a UTF-8 string
    item: str = ""  # arrays and structs: the item structure's snake name
    codec: Bit | None = None  # a compressed array: the bit field of ``codec_field`` naming its codec
    codec_field: str = ""
    magic: int = 2  # a compressed array: the magic its codec is read for


@dataclass(frozen=True)
class ConstructGroup:
    """Fields at one nesting level of the Construct definition; a length or checksum field wraps the rest."""

    fields: list[tuple[str, ConstructOf]]  # (name, its Construct)
    wrapper: str = ""  # "" | "length" | "checksum"
    wrapper_name: str = ""
    wrapper_construct: ConstructOf | None = None  # length: the length field's integer
    algorithm: str = ""  # checksum: its algorithm (a function of kafkaspec.codec.crc)

    @property
    def names(self) -> list[str]:
        """The group's field names, in order (the reference codec flattens and nests by them)."""
        return [name for name, _ in self.fields]


@dataclass(frozen=True)
class ExposedColumn:
    """How the columnar decoder collects one exposed field: appended per item, or (sparse) noted
    only where an item differs from the usual value and filled in bulk afterwards."""

    f: Field
    local: str
    name: str  # exposed name
    kind: ExposedKind
    item: str = ""  # array: the item's class name
    raw_int8: bool = False  # an int8 kept as the unsigned byte in the loop; converted when noted
    default: Value = None  # sparse: the usual value, the only one not noted


@dataclass
class StructPlan:
    """Everything the templates write out for one structure."""

    s: Struct
    class_name: str
    snake: str
    module: str
    steps: list[Step]
    structs: dict[str, str]
    headed: bool
    header_step: Step | None
    rest_steps: list[Step]
    rest_uses_varints: bool
    exposed: list[Field]
    tuple_fields: list[TupleField]
    bases: list[str]
    relatives: list[Relative]
    rebased_arrays: list[RebasedArray]
    constants: list[Constant]
    bits: list[tuple[Field, Bit]]
    pieces_reversed: list[Piece]
    final_parts: list[str]
    names_from: dict[str, str]
    reference_names_from: dict[str, str]
    construct: list[ConstructGroup]
    has_length: bool
    compressed: bool
    verifies: bool
    check_locals: list[tuple[str, str]]
    rest_locals: list[tuple[str, str]]
    has_strings: bool
    own_strings: bool
    slices: bool
    min_size_const: str
    encode_unpack: list[str]
    encode_needs_index: bool
    decoded_values: list[ValueOf]
    run_item: list[str]  # decode_<snake>_run: the locals of one entry's tuple
    headed_values: list[ValueOf]  # decode_<snake>: each exposed field from the head or a decoded local
    disc_field: Field | None
    params: list[Param]
    columns: ColumnEncoder | None
    column_fields: list[ExposedColumn]
    sparse: set[str]
    count_column: str  # an exposed column whose length is the item count (not an array's)
    raw_int8: list[str]  # int8 fields the columnar loop keeps as the unsigned byte
    columns_step: Step | None  # a headed structure whose rest is one array: its columnar decoder's step
    needs_size: bool
    late_length: bool
    run_decoder: bool
    #: the head step as the run decoder checks it: its loop has already stopped at another discriminator
    run_step: Step | None
    #: items that carry their own length, with only varints, one-byte integers, varint-prefixed byte
    #: strings and arrays of such items: their layout spec for ``kafkaspec.codec.shapes``, so that
    #: runs of items of one shape decode at C level; () for any other
    shape_spec: tuple[ShapeEntry, ...] = ()


@dataclass(frozen=True)
class DispatchPlan:
    d: Dispatch
    cases: list[tuple[int, Struct]]
    modules: list[str]  # the case modules, each once, sorted (the import line)
