"""Kafka's message-spec primitive types, read and written for the generated message codecs
(``kafkaspec.generated.messages``): unsigned varints, strings, bytes, uuids and the length or count
prefixes of arrays, in their classic (int16/int32 prefix, -1 = null) and compact (unsigned varint of
length + 1, 0 = null) forms, and the tagged-field section of flexible versions.

Every reader takes ``(buf, pos, end, where)`` and returns ``(value, position after it)``; it never
reads past ``end`` (the end of the enclosing payload or tagged field) and checks every length and
count against the bytes left before allocating anything, raising a :class:`KafkaFormatError` that
names ``where`` (message, version, field) and the byte position.
"""

from __future__ import annotations

import struct
import uuid

from ..errors import InvalidLengthError, KafkaFormatError, TruncatedError

#: what the readers read from
Buffer = bytes | bytearray | memoryview

_I16 = struct.Struct(">h")
_I32 = struct.Struct(">i")
_UUID = uuid.UUID
#: Kafka's default uuid (all zero bits)
ZERO_UUID = uuid.UUID(int=0)


class EmptyDefault(list):
    """The default of an array field in a generated message class: an empty list that refuses to change.

    A NamedTuple default is one object shared by every instance built without that field; were it a
    plain ``[]``, appending to ``Record().items`` would put the item in every later ``Record()``. It
    is still a list, equal to the ``[]`` a decoder returns (``Record() == decode(encode(Record()))``).
    """

    __slots__ = ()

    def _refuse(self, *_args: object, **_kwargs: object) -> None:
        raise TypeError(
            "an array field's default is shared by every instance built without it and "
            "cannot change: give the field a list of its own (Record(items=[...]))"
        )

    append = extend = insert = remove = pop = clear = sort = reverse = _refuse
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse  # type: ignore[assignment]

    def __reduce__(self) -> str:
        return "EMPTY_LIST"  # pickled as the one shared default, by name

    def __copy__(self) -> list[object]:
        return []  # a copy is the caller's own list, free to change

    def __deepcopy__(self, _memo: dict[int, object]) -> list[object]:
        return []


#: the one empty, unchangeable list every generated message class defaults its array fields to
EMPTY_LIST = EmptyDefault()


def truncated(where: str, pos: int, need: int, end: int) -> TruncatedError:
    """The payload ends ``end - pos`` bytes into a field that needs ``need``."""
    return TruncatedError(f"{where}: needs {need} bytes, {max(end - pos, 0)} left", pos)


def read_uvarint(buf: Buffer, pos: int, end: int, where: str) -> tuple[int, int]:
    """An unsigned varint of at most 5 bytes (Kafka's unsigned 32-bit varint)."""
    start = pos
    result = shift = 0
    while True:
        if pos >= end:
            raise TruncatedError(f"{where}: payload ends inside a varint", start)
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            if result > 0xFFFFFFFF:
                raise InvalidLengthError(f"{where}: unsigned varint {result} is beyond 32 bits", start)
            return result, pos
        shift += 7
        if shift >= 35:
            raise InvalidLengthError(f"{where}: varint longer than 5 bytes", start)


def encode_uvarint(n: int) -> bytes:
    """An unsigned varint (``n`` from 0 to 2**32 - 1)."""
    if not 0 <= n <= 0xFFFFFFFF:
        raise ValueError(f"unsigned varint out of range: {n}")
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def read_length(buf: Buffer, pos: int, end: int, where: str, compact: bool, wide: bool) -> tuple[int, int]:
    """A length or count prefix: compact (uvarint - 1), else int32 (``wide``) or int16; -1 is null.

    A length below -1 is refused here; the caller checks a length against the bytes left and
    refuses -1 where the field is not nullable.
    """
    start = pos
    if compact:
        n, pos = read_uvarint(buf, pos, end, where)
        return n - 1, pos
    st = _I32 if wide else _I16
    if end - pos < st.size:
        raise truncated(where, pos, st.size, end)
    (n,) = st.unpack_from(buf, pos)
    if n < -1:
        raise InvalidLengthError(f"{where}: negative length {n}", start)
    return n, pos + st.size


def _sized(buf: Buffer, pos: int, end: int, where: str, n: int, nullable: bool, start: int) -> None:
    if n == -1 and not nullable:
        raise InvalidLengthError(f"{where}: null where the field is not nullable in this version", start)
    if n > end - pos:
        raise InvalidLengthError(f"{where}: length {n} is beyond the payload ({end - pos} bytes left)", start)


def read_string(
    buf: Buffer, pos: int, end: int, where: str, *, compact: bool, nullable: bool
) -> tuple[str | None, int]:
    """A string (UTF-8) with an int16 or compact length."""
    start = pos
    n, pos = read_length(buf, pos, end, where, compact, wide=False)
    _sized(buf, pos, end, where, n, nullable, start)
    if n == -1:
        return None, pos
    try:
        return str(buf[pos : pos + n], "utf-8"), pos + n
    except UnicodeDecodeError as exc:
        raise KafkaFormatError(f"{where}: string is not UTF-8 ({exc.reason})", pos + exc.start) from None


def read_bytes(
    buf: Buffer, pos: int, end: int, where: str, *, compact: bool, nullable: bool
) -> tuple[bytes | None, int]:
    """Bytes with an int32 or compact length."""
    start = pos
    n, pos = read_length(buf, pos, end, where, compact, wide=True)
    _sized(buf, pos, end, where, n, nullable, start)
    if n == -1:
        return None, pos
    return bytes(buf[pos : pos + n]), pos + n


