"""RecordBatch v2: A batch of one or more records: the unit a producer writes, a broker stores
and a consumer fetches, and the unit of compression. A log segment is a
plain concatenation of batches. Empty batches (records_count 0) are legal
after compaction, which keeps a batch to preserve the producer's last
sequence.

Since Kafka 0.11.0.

Generated from schemas/record_batch_v2.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple

from kafkaspec.codec.compression import DEFAULT_MAX_DECOMPRESSED, compress, decompress
from kafkaspec.codec.crc import chained, crc32c
from kafkaspec.errors import (
    CorruptRecordError,
    InvalidLengthError,
    InvalidMagicError,
    KafkaFormatError,
    TruncatedError,
)
from kafkaspec.generated.enums import CompressionType, TimestampType, members

from .record_v2 import RecordColumns, decode_record_array, decode_record_columns, encode_record_array_parts

SCHEMA = "schemas/record_batch_v2.yaml"
NAME = "RecordBatch"
VERSION = 2
SINCE = "0.11.0"

# -- layout ------------------------------------------------------------------

BASE_OFFSET_OFFSET = 0
BASE_OFFSET_LENGTH = 8
BATCH_LENGTH_OFFSET = BASE_OFFSET_OFFSET + BASE_OFFSET_LENGTH
BATCH_LENGTH_LENGTH = 4
PARTITION_LEADER_EPOCH_OFFSET = BATCH_LENGTH_OFFSET + BATCH_LENGTH_LENGTH
PARTITION_LEADER_EPOCH_LENGTH = 4
MAGIC_OFFSET = PARTITION_LEADER_EPOCH_OFFSET + PARTITION_LEADER_EPOCH_LENGTH
MAGIC_LENGTH = 1
CRC_OFFSET = MAGIC_OFFSET + MAGIC_LENGTH
CRC_LENGTH = 4
ATTRIBUTES_OFFSET = CRC_OFFSET + CRC_LENGTH
ATTRIBUTES_LENGTH = 2
LAST_OFFSET_DELTA_OFFSET = ATTRIBUTES_OFFSET + ATTRIBUTES_LENGTH
LAST_OFFSET_DELTA_LENGTH = 4
BASE_TIMESTAMP_OFFSET = LAST_OFFSET_DELTA_OFFSET + LAST_OFFSET_DELTA_LENGTH
BASE_TIMESTAMP_LENGTH = 8
MAX_TIMESTAMP_OFFSET = BASE_TIMESTAMP_OFFSET + BASE_TIMESTAMP_LENGTH
MAX_TIMESTAMP_LENGTH = 8
PRODUCER_ID_OFFSET = MAX_TIMESTAMP_OFFSET + MAX_TIMESTAMP_LENGTH
PRODUCER_ID_LENGTH = 8
PRODUCER_EPOCH_OFFSET = PRODUCER_ID_OFFSET + PRODUCER_ID_LENGTH
PRODUCER_EPOCH_LENGTH = 2
BASE_SEQUENCE_OFFSET = PRODUCER_EPOCH_OFFSET + PRODUCER_EPOCH_LENGTH
BASE_SEQUENCE_LENGTH = 4
RECORDS_COUNT_OFFSET = BASE_SEQUENCE_OFFSET + BASE_SEQUENCE_LENGTH
RECORDS_COUNT_LENGTH = 4
RECORDS_OFFSET = RECORDS_COUNT_OFFSET + RECORDS_COUNT_LENGTH
RECORD_BATCH_OVERHEAD = RECORDS_OFFSET  # bytes before the first variable-size field
BATCH_LENGTH_END = BATCH_LENGTH_OFFSET + BATCH_LENGTH_LENGTH  # batch_length counts from here
MIN_BATCH_LENGTH = RECORD_BATCH_OVERHEAD - BATCH_LENGTH_END  # the fixed-width fields batch_length covers

COMPRESSION_MASK = 0x07  # attributes bits 0-2
COMPRESSION_SHIFT = 0
TIMESTAMP_TYPE_MASK = 0x08  # attributes bit 3
TIMESTAMP_TYPE_SHIFT = 3
IS_TRANSACTIONAL_MASK = 0x10  # attributes bit 4
IS_TRANSACTIONAL_SHIFT = 4
IS_CONTROL_MASK = 0x20  # attributes bit 5
IS_CONTROL_SHIFT = 5
HAS_DELETE_HORIZON_MASK = 0x40  # attributes bit 6
HAS_DELETE_HORIZON_SHIFT = 6

# attributes bits:
# -------------------------------------------------------------
# | 0-2   | compression            | CompressionType    |
# | 3     | timestamp_type         | TimestampType      |
# | 4     | is_transactional       | flag               |
# | 5     | is_control             | flag               |
# | 6     | has_delete_horizon     | flag               |
# -------------------------------------------------------------
_COMPRESSION_MEMBERS = members(CompressionType, 3)
_TIMESTAMP_TYPE_MEMBERS = members(TimestampType, 1)


_S0 = struct.Struct(">qiibIhiqqqhii")
_S1 = struct.Struct(">qi")
_S2 = struct.Struct(">ibI")
_S3 = struct.Struct(">hiqqqhii")
_new = tuple.__new__


# -- typed values ---------------------------------------------------------------


class RecordBatch(NamedTuple):
    """A batch of one or more records: the unit a producer writes, a broker stores and
    a consumer fetches, and the unit of compression. A log segment is a plain
    concatenation of batches. Empty batches (records_count 0) are legal after
    compaction, which keeps a batch to preserve the producer's last sequence.

    Fields:
        base_offset: Offset of the first record; record offsets are base_offset +
            offset_delta.
        partition_leader_epoch: Epoch of the leader that appended the batch; assigned by the broker
            on every append, which is why the CRC does not cover it.
        magic: Format version; at byte 16 in every log entry version, so a reader
            checks it first.
        crc: CRC-32C (Castagnoli) of everything from attributes to the end of the
            batch.
        attributes: Batch flags; bits 7-15 are unused and must be zero.
        last_offset_delta: offset_delta of the last record; kept through compaction so the
            batch's last offset survives.
        base_timestamp: Timestamp of the first record (or the delete horizon, see
            attributes); record timestamps are deltas from it.
        max_timestamp: Largest record timestamp; under LogAppendTime the broker's append
            time, which applies to every record.
        producer_id: Idempotent/transactional producer id, -1 when the producer has none.
        producer_epoch: Producer epoch, -1 when unused.
        base_sequence: Sequence number of the first record, -1 when unused; record
            sequences are base_sequence + offset_delta.
        records: The records; when compressed, the compressed bytes follow
            records_count directly.
    """

    base_offset: int | None = None
    partition_leader_epoch: int = -1
    magic: int = 2
    crc: int | None = None
    attributes: int = 0
    last_offset_delta: int | None = None
    base_timestamp: int | None = None
    max_timestamp: int | None = None
    producer_id: int = -1
    producer_epoch: int = -1
    base_sequence: int = -1
    records: Sequence = ()

    @property
    def compression(self) -> CompressionType | int:
        """Codec of the records region. (a CompressionType member; an int where no member has the value)"""
        return _COMPRESSION_MEMBERS[self.attributes & COMPRESSION_MASK]

    @property
    def timestamp_type(self) -> TimestampType | int:
        """0 CreateTime, 1 LogAppendTime. (a TimestampType member; an int where no member has the value)"""
        return _TIMESTAMP_TYPE_MEMBERS[(self.attributes & TIMESTAMP_TYPE_MASK) >> TIMESTAMP_TYPE_SHIFT]

    @property
    def is_transactional(self) -> bool:
        """The batch belongs to a transaction."""
        return bool(self.attributes & IS_TRANSACTIONAL_MASK)

    @property
    def is_control(self) -> bool:
        """The batch holds exactly one control record."""
        return bool(self.attributes & IS_CONTROL_MASK)

    @property
    def has_delete_horizon(self) -> bool:
        """base_timestamp holds the delete horizon set by compaction."""
        return bool(self.attributes & HAS_DELETE_HORIZON_MASK)


class RecordBatchHead(NamedTuple):
    """The head of a RecordBatch v2: its fixed-size leading fields, every one before the first variable-size field."""

    base_offset: int
    batch_length: int
    partition_leader_epoch: int
    magic: int
    crc: int
    attributes: int
    last_offset_delta: int
    base_timestamp: int
    max_timestamp: int
    producer_id: int
    producer_epoch: int
    base_sequence: int
    records_count: int

    # the same attributes bits, read by the same properties
    compression = RecordBatch.compression
    timestamp_type = RecordBatch.timestamp_type
    is_transactional = RecordBatch.is_transactional
    is_control = RecordBatch.is_control
    has_delete_horizon = RecordBatch.has_delete_horizon


# -- fast codec -----------------------------------------------------------------


def decode_record_batch_head(buf, pos: int = 0) -> RecordBatchHead:
    """Unpack the head at ``pos``; nothing is checked yet (:func:`check_record_batch` does that)."""
    try:
        return _new(RecordBatchHead, _S0.unpack_from(buf, pos))
    except struct.error:
        raise TruncatedError(
            f"RecordBatch head needs {RECORD_BATCH_OVERHEAD} bytes, {len(buf) - pos} left", pos
        ) from None


def check_record_batch(buf, pos: int, head: RecordBatchHead, *, verify: bool = True) -> int:
    """Check the head at ``pos``: batch_length fits the buffer, magic is 2, crc matches and records_count is not negative; return the end position.

    ``verify=False`` skips the checksum.
    """
    start = pos

    batch_length, magic, crc, records_count = head.batch_length, head.magic, head.crc, head.records_count

    end = start + BATCH_LENGTH_END + batch_length
    # shorter than the fixed fields it covers: they would be read past the end
    if batch_length < MIN_BATCH_LENGTH:
        raise InvalidLengthError(
            f"RecordBatch batch_length is {batch_length}, less than the {MIN_BATCH_LENGTH} bytes of fixed fields it covers",
            start,
        )
    if end > len(buf):
        raise TruncatedError(f"RecordBatch needs {end - start} bytes, {len(buf) - start} present", start)
    if magic != 2:
        raise InvalidMagicError(f"RecordBatch magic is {magic}, expected 2", start + MAGIC_OFFSET)
    if verify:
        actual = crc32c(memoryview(buf)[start + ATTRIBUTES_OFFSET : end])
        if actual != crc:
            raise CorruptRecordError(
                f"RecordBatch crc is {crc:#010x}, CRC32C of bytes {start + ATTRIBUTES_OFFSET}..{end} is {actual:#010x}",
                start,
            )
    if records_count < 0:
        raise InvalidLengthError(
            f"RecordBatch records_count {records_count} is negative", start + RECORDS_COUNT_OFFSET
        )
    return end


def _decode_records_region(
    buf,
    pos: int,
    end: int,
    codec: int,
    start: int,
    max_decompressed: int,
    n: int,
    base_offset,
    base_timestamp,
    columns=None,
):
    """Decompress the records of the RecordBatch at ``start`` (bytes ``pos`` to ``end``) and decode its ``n`` items: into ``columns`` when given (then return None), else as a list.

    An error inside the region names the RecordBatch and the decompressed byte.
    """
    region = decompress(codec, memoryview(buf)[pos:end], max_size=max_decompressed, position=pos, magic=2)
    try:
        if columns is None:
            records, used = decode_record_array(region, 0, n, base_offset, base_timestamp)
        else:
            records, used = None, decode_record_columns(region, 0, n, base_offset, base_timestamp, columns)
    except KafkaFormatError as exc:
        raise type(exc)(
            f"in the decompressed records of the RecordBatch at byte {start}: {exc.reason} (at decompressed byte {exc.position})",
            pos,
        ) from None
    if used != len(region):
        raise InvalidLengthError(f"RecordBatch records use {used} of {len(region)} decompressed bytes", pos)
    return records


def decode_record_batch_rest(
    buf, pos: int, head: RecordBatchHead, end: int, *, max_decompressed: int = DEFAULT_MAX_DECOMPRESSED
) -> tuple:
    """Decode the fields after the head at ``pos``, up to ``end`` (from :func:`check_record_batch`, which has checked the head); return them as a tuple."""
    start = pos

    base_offset, attributes, base_timestamp, records_count = (
        head.base_offset,
        head.attributes,
        head.base_timestamp,
        head.records_count,
    )
    pos += RECORD_BATCH_OVERHEAD
    try:
        n = records_count
        codec = attributes & COMPRESSION_MASK
        if codec:
            records = _decode_records_region(
                buf, pos, end, codec, start, max_decompressed, n, base_offset, base_timestamp
            )
            pos = end
        else:
            records, pos = decode_record_array(buf, pos, n, base_offset, base_timestamp, end)
    except (IndexError, struct.error):
        raise TruncatedError("RecordBatch ends before its fields do", start) from None
    if pos != end:
        raise InvalidLengthError(f"RecordBatch fields end at byte {pos}, its length says {end}", start)
    return (records,)


def decode_record_batch(
    buf, pos: int = 0, *, verify: bool = True, max_decompressed: int = DEFAULT_MAX_DECOMPRESSED
) -> tuple[RecordBatch, int]:
    """Decode one RecordBatch v2 at ``pos``: head, checks, the rest; return it and the position after it."""
    head = decode_record_batch_head(buf, pos)
    end = check_record_batch(buf, pos, head, verify=verify)
    (records,) = decode_record_batch_rest(buf, pos, head, end, max_decompressed=max_decompressed)
    return RecordBatch(
        head.base_offset,
        head.partition_leader_epoch,
        head.magic,
        head.crc,
        head.attributes,
        head.last_offset_delta,
        head.base_timestamp,
        head.max_timestamp,
        head.producer_id,
        head.producer_epoch,
        head.base_sequence,
        records,
    ), end


def encode_record_batch(
    *,
    base_offset,
    partition_leader_epoch=-1,
    attributes=0,
    last_offset_delta,
    base_timestamp,
    max_timestamp,
    producer_id=-1,
    producer_epoch=-1,
    base_sequence=-1,
    records=(),
    compress_options: dict | None = None,
) -> bytes:
    """Encode one RecordBatch v2; length, count and checksum fields are computed."""

    d3 = encode_record_array_parts(records, base_offset, base_timestamp)
    codec = attributes & COMPRESSION_MASK
    if codec:
        d3 = [compress(codec, b"".join(d3), magic=2, **(compress_options or {}))]

    p2 = _S3.pack(
        attributes,
        last_offset_delta,
        base_timestamp,
        max_timestamp,
        producer_id,
        producer_epoch,
        base_sequence,
        len(records),
    )

    p1 = _S2.pack(partition_leader_epoch, 2, chained(crc32c, d3, crc32c(p2)))

    p0 = _S1.pack(base_offset, len(p1) + len(p2) + sum(map(len, d3)))
    return b"".join((p0, p1, p2, *d3))


# -- columnar decoding ------------------------------------------------------------


def decode_record_batch_columns(
    buf,
    pos: int,
    head: RecordBatchHead,
    end: int,
    columns: RecordColumns,
    *,
    max_decompressed: int = DEFAULT_MAX_DECOMPRESSED,
) -> int:
    """Decode the records of the RecordBatch at ``pos`` straight into ``columns``; return how many.

    Like :func:`decode_record_batch_rest` (``end`` comes from :func:`check_record_batch`, which
    has checked the head), without building per-item objects.
    """
    start = pos

    base_offset, attributes, base_timestamp, records_count = (
        head.base_offset,
        head.attributes,
        head.base_timestamp,
        head.records_count,
    )
    pos += RECORD_BATCH_OVERHEAD
    try:
        n = records_count
        codec = attributes & COMPRESSION_MASK
        if codec:
            _decode_records_region(
                buf, pos, end, codec, start, max_decompressed, n, base_offset, base_timestamp, columns
            )
            pos = end
        else:
            pos = decode_record_columns(buf, pos, n, base_offset, base_timestamp, columns, end)
    except (IndexError, struct.error):
        raise TruncatedError("RecordBatch ends before its fields do", start) from None
    if pos != end:
        raise InvalidLengthError(f"RecordBatch fields end at byte {pos}, its length says {end}", start)
    return n
