"""Replay ``__share_group_state`` records (KIP-932's share coordinator) into the state of each
share-partition: per share group, topic id and partition, the last full snapshot and the updates
written after it.

Sans-IO: feed :meth:`ShareState.apply` the decoded records (:func:`kafkaspec.payloads.decode`) in
log order. The replay follows Kafka's share coordinator: a ``ShareSnapshot`` replaces the
share-partition's state (a tombstone deletes it); a ``ShareUpdate`` moves the start offset and
the leader epoch where it sets them (-1 leaves them) and carries the delivery-complete count. The
updates' state batches are kept as written, one list per update, not merged into the snapshot's:
Kafka merges them by delivery count and state, and a summary that showed a merge of its own
could differ from Kafka's without saying so.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .decode import Decoded, jsonable


@dataclass
class ShareState:
    """What the ``__share_group_state`` records say at the end of the log."""

    #: (group, topic id, partition) -> {"snapshot": fields or None, "updates": [fields], "leader_epoch",
    #: "start_offset", "delivery_complete_count", "log_offset"}
    partitions: dict[tuple[str, Any, int], dict[str, Any]] = field(default_factory=dict)
    #: records applied, by type (tombstones counted under "<type> tombstone")
    counts: dict[str, int] = field(default_factory=dict)

    def apply(self, record: Decoded, offset: int | None = None) -> None:
        kind = record.type + (" tombstone" if record.tombstone else "")
        self.counts[kind] = self.counts.get(kind, 0) + 1
        if record.key is None or record.type not in ("ShareSnapshot", "ShareUpdate"):
            return
        where = (record.key["group_id"], record.key["topic_id"], record.key["partition"])
        value = record.value
        if record.type == "ShareSnapshot":
            if value is None:
                self.partitions.pop(where, None)  # the share-partition's state was deleted
                return
            self.partitions[where] = {
                "snapshot": dict(value),
                "updates": [],
                "state_epoch": value["state_epoch"],
                "leader_epoch": value["leader_epoch"],
                "start_offset": value["start_offset"],
                "delivery_complete_count": value.get("delivery_complete_count"),
                "log_offset": offset,
            }
            return
        if value is None:
            return  # Kafka writes no update tombstones; counted above, nothing to apply
        state = self.partitions.setdefault(
            where,
            {
                "snapshot": None,
                "updates": [],
                "state_epoch": None,
                "leader_epoch": -1,
                "start_offset": -1,
                "delivery_complete_count": None,
                "log_offset": offset,
            },
        )
        state["updates"].append(dict(value))
        if value["start_offset"] != -1:
            state["start_offset"] = value["start_offset"]
        if value["leader_epoch"] != -1:
            state["leader_epoch"] = value["leader_epoch"]
        state["delivery_complete_count"] = value.get("delivery_complete_count")
        state["log_offset"] = offset

    def to_json(self) -> dict[str, Any]:
        """Each share-partition (sorted by group, topic id and partition), then the record counts."""
        out = [
            {"group": g, "topic_id": t, "partition": p, **s}
            for (g, t, p), s in sorted(
                self.partitions.items(), key=lambda kv: (kv[0][0], str(kv[0][1]), kv[0][2])
            )
        ]
        return jsonable({"share_partitions": out, "record_counts": dict(sorted(self.counts.items()))})
