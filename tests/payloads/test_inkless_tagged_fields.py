"""Aiven's Inkless (KIP-1150 diskless topics) writes three raw tagged fields of its own on
``PartitionRecord`` and ``PartitionChangeRecord`` (its InitDisklessLogFields, tags 100+ so that
Apache Kafka skips them): 100 classicToDisklessStartOffset (int64), 101 producerStates (int32
count, then 34-byte entries: producer id int64, epoch int16, base and last sequence int32, assigned
offset int64, batch max timestamp int64), 102 disklessLeaderEpoch (int32), all big-endian.

They are decoded by name when present and kept (a malformed one stays a raw unknown tagged field),
and ``inspect metadata`` keeps them in each partition's state."""

from __future__ import annotations

import io
import json
import struct
import uuid
from contextlib import redirect_stderr, redirect_stdout

from kafkaspec import Record, payloads
from kafkaspec.cli import main
from kafkaspec.generated.messages import partition_change_record as pcr
from kafkaspec.generated.messages import partition_record as pr
from kafkaspec.generated.messages import topic_record as tr
from kafkaspec.logdir import PartitionWriter

TOPIC_ID = uuid.UUID(int=5)
STATES = (
    struct.pack(">i", 2)
    + struct.pack(">qhiiqq", 77, 2, 0, 9, 1230, 999)
    + struct.pack(">qhiiqq", 78, 0, 5, 5, 1240, 1001)
)
INKLESS = [(100, struct.pack(">q", 1234)), (101, STATES), (102, struct.pack(">i", 7))]
NAMED = {
    "classic_to_diskless_start_offset": 1234,
    "producer_states": [
        {
            "producer_id": 77,
            "producer_epoch": 2,
            "base_sequence": 0,
            "last_sequence": 9,
            "assigned_offset": 1230,
            "batch_max_timestamp": 999,
        },
        {
            "producer_id": 78,
            "producer_epoch": 0,
            "base_sequence": 5,
            "last_sequence": 5,
            "assigned_offset": 1240,
            "batch_max_timestamp": 1001,
        },
    ],
    "diskless_leader_epoch": 7,
}


def partition_record(tags=()) -> bytes:
    v = pr.PartitionRecord(
        partition_id=0,
        topic_id=TOPIC_ID,
        replicas=[1],
        isr=[1],
        leader=1,
        leader_epoch=0,
        partition_epoch=0,
        directories=[uuid.UUID(int=9)],
        unknown_tagged_fields=list(tags),
    )
    return bytes([1, 3, 2]) + pr.encode_partition_record(v, 2)


def change_record(tags=()) -> bytes:
    v = pcr.PartitionChangeRecord(partition_id=0, topic_id=TOPIC_ID, unknown_tagged_fields=list(tags))
    return bytes([1, 5, 2]) + pcr.encode_partition_change_record(v, 2)


def test_partition_record_fields_by_name():
    d = payloads.decode_as("metadata", None, partition_record([*INKLESS, (103, b"\x01")]))
    assert {k: d.value[k] for k in NAMED} == NAMED
    assert d.value["unknown_tagged_fields"] == [(103, b"\x01")]  # a tag nobody names stays raw
    d = payloads.decode_as("metadata", None, change_record(INKLESS[2:]))
    assert d.value["diskless_leader_epoch"] == 7 and "unknown_tagged_fields" not in d.value
    assert "classic_to_diskless_start_offset" not in d.value  # only when present
    plain = payloads.decode_as("metadata", None, partition_record())
    assert not set(NAMED) & set(plain.value)


def test_a_malformed_inkless_field_stays_raw():
    short = [(100, b"\x00\x01"), (101, struct.pack(">i", 3) + STATES[4:])]  # 3 entries announced, 2 there
    d = payloads.decode_as("metadata", None, partition_record(short))
    assert d.value["unknown_tagged_fields"] == short
    assert "classic_to_diskless_start_offset" not in d.value and "producer_states" not in d.value


def test_dump_and_inspect_metadata_show_them(tmp_path):
    topic = bytes([1, 2, 0]) + tr.encode_topic_record(tr.TopicRecord("orders", TOPIC_ID), 0)
    with PartitionWriter(tmp_path / "logs", "__cluster_metadata", 0) as w:
        w.append(
            [
                Record(key=None, value=topic, timestamp=5),
                Record(key=None, value=partition_record(INKLESS[:1]), timestamp=5),
                Record(key=None, value=change_record(INKLESS[1:]), timestamp=5),
            ]
        )
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["dump", str(tmp_path / "logs"), "--decode", "--json"])
    assert code == 0, err.getvalue()
    decoded = [json.loads(line)["decoded"] for line in out.getvalue().splitlines() if '"decoded"' in line]
    assert decoded[1]["value"]["classic_to_diskless_start_offset"] == 1234
    assert decoded[2]["value"]["producer_states"] == NAMED["producer_states"]
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["inspect", "metadata", str(tmp_path / "logs"), "--json"])
    assert code == 0, err.getvalue()
    ((topic_state,),) = [json.loads(out.getvalue())["topics"]]
    assert topic_state["name"] == "orders"
    (state,) = topic_state["partitions"]
    assert {k: state[k] for k in NAMED} == NAMED
    out = io.StringIO()
    with redirect_stdout(out), redirect_stderr(io.StringIO()):
        code = main(["inspect", "metadata", str(tmp_path / "logs")])
    assert code == 0
    assert "  diskless from offset 1234  diskless leader epoch 7  producer states 2" in out.getvalue()


def test_explain_names_them(tmp_path):
    with PartitionWriter(tmp_path / "logs", "__cluster_metadata", 0) as w:
        w.append([Record(key=None, value=partition_record([*INKLESS, (103, b"\x01")]), timestamp=5)])
    (segment,) = (tmp_path / "logs" / "__cluster_metadata-0").glob("*.log")
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["explain", str(segment), "--decode", "metadata"])
    assert code == 0, err.getvalue()
    lines = out.getvalue().splitlines()
    named = {name: [line for line in lines if name in line] for name in NAMED}
    assert all(len(found) == 1 for found in named.values()), named
    assert "= 1234  # Inkless" in named["classic_to_diskless_start_offset"][0]
    assert "= 7  # Inkless" in named["diskless_leader_epoch"][0]
    assert "2 producer states" in named["producer_states"][0]
    assert sum("unknown tagged field" in line for line in lines) == 1  # tag 103: nobody names it
