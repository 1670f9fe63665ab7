"""Each topic's ``cleanup.policy``, as the cluster's metadata log says it, for the default table mode:
``upsert`` for a compacted topic (its table keeps the latest value per key, as the topic itself does
once cleaned), ``append`` elsewhere.

The configs are those of ``__cluster_metadata`` replayed to its end (its latest snapshot, then the
log after it), as ``kafkaspec inspect metadata`` does: a topic's own ``cleanup.policy``, else the
cluster-wide default a controller stored (``log.cleanup.policy`` of the default broker resource),
else Kafka's default, ``delete``. A data dir without the metadata log (a ZooKeeper-era broker's, a
copy of some topics) says nothing, and every topic is ``delete`` then: the broker's own
``server.properties`` is not in the data dir.
"""

from __future__ import annotations

from ..errors import KafkaFormatError
from ..logdir import LogDir, Segment
from ..logdir.kafka import files
from ..payloads import ClusterState, decode_as

METADATA_TOPIC = "__cluster_metadata"
#: Kafka's resource types in a ConfigRecord
TOPIC, BROKER = 2, 4
DEFAULT = "delete"


def cleanup_policies(log_dir: LogDir) -> tuple[dict[str, str], str] | None:
    """(topic -> its own ``cleanup.policy``, the default of the others) from the metadata log; None:
    the data dir has none."""
    state = ClusterState()
    found = False
    for part in log_dir.partitions():
        if part.topic != METADATA_TOPIC:
            continue
        found = True
        snapshots = [p for p in part.checkpoint_paths() if p.name != files.BOOTSTRAP_CHECKPOINT]
        start = None
        if snapshots:
            latest = max(snapshots, key=lambda p: p.name)
            start = int(latest.name.split("-", 1)[0])  # the snapshot holds the records before this offset
            _replay(state, [Segment(latest)], None)
        _replay(state, part.segments(), start)
        break
    if not found:
        return None
    topics = {
        name: c["cleanup.policy"]
        for (kind, name), c in state.configs.items()
        if kind == TOPIC and "cleanup.policy" in c
    }
    default = state.configs.get((BROKER, ""), {}).get("log.cleanup.policy", DEFAULT)
    return topics, default


def _replay(state: ClusterState, segments: list, start: int | None) -> None:
    """The records of ``segments`` from ``start`` into ``state``; a record that does not decode is
    passed over (the policies are a default's hint: ``kafkaspec verify`` is where damage is told)."""
    for seg in segments:
        try:
            for batch in seg.iter_batches():
                if batch.is_control:
                    continue
                for r in batch:
                    if start is not None and r.offset < start:
                        continue
                    try:
                        state.apply(decode_as("metadata", r.key, r.value), r.offset)
                    except KafkaFormatError:
                        continue
        except KafkaFormatError:
            continue
        finally:
            seg.close()


def compacted(policy: str) -> bool:
    """Whether a ``cleanup.policy`` (``compact``, ``delete``, ``compact,delete``) compacts."""
    return "compact" in (p.strip() for p in policy.split(","))
