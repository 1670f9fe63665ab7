"""``kafkaspec dump`` of a file that is not a segment: offset, time and transaction indexes, producer
snapshots, the leader-epoch checkpoint, partition.metadata and the data dir's own files (meta.properties,
quorum-state, the offset checkpoints), one row per entry: as DumpLogSegments prints it, or JSON lines.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from ..logdir.store.fs import StoragePath


def dump_file(path: StoragePath, out: TextIO, as_json: bool) -> int:
    from kafkaspec.printable import escape, json_text

    from ..logdir.kafka import files, indexes
    from ..logdir.kafka.snapshot import parse_snapshot

    name = path.name
    base = files.offset_from_name(path) or 0
    rows: list[dict[str, Any]]
    # read through files' readers: a FIFO or device at the name is an error, not a hang, and the
    # zero-filled tail of a preallocated index is not read
    if name.endswith(files.INDEX_SUFFIX):
        data = files.read_index_file(path, indexes.OFFSET_ENTRY_SIZE)
        rows = [{"offset": e.offset, "position": e.position} for e in indexes.parse_offset_index(data, base)]
    elif name.endswith(files.TIME_INDEX_SUFFIX):
        data = files.read_index_file(path, indexes.TIME_ENTRY_SIZE)
        rows = [{"timestamp": e.timestamp, "offset": e.offset} for e in indexes.parse_time_index(data, base)]
    elif name.endswith(files.TXN_INDEX_SUFFIX):
        rows = [e._asdict() for e in indexes.parse_txn_index(files.read_regular(path), str(path))]
    elif name.endswith(files.SNAPSHOT_SUFFIX):
        rows = [_snapshot_row(e) for e in parse_snapshot(files.read_regular(path)).producer_entries]
    elif name == files.LEADER_EPOCH_CHECKPOINT:
        rows = [
            e._asdict() for e in files.parse_leader_epoch_checkpoint(files.read_text_file(path), str(path))
        ]
    elif name == files.PARTITION_METADATA:
        rows = [files.parse_partition_metadata(files.read_text_file(path), str(path))]
    elif name in NODE_FILES:
        rows = _node_file_rows(path)
    else:
        print(
            escape(f"kafkaspec dump: {path}: not a segment, index, snapshot or checkpoint file"),
            file=sys.stderr,
        )
        return 2
    if as_json:
        out.writelines(json_text(row) + "\n" for row in rows)
        return 0
    out.write(f"Dumping {escape(str(path))}\n")
    if not rows and name.endswith(files.INDEX_SUFFIX):
        out.write(f"{escape(str(path))} is empty.\n")  # as DumpLogSegments says of an offset index alone
    line = _KAFKA_LINES.get(name[name.rfind(".") :], _plain_line)
    out.writelines(escape(line(row)) + "\n" for row in rows)
    return 0


def _plain_line(row: dict[str, Any]) -> str:
    return " ".join(f"{k}: {v}" for k, v in row.items())


def _snapshot_line(row: dict[str, Any]) -> str:
    """A producer snapshot entry as DumpLogSegments prints it: the producer, then its last batch, which
    an entry without one (last offset -1: a producer whose transaction marker bumped its epoch) leaves out
    (Kafka reads no batch from it). A snapshot keeps one batch per producer, so its last timestamp is
    that batch's."""
    txn = row["current_txn_first_offset"]
    line = (
        f"producerId: {row['producer_id']} producerEpoch: {row['epoch']} coordinatorEpoch: "
        f"{row['coordinator_epoch']} currentTxnFirstOffset: "
        f"{'OptionalLong.empty' if txn < 0 else f'OptionalLong[{txn}]'} lastTimestamp: {row['timestamp']}"
    )
    if row["last_offset"] < 0:
        return line
    return (
        f"{line} firstSequence: {row['first_sequence']} lastSequence: {row['last_sequence']} lastOffset: "
        f"{row['last_offset']} offsetDelta: {row['offset_delta']} timestamp: {row['timestamp']}"
    )


def _txn_line(row: dict[str, Any]) -> str:
    """An aborted transaction as DumpLogSegments prints it (entry version 0: the only one Kafka reads)."""
    return (
        f"version: 0 producerId: {row['producer_id']} firstOffset: {row['first_offset']} lastOffset: "
        f"{row['last_offset']} lastStableOffset: {row['last_stable_offset']}"
    )


#: the text line of an entry of these files, by suffix: DumpLogSegments' (others: ``name: value`` pairs)
_KAFKA_LINES = {".snapshot": _snapshot_line, ".txnindex": _txn_line}


#: the data dir's own files dump reads by name (besides bootstrap.checkpoint, read like a segment)
NODE_FILES = (
    "meta.properties",
    "quorum-state",
    ".kafka_cleanshutdown",
    "replication-offset-checkpoint",
    "recovery-point-offset-checkpoint",
    "log-start-offset-checkpoint",
    "cleaner-offset-checkpoint",
)


def _node_file_rows(path: StoragePath) -> list[dict[str, Any]]:
    """The rows of a data dir's own file: what Kafka reads from it, by the readers verify uses."""
    from ..logdir.kafka import checkpoints, files, node_files

    name, source = path.name, str(path)
    if name in checkpoints.CHECKPOINTS:
        text = files.read_text_file(path, checkpoints.MAX_SIZE)
        return [
            {"topic": e.topic, "partition": e.partition, "offset": e.offset}
            for e in checkpoints.parse_offset_checkpoint(text, name, source)
        ]
    text = files.read_text_file(path, node_files.MAX_SIZE)
    if name == node_files.META_PROPERTIES:
        meta = node_files.parse_meta_properties(text, source)
        row: dict[str, Any] = {
            "version": meta.version,
            "node_id": meta.node_id,
            "cluster_id": meta.cluster_id,
            "directory_id": meta.directory_id,
        }
        if meta.ignored:
            row["not_read"] = meta.ignored
        return [row]
    if name == node_files.QUORUM_STATE:
        return [node_files.parse_quorum_state(text, source)]
    return [{"clean_shutdown": True, "broker_epoch": node_files.parse_clean_shutdown(text, source)}]


def _snapshot_row(e: Any) -> dict[str, Any]:
    """A producer snapshot entry with the first sequence DumpLogSegments prints beside the last (the last
    minus the offset delta, wrapping below 0 to the top of int32 as Kafka's sequences do)."""
    row = e._asdict()
    last, delta = e.last_sequence, e.offset_delta
    first = last - delta if last >= delta else 0x7FFFFFFF - (delta - last) + 1
    out: dict[str, Any] = {}
    for k, v in row.items():
        if k == "last_sequence":
            out["first_sequence"] = first
        out[k] = v
    return out
