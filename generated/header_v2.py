"""Header v2: A record header (KIP-82); an ordered key/value pair attached to a
    record.

Since Kafka 0.11.0.

Generated from schemas/header_v2.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from typing import NamedTuple

from construct import (
    Adapter,
    Struct,
    ZigZag,
)

from kafkaspec._construct import KafkaBytes, flatten, nest
from kafkaspec.errors import (
    InvalidLengthError,
    KafkaFormatError,
    TruncatedError,
)
from kafkaspec.varint import (
    VARINT_BYTES,
    ZIGZAG_1,
    encode_varint,
    read_varint,
)

SCHEMA = "schemas/header_v2.yaml"
NAME = "Header"
VERSION = 2
SINCE = "0.11.0"

# -- layout ------------------------------------------------------------------

KEY_OFFSET = 0


_new = tuple.__new__
_I16 = struct.Struct(">h")
_I32 = struct.Struct(">i")
_NULL16 = _I16.pack(-1)
_NULL32 = _I32.pack(-1)
_BYTE = tuple(bytes((i,)) for i in range(256))


# -- typed values ---------------------------------------------------------------


class Header(NamedTuple):
    """A record header (KIP-82); an ordered key/value pair attached to a record.

    Fields:
        key: UTF-8 header key; never null.
        value: Header value; length -1 means null.
    """

    key: str | None = None
    value: bytes | None = None


# -- Construct reference codec ------------------------------------------------------

header_fields = Struct(
    "key" / KafkaBytes(ZigZag, nullable=False, encoding="utf-8"),
    "value" / KafkaBytes(ZigZag, nullable=True),
)


class _HeaderAdapter(Adapter):
    def _decode(self, obj, context, path):
        v = flatten(obj)
        return Header(
            v["key"],
            v["value"],
        )

    def _encode(self, obj, context, path):
        if not isinstance(obj, Header):
            obj = Header(*obj)
        v = {
            "key": obj.key,
            "value": obj.value,
        }
        return nest(v, _GROUPS)


_GROUPS = [["key", "value"]]
header_construct = _HeaderAdapter(header_fields)
header_construct.__doc__ = "Construct parser/builder for Header v2 (the reference codec)."


def _header_rebase(item):
    """Turn stored deltas into absolute values."""
    return item


def _header_unbase(item, index):
    """Turn absolute values (or their defaults) into stored deltas."""
    item = Header._make(item)
    return item


# -- fast codec -----------------------------------------------------------------


def decode_header_array(buf, pos: int, count: int, *, verify: bool = True) -> tuple[list[Header], int]:
    """Decode ``count`` consecutive Headers from ``buf`` (bytes) at ``pos``."""
    if count < 0 or count > (len(buf) - pos) // 2:
        raise InvalidLengthError(f"{count} Headers cannot fit in the {len(buf) - pos} bytes left", pos)
    items = []
    append = items.append
    start = pos
    try:
        for _ in range(count):
            start = pos

            n = buf[pos]
            if n < 128:
                n = ZIGZAG_1[n]
                pos += 1
            else:
                n, pos = read_varint(buf, pos)
            if n >= 0:
                key = buf[pos : pos + n].decode()
                pos += n
            else:
                raise InvalidLengthError(f"Header key length {n} is negative", pos)

            n = buf[pos]
            if n < 128:
                n = ZIGZAG_1[n]
                pos += 1
            else:
                n, pos = read_varint(buf, pos)
            if n >= 0:
                value = buf[pos : pos + n]
                pos += n
            elif n == -1:
                value = None
            else:
                raise InvalidLengthError(f"Header value length {n} is negative", pos)
            append(
                _new(
                    Header,
                    (
                        key,
                        value,
                    ),
                )
            )
    except (IndexError, struct.error):
        raise TruncatedError("Header ends before its fields do", start) from None
    except UnicodeDecodeError as exc:
        raise KafkaFormatError(f"Header has a string that is not UTF-8: {exc.reason}", start) from None
    if pos > len(buf):
        raise TruncatedError("Header runs past the end of the data", start)
    return items, pos


def decode_header(buf, pos: int = 0) -> tuple[Header, int]:
    """Decode one Header at ``pos``; return it and the position after it."""
    items, pos = decode_header_array(bytes(buf), pos, 1)
    return items[0], pos


def encode_header_array(items) -> bytes:
    """Encode a sequence of Headers back to back."""
    out = bytearray()
    for item in items:
        (
            key,
            value,
        ) = item

        d1 = value
        if d1 is None:
            p1 = b"\x01"
            d1 = b""
        else:
            p1 = VARINT_BYTES.get(len(d1)) or encode_varint(len(d1))

        d0 = key.encode() if key is not None else None
        if d0 is None:
            raise ValueError("Header key cannot be null")
            d0 = b""
        else:
            p0 = VARINT_BYTES.get(len(d0)) or encode_varint(len(d0))
        out += p0
        out += d0
        out += p1
        out += d1
    return bytes(out)


def encode_header(item) -> bytes:
    """Encode one Header."""
    return encode_header_array((item,))
