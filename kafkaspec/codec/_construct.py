"""Construct building blocks the generated reference codecs need beyond Construct's own.

The generated ``*_construct`` definitions (``kafkaspec.generated.reference.<module>``) use these
for the parts of Kafka's formats that plain Construct does not express directly: nullable
length-prefixed bytes, a checksum over the fields that follow it, and a compressed region whose
codec comes from an earlier attribute field. Only the reference modules import this one, so the
fast codecs (and ``import kafkaspec``) never load Construct.
"""

from __future__ import annotations

import io

from construct import Adapter, ChecksumError, Construct, ListContainer, stream_read_entire, stream_write

from . import compression
from .crc import ALGORITHMS


class KafkaBytes(Construct):
    """Bytes (or a UTF-8 string) after a signed length prefix; length -1 is null when nullable."""

    def __init__(self, prefix, nullable: bool, encoding: str | None = None):
        super().__init__()
        self.prefix, self.nullable, self.encoding = prefix, nullable, encoding

    def _parse(self, stream, context, path):
        n = self.prefix._parsereport(stream, context, path)
        if n == -1 and self.nullable:
            return None
        if n < 0:
            raise ValueError(f"negative length {n} at {path}")
        data = stream.read(n)
        if len(data) != n:
            raise ValueError(f"truncated bytes at {path}")
        return data.decode(self.encoding) if self.encoding else data

    def _build(self, obj, stream, context, path):
        if obj is None:
            if not self.nullable:
                raise ValueError(f"{path} is not nullable")
            self.prefix._build(-1, stream, context, path)
            return obj
        data = obj.encode(self.encoding) if self.encoding else bytes(obj)
        self.prefix._build(len(data), stream, context, path)
        stream_write(stream, data, len(data), path)
        return obj


class NullableArray(Construct):
    """Items after a signed count prefix; count -1 is null (``None``)."""

    def __init__(self, prefix, subcon):
        super().__init__()
        self.prefix, self.subcon = prefix, subcon

    def _parse(self, stream, context, path):
        n = self.prefix._parsereport(stream, context, path)
        if n == -1:
            return None
        if n < 0:
            raise ValueError(f"negative count {n} at {path}")
        return ListContainer(self.subcon._parsereport(stream, context, path) for _ in range(n))

    def _build(self, obj, stream, context, path):
        if obj is None:
            self.prefix._build(-1, stream, context, path)
            return obj
        self.prefix._build(len(obj), stream, context, path)
        return ListContainer(self.subcon._build(item, stream, context, path) for item in obj)


class Checksummed(Construct):
    """A uint32 checksum followed by the fields it covers (to the end of the structure).

    Parses into the covered fields' container plus ``<name>`` (the stored
    value), after checking it; building computes it.
    """

    def __init__(self, name: str, checksum_field, algorithm: str, subcon):
        super().__init__()
        self.field_name, self.checksum_field, self.subcon = name, checksum_field, subcon
        self.algorithm = ALGORITHMS[algorithm]

    def _parse(self, stream, context, path):
        stored = self.checksum_field._parsereport(stream, context, path)
        data = stream_read_entire(stream, path)
        actual = self.algorithm(data)
        if actual != stored:
            raise ChecksumError(f"stored checksum {stored:#010x} != computed {actual:#010x}", path=path)
        value = self.subcon._parsereport(io.BytesIO(data), context, path)
        value[self.field_name] = stored
        return value

    def _build(self, obj, stream, context, path):
        sub = io.BytesIO()
        self.subcon._build(obj, sub, context, path)
        data = sub.getvalue()
        self.checksum_field._build(self.algorithm(data), stream, context, path)
        stream_write(stream, data, len(data), path)
        return obj


class KafkaCompressed(Construct):
    """The rest of the structure, compressed with the codec an earlier attribute names."""

    def __init__(self, codec_of, subcon, magic: int):
        super().__init__()
        self.codec_of, self.subcon, self.magic = codec_of, subcon, magic

    def _parse(self, stream, context, path):
        data = stream_read_entire(stream, path)
        codec = self.codec_of(context)
        if codec:
            data = compression.decompress(codec, data, magic=self.magic)
        sub = io.BytesIO(data)
        value = self.subcon._parsereport(sub, context, path)
        if sub.read(1):
            raise ValueError(f"bytes left over after {path}")
        return value

    def _build(self, obj, stream, context, path):
        sub = io.BytesIO()
        self.subcon._build(obj, sub, context, path)
        data = compression.compress(self.codec_of(context), sub.getvalue(), magic=self.magic)
        stream_write(stream, data, len(data), path)
        return obj


class GreedyItems(Construct):
    """Items until the stream ends (a legacy MessageSet has no count)."""

    def __init__(self, subcon):
        super().__init__()
        self.subcon = subcon

    def _parse(self, stream, context, path):
        data = stream_read_entire(stream, path)
        sub = io.BytesIO(data)
        items = ListContainer()
        while sub.tell() < len(data):
            items.append(self.subcon._parsereport(sub, context, path))
        return items

    def _build(self, obj, stream, context, path):
        for item in obj:
            self.subcon._build(item, stream, context, path)
        return obj


def flatten(container) -> dict:
    """Merge the ``_rest`` containers that length and checksum fields nest into one mapping."""
    out = {}
    while container is not None:
        rest = None
        for key, value in container.items():
            if key == "_rest":
                rest = value
            elif not key.startswith("_"):
                out[key] = value
        container = rest
    return out


def nest(values: dict, groups: list[list[str]]) -> dict:
    """Inverse of :func:`flatten`: put each group of field names one ``_rest`` level deeper."""
    root: dict = {}
    level = root
    for i, names in enumerate(groups):
        for name in names:
            if name in values:
                level[name] = values[name]
        if i + 1 < len(groups):
            level["_rest"] = {}
            level = level["_rest"]
    return root


__all__ = [
    "Adapter",
    "Checksummed",
    "GreedyItems",
    "KafkaBytes",
    "KafkaCompressed",
    "NullableArray",
    "flatten",
    "nest",
]
