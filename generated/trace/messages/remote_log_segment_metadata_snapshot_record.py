"""RemoteLogSegmentMetadataSnapshotRecord, the tracing decoder: :func:`trace_remote_log_segment_metadata_snapshot_record` reads one RemoteLogSegmentMetadataSnapshotRecord of a given version
field by field and records each field's byte span on a tracer
(:class:`kafkaspec.explain.tracer.Tracer`), for ``kafkaspec explain``.

Generated from schemas/messages/remote_log_segment_metadata_snapshot_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

NAME = "RemoteLogSegmentMetadataSnapshotRecord"
VERSIONS = [0]
#: the doc line of each structure and field
DOCS = {
    "RemoteLogSegmentMetadataSnapshotRecord": "A remote segment's metadata and state as a snapshot of the metadata cache holds it (no partition: the snapshot is per partition).",
    "RemoteLogSegmentMetadataSnapshotRecord.segment_id": "Segment id.",
    "RemoteLogSegmentMetadataSnapshotRecord.start_offset": "First offset in the segment.",
    "RemoteLogSegmentMetadataSnapshotRecord.end_offset": "Last offset in the segment.",
    "RemoteLogSegmentMetadataSnapshotRecord.broker_id": "Broker that wrote the event (the partition's leader).",
    "RemoteLogSegmentMetadataSnapshotRecord.max_timestamp_ms": "Largest record timestamp in the segment.",
    "RemoteLogSegmentMetadataSnapshotRecord.event_timestamp_ms": "When the broker wrote the event.",
    "RemoteLogSegmentMetadataSnapshotRecord.segment_leader_epochs": "Each leader epoch in the segment with its first offset there, ascending.",
    "RemoteLogSegmentMetadataSnapshotRecord.segment_size_in_bytes": "Size of the segment's .log in bytes.",
    "RemoteLogSegmentMetadataSnapshotRecord.custom_metadata": "Opaque bytes the remote storage plugin returned for the segment (Aiven's plugin: where its objects are), or null.",
    "RemoteLogSegmentMetadataSnapshotRecord.remote_log_segment_state": "The segment's state: 0 COPY_SEGMENT_STARTED, 1 COPY_SEGMENT_FINISHED, 2 DELETE_SEGMENT_STARTED, 3 DELETE_SEGMENT_FINISHED.",
    "RemoteLogSegmentMetadataSnapshotRecord.txn_index_empty": "The segment has no aborted transactions (its transaction index is empty).",
    "SegmentLeaderEpochEntry": "Each leader epoch in the segment with its first offset there, ascending.",
    "SegmentLeaderEpochEntry.leader_epoch": "Leader epoch.",
    "SegmentLeaderEpochEntry.offset": "First offset of the epoch in the segment.",
}


def _trace_remote_log_segment_metadata_snapshot_record_v0(t) -> None:
    t.begin("RemoteLogSegmentMetadataSnapshotRecord", 0, DOCS["RemoteLogSegmentMetadataSnapshotRecord"])
    t.blob("segment_id", "uuid", DOCS["RemoteLogSegmentMetadataSnapshotRecord.segment_id"], "size", size=16)
    t.integer("start_offset", "int64", DOCS["RemoteLogSegmentMetadataSnapshotRecord.start_offset"])
    t.integer("end_offset", "int64", DOCS["RemoteLogSegmentMetadataSnapshotRecord.end_offset"])
    t.integer("broker_id", "int32", DOCS["RemoteLogSegmentMetadataSnapshotRecord.broker_id"])
    t.integer("max_timestamp_ms", "int64", DOCS["RemoteLogSegmentMetadataSnapshotRecord.max_timestamp_ms"])
    t.integer(
        "event_timestamp_ms", "int64", DOCS["RemoteLogSegmentMetadataSnapshotRecord.event_timestamp_ms"]
    )
    t.array(
        "segment_leader_epochs",
        "SegmentLeaderEpochEntry",
        DOCS["RemoteLogSegmentMetadataSnapshotRecord.segment_leader_epochs"],
        "compact",
        lambda t: t.nested(
            t.take_label(),
            "SegmentLeaderEpochEntry",
            DOCS["RemoteLogSegmentMetadataSnapshotRecord.segment_leader_epochs"],
            _trace_segment_leader_epoch_entry_v0,
        ),
        min_size=1,
    )
    t.integer(
        "segment_size_in_bytes", "int32", DOCS["RemoteLogSegmentMetadataSnapshotRecord.segment_size_in_bytes"]
    )
    t.blob(
        "custom_metadata",
        "bytes",
        DOCS["RemoteLogSegmentMetadataSnapshotRecord.custom_metadata"],
        "compact",
        nullable=True,
    )
    t.integer(
        "remote_log_segment_state",
        "int8",
        DOCS["RemoteLogSegmentMetadataSnapshotRecord.remote_log_segment_state"],
    )
    t.tagged(
        {
            0: (
                "txn_index_empty",
                lambda t: t.integer(
                    "txn_index_empty", "bool", DOCS["RemoteLogSegmentMetadataSnapshotRecord.txn_index_empty"]
                ),
            )
        }
    )
    t.end(None)


def _trace_segment_leader_epoch_entry_v0(t) -> None:
    t.begin("SegmentLeaderEpochEntry", 0, DOCS["SegmentLeaderEpochEntry"])
    t.integer("leader_epoch", "int32", DOCS["SegmentLeaderEpochEntry.leader_epoch"])
    t.integer("offset", "int64", DOCS["SegmentLeaderEpochEntry.offset"])
    t.tagged({})
    t.end(None)


_TRACERS = {
    0: _trace_remote_log_segment_metadata_snapshot_record_v0,
}


def trace_remote_log_segment_metadata_snapshot_record(t, version: int) -> None:
    """Read one RemoteLogSegmentMetadataSnapshotRecord of ``version`` at ``t.pos``, recording every field on the tracer ``t``."""
    tracer = _TRACERS.get(version)
    if tracer is None:
        raise t.stop(
            f"RemoteLogSegmentMetadataSnapshotRecord: unknown version {version} (this schema has versions 0)",
            t.pos,
        )
    tracer(t)
