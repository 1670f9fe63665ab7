"""Contradictory KRaft metadata records (issue 30 item 9): ``inspect metadata`` reports each one.

A metadata log written by a healthy controller never names a topic id it did not create, never
gives one topic name two ids, never changes a partition or fences a broker that does not exist and
never ends a metadata transaction it did not begin. A log that does (hand-edited, spliced from two
clusters, or damaged) used to replay silently: a partition recorded under topic id A showed under
topic ``orders`` with id B, and records that matched nothing were dropped. Each contradiction is
now reported on stderr naming the segment and the record's offset (exit 1), as ``verify`` reports
log problems, and listed in the JSON output's ``contradictions``.

The logs are written here with :class:`PartitionWriter` from the generated message encoders.
"""

from __future__ import annotations

import io
import json
import uuid
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from kafkaspec import Record
from kafkaspec.cli import main
from kafkaspec.generated.messages import (
    begin_transaction_record,
    end_transaction_record,
    fence_broker_record,
    partition_change_record,
    partition_record,
    remove_topic_record,
    topic_record,
)
from kafkaspec.logdir import PartitionWriter
from kafkaspec.payloads import ClusterState, Decoded

pytestmark = pytest.mark.hostile

ID_A, ID_B, ID_C = uuid.UUID(int=0xA), uuid.UUID(int=0xB), uuid.UUID(int=0xC)


def _frame(module, value, version: int = 0) -> bytes:
    """A metadata record's value: frame version 1, api key, record version, then the fields."""
    encode = getattr(module, f"encode_{module.__name__.rsplit('.', 1)[1]}")
    return bytes([1, module.TYPE_IDS[0], version]) + encode(value, version)


def topic(name: str, topic_id: uuid.UUID) -> bytes:
    return _frame(topic_record, topic_record.TopicRecord(name, topic_id))


def partition(topic_id: uuid.UUID, pid: int) -> bytes:
    return _frame(
        partition_record,
        partition_record.PartitionRecord(
            partition_id=pid,
            topic_id=topic_id,
            replicas=[1],
            isr=[1],
            leader=1,
            leader_epoch=0,
            partition_epoch=0,
        ),
    )


def change(topic_id: uuid.UUID, pid: int) -> bytes:
    return _frame(
        partition_change_record,
        partition_change_record.PartitionChangeRecord(partition_id=pid, topic_id=topic_id, leader=2),
    )


def _metadata_log(root: Path, values: list[bytes]) -> Path:
    with PartitionWriter(root, "__cluster_metadata", 0) as w:
        for i, v in enumerate(values):
            w.append([Record(key=None, value=v, timestamp=1000 + i)])
    return root


def _inspect(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["inspect", *map(str, argv)])
    return code, out.getvalue(), err.getvalue()


def test_a_second_id_for_a_topic_name_is_reported_and_never_mixes_partitions(tmp_path):
    root = _metadata_log(
        tmp_path / "logs",
        [
            topic("orders", ID_A),  # 0
            partition(ID_A, 0),  # 1
            topic("orders", ID_B),  # 2: orders already has id A
            partition(ID_A, 1),  # 3: id A's partition, which showed under orders with id B
            partition(ID_B, 0),  # 4: id B was never created
        ],
    )
    code, out, err = _inspect("metadata", root, "--json")
    assert code == 1, err
    state = json.loads(out)
    (orders,) = state["topics"]
    assert orders["topic_id"] == "AAAAAAAAAAAAAAAAAAAACg"  # id A: the only consistent reading
    assert [p["partition"] for p in orders["partitions"]] == [0, 1]
    lines = err.splitlines()
    assert len(lines) == 2, err
    assert "00000000000000000000.log offset 2: TopicRecord" in lines[0] and "orders" in lines[0]
    assert "AAAAAAAAAAAAAAAAAAAACg" in lines[0] and "AAAAAAAAAAAAAAAAAAAACw" in lines[0]
    assert "offset 4: PartitionRecord" in lines[1] and "AAAAAAAAAAAAAAAAAAAACw" in lines[1]
    assert [c["offset"] for c in state["contradictions"]] == [2, 4]
    assert state["contradictions"][1]["file"].endswith("__cluster_metadata-0/00000000000000000000.log")
    assert state["contradictions"][1]["problem"] in lines[1]


def test_records_that_match_nothing_are_reported_not_dropped(tmp_path):
    root = _metadata_log(
        tmp_path / "logs",
        [
            partition(ID_C, 0),  # 0
            change(ID_A, 0),  # 1
            topic("orders", ID_A),  # 2
            change(ID_A, 3),  # 3
            _frame(fence_broker_record, fence_broker_record.FenceBrokerRecord(id=9, epoch=1)),  # 4
            _frame(remove_topic_record, remove_topic_record.RemoveTopicRecord(topic_id=ID_B)),  # 5
            _frame(end_transaction_record, end_transaction_record.EndTransactionRecord()),  # 6
            _frame(begin_transaction_record, begin_transaction_record.BeginTransactionRecord(name="t")),  # 7
            _frame(begin_transaction_record, begin_transaction_record.BeginTransactionRecord(name="u")),  # 8
            partition(ID_B, 0),  # 9 (in the transaction)
            _frame(end_transaction_record, end_transaction_record.EndTransactionRecord()),  # 10
        ],
    )
    code, out, err = _inspect("metadata", root)
    assert code == 1
    reported = [int(line.split(" offset ")[1].split(":")[0]) for line in err.splitlines()]
    assert reported == [0, 1, 3, 4, 5, 6, 8, 9], err
    assert "Traceback" not in err
    assert "topics (1):\n  orders  id AAAAAAAAAAAAAAAAAAAACg  partitions 0" in out


def test_a_consistent_log_reports_nothing(tmp_path):
    root = _metadata_log(
        tmp_path / "logs",
        [
            topic("orders", ID_A),
            partition(ID_A, 0),
            change(ID_A, 0),
            _frame(remove_topic_record, remove_topic_record.RemoveTopicRecord(topic_id=ID_A)),
            topic("orders", ID_B),
            partition(ID_B, 0),  # removed, then created again under a new id: fine
        ],
    )
    code, out, err = _inspect("metadata", root, "--json")
    assert (code, err) == (0, "")
    state = json.loads(out)
    assert state["contradictions"] == [] and state["topics"][0]["topic_id"] == "AAAAAAAAAAAAAAAAAAAACw"


def test_the_replay_lists_contradictions_with_their_offsets():
    s = ClusterState()
    s.apply(Decoded("TopicRecord", 0, None, {"name": "orders", "topic_id": ID_A}), 10)
    s.apply(Decoded("TopicRecord", 0, None, {"name": "users", "topic_id": ID_A}), 11)  # id A is orders'
    assert [off for off, _ in s.contradictions] == [11]
    assert "users" not in s.topics and s.topics["orders"]["topic_id"] == ID_A
