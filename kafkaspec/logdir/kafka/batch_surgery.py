"""Batch surgery: one batch's bytes made again, for writers that keep what they copy.

:func:`rebuild_batch` re-encodes a decoded batch with a subset of its records or another
compression, keeping every batch-level field (what ``PartitionWriter.append_batch`` and
:func:`kafkaspec.logdir.copy` append); :func:`restamp_batch` edits a v2 batch's header in place
(base offset, timestamps, producer fields) and recomputes the CRC, so the records are never decoded
(what the Spark writer and ``synth`` use). Both refuse a batch that would break Kafka's invariants 2
and 4 (see :mod:`kafkaspec.logdir.write.writer`) with :class:`InvariantError`. One job, apart from the writer: neither
knows about segments, files or storage.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence

from kafkaspec.generated import record_batch_v2 as v2
from kafkaspec.generated.enums import ControlRecordType
from kafkaspec.generated.record_v2 import Record

from ...builder import build_batch
from ...codec.crc import crc32c
from ...entry import LogBatch
from ...errors import InvariantError as InvariantError
from ...records import parse_control_record

_U32 = struct.Struct(">I")
_I64 = struct.Struct(">q")
_TIMES = struct.Struct(">qq")
_PRODUCER = struct.Struct(">qhi")


def rebuild_batch(
    batch: LogBatch,
    records: Sequence[Record] | None = None,
    *,
    compression: str | None = None,
    where: str = "",
) -> bytes:
    """Encode ``batch`` again with ``records`` (default: its own) and ``compression`` (default: its
    own), keeping every batch-level field: base offset, last offset delta, producer id/epoch/base
    sequence, transactional and control flags, timestamp type, leader epoch and delete horizon.

    v2 only keeps everything; a legacy (magic 0/1) entry becomes the message(s) holding the
    records (at least one: a legacy wrapper cannot be empty). ``where`` names the batch in errors.
    """
    recs = list(batch.records if records is None else records)
    codec = batch.compression if compression is None else compression
    where = where or f"the batch at offset {batch.base_offset}"
    if batch.magic != 2:
        if not recs:
            raise InvariantError(
                f"{where}: a magic {batch.magic} entry cannot be empty (only RecordBatch v2 can)"
            )
        _check_record_offsets(recs, recs[0].offset, recs[-1].offset, where)
        log_append = batch.timestamp_type == "log_append"
        return build_batch(
            recs,
            magic=batch.magic,
            compression=codec,
            base_offset=recs[0].offset,
            timestamp_type=batch.timestamp_type,
            log_append_time=batch.max_timestamp if log_append else None,
        )
    last = batch.last_offset
    _check_record_offsets(recs, batch.base_offset, last, where)
    if batch.is_control:
        check_control(batch.is_transactional, recs, where)
        codec = batch.compression  # markers stay as they are (Kafka writes them uncompressed)
    log_append = batch.timestamp_type == "log_append"
    if batch.has_delete_horizon or not recs:
        # base_timestamp is the delete horizon (or, emptied, the batch's time as the cleaner keeps it):
        # record timestamps are deltas from it, so encode with it directly
        base_ts = batch.base_timestamp if batch.has_delete_horizon else batch.max_timestamp
        attributes = (batch.attributes & ~v2.COMPRESSION_MASK) | _codec_number(codec)
        return v2.encode_record_batch(
            base_offset=batch.base_offset,
            partition_leader_epoch=batch.partition_leader_epoch,
            attributes=attributes,
            last_offset_delta=batch.last_offset_delta,
            base_timestamp=base_ts,
            max_timestamp=batch.max_timestamp if (log_append or not recs) else max(r.timestamp for r in recs),
            producer_id=batch.producer_id,
            producer_epoch=batch.producer_epoch,
            base_sequence=batch.base_sequence,
            records=recs,
        )
    return build_batch(
        recs,
        magic=2,
        compression=codec,
        base_offset=batch.base_offset,
        producer_id=batch.producer_id,
        producer_epoch=batch.producer_epoch,
        base_sequence=batch.base_sequence,
        is_transactional=batch.is_transactional,
        is_control=batch.is_control,
        timestamp_type=batch.timestamp_type,
        partition_leader_epoch=batch.partition_leader_epoch,
        log_append_time=batch.max_timestamp if log_append else None,
        last_offset_delta=batch.last_offset_delta,
    )


def _codec_number(name: str) -> int:
    from ...codec.compression import codec_argument

    return codec_argument(name)


def _check_record_offsets(records: Sequence[Record], base: int, last: int, where: str) -> None:
    """Invariant 2: records in strictly increasing offset order, within [base, last]."""
    prev = base - 1
    for i, r in enumerate(records):
        o = r.offset
        if o is None or not prev < o <= last:
            what = (
                "has no offset"
                if o is None
                else (
                    f"offset {o} is not above the previous record's {prev}"
                    if o <= prev
                    else f"offset {o} is beyond the batch's last offset {last} (base offset {base} + last offset delta)"
                )
            )
            raise InvariantError(f"{where}: record {i} {what}")
        prev = o


def check_control(transactional: bool, records: Sequence[Record], where: str) -> None:
    """Invariant 4: one control record (none after the cleaner); abort/commit markers are transactional."""
    if len(records) > 1:
        raise InvariantError(f"{where}: a control batch holds exactly one control record, not {len(records)}")
    if records:
        control = parse_control_record(records[0].key, records[0].value)
        if control.type in (ControlRecordType.ABORT, ControlRecordType.COMMIT) and not transactional:
            article = "an" if control.type_name[0] in "aeiou" else "a"
            raise InvariantError(
                f"{where}: {article} {control.type_name} marker must be in a transactional batch"
            )


def restamp_batch(
    raw: bytearray,
    *,
    base_offset: int,
    timestamp_shift: int = 0,
    producer: tuple[int, int, int] | None = None,
    attributes_or: int = 0,
) -> bytearray:
    """Re-use a v2 batch's bytes: set its base offset, shift its timestamps, set the producer fields.

    Record offsets and timestamps are deltas, so the records stay valid; the CRC
    (over attributes..end) is recomputed when anything it covers changed.
    ``producer`` is (producer_id, producer_epoch, base_sequence); ``attributes_or``
    sets attribute bits (e.g. 0x40, has_delete_horizon).
    """
    _I64.pack_into(raw, v2.BASE_OFFSET_OFFSET, base_offset)
    dirty = False
    if timestamp_shift:
        base_ts, max_ts = _TIMES.unpack_from(raw, v2.BASE_TIMESTAMP_OFFSET)
        _TIMES.pack_into(raw, v2.BASE_TIMESTAMP_OFFSET, base_ts + timestamp_shift, max_ts + timestamp_shift)
        dirty = True
    if attributes_or:
        raw[v2.ATTRIBUTES_OFFSET + 1] |= attributes_or & 0xFF
        raw[v2.ATTRIBUTES_OFFSET] |= attributes_or >> 8
        dirty = True
    if producer is not None:
        _PRODUCER.pack_into(raw, v2.PRODUCER_ID_OFFSET, *producer)
        dirty = True
    if dirty:
        _U32.pack_into(raw, v2.CRC_OFFSET, crc32c(memoryview(raw)[v2.ATTRIBUTES_OFFSET :]))
    return raw


__all__ = ["InvariantError", "rebuild_batch", "restamp_batch"]
