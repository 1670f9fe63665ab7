"""Header v2: A record header (KIP-82); an ordered key/value pair attached to a record.

Since Kafka 0.11.0.

Generated from schemas/header_v2.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from itertools import chain, repeat, starmap
from operator import itemgetter
from typing import NamedTuple

from kafkaspec.codec.columns import ColumnItems, transpose
from kafkaspec.codec.varint import VARINT_BYTES, ZIGZAG_1, ZIGZAG_2, encode_varint, read_varint
from kafkaspec.errors import InvalidLengthError, KafkaFormatError, TruncatedError

SCHEMA = "schemas/header_v2.yaml"
NAME = "Header"
VERSION = 2
SINCE = "0.11.0"

# -- layout ------------------------------------------------------------------

KEY_OFFSET = 0
MIN_HEADER_SIZE = 2  # smallest encoded size


_new = tuple.__new__
_COLUMNS_FROM = 16  # from this many items on, encoding a column at a time pays off


# -- typed values ---------------------------------------------------------------


class Header(NamedTuple):
    """A record header (KIP-82); an ordered key/value pair attached to a record.

    Fields:
        key: UTF-8 header key; never null.
        value: Header value; length -1 means null.
    """

    key: str | None = None
    value: bytes | None = None


# -- fast codec -----------------------------------------------------------------


def decode_header_array(buf, pos: int, count: int, stop: int | None = None) -> tuple[list[Header], int]:
    """Decode ``count`` consecutive Headers from ``buf`` (bytes) at ``pos``, inside ``buf[:stop]``.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends: ``count`` is checked
    against the bytes before it ahead of any decoding.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // MIN_HEADER_SIZE:
        raise InvalidLengthError(
            f"{count} Headers cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    items = []
    append = items.append
    start = pos
    zigzag_1, zigzag_2, new, cls = ZIGZAG_1, ZIGZAG_2, _new, Header
    try:
        for _ in range(count):
            start = pos

            n = buf[pos]
            if n < 128:
                n = zigzag_1[n]
                pos += 1
            elif (b1 := buf[pos + 1]) < 128:
                n = zigzag_2[(n & 127) | (b1 << 7)]
                pos += 2
            else:
                n, pos = read_varint(buf, pos)
                if n > stop - pos:
                    raise InvalidLengthError(
                        f"Header key length {n} runs past byte {stop}, the end of what holds it", pos - 1
                    )
            if n >= 0:
                key = buf[pos : pos + n].decode()
                pos += n
            else:
                raise InvalidLengthError(
                    f"Header key length {n} is negative", pos - 1
                )  # its length's last byte

            n = buf[pos]
            if n < 128:
                n = zigzag_1[n]
                pos += 1
            elif (b1 := buf[pos + 1]) < 128:
                n = zigzag_2[(n & 127) | (b1 << 7)]
                pos += 2
            else:
                n, pos = read_varint(buf, pos)
                if n > stop - pos:
                    raise InvalidLengthError(
                        f"Header value length {n} runs past byte {stop}, the end of what holds it", pos - 1
                    )
            if n >= 0:
                value = buf[pos : pos + n]
                pos += n
            elif n == -1:
                value = None
            else:
                raise InvalidLengthError(
                    f"Header value length {n} is negative", pos - 1
                )  # its length's last byte
            append(new(cls, (key, value)))
    except (IndexError, struct.error):
        raise TruncatedError("Header ends before its fields do", start) from None
    except UnicodeDecodeError as exc:
        raise KafkaFormatError(f"Header has a string that is not UTF-8: {exc.reason}", start) from None
    if pos > stop:
        raise TruncatedError(f"Header runs past byte {stop}, the end of what holds it", start)
    return items, pos


def decode_header(buf, pos: int = 0) -> tuple[Header, int]:
    """Decode one Header at ``pos``; return it and the position after it."""
    items, pos = decode_header_array(bytes(buf), pos, 1)
    return items[0], pos


def header_column_parts(items) -> list:
    """:func:`header_parts_of_columns` of ``items``, a sequence of item tuples."""
    return header_parts_of_columns(transpose(items, 2))


def header_parts_of_columns(cols) -> list:
    """Encode items given as columns with C-level ``map`` calls: the common case, fast.

    ``cols[j]`` holds field ``j`` of every item; a column that is None holds the field's default
    for every item. Returns the parts: iterables that each yield one piece per item, in item order
    (an item's encoding is its pieces in part order). A value outside the common case (a null, a
    number beyond the varint tables) raises KeyError/TypeError/IndexError/AttributeError/ValueError,
    and the caller falls back to the general loop.
    """
    parts = []
    col = cols[0]
    if col is None:  # a None fails in len() or encode() below, and the general path says why
        raise TypeError("nulls take the general path")
    # strings repeat (header keys): each distinct one is encoded once, with its length prefix
    encoded = {x: VARINT_BYTES[len(e)] + e for x in set(col) for e in (x.encode(),)}
    parts.append(map(encoded.__getitem__, col))
    col = cols[1]
    if col is None:  # every item null
        parts.append(repeat(b"\x01"))
        parts.append(repeat(b""))
    else:
        try:  # len(None) fails at once: cheaper than looking for None first
            parts.append(list(map(VARINT_BYTES.__getitem__, map(len, col))))
            parts.append(col)
        except TypeError:  # nulls among the items (or what the general loop refuses)
            parts.append([b"\x01" if x is None else VARINT_BYTES[len(x)] for x in col])
            parts.append([b"" if x is None else x for x in col])
    return parts


def header_pieces(items) -> Iterator[bytes]:
    """Each of ``items`` (pairs) encoded, one piece per item, by C-level calls without splitting the
    pairs into columns: ``starmap`` hands each pair to the dict of encoded keys' ``get`` (a pair of
    more than two fields fails there, one of fewer in ``itemgetter(1)``). Outside the common case
    raises as :func:`header_parts_of_columns` does.
    """
    # strings repeat (header keys): each distinct one is encoded once, with its length prefix
    encoded = {x: VARINT_BYTES[len(e)] + e for x in set(map(itemgetter(0), items)) for e in (x.encode(),)}
    col = list(map(itemgetter(1), items))
    try:  # len(None) fails at once: cheaper than looking for None first
        prefixes = list(map(VARINT_BYTES.__getitem__, map(len, col)))
    except TypeError:  # nulls among the items (or what the general loop refuses)
        prefixes = [b"\x01" if x is None else VARINT_BYTES[len(x)] for x in col]
        col = [b"" if x is None else x for x in col]
    return map(b"".join, zip(starmap(encoded.get, items), prefixes, col))


def _encode_header_columns(cols) -> bytes:
    """Encode column by column (:func:`header_parts_of_columns`) and join the pieces."""
    return b"".join(chain.from_iterable(zip(*header_parts_of_columns(cols))))


def encode_header_array(items) -> bytes:
    """Encode a sequence of Headers back to back (or a :class:`ColumnItems` of them)."""
    if type(items) is ColumnItems and len(items.columns) == 2:
        try:
            return _encode_header_columns(items.columns)
        except (KeyError, TypeError, IndexError, ValueError, AttributeError, struct.error):
            pass  # outside the common case: the general loop below encodes it or says what is wrong
    elif type(items) in (list, tuple) and len(items) >= _COLUMNS_FROM:
        try:
            return _encode_header_columns(transpose(items, 2))
        except (KeyError, TypeError, IndexError, ValueError, AttributeError, struct.error):
            pass  # outside the common case: the general loop below encodes it or says what is wrong
    out = bytearray()
    for item in items:
        (key, value) = item

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


# -- columnar decoding ------------------------------------------------------------


class HeaderColumns:
    """Decoded Headers as one list per field (columns, ready for Arrow)."""

    __slots__ = (
        "key",
        "value",
    )

    def __init__(self) -> None:
        self.key: list = []
        self.value: list = []

    def __len__(self) -> int:
        return len(self.key)

    def truncate(self, n: int) -> None:
        """Keep the first ``n`` items: drop what a failed decode appended."""
        del self.key[n:]
        del self.value[n:]


def decode_header_columns(buf, pos: int, count: int, columns: HeaderColumns, stop: int | None = None) -> int:
    """Decode ``count`` consecutive Headers at ``pos`` into ``columns``; return the position after them.

    ``stop`` (default: the end of ``buf``) is where what encloses them ends, as in
    :func:`decode_header_array`.

    Each item's values are appended once the whole item has decoded; on an
    error, ``columns.truncate(len_before)`` restores the columns.
    """
    if stop is None:
        stop = len(buf)
    if count < 0 or count > (stop - pos) // MIN_HEADER_SIZE:
        raise InvalidLengthError(
            f"{count} Headers cannot fit in the {stop - pos} bytes left before byte {stop}", pos
        )
    zigzag_1, zigzag_2 = ZIGZAG_1, ZIGZAG_2
    append_key = columns.key.append
    append_value = columns.value.append
    start = pos
    try:
        for _ in range(count):
            start = pos

            n = buf[pos]
            if n < 128:
                n = zigzag_1[n]
                pos += 1
            elif (b1 := buf[pos + 1]) < 128:
                n = zigzag_2[(n & 127) | (b1 << 7)]
                pos += 2
            else:
                n, pos = read_varint(buf, pos)
                if n > stop - pos:
                    raise InvalidLengthError(
                        f"Header key length {n} runs past byte {stop}, the end of what holds it", pos - 1
                    )
            if n >= 0:
                key = buf[pos : pos + n].decode()
                pos += n
            else:
                raise InvalidLengthError(
                    f"Header key length {n} is negative", pos - 1
                )  # its length's last byte

            n = buf[pos]
            if n < 128:
                n = zigzag_1[n]
                pos += 1
            elif (b1 := buf[pos + 1]) < 128:
                n = zigzag_2[(n & 127) | (b1 << 7)]
                pos += 2
            else:
                n, pos = read_varint(buf, pos)
                if n > stop - pos:
                    raise InvalidLengthError(
                        f"Header value length {n} runs past byte {stop}, the end of what holds it", pos - 1
                    )
            if n >= 0:
                value = buf[pos : pos + n]
                pos += n
            elif n == -1:
                value = None
            else:
                raise InvalidLengthError(
                    f"Header value length {n} is negative", pos - 1
                )  # its length's last byte
            append_key(key)
            append_value(value)
    except (IndexError, struct.error):
        raise TruncatedError("Header ends before its fields do", start) from None
    except UnicodeDecodeError as exc:
        raise KafkaFormatError(f"Header has a string that is not UTF-8: {exc.reason}", start) from None
    if pos > stop:
        raise TruncatedError(f"Header runs past byte {stop}, the end of what holds it", start)
    return pos
