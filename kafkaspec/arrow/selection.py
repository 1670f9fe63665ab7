"""Which batches of a partition become rows of the Arrow readers (:mod:`.partitions`), decided from their
heads before anything is decoded, by the rule of ``Partition.records``
(:func:`kafkaspec.logdir.kafka.transactions.select_batches`): control batches only when asked for, and
under read_committed no transactional data batch of an aborted or still-open transaction, and nothing
from the last stable offset on (the first offset of the earliest open transaction).

The partition's transactions are asked for (``read_committed()``, a scan of its batch heads) only when
a transactional batch is met: a topic without transactions costs one mask over the heads of each run.
That is enough for the last stable offset too: the heads are met in offset order, and the batch at that
offset is an open transaction's first, so no batch past it comes before the filter is known.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from ..entry import LogBatch
from ..generated.record_batch_v2 import IS_CONTROL_MASK, IS_TRANSACTIONAL_MASK


class CommittedLike(Protocol):
    """The read_committed filter of a partition (``kafkaspec.logdir.ReadCommitted``)."""

    stable: int | None

    def aborted_at(self, pid: int, offset: int) -> bool: ...

    def held(self, offset: int) -> bool: ...


def aborted_among(rc: CommittedLike, heads: np.ndarray, rows: np.ndarray) -> list[int]:
    """Those of ``rows`` (indices of transactional data batches among ``heads``) whose transaction ``rc``
    says was aborted or is still open."""
    pids, bases = heads["producer_id"], heads["base_offset"]
    return [i for i in rows.tolist() if rc.aborted_at(int(pids[i]), int(bases[i]))]


class HasTransactions(Protocol):
    """A partition whose read_committed filter can be asked for."""

    def read_committed(self) -> CommittedLike: ...


class Selection:
    """Which batches of a partition are rows: control batches when ``include_control``; with
    ``committed``, no transactional data batch of an aborted or open transaction and none from the last
    stable offset on (the partition's ``read_committed()``, asked for at the first transactional batch)."""

    def __init__(self, part: HasTransactions, *, committed: bool, include_control: bool):
        self._part = part
        self._committed = committed
        self._rc: CommittedLike | None = None
        self.include_control = include_control
        self.everything = include_control and not committed  # nothing is ever left out

    def _filter(self) -> CommittedLike:
        if self._rc is None:
            self._rc = self._part.read_committed()
        return self._rc

    def mask(self, heads: np.ndarray) -> np.ndarray | None:
        """The heads kept, as a boolean mask; None when every one is."""
        if self.everything or not len(heads):
            return None
        attributes = heads["attributes"]
        control = (attributes & IS_CONTROL_MASK) != 0
        drop = np.zeros(len(heads), bool) if self.include_control else control
        if self._committed:
            transactional = np.flatnonzero(((attributes & IS_TRANSACTIONAL_MASK) != 0) & ~control)
            if len(transactional):
                aborted = aborted_among(self._filter(), heads, transactional)
                if aborted:
                    drop = drop.copy()
                    drop[aborted] = True
            if self._rc is not None and self._rc.stable is not None:
                drop = drop | (heads["base_offset"] >= self._rc.stable)
        return ~drop if drop.any() else None

    def keeps(self, entry: LogBatch) -> bool:
        """Whether one entry's records are rows (the same rule as :meth:`mask`)."""
        if self._committed and self._rc is not None and self._rc.held(entry.base_offset):
            return False
        if entry.is_control:
            return self.include_control
        if not self._committed or not entry.is_transactional:
            return True
        return not self._filter().aborted_at(entry.producer_id, entry.base_offset)
