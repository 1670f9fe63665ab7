"""One exception hierarchy for every format problem, and the index of every exception class of kafkaspec.

Every error says what was wrong and at which byte position, in the spirit of
Kafka's ``CorruptRecordException`` messages. Callers that only care whether
input is good catch :class:`KafkaFormatError`.

The errors of the format, of the log invariants and of a missing extra are defined here. The others
belong to one layer (a store, the Spark source, the spec, a command) and are defined there, beside the
code that raises them: :data:`ELSEWHERE` lists each with its module and one line, and each is importable
from here too (``from kafkaspec.errors import StorageError``), loading its module only then, so this module
still imports nothing. tests/test_errors_index.py fails on an exception class of kafkaspec found in
neither place.
"""

from __future__ import annotations

import importlib
from typing import Any


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


class UsageError(ValueError):
    """A command was asked for something it cannot do as asked (an option that does not go with another,
    an output inside its input): a usage mistake, not a fault. The CLI prints the message alone, which
    says what to do instead, and exits 2."""


class DestinationError(Exception):
    """An output cannot be written as asked: not what it must be, a catalog that does not answer, another
    run that committed first. Nothing was written; the message says what and where. The CLI prints the
    message alone and exits 2."""


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


class MissingExtraError(ModuleNotFoundError):
    """An optional dependency is not installed; the message names the extra that brings it
    (:func:`kafkaspec.codec.extras.require`)."""


class InvalidTopicError(KafkaFormatError):
    """A topic name Kafka would refuse, or a partition number outside 0..2147483647; the message names
    the topic (escaped, so it is always one line) and the rule it breaks."""


class InvariantError(KafkaFormatError):
    """Input that would break one of Kafka's log invariants (the module docstring of
    :mod:`kafkaspec.logdir.kafka.batch_surgery` lists them); the message names the batch (or Spark row)
    at fault and the invariant."""


class DuplicatePartitionError(KafkaFormatError):
    """The source holds the same topic-partition more than once (nested data dirs); the message names
    every copy. Copies are not merged: which batch of which copy comes first is not in the data."""


class DataLossError(KafkaFormatError):
    """Offsets a reader had not read yet are gone from the log (retention deleted them): a streaming
    query's (``failOnDataLoss``), or a table run's below its committed offset (``fail_on_data_loss``)."""


#: The exception classes defined in other modules: name -> (module, what it means, in one line).
ELSEWHERE: dict[str, tuple[str, str]] = {
    "FramingError": ("kafkaspec.values.framing", "a value is not registry framed (magic byte, schema id)"),
    "RegistryError": (
        "kafkaspec.values.registry",
        "the schema registry could not be asked, or answered with no schema",
    ),
    "TableError": (
        "kafkaspec.tables.errors",
        "a table destination cannot be written (not a table, not ours, a catalog, a concurrent run)",
    ),
    "TraceStop": ("kafkaspec.explain.tracer", "explain: decoding cannot go on (a signal, caught inside)"),
    "TooLarge": ("kafkaspec.explain.bounded", "explain: more spans than the caller's max_nodes"),
    "UnknownFormat": ("kafkaspec.explain.walk", "explain: a --format name that names no format"),
    "SchemaError": ("kafkaspec.spec.loader", "a schema file is not valid (file, field and problem)"),
    "SetupError": ("kafkaspec.logdir.store.clients", "a store's client could not be made (package, setting)"),
    "StorageError": ("kafkaspec.logdir.store.errors", "an object store refused or failed a request"),
    "ExistingPartitionError": (
        "kafkaspec.logdir.write.writer",
        "the writer will not write a partition that exists (raised before any write)",
    ),
    "OptionError": ("kafkaspec.spark.read.options", "an option value the kafkalog source cannot use"),
    "NotIncrementalError": (
        "kafkaspec.spark.run.incremental",
        "pipeline: OUT holds a full run, with no checkpoint to continue from",
    ),
    "OutputBusyError": ("kafkaspec.spark.run.incremental", "pipeline: another run holds OUT's lock"),
    "ReviewInputError": ("kafkaspec.review.locate", "review: a schema argument names nothing usable"),
    "SpecError": ("kafkaspec.review.kafka_specs", "review: a Kafka spec file that cannot be read"),
    "WhereError": ("kafkaspec.commands.rewrite", "rewrite: the --where expression failed on a record"),
    "ProposalPlanError": (
        "kafkaspec.codegen.plan_proposal",
        "generate: a proposal uses a feature the planner does not generate",
    ),
}


def __getattr__(name: str) -> Any:
    """An exception class of :data:`ELSEWHERE`, from its module (imported on first use)."""
    if name in ELSEWHERE:
        return getattr(importlib.import_module(ELSEWHERE[name][0]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
