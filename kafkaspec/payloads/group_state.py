"""Replay ``__consumer_offsets`` records into the last committed offset per group, topic and
partition, and each classic group's last stored state (protocol, generation, leader, members).

Sans-IO: feed :meth:`GroupOffsets.apply` the decoded records (:func:`kafkaspec.payloads.decode`) in
log order; a tombstone deletes the commit or the group its key names, as the log cleaner would.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .decode import Decoded, jsonable


@dataclass
class GroupOffsets:
    """What the ``__consumer_offsets`` records say at the end of the log."""

    #: (group, topic, partition) -> the last OffsetCommitValue's fields plus the record's log offset
    commits: dict[tuple[str, str, int], dict[str, Any]] = field(default_factory=dict)
    #: group -> the last GroupMetadataValue's fields
    groups: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: consumer (KIP-848) and share (KIP-932) groups: group -> {"kind", "epoch", "members": {id: fields}}
    modern: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: records applied, by type (tombstones counted under "<type> tombstone")
    counts: dict[str, int] = field(default_factory=dict)

    def apply(self, record: Decoded, offset: int | None = None) -> None:
        kind = record.type + (" tombstone" if record.tombstone else "")
        self.counts[kind] = self.counts.get(kind, 0) + 1
        key = record.key or {}
        if record.type == "OffsetCommit":
            where = (key["group"], key["topic"], key["partition"])
            if record.value is None:
                self.commits.pop(where, None)
            else:
                self.commits[where] = {**record.value, "log_offset": offset}
        elif record.type == "GroupMetadata":
            if record.value is None:
                self.groups.pop(key["group"], None)
            else:
                self.groups[key["group"]] = dict(record.value)
        elif record.type.startswith(("ConsumerGroup", "ShareGroup")):
            self._modern(record, key)

    def _modern(self, record: Decoded, key: dict[str, Any]) -> None:
        """The KIP-848 / KIP-932 records: group epoch, members' metadata and current assignments."""
        kind = "consumer" if record.type.startswith("ConsumerGroup") else "share"
        what = record.type.removeprefix("ConsumerGroup").removeprefix("ShareGroup")
        name = key["group_id"]
        if what == "Metadata":
            if record.value is None:
                self.modern.pop(name, None)  # the group was deleted
            else:
                self.modern.setdefault(name, {"kind": kind, "epoch": None, "members": {}})["epoch"] = (
                    record.value["epoch"]
                )
            return
        if what not in ("MemberMetadata", "CurrentMemberAssignment"):
            return  # target assignments and topic metadata: the coordinator's bookkeeping
        members = self.modern.setdefault(name, {"kind": kind, "epoch": None, "members": {}})["members"]
        member_id = key["member_id"]
        if record.value is None:
            members.get(member_id, {}).pop(what, None)
            if member_id in members and not members[member_id]:
                del members[member_id]
        else:
            members.setdefault(member_id, {})[what] = dict(record.value)

    def to_json(self) -> dict[str, Any]:
        """Each group (sorted by name) with its state and its commits (sorted by topic and partition),
        then the record counts. The commits are sorted once and cut into groups in that one pass:
        time n log n in the commits, whatever the number of groups."""
        by_group: dict[str, list[dict[str, Any]]] = {}
        for (g, t, p), c in sorted(self.commits.items()):
            by_group.setdefault(g, []).append({"topic": t, "partition": p, **c})
        names = sorted(by_group.keys() | self.groups.keys() | self.modern.keys())
        out = []
        for name in names:
            state = self.groups.get(name)
            modern = self.modern.get(name)
            if state is not None:
                summary: dict[str, Any] | None = {
                    "protocol_type": state["protocol_type"],
                    "generation": state["generation"],
                    "protocol": state["protocol"],
                    "leader": state["leader"],
                    "members": [
                        {k: m[k] for k in ("member_id", "group_instance_id", "client_id", "client_host")}
                        for m in state["members"]
                    ],
                }
            elif modern is not None:
                summary = {
                    "protocol_type": modern["kind"],
                    "group_epoch": modern["epoch"],
                    "members": [_member(mid, m) for mid, m in sorted(modern["members"].items())],
                }
            else:
                summary = None
            out.append(
                {
                    "group": name,
                    "state": summary,
                    "offsets": by_group.get(name, []),
                }
            )
        return jsonable({"groups": out, "record_counts": dict(sorted(self.counts.items()))})


def _member(member_id: str, m: dict[str, Any]) -> dict[str, Any]:
    meta = m.get("MemberMetadata", {})
    current = m.get("CurrentMemberAssignment", {})
    return {
        "member_id": member_id,
        "client_id": meta.get("client_id"),
        "client_host": meta.get("client_host"),
        "rack_id": meta.get("rack_id"),
        "subscribed_topic_names": meta.get("subscribed_topic_names"),
        "member_epoch": current.get("member_epoch"),
        "assigned_partitions": current.get("assigned_partitions"),
    }
