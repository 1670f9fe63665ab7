"""read_committed: which transactional batches belong to aborted (or still open) transactions,
and :func:`select_batches`, the one batch filter (offset range, then control, then aborted)
that the partition reader, ``kafkaspec dump`` and the Spark source share.

Kafka's rule: a transactional data batch of producer P at offset O is aborted when
an aborted transaction of P spans O (first_offset <= O <= last_offset, the last
offset being the abort marker). The aborted transactions come from the segments'
``.txnindex`` files or, when those are missing, from a scan of the control batches.
Transactions with no marker yet are still open; a read_committed consumer never
sees past the first of them (the last stable offset): every reader under read_committed
stops there, whoever wrote the records after it (they are held back, not lost: they
come once the transaction ends, and read_uncommitted gives them now).
"""

from __future__ import annotations

import bisect
import struct
from collections.abc import Iterable, Iterator
from typing import NamedTuple, TypeVar

from kafkaspec.generated import record_batch_v2 as v2
from kafkaspec.generated.enums import ControlRecordType

from ...entry import LogBatch
from .indexes import AbortedTxn

B = TypeVar("B", bound=LogBatch)

READ_COMMITTED = "read_committed"
READ_UNCOMMITTED = "read_uncommitted"
#: what every reader reads unless told otherwise (``Partition.records``, ``to_arrow``, the Spark source,
#: the pipeline): the records of aborted transactions were never real, and a transaction without its
#: marker yet is not real either (a consumer's last stable offset)
DEFAULT_ISOLATION_LEVEL = READ_COMMITTED
ISOLATION_LEVELS = (READ_COMMITTED, READ_UNCOMMITTED)


def committed_only(isolation_level: str) -> bool:
    """Whether ``isolation_level`` (``read_committed`` or ``read_uncommitted``, as a Kafka consumer's
    ``isolation.level``) leaves out aborted and open transactions; anything else is a ValueError."""
    level = isolation_level.strip().lower() if isinstance(isolation_level, str) else isolation_level
    if level not in ISOLATION_LEVELS:
        raise ValueError(
            f"isolation_level must be {READ_COMMITTED!r} or {READ_UNCOMMITTED!r}, got {isolation_level!r}"
        )
    return level == READ_COMMITTED


class TransactionalData(NamedTuple):
    """A transactional data batch as a transaction scan needs it: its producer and first offset, from its
    head alone (:meth:`Segment.transactional_batches <kafkaspec.logdir.kafka.segment.Segment.transactional_batches>`
    gives these instead of batches: planning scans every such head of the input, on the driver alone)."""

    producer_id: int
    base_offset: int

    @property
    def is_transactional(self) -> bool:
        return True

    @property
    def is_control(self) -> bool:
        return False


class TransactionMarker(NamedTuple):
    """A transaction's end (abort or commit) as a transaction scan needs it, read from a marker batch's
    bytes by :func:`marker_at` without decoding the batch: its producer, offset and control type."""

    producer_id: int
    base_offset: int
    last_offset: int
    type: int


#: the bytes of an end-transaction marker batch as every broker writes it, from its records count on:
#: one record of 16 bytes (attributes, timestamp and offset deltas all 0), a 4-byte key (version, type),
#: a 6-byte value (version, coordinator epoch), no headers
_MARKER_RECORD = b"\x00\x00\x00\x01\x20\x00\x00\x00\x08"
_MARKER_LENGTH = 66  # the batch length field: 49 bytes of head after it, 17 of the one record
_MARKER_KEY_TYPE = v2.RECORDS_COUNT_OFFSET + len(_MARKER_RECORD) + 2  # after the key's version
_MARKER_VALUE_LENGTH = _MARKER_KEY_TYPE + 2
_MARKER_HEADERS = _MARKER_VALUE_LENGTH + 1 + 6  # the headers count: the batch's last byte
_I16 = struct.Struct(">h")
_I32 = struct.Struct(">i")
_I64 = struct.Struct(">q")
_MARKER_BITS = v2.COMPRESSION_MASK | v2.IS_TRANSACTIONAL_MASK | v2.IS_CONTROL_MASK
_ENDS = (ControlRecordType.ABORT, ControlRecordType.COMMIT)


def marker_at(buf: bytes, pos: int) -> TransactionMarker | None:
    """The end-transaction marker of the v2 batch at ``pos`` of ``buf`` when its bytes are exactly what a
    broker writes (uncompressed, one abort or commit record with a 4-byte key, a 6-byte value and nothing
    else), read from fixed positions; None for anything else, which the caller decodes in full.

    A scan of a partition's transactions meets one marker per transaction: decoding each as a batch was
    most of a driver's planning. The bytes checked here are every byte the full decode reads to reach
    the same answer, so a batch taken here is one that decodes to this marker (no CRC is checked by
    either)."""
    if len(buf) - pos <= _MARKER_HEADERS:
        return None
    if (
        _I32.unpack_from(buf, pos + v2.BATCH_LENGTH_OFFSET)[0] != _MARKER_LENGTH
        or buf[pos + v2.MAGIC_OFFSET] != 2
        or buf[pos + v2.ATTRIBUTES_OFFSET + 1] & _MARKER_BITS != v2.IS_TRANSACTIONAL_MASK | v2.IS_CONTROL_MASK
        or buf[pos + v2.RECORDS_COUNT_OFFSET : pos + _MARKER_KEY_TYPE - 2] != _MARKER_RECORD
        or buf[pos + _MARKER_VALUE_LENGTH] != 0x0C  # 6, zigzag
        or buf[pos + _MARKER_HEADERS] != 0
    ):
        return None
    kind = _I16.unpack_from(buf, pos + _MARKER_KEY_TYPE)[0]
    if kind not in _ENDS:
        return None
    base_offset = _I64.unpack_from(buf, pos)[0]
    return TransactionMarker(
        _I64.unpack_from(buf, pos + v2.PRODUCER_ID_OFFSET)[0],
        base_offset,
        base_offset + _I32.unpack_from(buf, pos + v2.LAST_OFFSET_DELTA_OFFSET)[0],
        kind,
    )


