"""kafkaspec: Apache Kafka's record formats from one declarative spec.

>>> import kafkaspec
>>> data = kafkaspec.build_batch([kafkaspec.Record(key=b"k", value=b"v", timestamp=1)], compression="zstd")
>>> [(r.offset, r.key, r.value) for b in kafkaspec.iter_batches(data) for r in b]
[(0, b'k', b'v')]
"""

from kafkaspec.generated.header_v2 import Header
from kafkaspec.generated.record_v2 import Record

from .builder import build_batch, build_control_batch
from .errors import (
    CorruptRecordError,
    DecompressionError,
    InvalidLengthError,
    InvalidMagicError,
    KafkaFormatError,
    LimitExceededError,
    TruncatedError,
    UnsupportedCodecError,
)
from .legacy import Converted, LegacyBatch, convert, iter_wire_messages  # noqa: E402 - after records
from .records import Batch, BatchIterator, ControlRecord, Partial, Skipped, iter_batches, parse_control_record

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
    "Partial",
    "Record",
    "Skipped",
    "TruncatedError",
    "UnsupportedCodecError",
    "build_batch",
    "build_control_batch",
    "convert",
    "iter_batches",
    "iter_wire_messages",
    "parse_control_record",
]
