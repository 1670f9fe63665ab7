"""kafkaspec.payloads: typed results, tombstones, unknown types and versions, and `dump --decode` /
`--decode-as` on segments written here."""

from __future__ import annotations

import io
import json
import struct
import uuid
from contextlib import redirect_stderr, redirect_stdout

import pytest

import kafkaspec
from kafkaspec import Record, payloads
from kafkaspec.cli import main
from kafkaspec.errors import KafkaFormatError
from kafkaspec.generated.messages import leader_change_message as lcm
from kafkaspec.generated.messages import (
    offset_commit_key,
    offset_commit_value,
    topic_record,
    transaction_log_key,
    transaction_log_value,
)
from kafkaspec.logdir import PartitionWriter, open_log

TOPIC_ID = uuid.UUID("00112233-4455-6677-8899-aabbccddeeff")


def commit_key(group="g", topic="orders", partition=3):
    value = offset_commit_key.OffsetCommitKey(group, topic, partition)
    return struct.pack(">h", 1) + offset_commit_key.encode_offset_commit_key(value, 1)


def commit_value(offset=42, version=3):
    value = offset_commit_value.OffsetCommitValue(
        offset=offset, leader_epoch=7 if version >= 3 else -1, metadata="m", commit_timestamp=1000
    )
    return struct.pack(">h", version) + offset_commit_value.encode_offset_commit_value(value, version)


def topic_value(name="orders", frame=1, api_key=2, version=0):
    body = topic_record.encode_topic_record(topic_record.TopicRecord(name, TOPIC_ID), 0)
    return bytes([frame, api_key, version]) + body


def test_offsets_record_and_tombstone():
    d = payloads.decode("__consumer_offsets", commit_key(), commit_value())
    assert d == payloads.Decoded(
        "OffsetCommit",
        3,
        {"group": "g", "topic": "orders", "partition": 3},
        {
            "offset": 42,
            "leader_epoch": 7,
            "metadata": "m",
            "commit_timestamp": 1000,
            "expire_timestamp": -1,
            "topic_id": uuid.UUID(int=0),
        },
        1,
    )
    assert not d.tombstone
    gone = payloads.decode("__consumer_offsets", commit_key(), None)
    assert gone.tombstone and gone.value is None and gone.version is None and gone.key["topic"] == "orders"


def test_transaction_state_record_and_tombstone():
    key = struct.pack(">h", 0) + transaction_log_key.encode_transaction_log_key(
        transaction_log_key.TransactionLogKey("tx-1"), 0
    )
    state = transaction_log_value.TransactionLogValue(
        producer_id=1000,
        producer_epoch=2,
        transaction_timeout_ms=60000,
        transaction_status=1,
        transaction_partitions=[transaction_log_value.PartitionsSchema("orders", [0, 1])],
        transaction_last_update_timestamp_ms=5,
        transaction_start_timestamp_ms=4,
        client_transaction_version=2,
    )
    value = struct.pack(">h", 1) + transaction_log_value.encode_transaction_log_value(state, 1)
    d = payloads.decode("__transaction_state", key, value)
    assert (d.type, d.version, d.key_version, d.key) == ("TransactionLog", 1, 0, {"transactional_id": "tx-1"})
    assert d.value["transaction_partitions"] == [{"topic": "orders", "partition_ids": [0, 1]}]
    assert d.value["client_transaction_version"] == 2 and d.value["previous_producer_id"] == -1
    assert payloads.decode("__transaction_state", key, None).tombstone


def test_metadata_record_and_ordinary_topics():
    d = payloads.decode("__cluster_metadata", None, topic_value())
    assert d.type == "TopicRecord" and d.version == 0 and d.key is None
    assert d.value == {"name": "orders", "topic_id": TOPIC_ID}
    assert payloads.jsonable(d.value)["topic_id"] == "ABEiM0RVZneImaq7zN3u_w"  # Kafka's Uuid.toString
    assert payloads.decode("orders", b"k", b"v") is None


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (topic_value(api_key=99), r"metadata record: unknown record type \(api key 99, version 0\)"),
        (topic_value(version=4), r"metadata record TopicRecord: TopicRecord has no version 4 \(known: 0-0\)"),
        (topic_value(frame=2), r"metadata record: unknown frame version 2 \(known: 1\)"),
        (topic_value() + b"\x00", r"metadata record TopicRecord: 1 bytes left after TopicRecord v0"),
    ],
)
def test_metadata_errors_name_type_and_version(value, message):
    with pytest.raises(KafkaFormatError, match=message):
        payloads.decode("__cluster_metadata", None, value)


def test_offsets_errors_name_type_and_version():
    with pytest.raises(
        KafkaFormatError, match=r"__consumer_offsets key: unknown record type \(key version 77\)"
    ):
        payloads.decode("__consumer_offsets", struct.pack(">h", 77) + b"xx", commit_value())
    with pytest.raises(KafkaFormatError, match=r"OffsetCommitValue has no version 9 \(known: 0-4\)"):
        payloads.decode("__consumer_offsets", commit_key(), struct.pack(">h", 9) + b"\x00" * 30)
    with pytest.raises(KafkaFormatError, match=r"__consumer_offsets key: needs an int16 version, has null"):
        payloads.decode("__consumer_offsets", None, commit_value())


