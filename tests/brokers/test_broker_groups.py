"""The broker's own view of its metadata and of a share group (KIP-932), against kafkaspec's replay of
``__cluster_metadata`` and ``__share_group_state``: ``inspect metadata`` against the admin API's describe
of topics, partitions and configs; ``inspect share-state`` against Kafka's kafka-share-groups and the
acknowledgements the share consumer gave; and a streams group's (KIP-1071) records decoded."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from support.kafka_broker import RELEASES
from support.kafka_checks import decoded_kinds
from support.kafka_groups import SHARE_GROUP, has_share_groups, has_streams_groups
from support.kafka_workload import SHARED, _minor


def kafkaspec(*args: str) -> Any:
    got = subprocess.run(
        [sys.executable, "-m", "kafkaspec.cli", *args], capture_output=True, text=True, timeout=300
    )
    assert got.returncode == 0, got.stderr
    return json.loads(got.stdout)


def _metadata(data: Path, with_leaders: bool) -> dict[str, Any]:
    """``inspect metadata --json`` in the shape of :func:`kafka_workload.described`."""
    body = kafkaspec("inspect", "metadata", "--json", str(data))
    keep = ("leader", "replicas", "isr") if with_leaders else ("replicas",)
    topics = {
        t["name"]: {
            "topic_id": t["topic_id"],
            "partitions": {p["partition"]: {k: p[k] for k in keep} for p in t["partitions"]},
        }
        for t in body["topics"]
    }
    configs = {c["resource_name"]: c["configs"] for c in body["configs"] if c["resource_type"] == 2}
    defaults = next(
        (c["configs"] for c in body["configs"] if c["resource_type"] == 4 and c["resource_name"] == ""), {}
    )
    groups = {c["resource_name"]: c["configs"] for c in body["configs"] if c["resource_type"] == 32}
    return {
        "topics": topics,
        "configs": {t: configs.get(t, {}) for t in topics},
        "cluster_defaults": defaults,
        "group_configs": groups,
        "other_configs": sorted(set(configs) - set(topics)),
    }


def _broker(described: dict[str, Any], with_leaders: bool) -> dict[str, Any]:
    keep = ("leader", "replicas", "isr") if with_leaders else ("replicas",)
    topics = {
        n: {
            "topic_id": t["topic_id"],
            "partitions": {p: {k: v[k] for k in keep} for p, v in t["partitions"].items()},
        }
        for n, t in described["topics"].items()
    }
    return {
        "topics": topics,
        "configs": described["configs"],
        "cluster_defaults": described["cluster_defaults"],
        "group_configs": described["group_configs"],
        "other_configs": [],
    }


def test_inspect_metadata_of_a_live_copy_agrees_with_the_brokers_describe(broker_run):
    """Topics (the deleted one gone), their ids, partitions with leader, replicas and ISR, the configs set
    on each topic, the cluster-wide defaults and the share group's configs, as the broker described them
    just before the copy."""
    assert _metadata(broker_run.live, True) == _broker(broker_run.described_live, True)


def test_inspect_metadata_after_a_clean_stop_agrees_with_the_brokers_describe(broker_run):
    """After the clean stop the log ends with the broker's controlled shutdown (no leader, an empty ISR):
    leaders and ISRs are what the log says at its end, not what the running broker described."""
    assert _metadata(broker_run.stopped, False) == _broker(broker_run.described_stopped, False)


def _share_group(broker_run) -> None:
    assert has_share_groups(broker_run.release), f"Kafka {broker_run.release}: no share group"
    assert broker_run.share_acks, "the share group acknowledged nothing"


def test_every_share_group_state_record_decodes(broker_run):
    _share_group(broker_run)
    kinds = decoded_kinds(sorted(broker_run.stopped.glob("__share_group_state-*")))
    assert kinds.get("ShareSnapshot") and kinds.get("ShareUpdate"), kinds


def test_every_share_group_record_in_consumer_offsets_decodes(broker_run):
    """A share group's records in __consumer_offsets (the group, its member, the target and current
    assignments, the partitions whose share state it initialized) decode. 4.0's early access writes the
    last as ShareGroupPartitionMetadata (record type 9, its topics' names and partitions); from 4.1 it is
    ShareGroupStatePartitionMetadata (type 10: initialized and deleting topics), and type 9 is not written."""
    _share_group(broker_run)
    kinds = decoded_kinds(sorted(broker_run.stopped.glob("__consumer_offsets-*")))
    partitions = (
        "ShareGroupPartitionMetadata"
        if _minor(broker_run.release) == (4, 0)
        else "ShareGroupStatePartitionMetadata"
    )
    for kind in (
        "ShareGroupMetadata",
        "ShareGroupMemberMetadata",
        "ShareGroupTargetAssignmentMetadata",
        "ShareGroupTargetAssignmentMember",
        "ShareGroupCurrentMemberAssignment",
        partitions,
    ):
        assert kinds.get(kind), (kind, kinds)


@pytest.mark.parametrize("broker_run", [r for r in RELEASES if has_streams_groups(r)], indirect=True)
def test_every_streams_group_record_decodes(broker_run):
    """A streams group's records in __consumer_offsets (its topology, members, assignments) decode; its
    committed offsets are compared with the admin API's in test_broker_files. Only the releases that have
    streams groups (4.1 on): 4.0 has none."""
    kinds = decoded_kinds(sorted(broker_run.stopped.glob("__consumer_offsets-*")))
    for kind in (
        "StreamsGroupMetadata",
        "StreamsGroupTopology",
        "StreamsGroupMemberMetadata",
        "StreamsGroupTargetAssignmentMetadata",
        "StreamsGroupCurrentMemberAssignment",
    ):
        assert kinds.get(kind), (kind, kinds)


#: a state batch's delivery state (KIP-932's RecordState) after an acknowledgement of each type
#: (confluent-kafka's AcknowledgeType: 1 ACCEPT, 2 RELEASE, 3 REJECT)
_ACKNOWLEDGED, _ARCHIVED = 2, 4


def _acknowledged_up_to(broker_run) -> dict[tuple[str, int], int]:
    """Per partition of the shared topic, the first offset the share consumer did not accept or reject:
    a share-partition's start offset is never past it (it moves only over records acknowledged for good)."""
    final = {where for where, acks in broker_run.share_acks.items() if acks[-1] != 2}
    out = {}
    for partition in (0, 1):
        offset = 0
        while (partition, offset) in final:
            offset += 1
        out[(SHARED, partition)] = offset
    return out


def test_inspect_share_state_agrees_with_the_broker(broker_run):
    """Each share-partition's start offset is what kafka-share-groups lists (4.0 lists none: there it is
    at most the first offset not acknowledged for good, and 4.0 persists it lazily: after the released
    records were accepted its last update still starts at the first of them); past it, the newest state
    batch that covers an offset (updates override the snapshot, later ones earlier ones, as Kafka's share
    coordinator merges them) says what the consumer acknowledged: accepted records acknowledged, rejected
    ones archived, each with its count of deliveries (two for the released ones); and the delivery-complete
    count is the number of those records."""
    _share_group(broker_run)
    ids = {t["topic_id"]: n for n, t in broker_run.described_stopped["topics"].items()}
    body = kafkaspec("inspect", "share-state", "--json", str(broker_run.stopped))
    parts = {
        (ids[p["topic_id"]], p["partition"]): p for p in body["share_partitions"] if p["group"] == SHARE_GROUP
    }
    starts = {k: p["start_offset"] for k, p in parts.items()}
    if broker_run.share_listed is None:
        most = _acknowledged_up_to(broker_run)
        assert all(0 <= start <= most[k] for k, start in starts.items()), (starts, most)
    else:
        assert starts == broker_run.share_listed
    assert sorted(parts) == [(SHARED, 0), (SHARED, 1)]
    for (topic, partition), p in parts.items():
        batches = ([p["snapshot"]] if p["snapshot"] else []) + p["updates"]
        state: dict[int, tuple[int, int]] = {}
        for written in batches:
            for b in written["state_batches"]:
                for offset in range(b["first_offset"], b["last_offset"] + 1):
                    state[offset] = (b["delivery_state"], b["delivery_count"])
        start = p["start_offset"]
        expected = {
            o: (_ARCHIVED if acks[-1] == 3 else _ACKNOWLEDGED, len(acks))
            for (part, o), acks in broker_run.share_acks.items()
            if part == partition and o >= start
        }
        assert {o: state.get(o) for o in expected} == expected, f"{topic}-{partition}"
        # 4.1's share coordinator does not write the tagged DeliveryCompleteCount: Kafka's default, -1;
        # 4.0's records have no such field (their layout is 4.0's early access): none
        count = {(4, 0): None, (4, 1): -1}.get(_minor(broker_run.release), len(expected))
        assert p["delivery_complete_count"] == count, f"{topic}-{partition}"
