"""``__remote_log_metadata`` end to end (issue 23, part 2).

Tiered storage's topic-based metadata manager writes RemoteLogSegmentMetadataRecord,
RemoteLogSegmentMetadataUpdateRecord and RemotePartitionDeleteMetadataRecord to
``__remote_log_metadata`` (and RemoteLogSegmentMetadataSnapshotRecord to snapshot files), framed like
KRaft metadata records with a null key. They used to be opaque bytes everywhere: ``decode`` gave
None for the topic, ``dump --decode`` and ``explain`` showed bytes, Spark's ``decoded`` column was
null. The values here are written by hand from Kafka's specs (``support/remote_log_records.py``).

``inspect remote-log`` replays them into the state of each remote segment; an event Kafka's
state-transition rules refuse is reported (segment file and offset, exit 1) and not applied.
"""

from __future__ import annotations

import io
import json
import uuid
from contextlib import redirect_stderr, redirect_stdout

import pytest
from support.remote_log_records import (
    DELETE_FINISHED,
    DELETE_STARTED,
    FINISHED,
    partition_delete,
    segment,
    snapshot_entry,
    update,
    write_topic,
)

from kafkaspec.cli import main
from kafkaspec.errors import KafkaFormatError
from kafkaspec.payloads import decode, decode_as
from kafkaspec.payloads.decode import kafka_uuid

TID = uuid.UUID(int=0x1234)
S1, S2, S3 = uuid.UUID(int=1), uuid.UUID(int=2), uuid.UUID(int=3)