def read_count(
    buf: Buffer, pos: int, end: int, where: str, *, compact: bool, nullable: bool, min_size: int
) -> tuple[int, int]:
    """An array's count (int32 or compact; -1 = null), checked against the bytes left: every item
    takes at least ``min_size`` bytes, so a count the payload cannot hold is refused up front."""
    start = pos
    n, pos = read_length(buf, pos, end, where, compact, wide=True)
    if n == -1 and not nullable:
        raise InvalidLengthError(
            f"{where}: null array where the field is not nullable in this version", start
        )
    if n * min_size > end - pos:
        raise InvalidLengthError(
            f"{where}: count {n} needs at least {n * min_size} bytes, the payload has {end - pos} left", start
        )
    return n, pos


def read_uuid(buf: Buffer, pos: int, end: int, where: str) -> tuple[uuid.UUID, int]:
    if end - pos < 16:
        raise truncated(where, pos, 16, end)
    return _UUID(bytes=bytes(buf[pos : pos + 16])), pos + 16


def read_bool(buf: Buffer, pos: int, end: int, where: str) -> tuple[bool, int]:
    """A bool: one byte, 0 or 1 (any other byte is refused rather than read as True and rewritten)."""
    if pos >= end:
        raise truncated(where, pos, 1, end)
    b = buf[pos]
    if b > 1:
        raise KafkaFormatError(f"{where}: bool byte {b} is neither 0 nor 1", pos)
    return b == 1, pos + 1


def read_tag_header(buf: Buffer, pos: int, end: int, where: str) -> tuple[int, int, int]:
    """One tagged field's tag and size; returns (tag, start of its value, end of its value)."""
    start = pos
    tag, pos = read_uvarint(buf, pos, end, where)
    size, pos = read_uvarint(buf, pos, end, where)
    if size > end - pos:
        raise InvalidLengthError(
            f"{where}: tagged field {tag} claims {size} bytes, the payload has {end - pos} left", start
        )
    return tag, pos, pos + size


def bad_presence(where: str, byte: int, pos: int) -> KafkaFormatError:
    """A nullable structure's presence byte that is neither -1 (null) nor 1 (present)."""
    return KafkaFormatError(f"{where}: presence byte {byte} is neither -1 nor 1", pos)


def repeated_tag(where: str, tag: int, pos: int) -> KafkaFormatError:
    """A tag that appears twice in one tagged-field section (which value would be the field's?)."""
    return KafkaFormatError(f"{where}: tag {tag} appears twice", pos)


def read_unknown_tags(buf: Buffer, pos: int, end: int, where: str) -> tuple[list[tuple[int, bytes]], int]:
    """The tagged-field section of a structure that knows no tag: every field kept as (tag, bytes)."""
    n, pos = read_uvarint(buf, pos, end, where)
    if not n:
        return [], pos
    unknown: list[tuple[int, bytes]] = []
    seen = set()
    for _ in range(n):
        tag, pos, stop = read_tag_header(buf, pos, end, where)
        if tag in seen:
            raise repeated_tag(where, tag, pos)
        seen.add(tag)
        unknown.append((tag, bytes(buf[pos:stop])))
        pos = stop
    return unknown, pos


def tagged_size_mismatch(where: str, tag: int, start: int, stop: int, used: int) -> InvalidLengthError:
    """A known tagged field whose value does not fill the size its header gives."""
    return InvalidLengthError(
        f"{where}: tagged field {tag} claims {stop - start} bytes, its value takes {used - start}", start
    )


def encode_string(value: str | None, where: str, *, compact: bool, nullable: bool) -> bytes:
    if value is None:
        if not nullable:
            raise ValueError(f"{where}: None where the field is not nullable in this version")
        return b"\x00" if compact else b"\xff\xff"
    data = value.encode("utf-8")
    if compact:
        return encode_uvarint(len(data) + 1) + data
    if len(data) > 0x7FFF:
        raise ValueError(f"{where}: string of {len(data)} bytes is longer than an int16 length allows")
    return _I16.pack(len(data)) + data


def encode_bytes(value: bytes | None, where: str, *, compact: bool, nullable: bool) -> bytes:
    if value is None:
        if not nullable:
            raise ValueError(f"{where}: None where the field is not nullable in this version")
        return b"\x00" if compact else b"\xff\xff\xff\xff"
    data = bytes(value)
    return (encode_uvarint(len(data) + 1) if compact else _I32.pack(len(data))) + data


def encode_count(value: list | None, where: str, *, compact: bool, nullable: bool) -> bytes:
    if value is None:
        if not nullable:
            raise ValueError(f"{where}: None where the field is not nullable in this version")
        return b"\x00" if compact else b"\xff\xff\xff\xff"
    return encode_uvarint(len(value) + 1) if compact else _I32.pack(len(value))


def encode_tagged(fields: list[tuple[int, bytes]]) -> bytes:
    """The tagged-field section: count, then tag, size and value of each field, in tag order."""
    fields.sort(key=lambda f: f[0])
    parts = [encode_uvarint(len(fields))]
    for tag, data in fields:
        parts += (encode_uvarint(tag), encode_uvarint(len(data)), data)
    return b"".join(parts)


def absent(value: object, default: object, where: str) -> None:
    """A field the version lacks must hold its default: refusing it beats silently dropping it. An
    array's default is the empty tuple (immutable: one NamedTuple default serves every instance); an
    empty list is that default too."""
    if value != default and not (default == () and value == []):
        raise ValueError(
            f"{where}: the field does not exist in this version, and {value!r} is not its default {default!r}"
        )
