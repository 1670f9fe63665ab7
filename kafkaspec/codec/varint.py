"""Varint encoding (Protocol Buffers style) used by the v2 record format.

The generated fast codecs inline the one-byte case and call these helpers only
for longer values; the lookup tables make the common small values a single
indexing operation.
"""

from __future__ import annotations

from ..errors import InvalidLengthError, TruncatedError

#: signed value of each byte, for int8 fields
INT8 = tuple(range(128)) + tuple(range(-128, 0))
#: zigzag-decoded value of each one-byte varint (0..127)
ZIGZAG_1 = tuple((b >> 1) ^ -(b & 1) for b in range(128))
#: zigzag-decoded value of each two-byte varint, indexed by (byte0 & 0x7f) | (byte1 << 7)
ZIGZAG_2 = tuple((u >> 1) ^ -(u & 1) for u in range(1 << 14))


def _encode_unsigned(n: int) -> bytes:
    out = bytearray()
    while n > 0x7F:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def encode_uvarint(n: int) -> bytes:
    """Unsigned LEB128 varint."""
    if n < 0:
        raise ValueError(f"unsigned varint cannot encode {n}")
    return _encode_unsigned(n)


def encode_varint(n: int) -> bytes:
    """Zigzag varint of a signed 32-bit value."""
    if not -(1 << 31) <= n < (1 << 31):
        raise ValueError(f"varint value {n} does not fit in 32 bits")
    return _encode_unsigned(((n << 1) ^ (n >> 31)) & 0xFFFFFFFF)


def encode_varlong(n: int) -> bytes:
    """Zigzag varint of a signed 64-bit value."""
    if not -(1 << 63) <= n < (1 << 63):
        raise ValueError(f"varlong value {n} does not fit in 64 bits")
    return _encode_unsigned(((n << 1) ^ (n >> 63)) & 0xFFFFFFFFFFFFFFFF)


#: encoded bytes of every zigzag value that fits in one or two bytes (-8192..8191)
VARINT_BYTES: dict[int, bytes] = {n: encode_varint(n) for n in range(-8192, 8192)}
#: encoded bytes of every unsigned value below 16384
UVARINT_BYTES: dict[int, bytes] = {n: encode_uvarint(n) for n in range(16384)}
#: the encoded varints of 0, 1, 2, ... as far as VARINT_BYTES goes: the offset deltas of consecutive records
INDEX_VARINTS: tuple[bytes, ...] = tuple(VARINT_BYTES[i] for i in range(max(VARINT_BYTES) + 1))


def read_uvarint(buf, pos: int, max_bytes: int = 5) -> tuple[int, int]:
    """Read an unsigned varint at ``pos``; return (value, position after it)."""
    result = 0
    shift = 0
    start = pos
    end = len(buf)
    while True:
        if pos >= end:
            raise TruncatedError("input ends inside a varint", start)
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, pos
        shift += 7
        if pos - start >= max_bytes:
            raise InvalidLengthError(f"varint longer than {max_bytes} bytes", start)


def read_varint(buf, pos: int) -> tuple[int, int]:
    """Read a zigzag varint (at most 5 bytes, 32-bit range)."""
    u, pos = read_uvarint(buf, pos, 5)
    if u > 0xFFFFFFFF:
        raise InvalidLengthError("varint value out of 32-bit range", pos)
    return (u >> 1) ^ -(u & 1), pos


def read_varlong(buf, pos: int) -> tuple[int, int]:
    """Read a zigzag varlong (at most 10 bytes, 64-bit range)."""
    u, pos = read_uvarint(buf, pos, 10)
    if u > 0xFFFFFFFFFFFFFFFF:
        raise InvalidLengthError("varlong value out of 64-bit range", pos)
    return (u >> 1) ^ -(u & 1), pos
