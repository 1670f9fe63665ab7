"""Kafka 0.6/0.7 messages (seed 002): byte-offset message streams, read and built.

A 0.6 message (MAGIC 0) is LENGTH, MAGIC, CHECKSUM (CRC-32 of the payload),
PAYLOAD; a 0.7 message (MAGIC 1) adds COMPRESSION, and a compressed one wraps
an inner message set. A message's offset is its byte position in the
partition log.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

from kafkaspec.generated import wire_message_v0, wire_message_v1

from .codec.compression import (
    DEFAULT_MAX_DECOMPRESSED,
    codec_argument,
    codec_name,
    compress,
    decompress,
)
from .entry import Buffer, Partial
from .errors import (
    InvalidLengthError,
    InvalidMagicError,
    KafkaFormatError,
    LimitExceededError,
    TruncatedError,
    UnsupportedCodecError,
)

WIRE_MODULES = {0: wire_message_v0, 1: wire_message_v1}
#: smallest LENGTH of a 0.6/0.7 message: magic, [compression], checksum
MIN_WIRE_LENGTH = {magic: module.MIN_LENGTH for magic, module in WIRE_MODULES.items()}
_LENGTH = struct.Struct(">i")
#: the codecs 0.7 knew; its reader (CompressionCodec.getCompressionCodec) threw UnknownCodecException for others
WIRE_CODECS = (1, 2)


class WireRecord(NamedTuple):
    """One 0.6/0.7 message's content; ``offset`` is the byte offset a consumer fetches from."""

    offset: int
    payload: bytes
    magic: int
    compression: int


class WireBatch:
    """One top-level 0.6/0.7 message: plain, or compressed around an inner message set.

    ``offset`` is the message's byte offset in the partition log (the fetch
    offset plus its position in the response); ``next_offset`` = offset +
    LENGTH + 4. Inner messages of a compressed message are not addressable on
    their own (seed 002), so their records carry the wrapper's offset.
    """

    __slots__ = ("message", "offset", "position", "end", "_records", "max_decompressed", "_buf")

    def __init__(
        self, message: Any, offset: int, position: int, end: int, max_decompressed: int, buf: Buffer = b""
    ):
        self.message, self.offset, self.position, self.end, self._buf = message, offset, position, end, buf
        self._records: list[WireRecord] | None = None
        self.max_decompressed = max_decompressed

    magic = property(lambda self: self.message.magic)
    payload = property(lambda self: self.message.payload)
    checksum = property(lambda self: self.message.checksum)

    @property
    def codec(self) -> int:
        return self.message.compression & wire_message_v1.CODEC_MASK if self.message.magic == 1 else 0

    @property
    def compression(self) -> str:
        return codec_name(self.codec)

    @property
    def next_offset(self) -> int:
        return self.offset + self.end - self.position

    @property
    def records(self) -> list[WireRecord]:
        if self._records is None:
            if not self.codec:
                self._records = [WireRecord(self.offset, self.payload, self.magic, 0)]
            else:
                if self.codec not in WIRE_CODECS:
                    raise UnsupportedCodecError(
                        f"0.7 message COMPRESSION {self.codec} names no 0.7 codec (0.7 knew none 0, gzip 1 and "
                        "snappy 2)",
                        self.position,
                    )
                data = decompress(
                    self.codec, self.payload, max_size=self.max_decompressed, position=self.position, magic=0
                )
                inner = WireMessageIterator(data, max_decompressed=self.max_decompressed, _nested=True)
                try:
                    self._records = [WireRecord(self.offset, m.payload, m.magic, 0) for m in inner]
                except KafkaFormatError as exc:
                    raise type(exc)(
                        f"in the decompressed payload of the message at byte {self.position}: "
                        f"{exc.reason} (at decompressed byte {exc.position})",
                        self.position,
                    ) from None
                if inner.partial is not None:
                    raise TruncatedError("compressed message set ends inside a message", self.position)
        return self._records

    def __iter__(self) -> Iterator[WireRecord]:
        return iter(self.records)

    def raw(self) -> bytes:
        return bytes(self._buf[self.position : self.end])

    def __repr__(self) -> str:
        return f"WireBatch(magic={self.magic}, offset={self.offset}, compression={self.compression!r})"


