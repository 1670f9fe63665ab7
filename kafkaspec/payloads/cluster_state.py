"""Replay KRaft metadata records into the cluster state they describe, like Kafka's metadata shell.

:class:`ClusterState` takes decoded ``__cluster_metadata`` records (:func:`kafkaspec.payloads.decode`)
in log order and keeps what they say at the end: brokers (endpoints, fencing, rack, epoch),
controllers, topics with their ids and partitions (leader, ISR, replicas, epochs), finalized
features, configs, client quotas, ACLs, the producer id block, SCRAM users and delegation tokens.
Records between a BeginTransactionRecord and its EndTransactionRecord apply together at the end;
an AbortTransactionRecord drops them, and a transaction still open at the end of the log is not
applied (it is reported in ``open_transaction``). Sans-IO: reading the log is the caller's job
(``kafkaspec inspect metadata`` does it).

A record that contradicts the state before it (a second id for a topic name, a partition of a topic
id never created, a change to a partition or broker that does not exist, an end of a transaction
never begun) is not applied, and is listed in :attr:`ClusterState.contradictions` with its offset:
a healthy controller never writes one, so the log was edited, spliced or damaged, and guessing
what it meant would show a state no cluster had.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import inkless
from .decode import Decoded, jsonable


@dataclass
class ClusterState:
    """What a metadata log says at its end. Values are the records' fields (snake_case)."""

    brokers: dict[int, dict[str, Any]] = field(default_factory=dict)
    controllers: dict[int, dict[str, Any]] = field(default_factory=dict)
    #: topic name -> {"topic_id", "partitions": {partition id: state}}
    topics: dict[str, dict[str, Any]] = field(default_factory=dict)
    features: dict[str, int] = field(default_factory=dict)
    #: (resource type, resource name) -> {config key: value}
    configs: dict[tuple[int, str], dict[str, str]] = field(default_factory=dict)
    #: entity ((type, name or None), ...) -> {quota key: value}
    quotas: dict[tuple[tuple[str, str | None], ...], dict[str, float]] = field(default_factory=dict)
    acls: dict[Any, dict[str, Any]] = field(default_factory=dict)
    producer_ids: dict[str, Any] | None = None
    scram_users: dict[tuple[str, int], dict[str, Any]] = field(default_factory=dict)
    delegation_tokens: dict[str, dict[str, Any]] = field(default_factory=dict)
    zk_migration_state: int | None = None
    #: records applied, by type (NoOpRecord included)
    counts: dict[str, int] = field(default_factory=dict)
    #: offset of the last record applied, and of the snapshot the replay started from
    last_offset: int | None = None
    snapshot: str | None = None
    #: the offset where a metadata transaction still open at the end began (its records not applied)
    open_transaction: int | None = None
    #: (offset, what) for each record that contradicts the state before it (not applied), in log order
    contradictions: list[tuple[int | None, str]] = field(default_factory=list)
    _pending: list[tuple[Decoded, int | None]] | None = None
    _topic_names: dict[Any, str] = field(default_factory=dict)
    _offset: int | None = None

    def apply(self, record: Decoded, offset: int | None = None) -> None:
        """Apply one decoded metadata record (in log order)."""
        self.counts[record.type] = self.counts.get(record.type, 0) + 1
        if offset is not None:
            self.last_offset = offset
        self._offset = offset
        if record.type == "BeginTransactionRecord":
            if self._pending is not None:
                self._contradiction(
                    f"BeginTransactionRecord inside the metadata transaction begun at offset "
                    f"{self.open_transaction}, which has not ended"
                )
                return
            self._pending, self.open_transaction = [], offset
        elif record.type in ("EndTransactionRecord", "AbortTransactionRecord"):
            if self._pending is None:
                self._contradiction(f"{record.type} with no metadata transaction begun")
                return
            pending, self._pending, self.open_transaction = self._pending, None, None
            if record.type == "EndTransactionRecord":
                for p, at in pending:
                    self._offset = at
                    self._apply(p)
        elif self._pending is not None:
            self._pending.append((record, offset))
        else:
            self._apply(record)

    def _apply(self, record: Decoded) -> None:
        handler = getattr(self, f"_on_{record.type}", None)
        if handler is not None and record.value is not None:
            handler(record.value)

    def _contradiction(self, what: str) -> None:
        self.contradictions.append((self._offset, what + " (not applied)"))

    def _missing_broker(self, record: str, broker_id: int) -> bool:
        """True (and reported) when ``record`` names a broker that is not registered."""
        if broker_id in self.brokers:
            return False
        self._contradiction(f"{record} for broker {broker_id}, which is not registered")
        return True

    # -- brokers and controllers ---------------------------------------------------------------
    def _on_RegisterBrokerRecord(self, v: dict) -> None:  # named after Kafka's record types
        self.brokers[v["broker_id"]] = dict(v)

    def _on_UnregisterBrokerRecord(self, v: dict) -> None:
        if not self._missing_broker("UnregisterBrokerRecord", v["broker_id"]):
            del self.brokers[v["broker_id"]]

    def _on_FenceBrokerRecord(self, v: dict) -> None:
        if not self._missing_broker("FenceBrokerRecord", v["id"]):
            self.brokers[v["id"]]["fenced"] = True

    def _on_UnfenceBrokerRecord(self, v: dict) -> None:
        if not self._missing_broker("UnfenceBrokerRecord", v["id"]):
            self.brokers[v["id"]]["fenced"] = False

    def _on_BrokerRegistrationChangeRecord(self, v: dict) -> None:
        if self._missing_broker("BrokerRegistrationChangeRecord", v["broker_id"]):
            return
        broker = self.brokers[v["broker_id"]]
        if v["fenced"]:  # 1 fenced, -1 unfenced, 0 no change
            broker["fenced"] = v["fenced"] == 1
        if v.get("in_controlled_shutdown") == 1:
            broker["in_controlled_shutdown"] = True
        if v.get("log_dirs"):
            broker["log_dirs"] = v["log_dirs"]

    def _on_RegisterControllerRecord(self, v: dict) -> None:
        self.controllers[v["controller_id"]] = dict(v)

    # -- topics and partitions -------------------------------------------------------------------
    def _on_TopicRecord(self, v: dict) -> None:
        name, topic_id = v["name"], v["topic_id"]
        known = self.topics.get(name)
        if known is not None:  # Kafka removes a topic (RemoveTopicRecord) before its name is used again
            self._contradiction(
                f"TopicRecord gives topic {name!r} id {_uuid(topic_id)}, but it has id "
                f"{_uuid(known['topic_id'])} and was not removed"
            )
        elif topic_id in self._topic_names:
            self._contradiction(
                f"TopicRecord gives id {_uuid(topic_id)} to topic {name!r}, but it is the id of "
                f"topic {self._topic_names[topic_id]!r}"
            )
        else:
            self.topics[name] = {"topic_id": topic_id, "partitions": {}}
            self._topic_names[topic_id] = name

    def _on_RemoveTopicRecord(self, v: dict) -> None:
        name = self._topic_names.pop(v["topic_id"], None)
        if name is None:
            self._contradiction(f"RemoveTopicRecord for topic id {_uuid(v['topic_id'])}, which no topic has")
        else:
            del self.topics[name]

    def _partitions(self, record: str, topic_id: Any) -> dict[int, dict[str, Any]] | None:
        """The partitions of the topic with ``topic_id`` (None, reported, when no topic has that id)."""
        name = self._topic_names.get(topic_id)
        if name is None:
            self._contradiction(f"{record} for topic id {_uuid(topic_id)}, which no topic has")
            return None
        return self.topics[name]["partitions"]

    def _on_PartitionRecord(self, v: dict) -> None:
        parts = self._partitions("PartitionRecord", v["topic_id"])
        if parts is not None:
            parts[v["partition_id"]] = {k: x for k, x in v.items() if k not in ("topic_id", "partition_id")}

    def _on_PartitionChangeRecord(self, v: dict) -> None:
        parts = self._partitions("PartitionChangeRecord", v["topic_id"])
        if parts is None:
            return
        state = parts.get(v["partition_id"])
        if state is None:
            self._contradiction(
                f"PartitionChangeRecord for partition {v['partition_id']} of topic "
                f"{self._topic_names[v['topic_id']]!r}, which has no such partition"
            )
            return
        for name in (
            "isr",
            "replicas",
            "removing_replicas",
            "adding_replicas",
            "directories",
            "eligible_leader_replicas",
            "last_known_elr",
        ):
            if v.get(name) is not None:  # null: unchanged
                state[name] = v[name]
        for name in inkless.NAMES:  # Inkless's fields, present only where it wrote them
            if name in v:
                state[name] = v[name]
        if v["leader"] != -2:  # -2: unchanged
            state["leader"] = v["leader"]
            state["leader_epoch"] = state.get("leader_epoch", -1) + 1
        if v["leader_recovery_state"] != -1:
            state["leader_recovery_state"] = v["leader_recovery_state"]
        state["partition_epoch"] = state.get("partition_epoch", -1) + 1

    def _on_ClearElrRecord(self, v: dict) -> None:
        # As Kafka's controller merges it: an empty ELR and last known ELR for every partition of the
        # topic (of every topic when the name is empty) that has either, a new partition epoch each.
        names = [v["topic_name"]] if v["topic_name"] else list(self.topics)
        for name in names:
            for state in self.topics.get(name, {}).get("partitions", {}).values():
                if state.get("eligible_leader_replicas") or state.get("last_known_elr"):
                    state["eligible_leader_replicas"], state["last_known_elr"] = [], []
                    state["partition_epoch"] = state.get("partition_epoch", -1) + 1

    # -- the rest ------------------------------------------------------------------------------------
    def _on_FeatureLevelRecord(self, v: dict) -> None:
        if v["feature_level"] == 0:
            self.features.pop(v["name"], None)
        else:
            self.features[v["name"]] = v["feature_level"]

    def _on_ConfigRecord(self, v: dict) -> None:
        key = (v["resource_type"], v["resource_name"])
        if v["value"] is None:
            self.configs.get(key, {}).pop(v["name"], None)
        else:
            self.configs.setdefault(key, {})[v["name"]] = v["value"]

    def _on_ClientQuotaRecord(self, v: dict) -> None:
        entity = tuple((e["entity_type"], e["entity_name"]) for e in v["entity"])
        if v["remove"]:
            self.quotas.get(entity, {}).pop(v["key"], None)
        else:
            self.quotas.setdefault(entity, {})[v["key"]] = v["value"]

    def _on_ProducerIdsRecord(self, v: dict) -> None:
        self.producer_ids = dict(v)

    def _on_AccessControlEntryRecord(self, v: dict) -> None:
        self.acls[v["id"]] = dict(v)

    def _on_RemoveAccessControlEntryRecord(self, v: dict) -> None:
        if self.acls.pop(v["id"], None) is None:
            self._contradiction(
                f"RemoveAccessControlEntryRecord for ACL {_uuid(v['id'])}, which does not exist"
            )

    def _on_UserScramCredentialRecord(self, v: dict) -> None:
        self.scram_users[(v["name"], v["mechanism"])] = {
            "name": v["name"],
            "mechanism": v["mechanism"],
            "iterations": v["iterations"],
        }

    def _on_RemoveUserScramCredentialRecord(self, v: dict) -> None:
        self.scram_users.pop((v["name"], v["mechanism"]), None)

    def _on_DelegationTokenRecord(self, v: dict) -> None:
        self.delegation_tokens[v["token_id"]] = dict(v)

    def _on_RemoveDelegationTokenRecord(self, v: dict) -> None:
        self.delegation_tokens.pop(v["token_id"], None)

    def _on_ZkMigrationStateRecord(self, v: dict) -> None:
        self.zk_migration_state = v["zk_migration_state"]

    # -- output ----------------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The state as JSON values (uuids as Kafka prints them; SCRAM secrets are not kept)."""
        return jsonable(
            {
                "last_offset": self.last_offset,
                "snapshot": self.snapshot,
                "open_transaction": self.open_transaction,
                "features": dict(sorted(self.features.items())),
                "brokers": [self.brokers[b] for b in sorted(self.brokers)],
                "controllers": [self.controllers[c] for c in sorted(self.controllers)],
                "topics": [
                    {
                        "name": name,
                        "topic_id": t["topic_id"],
                        "partitions": [
                            {"partition": p, **t["partitions"][p]} for p in sorted(t["partitions"])
                        ],
                    }
                    for name, t in sorted(self.topics.items())
                ],
                "configs": [
                    {"resource_type": k[0], "resource_name": k[1], "configs": dict(sorted(c.items()))}
                    for k, c in sorted(self.configs.items())
                    if c
                ],
                "quotas": [
                    {"entity": [{"entity_type": t, "entity_name": n} for t, n in k], "quotas": q}
                    for k, q in sorted(self.quotas.items(), key=lambda kv: str(kv[0]))
                    if q
                ],
                "acls": list(self.acls.values()),
                "producer_ids": self.producer_ids,
                "scram_users": list(self.scram_users.values()),
                "delegation_tokens": list(self.delegation_tokens.values()),
                "zk_migration_state": self.zk_migration_state,
                "record_counts": dict(sorted(self.counts.items())),
                "contradictions": [
                    {"offset": offset, "problem": what} for offset, what in self.contradictions
                ],
            }
        )


def _uuid(value: Any) -> str:
    """A topic id as Kafka prints it (base64url, no padding), for the contradiction messages."""
    return str(jsonable(value))
