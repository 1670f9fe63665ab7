"""`kafkaspec inspect metadata | offsets`, and the replays behind them (ClusterState, GroupOffsets)."""

from __future__ import annotations

import io
import json
import uuid
from contextlib import redirect_stderr, redirect_stdout

from kafkaspec.cli import main
from kafkaspec.payloads import ClusterState, Decoded, GroupOffsets

TOPIC_ID = uuid.UUID(int=7)


def _inspect(*argv):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["inspect", *map(str, argv)])
    return code, out.getvalue(), err.getvalue()


def test_inspect_metadata_of_the_corpus_clusters(corpus):
    root = corpus / "files" / "segments"
    code, out, err = _inspect("metadata", root / "LDI-POC", "--json")
    assert code == 0, err
    state = json.loads(out)
    assert [t["name"] for t in state["topics"]] == [
        "Retry.TestTopicPatient",
        "TestTopicPatient",
        "__consumer_offsets",
        "batch2.work.notification.SHR_PROD.persistence",
        "subscription.matching.SHR_PROD.persistence",
    ]
    offsets_topic = state["topics"][2]
    assert offsets_topic["topic_id"] == "gSnfpEbtQfSDpxM2lhEn9A" and len(offsets_topic["partitions"]) == 50
    (broker,) = state["brokers"]
    assert broker["broker_id"] == 1 and broker["end_points"][0]["host"] == "kafka"
    assert state["features"] == {"metadata.version": 19}
    code, out, _ = _inspect("metadata", root / "KafkaDemo" / "kraft-combined-logs")
    assert code == 0
    assert "brokers (1):\n  1  epoch 741  PLAINTEXT://localhost:9092  rack -  active" in out
    assert "topics (0):" in out


def test_inspect_offsets_of_the_corpus(corpus):
    code, out, _ = _inspect("offsets", corpus / "files" / "segments" / "LDI-POC", "--json")
    assert code == 0
    (group,) = json.loads(out)["groups"]
    assert group["group"] == "DEVSmileCDR" and group["state"]["generation"] == 6
    assert {(o["topic"], o["offset"]) for o in group["offsets"]} >= {("TestTopicPatient", 3)}
    code, out, err = _inspect("offsets", corpus / "files" / "segments" / "KafkaDemo")
    assert code == 2 and "no __consumer_offsets partition here" in err


def rec(type_, offset_value=None, **value):
    return Decoded(type_, 0, None, value or offset_value)


def test_replay_partitions_configs_and_metadata_transactions():
    s = ClusterState()
    s.apply(rec("TopicRecord", name="orders", topic_id=TOPIC_ID), 0)
    s.apply(
        rec(
            "PartitionRecord",
            partition_id=0,
            topic_id=TOPIC_ID,
            replicas=[1, 2],
            isr=[1, 2],
            leader=1,
            leader_epoch=0,
            partition_epoch=0,
        ),
        1,
    )
    change = dict(
        partition_id=0,
        topic_id=TOPIC_ID,
        isr=[2],
        leader=2,
        replicas=None,
        removing_replicas=None,
        adding_replicas=None,
        leader_recovery_state=-1,
    )
    s.apply(rec("PartitionChangeRecord", **change), 2)
    s.apply(rec("PartitionChangeRecord", **{**change, "isr": None, "leader": -2}), 3)
    part = s.topics["orders"]["partitions"][0]
    assert (part["leader"], part["leader_epoch"], part["partition_epoch"], part["isr"]) == (2, 1, 2, [2])
    s.apply(rec("ConfigRecord", resource_type=2, resource_name="orders", name="retention.ms", value="5"), 4)
    s.apply(rec("BeginTransactionRecord", name=None), 5)
    s.apply(rec("ConfigRecord", resource_type=2, resource_name="orders", name="retention.ms", value=None), 6)
    s.apply(rec("AbortTransactionRecord", reason=None), 7)  # the removal never applies
    assert s.configs[(2, "orders")] == {"retention.ms": "5"}
    s.apply(rec("BeginTransactionRecord", name=None), 8)
    s.apply(rec("RemoveTopicRecord", topic_id=TOPIC_ID), 9)
    assert "orders" in s.topics and s.open_transaction == 8  # pending until the end record
    s.apply(rec("EndTransactionRecord"), 10)
    assert s.topics == {} and s.open_transaction is None and s.last_offset == 10