class WireMessageIterator:
    """Iterates 0.6/0.7 messages; a trailing partial message ends it and is kept in :attr:`partial`."""

    def __init__(
        self,
        data: Buffer,
        *,
        base_offset: int = 0,
        verify: bool = True,
        max_decompressed: int = DEFAULT_MAX_DECOMPRESSED,
        _nested: bool = False,
    ):
        self._buf = bytes(data)
        self._pos = 0
        self.base_offset = base_offset
        self.verify = verify
        self.max_decompressed = max_decompressed
        self.partial: Partial | None = None
        self._nested = _nested

    def __iter__(self) -> WireMessageIterator:
        return self

    def __next__(self) -> WireBatch:
        buf, pos = self._buf, self._pos
        end = len(buf)
        if pos >= end:
            raise StopIteration
        if end - pos < 5:
            self.partial = Partial(pos, end - pos, None)
            self._pos = end
            raise StopIteration
        (length,) = _LENGTH.unpack_from(buf, pos)
        if length >= 0 and pos + 4 + length > end:
            self.partial = Partial(pos, end - pos, 4 + length)
            self._pos = end
            raise StopIteration
        magic = buf[pos + 4]
        module = WIRE_MODULES.get(magic)
        if module is None:
            raise InvalidMagicError(f"0.6/0.7 message MAGIC is {magic}, expected 0 or 1", pos + 4)
        if length < MIN_WIRE_LENGTH[magic]:
            raise InvalidLengthError(
                f"0.6/0.7 message LENGTH is {length}, at least {MIN_WIRE_LENGTH[magic]} expected", pos
            )
        message, new_pos = module.decode_wire_message(buf, pos, verify=self.verify)
        if self._nested and magic == 1 and message.compression & wire_message_v1.CODEC_MASK:
            raise LimitExceededError(
                "a compressed message holds another compressed message (nesting is not allowed)", pos
            )
        self._pos = new_pos
        return WireBatch(message, self.base_offset + pos, pos, new_pos, self.max_decompressed, buf)


def iter_wire_messages(
    data: Buffer,
    *,
    base_offset: int = 0,
    verify: bool = True,
    max_decompressed: int = DEFAULT_MAX_DECOMPRESSED,
) -> WireMessageIterator:
    """Iterate the 0.6/0.7 messages in ``data`` (a fetch response's MESSAGES, a 0.7 log segment).

    ``base_offset`` is the byte offset of ``data[0]`` in the partition log (the
    fetch request's OFFSET); each message's offset is base_offset + position.
    A message cut off at the end is not an error (seed 002): iteration stops
    and the iterator's ``partial`` says where and how much was left.
    """
    return WireMessageIterator(
        data, base_offset=base_offset, verify=verify, max_decompressed=max_decompressed
    )


def build_wire_messages(
    payloads: Sequence[bytes], *, magic: int = 1, compression: str | int = "none"
) -> bytes:
    """Encode payloads as 0.6 (magic 0) or 0.7 (magic 1) messages; compressed: one message around them.

    Misuse raises ValueError or TypeError naming the argument: ``magic`` other than 0 or 1, a
    ``compression`` that is no codec or one the format lacks (0.6: none; 0.7: none, gzip, snappy).
    """
    if type(magic) is not int or magic not in (0, 1):
        raise ValueError(f"magic must be 0 (a 0.6 message) or 1 (0.7), got {magic!r}")
    codec = codec_argument(compression)
    if isinstance(payloads, (bytes, bytearray, memoryview, str)):
        raise TypeError("payloads must be a sequence of bytes, not one bytes or str value")
    if magic == 0:
        if codec:
            raise ValueError(f"compression={compression!r}: 0.6 messages (magic 0) cannot be compressed")
        return b"".join(wire_message_v0.encode_wire_message(payload=p) for p in payloads)
    if codec and codec not in WIRE_CODECS:
        raise ValueError(f"compression={compression!r}: 0.7 messages know only none, gzip and snappy")
    plain = b"".join(wire_message_v1.encode_wire_message(compression=0, payload=p) for p in payloads)
    if not codec:
        return plain
    return wire_message_v1.encode_wire_message(compression=codec, payload=compress(codec, plain, magic=0))
