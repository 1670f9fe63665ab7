"""read_committed: which transactional batches belong to aborted (or still open) transactions.

Kafka's rule: a transactional data batch of producer P at offset O is aborted when
an aborted transaction of P spans O (first_offset <= O <= last_offset, the last
offset being the abort marker). The aborted transactions come from the segments'
``.txnindex`` files or, when those are missing, from a scan of the control batches.
Transactions with no marker yet are still open; a read_committed consumer never
sees past the first of them (the last stable offset), so their records are dropped
as well.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable

from kafkaspec.generated.enums import ControlRecordType

from .indexes import AbortedTxn


class TransactionScan:
    """Collects aborted and open transactions from batches seen in offset order."""

    def __init__(self) -> None:
        self.aborted: list[AbortedTxn] = []
        self.ongoing: dict[int, int] = {}  # producer id -> first offset of its open transaction

    def add(self, batch) -> None:
        if not getattr(batch, "is_transactional", False):
            return
        pid = batch.producer_id
        if not batch.is_control:
            self.ongoing.setdefault(pid, batch.base_offset)
            return
        control = batch.control
        if control is None or control.type not in (ControlRecordType.ABORT, ControlRecordType.COMMIT):
            return
        first = self.ongoing.pop(pid, None)
        if control.type == ControlRecordType.ABORT:
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

    def is_aborted(self, batch) -> bool:
        """True when the batch is transactional data of an aborted or still-open transaction."""
        if not getattr(batch, "is_transactional", False) or batch.is_control:
            return False
        pid, offset = batch.producer_id, batch.base_offset
        start = self.open_transactions.get(pid)
        if start is not None and offset >= start:
            return True
        firsts = self._firsts.get(pid)
        if not firsts:
            return False
        i = bisect.bisect_right(firsts, offset) - 1
        return i >= 0 and offset <= self._lasts[pid][i]

    def visible(self, batch, include_control: bool = False) -> bool:
        """Whether a read_committed consumer gets this batch's records."""
        if batch.is_control:
            return include_control
        return not self.is_aborted(batch)
