"""What every decoded log entry holds: its head, where it sits in the buffer, and its records once decoded."""

from __future__ import annotations

from .compression import DEFAULT_MAX_DECOMPRESSED


class BufferedEntry:
    """A log entry (v2 batch or legacy message) viewed in place; records are decoded on first use."""

    __slots__ = ("head", "_buf", "position", "end", "_records", "max_decompressed")

    def __init__(self, head, buf, position: int, end: int, max_decompressed: int = DEFAULT_MAX_DECOMPRESSED):
        self.head = head
        self._buf = buf
        self.position = position
        self.end = end
        self._records = None
        self.max_decompressed = max_decompressed

    @property
    def size(self) -> int:
        """Bytes the entry occupies, log overhead included."""
        return self.end - self.position

    def raw(self) -> bytes:
        """The entry's bytes, exactly as stored."""
        return bytes(self._buf[self.position : self.end])
