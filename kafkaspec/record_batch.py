"""The v2 record batch (``RecordBatch``, magic 2) in a buffer: :class:`Batch`, its head fields in Kafka's
names and its records decoded on first use (streamed a chunk at a time when there are many), and
:func:`parse_control_record`, what a control batch's one record says.

Sans-IO, as :mod:`kafkaspec.records`, which finds the entries of a buffer and makes a :class:`Batch` of
each v2 one; legacy messages (magic 0 and 1) are :mod:`kafkaspec.message_set`'s. The record codec itself
is generated (``kafkaspec.generated.record_v2``); this view applies the batch's own rules to what it
decodes (LogAppendTime, offsets and timestamps within int64, the records count against the bytes).
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from operator import itemgetter

from kafkaspec.generated import control_record_key_v0 as ctl_key
from kafkaspec.generated import end_transaction_marker_v0 as end_txn
from kafkaspec.generated import record_batch_v2 as v2
from kafkaspec.generated.enums import ControlRecordType
from kafkaspec.generated.record_v2 import MIN_RECORD_SIZE, Record, decode_record_array

from .codec.compression import codec_name, decompress
from .entry import INT64, NEAR_INT64, TIMESTAMP_TYPES, Buffer, BufferedEntry, ControlRecord
from .errors import InvalidLengthError, KafkaFormatError, TruncatedError

#: int64's bounds as a half-open range: -_INT64 <= x < _INT64
_INT64 = -INT64[0]
_TIMESTAMP, _OFFSET, _HEADERS = itemgetter(1), itemgetter(2), itemgetter(5)
_new = tuple.__new__
#: a batch of more records than this is streamed when iterated: its records are decoded this many at
#: a time and not kept, so iterating a batch of millions of records holds its decompressed bytes
#: (bounded by max_decompressed) and one chunk of Record objects, never a list of them all
STREAM_CHUNK = 1024
#: recovery mode decodes a batch's records to check them before yielding it; a streamed batch (more than
#: STREAM_CHUNK records) keeps the list it decoded when that list's estimated size (its records region's
#: bytes, plus RECORD_COST a record and HEADER_COST a header) is at most this, so that a reader iterating
#: it next does not decode it again. Above it nothing is kept (memory stays bounded by a chunk, and the
#: records are decoded again when read); a reader holds at most two such lists, the batch it reads and
#: the one being checked
CHECK_KEEP_BYTES = 16 << 20
#: the memory a decoded record takes beyond its key's and value's bytes (its tuple, two ints, the key and
#: value objects, its headers list, its slot in the list): about 280 bytes measured, with a margin
RECORD_COST = 320
#: the same for a header (its tuple, the key and value objects, its slot in the headers list)
HEADER_COST = 160


class Batch(BufferedEntry):
    """One RecordBatch v2 in a buffer: head fields now, records decoded on first use."""

    __slots__ = ()
    magic = 2

    # -- head fields, in Kafka's names ---------------------------------------
    @property
    def base_offset(self) -> int:
        """Offset of the first record."""
        return self.head.base_offset

    @property
    def partition_leader_epoch(self) -> int:
        """The leader epoch of the broker that appended the batch (-1: none)."""
        return self.head.partition_leader_epoch

    @property
    def crc(self) -> int:
        """The stored CRC-32C of attributes..end."""
        return self.head.crc

    @property
    def attributes(self) -> int:
        """The attribute bits (codec, timestamp type, transactional, control, delete horizon)."""
        return self.head.attributes

    @property
    def last_offset_delta(self) -> int:
        """last_offset - base_offset (kept when compaction removed the last record)."""
        return self.head.last_offset_delta

    @property
    def base_timestamp(self) -> int:
        """The first record's timestamp (the delete horizon when has_delete_horizon)."""
        return self.head.base_timestamp

    @property
    def max_timestamp(self) -> int:
        """The largest record timestamp (under LogAppendTime: the broker's append time)."""
        return self.head.max_timestamp

    @property
    def producer_id(self) -> int:
        """The idempotent or transactional producer's id (-1: none)."""
        return self.head.producer_id

    @property
    def producer_epoch(self) -> int:
        """The producer's epoch (-1: none)."""
        return self.head.producer_epoch

    @property
    def base_sequence(self) -> int:
        """The first record's sequence number (-1: none)."""
        return self.head.base_sequence

    @property
    def records_count(self) -> int:
        """How many records the batch holds."""
        return self.head.records_count

    @property
    def is_transactional(self) -> bool:
        """The batch belongs to a transaction."""
        return self.head.is_transactional

    @property
    def is_control(self) -> bool:
        """The batch holds one control record (a transaction marker or a KRaft record)."""
        return self.head.is_control

    @property
    def has_delete_horizon(self) -> bool:
        """base_timestamp holds the delete horizon set by the log cleaner."""
        return self.head.has_delete_horizon

    @property
    def last_offset(self) -> int:
        """Offset of the last record (kept even when compaction removed that record)."""
        return self.head.base_offset + self.head.last_offset_delta

    @property
    def compression(self) -> str:
        return codec_name(self.head.compression)

    @property
    def timestamp_type(self) -> str:
        return TIMESTAMP_TYPES[self.head.timestamp_type]

    @property
    def records(self) -> list[Record]:
        """The records, decoded (and decompressed) on first access."""
        if self._records is None:
            (records,) = v2.decode_record_batch_rest(
                self._buf, self.position, self.head, self.end, max_decompressed=self.max_decompressed
            )
            self._records = self._finish(records, 0)
        return self._records

    def _finish(self, records: list[Record], first: int) -> list[Record]:
        """Records ``first``.. as the batch gives them: LogAppendTime applied, offsets and timestamps
        checked against int64."""
        if self.head.timestamp_type == 1:  # LogAppendTime: the broker's time applies to all
            # rebuilt without _replace's keyword machinery; the generated decoder stays the schema's
            # (a record's timestamp is base_timestamp + its delta), and this rule is the batch's
            ts, new = self.head.max_timestamp, _new
            records = [new(Record, (a, ts, o, k, v, h)) for a, _, o, k, v, h in records]
        elif records and not (
            -_INT64 <= min(map(_TIMESTAMP, records)) and max(map(_TIMESTAMP, records)) < _INT64
        ):
            self._beyond_int64(records, first, 1, "timestamp", self.head.base_timestamp)
        if (
            not -NEAR_INT64 <= self.head.base_offset <= NEAR_INT64
            and records
            and not (-_INT64 <= min(map(_OFFSET, records)) and max(map(_OFFSET, records)) < _INT64)
        ):
            self._beyond_int64(records, first, 2, "offset", self.head.base_offset)
        return records

    def _beyond_int64(self, records: list[Record], first: int, index: int, field: str, base: int) -> None:
        """Refuse a record whose absolute offset or timestamp (base + its stored delta) leaves int64."""
        i = next(i for i, r in enumerate(records) if not -_INT64 <= r[index] < _INT64)
        raise InvalidLengthError(
            f"record {first + i} of the RecordBatch at byte {self.position}: its {field} is base_{field} {base} + a "
            f"delta of {records[i][index] - base} = {records[i][index]}, beyond int64",
            self.position,
        )

    def __iter__(self) -> Iterator[Record]:
        """The records in order. A batch of more than :data:`STREAM_CHUNK` records not decoded yet is
        streamed (:meth:`stream`): iterating it again decodes it again, and ``records`` still gives the
        list. Errors are those of ``records``; a streamed batch raises when the iteration reaches the
        bad record, after yielding the ones before it."""
        if self._records is None and self.head.records_count > STREAM_CHUNK:
            return self.stream()
        return iter(self.records)

    def stream(self) -> Iterator[Record]:
        """The records decoded :data:`STREAM_CHUNK` at a time and not kept: the memory held is the
        decompressed records region (at most ``max_decompressed``) and one chunk of records."""
        for chunk in self._chunks(*self._region()):
            yield from chunk

    def _region(self) -> tuple[Buffer, int, int]:
        """``(data, at, stop)``: the records region, decompressed (then ``at`` is 0) or in the buffer."""
        pos, end = self.position + v2.RECORD_BATCH_OVERHEAD, self.end
        codec = self.head.attributes & v2.COMPRESSION_MASK
        if codec:
            data = decompress(
                codec, memoryview(self._buf)[pos:end], max_size=self.max_decompressed, position=pos, magic=2
            )
            return data, 0, len(data)
        return self._buf, pos, end

    def _chunks(self, data: Buffer, at: int, stop: int) -> Iterator[list[Record]]:
        """The records of the records region ``data[at:stop]`` (:meth:`_region`) as :meth:`stream` gives
        them, a list of up to :data:`STREAM_CHUNK` at a time."""
        head, start, end = self.head, self.position, self.end
        pos = start + v2.RECORD_BATCH_OVERHEAD
        count = head.records_count
        codec = head.attributes & v2.COMPRESSION_MASK
        if count < 0 or count > (stop - at) // MIN_RECORD_SIZE:
            yield self.records  # the whole decoder's error, word for word (raised before any record)
            return
        base_offset, base_timestamp = head.base_offset, head.base_timestamp
        done = 0
        while done < count:
            # never more than the bytes left can hold: the whole decoder's count check passed for the
            # whole batch, so a chunk's must not raise where that decoder would not
            n = min(STREAM_CHUNK, count - done, (stop - at) // MIN_RECORD_SIZE)
            try:
                if n == 0:  # records remain and fewer bytes than the smallest record: the next one is cut
                    raise TruncatedError("Record ends before its fields do", at)
                records, at = decode_record_array(data, at, n, base_offset, base_timestamp, stop)
            except (IndexError, struct.error):  # as the whole decoder words it
                raise TruncatedError("RecordBatch ends before its fields do", start) from None
            except KafkaFormatError as exc:
                if not codec:
                    raise
                raise type(exc)(
                    f"in the decompressed records of the RecordBatch at byte {start}: {exc.reason} "
                    f"(at decompressed byte {exc.position})",
                    pos,
                ) from None
            yield self._finish(records, done)
            done += n
        if codec and at != stop:
            raise InvalidLengthError(f"RecordBatch records use {at} of {stop} decompressed bytes", pos)
        if not codec and at != end:
            raise InvalidLengthError(f"RecordBatch fields end at byte {at}, its length says {end}", start)

    def check_records(self) -> None:
        """Decode the records for their errors (recovery mode does, before yielding a batch), keeping them
        in ``records`` for the reader that iterates the batch next (it would decode them again): a small
        batch is decoded whole; a large one is streamed, its list kept when its estimated size is at most
        :data:`CHECK_KEEP_BYTES`, otherwise nothing is kept (memory bounded by one chunk)."""
        count = self.head.records_count
        if self._records is not None or count <= STREAM_CHUNK:
            self.records  # noqa: B018 - decoded for its errors, and kept
            return
        data, at, stop = self._region()
        # what the list may still take: the records' bytes are copied into it (keys, values, headers),
        # each record and header costs more; headers are counted as they come, a chunk at a time
        room = CHECK_KEEP_BYTES - (stop - at) - RECORD_COST * count
        kept: list[Record] | None = [] if room >= 0 else None
        for chunk in self._chunks(data, at, stop):
            if kept is not None:
                room -= HEADER_COST * sum(map(len, map(_HEADERS, chunk)))
                if room < 0:
                    kept = None  # too large to keep after all: checked only, as a batch above the bound
                else:
                    kept += chunk
        if kept is not None:
            self._records = kept  # set only once every record decoded

    def __len__(self) -> int:
        """The records count the head states. A count more records than the batch's bytes (or, compressed,
        ``max_decompressed``) can hold raises the decoder's error here: ``list(batch)`` sizes its list
        by ``len``, and 2^31 claimed records would ask for 16 GiB before the first record is read."""
        count = self.head.records_count
        room = (
            self.max_decompressed
            if self.head.attributes & v2.COMPRESSION_MASK
            else self.end - self.position - v2.RECORD_BATCH_OVERHEAD
        )
        if count > room // MIN_RECORD_SIZE:
            self.check_records()  # raises the error of the first record that is not there
        return count

    @property
    def control(self) -> ControlRecord | None:
        """The control record of a control batch (None for data batches).

        Also None for an empty control batch (records_count 0): Kafka's log cleaner leaves
        one when it removes a transaction marker that was a producer's last batch, and
        Kafka reads it as a batch with no records.
        """
        if not self.is_control or not self.head.records_count:
            return None
        return parse_control_record(self.records[0].key, self.records[0].value, self.position)

    def __repr__(self) -> str:
        return (
            f"Batch(magic=2, base_offset={self.base_offset}, last_offset={self.last_offset}, "
            f"count={self.records_count}, compression={self.compression!r}, position={self.position})"
        )


#: the control types whose values have a message schema (schemas/messages/), decoded into ControlRecord.decoded
_KRAFT_CONTROL_TYPES = frozenset(t for t in ControlRecordType if t > ControlRecordType.COMMIT)


def parse_control_record(
    key: bytes | None, value: bytes | None, position: int | None = None
) -> ControlRecord:
    """Decode a control record's key (version, type) and, for abort/commit, its marker value."""
    if key is None or len(key) < 4:
        raise KafkaFormatError("control record key must hold version and type (4 bytes)", position)
    k, _ = ctl_key.decode_control_record_key(key)
    try:
        type_name = ControlRecordType(k.type).name.lower()
    except ValueError:
        type_name = f"unknown({k.type})"
    epoch = None
    if k.type in (ControlRecordType.ABORT, ControlRecordType.COMMIT) and value is not None:
        if len(value) < 6:
            raise KafkaFormatError(
                "end-transaction marker value must hold version and coordinator epoch", position
            )
        marker, _ = end_txn.decode_end_transaction_marker(value)
        epoch = marker.coordinator_epoch
    decoded = None
    if k.type in _KRAFT_CONTROL_TYPES:
        from .payloads.decode import decode_control  # loads the message codecs on first use

        try:
            decoded = decode_control(k.type, value)
        except KafkaFormatError as exc:
            raise KafkaFormatError(exc.reason, position) from None
    return ControlRecord(k.version, k.type, type_name, epoch, value, decoded)
