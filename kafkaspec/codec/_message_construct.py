"""Construct building blocks for the reference codecs of Kafka's message-spec payloads
(``kafkaspec.generated.reference.messages``): classic and compact strings, bytes and arrays with
their null forms, uuid, a strict bool, nullable nested structures, the tagged-field section, and the
adapter from Construct containers to the generated NamedTuples.

Written from the encoding's rules, independently of :mod:`kafkaspec.codec.message_types` (which the fast
codecs use), so that the differential test compares two readings of the spec. Only the reference
modules import this one.
"""

from __future__ import annotations

import io
import uuid

from construct import (
    Adapter,
    Bytes,
    Construct,
    Container,
    Int8sb,
    Int16sb,
    Int32sb,
    ListContainer,
    StreamError,
    VarInt,
    stream_read,
    stream_write,
)


class _Prefix:
    """A length or count: compact = unsigned varint of n + 1 (0 = null), else int16/int32 (-1 = null)."""

    def __init__(self, compact: bool, wide: bool):
        self.compact, self.fixed = compact, Int32sb if wide else Int16sb

    def parse(self, stream, context, path) -> int:
        if self.compact:
            return VarInt._parsereport(stream, context, path) - 1
        return self.fixed._parsereport(stream, context, path)

    def build(self, n: int, stream, context, path) -> None:
        if self.compact:
            VarInt._build(n + 1, stream, context, path)
        else:
            self.fixed._build(n, stream, context, path)


class KafkaSized(Construct):
    """A string (int16 or compact length, UTF-8) or bytes (int32 or compact length); null when nullable."""

    def __init__(self, text: bool, compact: bool, nullable: bool):
        super().__init__()
        self.text, self.nullable = text, nullable
        self.prefix = _Prefix(compact, wide=not text)

    def _parse(self, stream, context, path):
        n = self.prefix.parse(stream, context, path)
        if n == -1 and self.nullable:
            return None
        if n < 0:
            raise StreamError(f"bad length {n}", path=path)
        data = stream_read(stream, n, path)
        return data.decode("utf-8") if self.text else data

    def _build(self, obj, stream, context, path):
        if obj is None:
            if not self.nullable:
                raise StreamError("null in a field that is not nullable", path=path)
            self.prefix.build(-1, stream, context, path)
            return obj
        data = obj.encode("utf-8") if self.text else bytes(obj)
        self.prefix.build(len(data), stream, context, path)
        stream_write(stream, data, len(data), path)
        return obj


class KafkaArray(Construct):
    """An array: int32 or compact count, then the items; null when nullable."""

    def __init__(self, subcon, compact: bool, nullable: bool):
        super().__init__()
        self.subcon, self.nullable = subcon, nullable
        self.prefix = _Prefix(compact, wide=True)

    def _parse(self, stream, context, path):
        n = self.prefix.parse(stream, context, path)
        if n == -1 and self.nullable:
            return None
        if n < 0:
            raise StreamError(f"bad count {n}", path=path)
        return ListContainer(self.subcon._parsereport(stream, context, path) for _ in range(n))

    def _build(self, obj, stream, context, path):
        if obj is None:
            if not self.nullable:
                raise StreamError("null in a field that is not nullable", path=path)
            self.prefix.build(-1, stream, context, path)
            return obj
        self.prefix.build(len(obj), stream, context, path)
        for item in obj:
            self.subcon._build(item, stream, context, path)
        return obj


class _Uuid(Adapter):
    def _decode(self, obj, context, path):
        return uuid.UUID(bytes=bytes(obj))

    def _encode(self, obj, context, path):
        return obj.bytes


KafkaUuid = _Uuid(Bytes(16))


class _Bool(Adapter):
    def _decode(self, obj, context, path):
        if obj not in (0, 1):
            raise StreamError(f"bool byte {obj}", path=path)
        return obj == 1

    def _encode(self, obj, context, path):
        return 1 if obj else 0


