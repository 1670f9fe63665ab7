"""Reading batches: :func:`iter_batches` over any bytes-like input, yielding :class:`Batch`.

Sans-IO: this module only turns bytes into values. Files, Spark and the CLI
sit on top. The magic byte at position 16 picks the layout of each entry, so
streams may mix formats; a trailing partial entry (a fetch response cut at
its size limit, a segment being written) ends iteration and is reported in
:attr:`BatchIterator.partial`, not raised.

This module is the walk from one entry to the next (:class:`BatchIterator`): the legacy runs, the
recovery mode that resumes after a corrupt entry, and the partial tail all decide where the next
entry starts, so they share the iterator's state. What one entry is lives beside it: the v2
:class:`Batch` view in :mod:`kafkaspec.record_batch` (its names are found here too: this is the
public record API), legacy messages in :mod:`kafkaspec.message_set`; the codecs themselves are
generated.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from typing import Any, Literal

from kafkaspec.generated import record_batch_v2 as v2
from kafkaspec.generated.log_entry import CASES

from .codec.compression import DEFAULT_MAX_DECOMPRESSED
from .entry import (
    LOG_OVERHEAD,
    MAGIC_OFFSET,
    MIN_ENTRY_LENGTH,
    MIN_LENGTH,
    Buffer,
    LogBatch,
    Partial,
    Skipped,
)
from .errors import InvalidLengthError, InvalidMagicError, KafkaFormatError
from .message_set import MESSAGE_MODULES, LegacyBatch, read_legacy, read_legacy_run
from .record_batch import (
    CHECK_KEEP_BYTES,
    HEADER_COST,
    RECORD_COST,
    STREAM_CHUNK,
    Batch,
    parse_control_record,
)
from .recovery import SCAN, Resync

_LENGTH = struct.Struct(">i")
#: bytes of legacy messages decoded at once (their values are copied: this bounds the memory held)
LEGACY_RUN_BYTES = 256 << 10
#: where every entry's length field sits (v2: batch_length; v0/v1: message_size)
LENGTH_OFFSET = v2.BATCH_LENGTH_OFFSET


OnCorrupt = Literal["raise", "skip"]


class BatchIterator(Iterator[LogBatch]):
    """Iterates the entries of a buffer; afterwards :attr:`partial` says whether bytes were left over.

    ``check_records`` (recovery mode only): decode each batch's records before
    yielding it, so that a batch whose records do not decode is skipped (up to
    its end) like any corrupt entry; the decoded records stay with the batch
    (within :data:`CHECK_KEEP_BYTES`), so that iterating it does not decode them
    again. A caller that decodes records its own way
    (the Spark source decodes into columns) passes False and skips such a
    batch itself, resuming at its ``end`` as this iterator would.
    """

    def __init__(
        self,
        data: Buffer,
        *,
        verify: bool = True,
        max_decompressed: int = DEFAULT_MAX_DECOMPRESSED,
        start: int = 0,
        end: int | None = None,
        base_position: int = 0,
        on_corrupt: OnCorrupt = "raise",
        check_records: bool = True,
    ):
        if type(data) is not bytes:
            if isinstance(data, (bytearray, memoryview)):
                data = bytes(data)  # record values must be bytes, and the caller may mutate theirs
            else:
                try:  # an mmap or another object exporting a buffer; a str or a list is no log
                    memoryview(data).release()
                except TypeError:
                    raise TypeError(
                        f"iter_batches reads bytes, bytearray, memoryview or mmap, not {type(data).__name__}"
                    ) from None
        self._buf = data
        self._pos = start
        self._end = len(data) if end is None else end
        self.verify = verify
        self.max_decompressed = max_decompressed
        self.partial: Partial | None = None
        self.base_position = base_position
        if on_corrupt not in ("raise", "skip"):
            raise ValueError(f"on_corrupt must be 'raise' or 'skip', got {on_corrupt!r}")
        self.on_corrupt = on_corrupt
        self.check_records = check_records
        #: byte ranges skipped in recovery mode (``on_corrupt="skip"``), in input order
        self.skipped: list[Skipped] = []
        self._resync: Resync | None = None
        #: legacy messages decoded ahead by one run (read_legacy_run), last first; and the position
        #: before which runs are not tried (a run failed there: those entries are read one by one)
        self._ahead: list[LegacyBatch] = []
        self._runs_from = start

    def __iter__(self) -> BatchIterator:
        return self

    def __next__(self) -> LogBatch:
        if self._ahead:
            ahead = self._ahead.pop()
            self._pos = ahead.end
            return ahead
        skip = self.on_corrupt == "skip"
        while True:
            buf, pos, end = self._buf, self._pos, self._end
            if pos >= end:
                raise StopIteration
            if end - pos < MAGIC_OFFSET + 1:
                if end - pos >= LOG_OVERHEAD and _LENGTH.unpack_from(buf, pos + 8)[0] < MIN_ENTRY_LENGTH:
                    # no entry of any format is this short (or negative), complete or not: corrupt, as in
                    # Kafka's ByteBufferLogInputStream, not a partial tail
                    exc = InvalidLengthError(
                        f"entry length {_LENGTH.unpack_from(buf, pos + 8)[0]} is shorter than any message format",
                        pos + 8,
                    )
                    if not skip:
                        raise exc
                    self._skip(pos, exc.reason)
                    continue
                self.partial = Partial(pos, end - pos, None)
                self._pos = end
                raise StopIteration
            magic = buf[pos + MAGIC_OFFSET]  # the magic byte, read once per entry: CASES picks the layout
            if magic in MESSAGE_MODULES and pos >= self._runs_from and self._legacy_run(skip, pos, magic):
                return self.__next__()
            head = None
            if magic == 2 and end - pos >= v2.RECORD_BATCH_OVERHEAD:
                head = v2.decode_record_batch_head(buf, pos)  # the v2 head, unpacked once
                length = head.batch_length
            else:
                (length,) = _LENGTH.unpack_from(buf, pos + LENGTH_OFFSET)
            needed = LOG_OVERHEAD + length
            if length >= 0 and pos + needed > end:
                # A cut-off tail, unless (in recovery mode) a valid entry follows: then the length is corrupt.
                resume, rule = self._recovery(pos).resume(pos) if skip else (None, SCAN)
                if resume is None:
                    self.partial = Partial(pos, end - pos, needed)
                    self._pos = end
                    raise StopIteration
                self.skipped.append(
                    Skipped(pos, resume, f"length {length} runs past the end of the data", rule)
                )
                self._pos = resume
                continue
            verify = self.verify
            if skip and verify and self._resync is not None:
                # after a corruption, checksums come from the recovery's shared prefix values, so that
                # corrupt entries whose lengths reach far ahead are not each checksummed in full
                if not self._resync.valid(pos):
                    self._skip(pos, self._reason(buf, pos, magic, length, head))
                    continue
                verify = False
            try:
                batch = self._read(buf, pos, magic, length, head, verify)
            except KafkaFormatError as exc:
                if not skip:
                    raise exc.at(0) from None
                self._skip(pos, exc.reason)
                continue
            if skip and self.check_records:
                try:  # the framing and CRC are good; the records must decode too, or the entry is skipped
                    if isinstance(batch, Batch):
                        batch.check_records()  # a large batch streamed: no list of its records is kept
                    else:
                        batch.records  # noqa: B018 - decoded for its errors
                except KafkaFormatError as exc:
                    self._skip(pos, exc.reason)
                    continue
            self._pos = batch.end
            return batch

    def _legacy_run(self, skip: bool, pos: int, magic: int) -> bool:
        """Decode the legacy messages from ``pos`` on in one run (they are yielded from ``_ahead``);
        False when there are none, or when recovery mode needs each entry to itself, or when the run
        met a bad entry: the entries up to it are then read one by one, and the bad one raises or is
        skipped as always."""
        if skip and (self._resync is not None or self.check_records):
            return False
        try:
            batches, _ = read_legacy_run(
                self._buf,
                pos,
                min(self._end, pos + LEGACY_RUN_BYTES),
                magic,
                verify=self.verify,
                max_decompressed=self.max_decompressed,
            )
        except KafkaFormatError as exc:
            self._runs_from = max(pos + 1, exc.position or 0)
            return False
        if not batches:
            self._runs_from = pos + 1
            return False
        batches.reverse()
        self._ahead = batches
        return True

    def _recovery(self, pos: int) -> Resync:
        """The recovery policy over this input, made at the first corruption and kept (it shares checksums)."""
        if self._resync is None:
            self._resync = Resync(self._buf, self._end, origin=pos)
        return self._resync

    def _skip(self, start: int, reason: str) -> None:
        """Skip the corrupt entry at ``start``: resume where the recovery policy says (the end when nowhere)."""
        resume, rule = self._recovery(start).resume(start)
        stop = self._end if resume is None else resume
        self.skipped.append(Skipped(start, stop, reason, rule))
        self._pos = stop

    def _reason(self, buf: Buffer, pos: int, magic: int, length: int, head: Any) -> str:
        """Why the entry at ``pos`` is not valid, once the recovery's checksums said so."""
        assert self._resync is not None
        if magic not in MIN_LENGTH or magic == 2 or length < MIN_LENGTH[magic]:  # checks that copy nothing
            try:
                self._read(buf, pos, magic, length, head, False)
            except KafkaFormatError as exc:
                return exc.reason
        return self._resync.problem(pos)

    def _read(
        self, buf: Buffer, pos: int, magic: int, length: int, head: Any, verify: bool
    ) -> Batch | LegacyBatch:
        """The entry at ``pos``, checked, by the generated dispatch on its magic byte."""
        module = CASES.get(magic)
        if module is None:
            signed = magic - 256 if magic > 127 else magic  # the byte as Kafka's int8 field
            raise InvalidMagicError(f"magic byte is {signed}, expected 0, 1 or 2", pos + MAGIC_OFFSET)
        if module is v2:
            if head is None:  # fewer bytes than a v2 head: decoding it raises TruncatedError
                head = v2.decode_record_batch_head(buf, pos)
            end = v2.check_record_batch(buf, pos, head, verify=verify)
            return Batch(head, buf, pos, end, self.max_decompressed)
        return read_legacy(
            buf, pos, magic, size=length, verify=verify, max_decompressed=self.max_decompressed
        )