def test_replay_clear_elr_empties_the_elrs_of_one_topic_or_all():
    other_id = uuid.UUID(int=8)
    s = ClusterState()
    for name, topic_id in (("orders", TOPIC_ID), ("users", other_id)):
        s.apply(rec("TopicRecord", name=name, topic_id=topic_id))
        for pid, elr in ((0, [3]), (1, [])):
            s.apply(
                rec(
                    "PartitionRecord",
                    partition_id=pid,
                    topic_id=topic_id,
                    replicas=[1, 2, 3],
                    isr=[1],
                    leader=1,
                    leader_epoch=0,
                    partition_epoch=0,
                    eligible_leader_replicas=elr,
                    last_known_elr=[],
                )
            )

    def state(name):
        return [
            (p["eligible_leader_replicas"], p["partition_epoch"])
            for p in s.topics[name]["partitions"].values()
        ]

    s.apply(rec("ClearElrRecord", topic_name="orders"))
    assert state("orders") == [([], 1), ([], 0)]  # only a partition that had an ELR gets a new epoch
    assert state("users") == [([3], 0), ([], 0)]
    s.apply(rec("ClearElrRecord", topic_name=""))  # the empty name: every topic
    assert state("orders") == [([], 1), ([], 0)] and state("users") == [([], 1), ([], 0)]


def test_replay_offsets_and_tombstones():
    g = GroupOffsets()
    key = {"group": "g", "topic": "t", "partition": 0}
    value = {"offset": 5, "leader_epoch": -1, "metadata": "", "commit_timestamp": 1, "expire_timestamp": -1}
    g.apply(Decoded("OffsetCommit", 3, key, value, 1), 10)
    g.apply(Decoded("OffsetCommit", 3, key, {**value, "offset": 9}, 1), 11)
    assert g.commits[("g", "t", 0)]["offset"] == 9 and g.commits[("g", "t", 0)]["log_offset"] == 11
    g.apply(Decoded("OffsetCommit", None, key, None, 1), 12)
    assert g.commits == {} and g.counts == {"OffsetCommit": 2, "OffsetCommit tombstone": 1}


def test_replay_consumer_groups_of_kip_848():
    g = GroupOffsets()
    key = {"group_id": "g2"}
    member_key = {"group_id": "g2", "member_id": "m1"}
    g.apply(Decoded("ConsumerGroupMetadata", 0, key, {"epoch": 3}, 3), 1)
    g.apply(
        Decoded(
            "ConsumerGroupMemberMetadata",
            0,
            member_key,
            {"client_id": "c", "client_host": "/h", "rack_id": None, "subscribed_topic_names": ["t"]},
            5,
        ),
        2,
    )
    g.apply(
        Decoded(
            "ConsumerGroupCurrentMemberAssignment",
            0,
            member_key,
            {"member_epoch": 3, "assigned_partitions": [{"topic_id": TOPIC_ID, "partitions": [0]}]},
            8,
        ),
        3,
    )
    (group,) = g.to_json()["groups"]
    assert group["state"]["group_epoch"] == 3 and group["state"]["protocol_type"] == "consumer"
    (member,) = group["state"]["members"]
    assert (member["member_id"], member["client_id"], member["member_epoch"]) == ("m1", "c", 3)
    assert member["assigned_partitions"] == [{"topic_id": "AAAAAAAAAAAAAAAAAAAABw", "partitions": [0]}]
    g.apply(Decoded("ConsumerGroupMemberMetadata", None, member_key, None, 5), 4)
    g.apply(Decoded("ConsumerGroupCurrentMemberAssignment", None, member_key, None, 8), 5)
    assert g.to_json()["groups"][0]["state"]["members"] == []
    g.apply(Decoded("ConsumerGroupMetadata", None, key, None, 3), 6)
    assert g.to_json()["groups"] == []
