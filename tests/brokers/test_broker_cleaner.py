"""The compacted topic was cleaned by the broker's log cleaner, twice: the other modules compare what
the broker serves of it with what kafkaspec reads (records, dump, verify, DumpLogSegments); this one
checks that there is cleaned output to compare: offsets gone, tombstones with a delete horizon, and
the first round's tombstones removed once their horizon passed."""

from __future__ import annotations

from support.kafka_cleanup import COMPACTION_KEYS, COMPACTION_ROUNDS, GONE
from support.kafka_workload import COMPACTED

from kafkaspec.logdir import open_log

PER_ROUND = 50


def test_the_compacted_topic_holds_the_cleaners_output(broker_run):
    part = open_log(str(broker_run.stopped / f"{COMPACTED}-0")).partitions()[0]
    batches = [b for _, b in part.batches()]
    offsets = [r.offset for _, r in part.records()]
    total = COMPACTION_ROUNDS * PER_ROUND
    assert batches[-1].last_offset == total - 1
    assert len(offsets) < total - PER_ROUND, "the cleaner removed no record"
    assert any(b.has_delete_horizon for b in batches), "no batch with a delete horizon"
    cleaned = [o for o in offsets if o < (COMPACTION_ROUNDS - 1) * PER_ROUND]
    assert len(cleaned) <= COMPACTION_KEYS + GONE, cleaned  # one record per key in the cleaned part
    gone = [(b.has_delete_horizon, r.offset) for b, r in part.records() if r.key.startswith(b"gone-")]
    assert [o for _, o in gone if o < PER_ROUND] == [], "tombstones past their delete horizon are still there"
    assert [o for _, o in gone] == list(range(3 * PER_ROUND - GONE, 3 * PER_ROUND))
    assert all(h for h, _ in gone), "the third round's tombstones have no delete horizon"
    served = [r.offset for r in broker_run.uncommitted if r.topic == COMPACTED]
    assert served == offsets
