"""Value columns: a topic's keys or values decoded (:mod:`kafkaspec.values`) into one Arrow column of the
topic's type (:mod:`.value_types`) and a string column of each record's error, a batch at a time.

A record whose bytes do not fit is kept, never dropped: its decoded cell is null and its error cell
names the reason (counted in the decoder's ``errors``). :func:`spark_type` is the Arrow type Spark's
Python worker checks a column of a given type against (its converter's round trip, worked out here
once, so the Spark glue derives its Spark type from the one Arrow type).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..codec.extras import missing

try:
    import pyarrow as pa
except ModuleNotFoundError as exc:
    raise missing(exc, "spark", "decoded values as Arrow columns") from None

from ..values.avro import FAILED
from .value_types import to_arrow_array, value_type

if TYPE_CHECKING:
    from ..values.decoder import ValueDecoder

__all__ = [
    "DecodedValues",
    "ValueArrays",
    "decode_column",
    "spark_column_type",
    "spark_type",
    "without_times",
]


def _cell(
    dec: ValueDecoder, topic: str, part: str, want: str | None, names: list[str], b: bytes | None, d: Any
) -> tuple[Any, str | None]:
    """(value, error) of one decoded record in a column of format ``want``, errors counted."""
    if d.error is not None:
        return None, d.error
    if want is not None and b is not None and d.format != want:
        dec.errors[(topic, part, f"read as {d.format}, not {want}")] += 1
        return None, f"read as {d.format}, not {want} like the topic's {part}s"
    if want == "protobuf" and d.value is not None and list(d.value) != names:
        # another message of the schema (a topic may carry several): the column holds its first one
        dec.errors[(topic, part, "a message of another type than the column's")] += 1
        return None, (
            f"a message with fields {list(d.value)[:8]}, not the column's (the first message of "
            f"the topic's schema): {names[:8]}"
        )
    if want == "json-schema" and d.value is not None:
        return dec.json_column_value(topic, d.value, part), None  # decode() checked the fit
    return d.value, None


def decode_column(dec: ValueDecoder, topic: str, raw: Any, part: str = "value") -> tuple[Any, Any]:
    """A ``binary`` Arrow array of a topic's values (or keys) decoded by ``dec`` (a ValueDecoder):
    (the decoded column, typed as :func:`~kafkaspec.arrow.value_types.value_type` says, and a string column with each
    record's error or null). A value that decodes to another shape than the column's (``auto`` finding
    an unframed value in a topic of Avro values) is an error there too: it stays in the raw column."""
    arrow_type, has_uuid = value_type(dec, topic, part)
    want = None if arrow_type is None else dec.column_format(topic, part)
    values: list[Any] = []
    errors: list[str | None] = []
    names = [f.name for f in arrow_type] if want == "protobuf" else []
    raws = raw.to_pylist()
    if want == "avro" and dec.format_of(topic, part) in ("auto", "avro"):
        values = dec.decode_avro_batch(topic, raws, part)
        errors = [None] * len(values)
        for i, v in enumerate(values):
            if v is FAILED:  # not framed Avro of a known id, or does not decode: decode() says why and counts
                values[i], errors[i] = _cell(
                    dec, topic, part, want, names, raws[i], dec.decode(topic, raws[i], part)
                )
    else:
        for b, d in zip(raws, dec.decode_many(topic, raws, part)):
            v, e = _cell(dec, topic, part, want, names, b, d)
            values.append(v)
            errors.append(e)
    try:
        column = to_arrow_array(values, arrow_type, has_uuid)
    except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError, ValueError, OverflowError):
        # a value the column type cannot hold (a decimal wider than the reader's precision): found one
        # by one, it is an error of its record; the others keep their values
        for i, v in enumerate(values):
            if v is None:
                continue
            try:
                to_arrow_array([v], arrow_type, has_uuid)
            except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError, ValueError, OverflowError) as exc:
                values[i] = None
                errors[i] = f"the decoded value does not fit the column type {arrow_type}: {exc}"
                dec.errors[(topic, part, "the decoded value does not fit the column type")] += 1
        column = to_arrow_array(values, arrow_type, has_uuid)
    return column, pa.array(errors, type=pa.string())


class DecodedValues:
    """``value_decoded`` (typed from ``topic``'s schema, :func:`~.value_types.value_type`) and
    ``value_error`` (why a value did not fit; its bytes stay in ``value``) of a batch of its records:
    what ``to_arrow(values=...)`` adds."""

    def __init__(self, dec: ValueDecoder, topic: str) -> None:
        self.dec, self.topic = dec, topic

    def fields(self) -> list[pa.Field]:
        arrow_type, _ = value_type(self.dec, self.topic)
        return [pa.field("value_decoded", arrow_type or pa.string()), pa.field("value_error", pa.string())]

    def __call__(self, rb: pa.RecordBatch) -> list[pa.Array]:
        return list(decode_column(self.dec, self.topic, rb.column("value")))


def without_times(t: pa.DataType) -> pa.DataType:
    """``t`` with every time of day (Avro's time-millis / time-micros) as the integer Avro stores: Spark
    4.0 has no TIME type, so int milliseconds / long microseconds since midnight are the honest match
    (exact, and a cast of the Arrow column gives them). Structs, lists and maps are rebuilt around them."""
    if pa.types.is_time32(t):
        return pa.int32()
    if pa.types.is_time64(t):
        return pa.int64()
    if pa.types.is_struct(t):
        return pa.struct([f.with_type(without_times(f.type)) for f in t])
    if pa.types.is_map(t):
        return pa.map_(without_times(t.key_type), without_times(t.item_type))
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        return pa.list_(without_times(t.value_type))
    return t


def spark_type(t: pa.DataType) -> pa.DataType:
    """The Arrow type Spark's Python worker wants for a column of Arrow type ``t``: what PySpark's
    converter makes of ``t`` through Spark's type and back (timestamps in UTC microseconds, or without
    a zone; fixed-size and large binaries and strings plain; list items named ``element``; map keys
    not null). TypeError for a type Spark has no match of (unsigned integers, half floats, 64-bit
    dates, unions, decimals over 38 digits)."""
    types = pa.types
    if types.is_boolean(t) or types.is_null(t) or types.is_date32(t):
        return t
    if types.is_signed_integer(t) or types.is_float32(t) or types.is_float64(t):
        return t
    if types.is_decimal(t) and t.precision <= 38:
        return pa.decimal128(t.precision, t.scale)
    if types.is_string(t) or types.is_large_string(t):
        return pa.string()
    if types.is_binary(t) or types.is_fixed_size_binary(t) or types.is_large_binary(t):
        return pa.binary()
    if types.is_timestamp(t):
        return pa.timestamp("us", tz=None if t.tz is None else "UTC")
    if types.is_duration(t):
        return pa.duration("us")
    if types.is_list(t) or types.is_large_list(t) or types.is_fixed_size_list(t):
        return pa.list_(pa.field("element", spark_type(t.value_type), t.value_field.nullable))
    if types.is_map(t):
        return pa.map_(
            pa.field("key", spark_type(t.key_type), nullable=False),
            pa.field("value", spark_type(t.item_type), t.item_field.nullable),
        )
    if types.is_struct(t):
        return pa.struct([pa.field(f.name, spark_type(f.type), f.nullable) for f in t])
    if types.is_dictionary(t):
        return spark_type(t.value_type)
    raise TypeError(f"Spark has no type of the Arrow type {t}")


def spark_column_type(dec: ValueDecoder, topics: tuple[str, ...], part: str) -> pa.DataType:
    """The Arrow type of a read's ``<part>_decoded`` column as Spark takes it: the one topic's type, or
    a struct of one field per topic (a row fills only its topic's). ValueError naming the topic whose
    values Spark cannot hold."""
    own = {}
    for topic in topics:
        arrow_type, _ = value_type(dec, topic, part)
        try:
            own[topic] = spark_type(without_times(arrow_type or pa.string()))
        except (TypeError, ValueError) as exc:
            raise ValueError(
                f"topic {topic}'s {part}s decode to the Arrow type {arrow_type}, which Spark cannot "
                f"hold ({exc}); read them with {part}Format=bytes or with to_arrow"
            ) from None
    if len(topics) == 1:
        return own[topics[0]]
    return pa.struct([pa.field(t, own[t]) for t in topics])


class ValueArrays:
    """The ``<part>_decoded`` and ``<part>_error`` arrays of a batch of ``topic``'s records, for each of
    ``parts``, typed ``targets[part]`` (:func:`spark_column_type` over ``topics``, the read's topics).
    A topic that is not among ``topics`` (a stream found it after its columns were typed) has no column
    type of its own: its decoded cells are null, and each record with bytes gets an error saying so."""

    def __init__(
        self,
        dec: ValueDecoder,
        topic: str,
        parts: tuple[str, ...],
        targets: dict[str, pa.DataType],
        topics: tuple[str, ...],
    ) -> None:
        self.dec, self.topic, self.parts, self.targets, self.topics = dec, topic, parts, targets, topics

    def fields(self) -> list[pa.Field]:
        out = []
        for part in self.parts:
            out += [pa.field(f"{part}_decoded", self.targets[part]), pa.field(f"{part}_error", pa.string())]
        return out

    def __call__(self, rb: pa.RecordBatch) -> list[pa.Array]:
        out = []
        for part in self.parts:
            raw = rb.column(part)
            decoded, errors = decode_column(self.dec, self.topic, raw, part)
            if self.topic not in self.topics:
                late = f"topic {self.topic} was not among the read's topics when its columns were typed"
                errors = pa.array([None if b is None else late for b in raw.to_pylist()], pa.string())
            out += [self._typed(decoded, self.targets[part]), errors]
        return out

    def _typed(self, decoded: pa.Array, target: pa.DataType) -> pa.Array:
        if self.topic not in self.topics:
            return pa.nulls(len(decoded), target)
        if len(self.topics) == 1:
            return decoded.cast(target)
        own = target.field(self.topic).type
        children = [
            decoded.cast(own) if t == self.topic else pa.nulls(len(decoded), target.field(t).type)
            for t in self.topics
        ]
        return pa.StructArray.from_arrays(children, fields=list(target), mask=decoded.is_null())
