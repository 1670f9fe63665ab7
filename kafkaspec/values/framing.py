"""The Schema Registry wire framing, as Confluent's serializers write it: a magic byte 0, the schema id
as a 4-byte big-endian integer, then the payload. Protobuf payloads start with the message indexes
(the path of the message type in its file): a zig-zag varint count then each index as a zig-zag
varint, the common ``[0]`` written as the single byte 0.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["MAGIC", "Frame", "FramingError", "message_indexes", "unframe"]

MAGIC = 0
HEADER = 5
#: more message indexes than this is not a path in any real .proto file
MAX_INDEXES = 256


class FramingError(ValueError):
    """The bytes are not registry framed; ``position`` is the byte in the value."""

    def __init__(self, reason: str, position: int) -> None:
        super().__init__(f"{reason} (at byte {position} of the value)")
        self.reason = reason
        self.position = position


class Frame(NamedTuple):
    schema_id: int
    #: where the payload starts in the value
    start: int


def unframe(value: bytes) -> Frame:
    """The schema id and payload start of a framed value."""
    if len(value) < HEADER:
        raise FramingError(
            f"{len(value)} bytes is shorter than the registry header (magic byte and 4-byte id)", len(value)
        )
    if value[0] != MAGIC:
        raise FramingError(f"magic byte {value[0]}, not the registry's 0", 0)
    return Frame(int.from_bytes(value[1:5], "big", signed=True), HEADER)


def _zigzag(value: bytes, pos: int) -> tuple[int, int]:
    """One zig-zag varint (at most 5 bytes: a Java int) from ``pos``; (value, next position)."""
    result = shift = 0
    for i in range(5):
        if pos + i >= len(value):
            raise FramingError("the message indexes end inside a varint", pos + i)
        b = value[pos + i]
        result |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return (result >> 1) ^ -(result & 1), pos + i + 1
    raise FramingError("a message-index varint longer than 5 bytes", pos)


def message_indexes(value: bytes, pos: int) -> tuple[list[int], int]:
    """The Protobuf message indexes from ``pos``; (indexes, where the message starts)."""
    count, p = _zigzag(value, pos)
    if count == 0:
        return [0], p
    if count < 0 or count > MAX_INDEXES:
        raise FramingError(f"{count} message indexes (0..{MAX_INDEXES} is a path in a .proto file)", pos)
    out = []
    for _ in range(count):
        at = p
        i, p = _zigzag(value, p)
        if i < 0:
            raise FramingError(f"message index {i} is negative", at)
        out.append(i)
    return out, p
