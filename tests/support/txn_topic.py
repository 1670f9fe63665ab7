"""A transactional topic whose answer is known by construction: what each isolation level returns.

One partition, several segments (small ``segment_bytes``), plain records around transactions of three
producers: committed (pid 7, two batches across other producers' batches), aborted (pid 8, zstd) then
committed again (pid 8, a later epoch), and one left open near the end of the log (pid 9), with plain
records before and after it and a transaction committed after its first offset (pid 10): read_committed
stops at the open one's first offset (the last stable offset, as Kafka's consumer), so nothing from
there is returned, marker or not. :func:`write_txn_topic` writes it and returns :class:`TxnTopic`: the
offsets and values each choice returns, computed while writing (never by a reader under test).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from kafkaspec import Record
from kafkaspec.logdir import PartitionWriter

TS = 1_700_000_000_000


@dataclass
class TxnTopic:
    """What was written: ``rows[(isolation_level, include_control)]`` are the (offset, value) pairs a
    reader must return (a marker's value as ``None``: its bytes are the control record's)."""

    path: Path
    topic: str = "tx"
    partition: int = 0
    rows: dict[tuple[str, bool], list[tuple[int, bytes | None]]] = field(default_factory=dict)


def write_txn_topic(root: Path) -> TxnTopic:
    """The topic ``tx-0`` under ``root`` (a data dir), and what each reader choice returns from it."""
    out = TxnTopic(root)
    written: list[
        tuple[int, bytes | None, str]
    ] = []  # (offset, value, fate): plain, committed, aborted, open, marker
    ts = [TS]

    def recs(prefix: str, n: int) -> list[Record]:
        ts[0] += 1
        return [
            Record(key=prefix.encode(), value=f"{prefix}-{i}".encode(), timestamp=ts[0]) for i in range(n)
        ]

    with PartitionWriter(root, out.topic, out.partition, segment_bytes=400, index_interval_bytes=64) as w:

        def data(prefix: str, n: int, fate: str, pid: int = -1, epoch: int = -1, seq: int = -1, codec="none"):
            records = recs(prefix, n)
            base, _ = w.append(
                records,
                compression=codec,
                producer_id=pid,
                producer_epoch=epoch,
                base_sequence=seq,
                is_transactional=pid >= 0,
            )
            written.extend((base + i, r.value, fate) for i, r in enumerate(records))

        def marker(kind: str, pid: int, epoch: int) -> None:
            ts[0] += 1
            base, _ = w.append_control(kind, producer_id=pid, producer_epoch=epoch, timestamp=ts[0])
            written.append((base, None, "marker"))

        data("plain-a", 2, "plain")
        data("commit-7a", 3, "committed", 7, 0, 0)
        data("abort-8", 2, "aborted", 8, 0, 0, codec="zstd")
        data("plain-b", 1, "plain")
        data("commit-7b", 1, "committed", 7, 0, 3)
        marker("commit", 7, 0)
        marker("abort", 8, 0)
        data("commit-8", 2, "committed", 8, 1, 0, codec="gzip")
        data("plain-c", 3, "plain", codec="zstd")
        marker("commit", 8, 1)
        data("open-9", 2, "open", 9, 0, 0)
        data("plain-d", 1, "plain")
        data("commit-10", 1, "committed", 10, 0, 0)
        marker("commit", 10, 0)
    committed = {"plain", "committed"}
    stable = min(o for o, _, fate in written if fate == "open")
    for level in ("read_committed", "read_uncommitted"):
        for control in (False, True):
            out.rows[(level, control)] = [
                (o, v)
                for o, v, fate in written
                if (
                    (fate in committed or (level == "read_uncommitted" and fate != "marker"))
                    or (control and fate == "marker")
                )
                and (level == "read_uncommitted" or o < stable)
            ]
    return out