def iter_batches(
    data: Buffer,
    *,
    verify: bool = True,
    max_decompressed: int = DEFAULT_MAX_DECOMPRESSED,
    on_corrupt: OnCorrupt = "raise",
) -> BatchIterator:
    """Iterate the batches in ``data`` (bytes, bytearray, memoryview or mmap).

    Entries of magic 0 and 1 (a Message v0/v1: a :class:`~kafkaspec.LegacyBatch`)
    and magic 2 (a :class:`Batch`) may be mixed. CRCs are checked as each batch
    is reached (``verify=False`` skips that). Each batch is a
    :class:`~kafkaspec.LogBatch`; records are decoded when first used, and a
    compressed batch may decompress to at most ``max_decompressed`` bytes. A trailing partial entry stops the iteration and is reported in the
    iterator's ``partial`` attribute.

    ``on_corrupt="skip"`` is a recovery mode for forensic reading: an entry that
    fails any check (its records included, which are then decoded eagerly) is
    skipped, reading resumes where :class:`kafkaspec.recovery.Resync` says (the
    corrupt entry's end when its length field is intact, else the next entry
    whose length, magic and CRC agree), and each skipped byte range is listed in
    the iterator's ``skipped``, with the rule that ended it (``Skipped.rule``).
    The time this takes is linear in the input, whatever its bytes.
    """
    return BatchIterator(data, verify=verify, max_decompressed=max_decompressed, on_corrupt=on_corrupt)


__all__ = [
    "CHECK_KEEP_BYTES",
    "DEFAULT_MAX_DECOMPRESSED",
    "HEADER_COST",
    "LEGACY_RUN_BYTES",
    "LENGTH_OFFSET",
    "RECORD_COST",
    "STREAM_CHUNK",
    "Batch",
    "BatchIterator",
    "OnCorrupt",
    "iter_batches",
    "parse_control_record",
]