def test_control_record_carries_its_decoded_value():
    value = lcm.encode_leader_change_message(
        lcm.LeaderChangeMessage(0, 3, [lcm.Voter(1), lcm.Voter(3)], [lcm.Voter(3)]), 0
    )
    data = kafkaspec.build_control_batch(2, producer_id=-1, producer_epoch=-1, value=value)
    (batch,) = kafkaspec.iter_batches(data)
    c = batch.control
    assert c.type_name == "leader_change" and c.value == value
    assert c.decoded.type == "LeaderChangeMessage"
    assert c.decoded.value["leader_id"] == 3 and [v["voter_id"] for v in c.decoded.value["voters"]] == [1, 3]
    bad = kafkaspec.build_control_batch(2, producer_id=-1, producer_epoch=-1, value=value[:-3])
    with pytest.raises(KafkaFormatError, match=r"control record LeaderChangeMessage: "):
        next(iter(kafkaspec.iter_batches(bad))).control  # noqa: B018


def _dump(*argv):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = main(["dump", *map(str, argv)])
        except SystemExit as exc:
            code = exc.code
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def offsets_dir(tmp_path):
    with PartitionWriter(tmp_path / "logs", "__consumer_offsets", 0) as w:
        w.append(
            [
                Record(key=commit_key(), value=commit_value(), timestamp=5),
                Record(key=commit_key(partition=4), value=None, timestamp=6),
                Record(key=struct.pack(">h", 77), value=b"\x00\x00", timestamp=7),
            ]
        )
    return tmp_path / "logs"


def test_dump_decode_json(offsets_dir):
    code, out, err = _dump(offsets_dir, "--decode", "--json")
    assert code == 1  # the unknown record type is data with a problem
    records = [json.loads(line) for line in out.splitlines() if '"record"' in line]
    assert records[0]["decoded"] == {
        "type": "OffsetCommit",
        "version": 3,
        "key": {"group": "g", "topic": "orders", "partition": 3},
        "value": {
            "offset": 42,
            "leader_epoch": 7,
            "metadata": "m",
            "commit_timestamp": 1000,
            "expire_timestamp": -1,
            "topic_id": "AAAAAAAAAAAAAAAAAAAAAA",
        },
    }
    assert records[1]["decoded"] == {
        "type": "OffsetCommit",
        "version": None,
        "key": {"group": "g", "topic": "orders", "partition": 4},
        "value": None,
        "deletion": True,
    }
    flagged = records[2]
    assert "decoded" not in flagged
    assert flagged["decode_error"].startswith("__consumer_offsets key: unknown record type (key version 77)")
    assert flagged["key"] == "\x00M" and flagged["value"] == "\x00\x00"  # the raw bytes, shown
    code, out, _ = _dump(offsets_dir, "--json")
    assert code == 0 and '"decoded"' not in out


def test_dump_decode_as_forces_a_family(tmp_path):
    with PartitionWriter(tmp_path / "logs", "metadata-copy", 0) as w:
        w.append([Record(key=None, value=topic_value(), timestamp=5)])
    code, out, _ = _dump(tmp_path / "logs", "--decode")
    assert code == 0 and "decoded" not in out  # not a topic whose payloads are known
    code, out, _ = _dump(tmp_path / "logs", "--decode-as", "metadata")
    assert code == 0
    assert (
        'decoded: {"type":"TopicRecord","version":0,"key":null,"value":{"name":"orders","topic_id":"ABEiM0RVZneImaq7zN3u_w"}}'
        in out
    )
    code, _, err = _dump(tmp_path / "logs", "--decode-as", "nonsense")
    assert code == 2 and "Traceback" not in err


def test_checkpoint_files_open_like_segments(tmp_path):
    part = tmp_path / "logs" / "__cluster_metadata-0"
    part.mkdir(parents=True)
    header = b"\x00\x00" + (0).to_bytes(8, "big") + b"\x00"
    data = (
        kafkaspec.build_control_batch(3, producer_id=-1, producer_epoch=-1, value=header)
        + kafkaspec.build_batch([Record(key=None, value=topic_value(), timestamp=5)], base_offset=1)
        + kafkaspec.build_control_batch(
            4, producer_id=-1, producer_epoch=-1, value=b"\x00\x00\x00", base_offset=2
        )
    )
    snap = part / "00000000000000000003-0000000001.checkpoint"
    snap.write_bytes(data)
    (tmp_path / "logs" / "bootstrap.checkpoint").write_bytes(data)
    log = open_log(snap)
    (p,) = log.partitions()
    assert p.topic == "__cluster_metadata" and [s.path for s in p.segments()] == [snap]
    whole = open_log(tmp_path / "logs")
    assert [c.segments()[0].path.name for c in whole.checkpoints()] == [snap.name, "bootstrap.checkpoint"]
    code, out, _ = _dump(tmp_path / "logs", "--decode", "--json")
    assert code == 0
    decoded = [json.loads(line)["decoded"]["type"] for line in out.splitlines() if '"decoded"' in line]
    assert decoded == ["SnapshotHeaderRecord", "TopicRecord", "SnapshotFooterRecord"] * 2
    assert kafkaspec.logdir.verify(tmp_path / "logs") == []
    snap.write_bytes(data[:-5])
    problems = kafkaspec.logdir.verify(tmp_path / "logs")
    assert {p.path for p in problems} == {str(snap)}
    assert any("does not end with a SNAPSHOT_FOOTER control record" in p.message for p in problems)
    snap.write_bytes(
        data[
            data.index(
                kafkaspec.build_batch([Record(key=None, value=topic_value(), timestamp=5)], base_offset=1)
            ) :
        ]
    )
    assert [p.message for p in kafkaspec.logdir.verify(snap)] == [
        "a KRaft snapshot starts with a SNAPSHOT_HEADER control record; this one does not"
    ]
