"""kafkaspec: Apache Kafka's record formats from one declarative spec.

>>> import kafkaspec
>>> data = kafkaspec.build_batch([kafkaspec.Record(key=b"k", value=b"v", timestamp=1)], compression="zstd")
>>> [(r.offset, r.key, r.value) for b in kafkaspec.iter_batches(data) for r in b]
[(0, b'k', b'v')]
"""

import kafkaspec.command_signals

if kafkaspec.command_signals.is_the_command():  # first, before the imports below take their half second
    kafkaspec.command_signals.install()
    kafkaspec.command_signals.drop_working_dir()

from kafkaspec.builder import build_batch, build_control_batch
from kafkaspec.conversion import Converted, convert
from kafkaspec.entry import ControlRecord, LogBatch, Partial, Skipped
from kafkaspec.errors import (
    CorruptRecordError,
    DecompressionError,
    InvalidLengthError,
    InvalidMagicError,
    KafkaFormatError,
    LimitExceededError,
    OutOfMemoryError,
    TruncatedError,
    UnsupportedCodecError,
)
from kafkaspec.generated.header_v2 import Header
from kafkaspec.generated.record_v2 import Record
from kafkaspec.message_set import LegacyBatch
from kafkaspec.records import Batch, BatchIterator, iter_batches, parse_control_record
from kafkaspec.wire import WireBatch, build_wire_messages, iter_wire_messages

__version__ = "0.1.0"

__all__ = [
    "Batch",
    "BatchIterator",
    "ControlRecord",
    "Converted",
    "CorruptRecordError",
    "DecompressionError",
    "InvalidLengthError",
    "InvalidMagicError",
    "Header",
    "KafkaFormatError",
    "LegacyBatch",
    "LimitExceededError",
    "LogBatch",
    "OutOfMemoryError",
    "Partial",
    "Record",
    "Skipped",
    "TruncatedError",
    "UnsupportedCodecError",
    "WireBatch",
    "build_batch",
    "build_control_batch",
    "build_wire_messages",
    "convert",
    "iter_batches",
    "iter_wire_messages",
    "parse_control_record",
]
