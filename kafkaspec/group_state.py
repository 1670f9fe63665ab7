"""Replay ``__consumer_offsets`` records into the last committed offset per group, topic and
partition, and each classic group's last stored state (protocol, generation, leader, members).

Sans-IO: feed :meth:`GroupOffsets.apply` the decoded records (:func:`kafkaspec.payloads.decode`) in
log order; a tombstone deletes the commit or the group its key names, as the log cleaner would.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .payloads import Decoded, jsonable


@dataclass
class GroupOffsets:
    """What the ``__consumer_offsets`` records say at the end of the log."""

    #: (group, topic, partition) -> the last OffsetCommitValue's fields plus the record's log offset
    commits: dict[tuple[str, str, int], dict[str, Any]] = field(default_factory=dict)
    #: group -> the last GroupMetadataValue's fields
    groups: dict[str, dict[str, Any]] = field(default_factory=dict)
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

    def to_json(self) -> dict[str, Any]:
        names = sorted({g for g, _, _ in self.commits} | set(self.groups))
        out = []
        for name in names:
            state = self.groups.get(name)
            out.append({
                "group": name,
                "state": None if state is None else {
                    "protocol_type": state["protocol_type"], "generation": state["generation"],
                    "protocol": state["protocol"], "leader": state["leader"],
                    "members": [{k: m[k] for k in ("member_id", "group_instance_id", "client_id", "client_host")}
                                for m in state["members"]]},
                "offsets": [{"topic": t, "partition": p, **c}
                            for (g, t, p), c in sorted(self.commits.items()) if g == name],
            })
        return jsonable({"groups": out, "record_counts": dict(sorted(self.counts.items()))})