def _cli(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main([*map(str, argv)])
    return code, out.getvalue(), err.getvalue()


def test_the_topic_decodes_each_record_type():
    rec = decode(
        "__remote_log_metadata",
        None,
        segment(
            "orders",
            TID,
            3,
            S1,
            0,
            99,
            [(0, 0), (2, 40)],
            size=4096,
            custom=b"\x01\x02",
            txn_index_empty=True,
        ),
    )
    assert rec is not None and rec.type == "RemoteLogSegmentMetadataRecord" and rec.version == 0
    v = rec.value
    assert v["remote_log_segment_id"]["topic_id_partition"] == {"name": "orders", "id": TID, "partition": 3}
    assert v["remote_log_segment_id"]["id"] == S1
    assert (v["start_offset"], v["end_offset"], v["segment_size_in_bytes"]) == (0, 99, 4096)
    assert v["segment_leader_epochs"] == [{"leader_epoch": 0, "offset": 0}, {"leader_epoch": 2, "offset": 40}]
    assert v["custom_metadata"] == b"\x01\x02" and v["txn_index_empty"] is True
    assert "unknown_tagged_fields" not in v
    up = decode("__remote_log_metadata", None, update("orders", TID, 3, S1, FINISHED, event_time=77))
    assert up.type == "RemoteLogSegmentMetadataUpdateRecord"
    assert (up.value["remote_log_segment_state"], up.value["event_timestamp_ms"]) == (FINISHED, 77)
    pd = decode("__remote_log_metadata", None, partition_delete("orders", TID, 3, 1))
    assert pd.type == "RemotePartitionDeleteMetadataRecord" and pd.value["remote_partition_delete_state"] == 1
    snap = decode_as("remote_log", None, snapshot_entry(S2, 100, 199))
    assert snap.type == "RemoteLogSegmentMetadataSnapshotRecord" and snap.value["segment_id"] == S2


def test_bad_remote_log_values_name_what_is_wrong():
    with pytest.raises(KafkaFormatError, match="remote log metadata record: unknown record type .api key 9"):
        decode("__remote_log_metadata", None, bytes([1, 9, 0]))
    with pytest.raises(KafkaFormatError, match="remote log metadata record: the value is null"):
        decode("__remote_log_metadata", None, None)
    with pytest.raises(KafkaFormatError, match="1 bytes left after RemoteLogSegmentMetadataUpdateRecord v0"):
        decode("__remote_log_metadata", None, update("t", TID, 0, S1, FINISHED) + b"\x00")


def test_dump_and_explain_decode_the_topic(tmp_path):
    root = write_topic(
        tmp_path / "logs",
        [segment("orders", TID, 0, S1, 0, 99, [(0, 0)]), update("orders", TID, 0, S1, FINISHED)],
    )
    code, out, err = _cli("dump", root / "__remote_log_metadata-0", "--decode", "--json")
    assert code == 0, err
    decoded = [json.loads(line)["decoded"] for line in out.splitlines() if '"decoded"' in line]
    assert [d["type"] for d in decoded] == [
        "RemoteLogSegmentMetadataRecord",
        "RemoteLogSegmentMetadataUpdateRecord",
    ]
    assert decoded[0]["value"]["remote_log_segment_id"]["id"] == kafka_uuid(S1)
    code, out, err = _cli("dump", root / "__remote_log_metadata-0", "--decode-as", "remote_log", "--json")
    assert code == 0 and out.count('"RemoteLogSegmentMetadataUpdateRecord"') == 1, err
    seg = next((root / "__remote_log_metadata-0").glob("*.log"))
    code, out, err = _cli("explain", seg, "--json")
    assert code == 0, err
    assert '"remote_log_segment_state"' in out and '"segment_leader_epochs"' in out
    code, out, err = _cli("explain", seg, "--decode", "none", "--json")
    assert code == 0 and '"remote_log_segment_state"' not in out


def test_the_spark_decoded_column_holds_the_records(tmp_path):
    """``decode=auto`` of the ``kafkalog`` source (driven here without Spark)."""
    from kafkaspec.arrow.ranges import ReadRange
    from kafkaspec.logdir import open_log
    from kafkaspec.spark.read.decoding import with_decoded

    root = write_topic(tmp_path / "logs", [segment("orders", TID, 0, S1, 0, 99, [(0, 0)])])
    (part,) = open_log(root).partitions()
    task = ReadRange(str(part.segments()[0].path), "__remote_log_metadata", 0, 0, part.segments()[0].size)
    (table,) = with_decoded(iter(part.to_arrow().to_batches()), task, False)
    assert table.column("decodedType").to_pylist() == ["RemoteLogSegmentMetadataRecord"]
    assert json.loads(table.column("decoded").to_pylist()[0])["value"]["end_offset"] == 99


def _history(tmp_path):
    return write_topic(
        tmp_path / "logs",
        [
            segment("orders", TID, 0, S1, 0, 99, [(0, 0)]),  # 0 S1 started
            update("orders", TID, 0, S1, FINISHED, custom=b"\x07"),  # 1 S1 finished
            segment("orders", TID, 0, S2, 100, 199, [(0, 100), (1, 150)]),  # 2 S2 started (never finishes)
            segment("orders", TID, 0, S3, 0, 49, [(0, 0)]),  # 3 S3 started
            update("orders", TID, 0, S3, DELETE_STARTED),  # 4 S3 delete started
            update("orders", TID, 0, S3, DELETE_FINISHED),  # 5 S3 deleted
            update("orders", TID, 0, S1, FINISHED),  # 6 a retry: same state again
        ],
    )


def test_inspect_remote_log_replays_each_segment_state(tmp_path):
    root = _history(tmp_path)
    code, out, err = _cli("inspect", "remote-log", root, "--json")
    assert code == 0 and err == ""
    body = json.loads(out)
    (p,) = body["partitions"]
    assert (p["topic"], p["partition"], p["topic_id"], p["delete_state"]) == (
        "orders",
        0,
        kafka_uuid(TID),
        None,
    )
    states = {s["segment_id"]: (s["state"], s["start_offset"], s["end_offset"]) for s in p["segments"]}
    assert states == {
        kafka_uuid(S1): ("COPY_SEGMENT_FINISHED", 0, 99),
        kafka_uuid(S2): ("COPY_SEGMENT_STARTED", 100, 199),
        kafka_uuid(S3): ("DELETE_SEGMENT_FINISHED", 0, 49),
    }
    s1 = next(s for s in p["segments"] if s["segment_id"] == kafka_uuid(S1))
    assert s1["custom_metadata"] == "Bw==" and s1["offset"] == 6
    code, text, err = _cli("inspect", "remote-log", root / "__remote_log_metadata-0")
    assert code == 0, err
    assert "orders-0  topic id" in text and "COPY_SEGMENT_STARTED 1" in text
    assert f"{kafka_uuid(S2)}  offsets 100..199  COPY_SEGMENT_STARTED  epochs 0@100,1@150" in text


def test_events_out_of_order_are_reported_not_applied(tmp_path):
    root = write_topic(
        tmp_path / "logs",
        [
            update("orders", TID, 0, S1, FINISHED),  # 0 no metadata record before it
            segment("orders", TID, 0, S2, 0, 99, [(0, 0)]),  # 1
            update("orders", TID, 0, S2, DELETE_STARTED),  # 2
            update("orders", TID, 0, S2, FINISHED),  # 3 DELETE_SEGMENT_STARTED -> FINISHED: refused
            segment(
                "orders", TID, 0, S3, 0, 99, [(0, 0)], state=FINISHED
            ),  # 4 a metadata record must be STARTED
            update("orders", TID, 0, S2, 0),  # 5 an update may not set STARTED
            partition_delete("orders", TID, 0, 2),  # 6 FINISHED before MARKED: refused
            partition_delete("orders", TID, 0, 0),  # 7 marked
            snapshot_entry(S1, 0, 9),  # 8 belongs in a snapshot file
        ],
    )
    code, out, err = _cli("inspect", "remote-log", root, "--json")
    assert code == 1
    body = json.loads(out)
    (p,) = body["partitions"]
    assert [(s["segment_id"], s["state"]) for s in p["segments"]] == [
        (kafka_uuid(S2), "DELETE_SEGMENT_STARTED")
    ]
    assert p["delete_state"] == "DELETE_PARTITION_MARKED"
    found = {c["offset"]: c["problem"] for c in body["contradictions"]}
    assert sorted(found) == [0, 3, 4, 5, 6, 8]
    assert "no metadata record before it" in found[0]
    assert "DELETE_SEGMENT_STARTED cannot go to COPY_SEGMENT_FINISHED" in found[3]
    assert "must be in state COPY_SEGMENT_STARTED" in found[4]
    assert "may not set COPY_SEGMENT_STARTED" in found[5]
    assert "no state cannot go to DELETE_PARTITION_FINISHED" in found[6]
    assert "snapshot" in found[8]
    assert all(c["file"].endswith(".log") for c in body["contradictions"])
    lines = err.strip().splitlines()
    assert len(lines) == 6 and all(
        line.startswith("kafkaspec inspect: ") and " offset " in line for line in lines
    )


def test_a_bad_record_is_one_line_and_the_rest_is_replayed(tmp_path):
    root = write_topic(
        tmp_path / "logs", [b"\x01\x00\x00\x05", segment("orders", TID, 0, S1, 0, 9, [(0, 0)])]
    )
    code, out, err = _cli("inspect", "remote-log", root)
    assert code == 1 and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert "offset 0" in err and "RemoteLogSegmentMetadataRecord" in err
    assert "COPY_SEGMENT_STARTED" in out


def test_no_remote_log_partition_is_exit_2(tmp_path):
    (tmp_path / "empty").mkdir()
    code, out, err = _cli("inspect", "remote-log", tmp_path / "empty")
    assert code == 2 and "no __remote_log_metadata partition here" in err


def test_replaying_takes_time_linear_in_the_records():
    """The replay and the events the lineage takes from it: one entry per segment, one per event."""
    from support.timing import GROWTH, assert_linear

    from kafkaspec.logdir.tiered.lineage import choose, events_from_metadata_topic
    from kafkaspec.payloads.remote_log_state import RemoteLogState

    def records(n: int) -> list:
        out = []
        for i in range(n):
            seg = uuid.UUID(int=i + 1)
            out += [
                decode(
                    "__remote_log_metadata",
                    None,
                    segment("orders", TID, 0, seg, 10 * i, 10 * i + 9, [(i // 100, 10 * i)]),
                ),
                decode("__remote_log_metadata", None, update("orders", TID, 0, seg, FINISHED)),
            ]
            if i % 3 == 0:
                out.append(
                    decode("__remote_log_metadata", None, update("orders", TID, 0, seg, DELETE_STARTED))
                )
        return out

    small, large = records(1500), records(int(1500 * GROWTH))

    def run(recs: list) -> None:
        state = RemoteLogState()
        for offset, r in enumerate(recs):
            state.apply(r, offset)
        lineage = choose(events_from_metadata_topic(state, "orders", 0), from_topic=True)
        assert lineage.live and not state.contradictions

    assert_linear(lambda: run(small), lambda: run(large), what="replaying __remote_log_metadata")