KafkaBool = _Bool(Int8sb)


class NullableStruct(Construct):
    """A nullable nested structure: an int8 -1 (null) or 1, then the structure; as a tagged field an
    unsigned varint 0 (null) or 1."""

    def __init__(self, subcon, tagged: bool = False):
        super().__init__()
        self.subcon = subcon
        self.mark, self.null = (VarInt, 0) if tagged else (Int8sb, -1)

    def _parse(self, stream, context, path):
        marker = self.mark._parsereport(stream, context, path)
        if marker == self.null:
            return None
        if marker != 1:
            raise StreamError(f"presence mark {marker}", path=path)
        return self.subcon._parsereport(stream, context, path)

    def _build(self, obj, stream, context, path):
        self.mark._build(self.null if obj is None else 1, stream, context, path)
        if obj is not None:
            self.subcon._build(obj, stream, context, path)
        return obj


class TaggedFields(Construct):
    """The tagged-field section: a count, then (tag, size, value) per field. Parses into a container of
    the known fields (defaults where absent) plus ``unknown_tagged_fields``; builds the known fields
    that differ from their default and the unknown ones, in tag order."""

    def __init__(self, known: dict[int, tuple[str, Construct, object]]):
        super().__init__()
        self.known = known

    def _parse(self, stream, context, path):
        out = Container({name: default for name, _, default in self.known.values()})
        unknown = []
        seen = set()
        for _ in range(VarInt._parsereport(stream, context, path)):
            tag = VarInt._parsereport(stream, context, path)
            data = stream_read(stream, VarInt._parsereport(stream, context, path), path)
            if tag in seen:
                raise StreamError(f"tag {tag} twice", path=path)
            seen.add(tag)
            if tag in self.known:
                name, subcon, _ = self.known[tag]
                inner = io.BytesIO(data)
                out[name] = subcon._parsereport(inner, context, path)
                if inner.tell() != len(data):
                    raise StreamError(f"tagged field {tag} is shorter than its size", path=path)
            else:
                unknown.append((tag, data))
        out["unknown_tagged_fields"] = unknown
        return out

    def _build(self, obj, stream, context, path):
        fields = list(obj["unknown_tagged_fields"])
        for tag, (name, subcon, default) in self.known.items():
            if obj[name] != default:
                fields.append((tag, subcon.build(obj[name])))
        fields.sort(key=lambda f: f[0])
        VarInt._build(len(fields), stream, context, path)
        for tag, data in fields:
            VarInt._build(tag, stream, context, path)
            VarInt._build(len(data), stream, context, path)
            stream_write(stream, data, len(data), path)
        return obj


class MessageStruct(Adapter):
    """A structure of a message version as the generated NamedTuple: fields the version lacks take
    ``absent`` (their defaults); building refuses a value that differs from them."""

    def __init__(self, cls, subcon, absent: dict):
        super().__init__(subcon)
        self.cls, self.absent = cls, absent

    def _decode(self, obj, context, path):
        values = dict(self.absent)
        for name in self.cls._fields:
            if name in obj:
                values[name] = obj[name]
        tagged = obj.get("tagged_fields")
        if tagged is not None:
            values.update((k, v) for k, v in tagged.items() if not k.startswith("_"))
        elif "unknown_tagged_fields" in self.cls._fields:
            values["unknown_tagged_fields"] = ()
        return self.cls(**values)

    def _encode(self, obj, context, path):
        for name, default in self.absent.items():
            value = getattr(obj, name)
            if value != default and not (default == () and value == []):  # an empty list is the empty default
                raise StreamError(f"{name} is not in this version", path=path)
        values = obj._asdict()
        values["tagged_fields"] = values
        if values.get("unknown_tagged_fields") and "tagged_fields" not in {
            sc.name for sc in self.subcon.subcons
        }:
            raise StreamError("tagged fields in a version that has none", path=path)
        return values
