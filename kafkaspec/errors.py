"""One exception hierarchy for every format problem.

Every error says what was wrong and at which byte position, in the spirit of
Kafka's ``CorruptRecordException`` messages. Callers that only care whether
input is good catch :class:`KafkaFormatError`.
"""

from __future__ import annotations


class KafkaFormatError(ValueError):
    """Input bytes do not follow the Kafka format they claim to be in.

    ``position`` is the absolute byte offset in the input where the problem was
    found (``None`` when unknown); ``source`` names the file, when there is one.
    """

    def __init__(self, message: str, position: int | None = None, source: str | None = None):
        self.reason = message
        self.position = position
        self.source = source
        super().__init__(self._render())

    def _render(self) -> str:
        where = []
        if self.source:
            where.append(self.source)
        if self.position is not None:
            where.append(f"byte {self.position}")
        return f"{self.reason} (at {', '.join(where)})" if where else self.reason

    def at(self, base: int = 0, source: str | None = None) -> KafkaFormatError:
        """Shift the position by ``base`` (a region's start in the whole input) and name the source."""
        if self.position is not None:
            self.position += base
        if source and not self.source:
            self.source = source
        self.args = (self._render(),)
        return self


class CorruptRecordError(KafkaFormatError):
    """A stored checksum does not match the bytes it covers."""


class InvalidMagicError(KafkaFormatError):
    """The magic byte names no format this library knows (or the wrong one for the call)."""


class TruncatedError(KafkaFormatError):
    """The input ends before a structure it has started."""


class InvalidLengthError(KafkaFormatError):
    """A length or count field disagrees with the bytes present."""


class UnsupportedCodecError(KafkaFormatError):
    """The compression attribute names a codec that does not exist or is not allowed here."""


class DecompressionError(KafkaFormatError):
    """A compressed region could not be decompressed by its codec."""


class LimitExceededError(KafkaFormatError):
    """Input would exceed a safety limit (decompressed size, record count, nesting)."""


class NoticeWarning(UserWarning):
    """Something a reader did that the user should know of, though nothing failed; the CLI prints each
    as one line on stderr (``kafkaspec dump: warning: ...``)."""


class SkippedDirWarning(NoticeWarning):
    """A directory of a log directory was not read (a symbolic link, or a name Kafka would not load):
    :attr:`kafkaspec.logdir.LogDir.skipped` lists them; the CLI prints each as one line on stderr.

    ``path`` is the directory (as one line of text), ``reason`` why it was passed over."""

    def __init__(self, path: str, reason: str):
        super().__init__(f"{path}: skipped: {reason}")
        self.path = path
        self.reason = reason


class UnnamedPartitionWarning(NoticeWarning):
    """A segment or folder opened on its own whose folder is not named ``<topic>-<partition>``: its
    records are read as topic ``path``'s folder name and partition -1, which are not Kafka's names."""

    def __init__(self, path: str, topic: str):
        super().__init__(
            f"{path}: not in a <topic>-<partition> directory: read as topic {topic!r}, partition -1 "
            "(the real topic and partition are unknown)"
        )
        self.path = path


class OutOfMemoryError(MemoryError):
    """The process ran out of memory reading input that may well be valid: a resource problem, not a
    format problem, so deliberately not a :class:`KafkaFormatError` (the CLI exits 2, not 1).

    ``position`` is the byte where the structure being read starts (``None`` when unknown).
    """

    def __init__(self, message: str, position: int | None = None):
        self.reason = message
        self.position = position
        super().__init__(message if position is None else f"{message} (at byte {position})")