class TransactionScan:
    """Collects aborted and open transactions from batches seen in offset order."""

    def __init__(self) -> None:
        self.aborted: list[AbortedTxn] = []
        self.ongoing: dict[int, int] = {}  # producer id -> first offset of its open transaction

    def add(self, batch: LogBatch | TransactionalData | TransactionMarker) -> None:
        kind = type(batch)
        if kind is TransactionalData:
            self.ongoing.setdefault(batch.producer_id, batch.base_offset)
            return
        if kind is TransactionMarker:
            assert isinstance(batch, TransactionMarker)
            end = batch.type
        else:
            assert not isinstance(batch, (TransactionalData, TransactionMarker))
            if not batch.is_transactional:
                return
            if not batch.is_control:
                self.ongoing.setdefault(batch.producer_id, batch.base_offset)
                return
            control = batch.control
            if control is None or control.type not in _ENDS:
                return
            end = control.type
        pid = batch.producer_id
        first = self.ongoing.pop(pid, None)
        if end == ControlRecordType.ABORT:
            marker = batch.base_offset
            lso = min(self.ongoing.values(), default=marker + 1)
            self.aborted.append(AbortedTxn(pid, marker if first is None else first, marker, lso))


class ReadCommitted:
    """Decides per batch whether a read_committed consumer sees it.

    ``aborted`` are the partition's aborted transactions; ``open_transactions``
    maps producer ids to the first offset of a transaction without a marker.
    Picklable, so a planner can compute it once and ship it to readers.
    """

    def __init__(self, aborted: Iterable[AbortedTxn], open_transactions: dict[int, int] | None = None):
        spans: dict[int, list[tuple[int, int]]] = {}
        for t in aborted:
            spans.setdefault(t.producer_id, []).append((t.first_offset, t.last_offset))
        self._firsts = {pid: [a for a, _ in sorted(s)] for pid, s in spans.items()}
        self._lasts = {pid: [b for _, b in sorted(s)] for pid, s in spans.items()}
        self.open_transactions = dict(open_transactions or {})
        #: the last stable offset: the first offset of the earliest open transaction (None: none open). A
        #: read_committed consumer is given nothing from there on, whoever wrote it (:meth:`held`)
        self.stable: int | None = min(self.open_transactions.values(), default=None)

    @property
    def aborts(self) -> bool:
        """Whether any transaction was aborted (a reader that counts what it leaves out walks only then)."""
        return bool(self._firsts)

    def is_aborted(self, batch: LogBatch) -> bool:
        """True when the batch is transactional data of an aborted or still-open transaction."""
        if not batch.is_transactional or batch.is_control:
            return False
        return self.aborted_at(batch.producer_id, batch.base_offset)

    def aborted_at(self, pid: int, offset: int) -> bool:
        """Whether producer ``pid``'s transactional data batch at ``offset`` is of an aborted or open
        transaction (:meth:`is_aborted` from a batch head's fields, for the Arrow readers' head walk)."""
        start = self.open_transactions.get(pid)
        if start is not None and offset >= start:
            return True
        firsts = self._firsts.get(pid)
        if not firsts:
            return False
        i = bisect.bisect_right(firsts, offset) - 1
        return i >= 0 and offset <= self._lasts[pid][i]

    def aborted_spans(self, pid: int) -> tuple[list[int], list[int]]:
        """Producer ``pid``'s aborted transactions as (first offsets, last offsets), in offset order: what
        :meth:`aborted_at` looks an offset up in, for a caller that looks up many at once."""
        return self._firsts.get(pid, []), self._lasts.get(pid, [])

    def held(self, offset: int) -> bool:
        """Whether the batch at ``offset`` is at or past the last stable offset: held back, as Kafka's
        consumer holds it, until the open transactions before it end."""
        return self.stable is not None and offset >= self.stable

    def visible(self, batch: LogBatch, include_control: bool = False) -> bool:
        """Whether a read_committed consumer gets this batch's records."""
        if batch.is_control:
            return include_control
        return not self.is_aborted(batch)


def select_batches(
    batches: Iterable[B],
    *,
    start_offset: int | None = None,
    end_offset: int | None = None,
    include_control: bool = True,
    read_committed: ReadCommitted | None = None,
    look_past_end: bool = True,
) -> Iterator[B]:
    """The batches (in offset order) that hold offsets in [``start_offset``, ``end_offset``), minus
    control batches unless ``include_control``, minus aborted and open transactions under
    ``read_committed``. Stops at the first batch at or past ``end_offset`` and, under ``read_committed``,
    at the last stable offset (:meth:`ReadCommitted.held`). A kept batch may still
    straddle the range: its records need the offset check too. Without ``look_past_end`` it stops as soon
    as a batch reaches ``end_offset - 1``: the batch after it, not asked for, is not read (a corrupt one
    there is no error of this read)."""
    for batch in batches:
        if start_offset is not None and batch.last_offset < start_offset:
            continue
        if end_offset is not None and batch.base_offset >= end_offset:
            return
        if read_committed is not None and read_committed.held(batch.base_offset):
            return
        if not (
            (batch.is_control and not include_control)
            or (read_committed is not None and read_committed.is_aborted(batch))
        ):
            yield batch
        if not look_past_end and end_offset is not None and batch.last_offset >= end_offset - 1:
            return
