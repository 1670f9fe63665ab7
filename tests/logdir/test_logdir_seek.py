"""Seeking by offset and by timestamp lands where a linear scan says (hypothesis)."""

from __future__ import annotations

import os
import tempfile

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kafkaspec import Record
from kafkaspec.logdir import PartitionWriter, open_log

EXAMPLES = min(int(os.environ.get("KAFKASPEC_FUZZ_EXAMPLES", "300")), 60)

batch_st = st.lists(st.tuples(st.integers(-5_000, 5_000), st.integers(0, 300)), min_size=0, max_size=6)
log_st = st.lists(st.tuples(batch_st, st.integers(0, 3)), min_size=1, max_size=40)


def _write(root, spec):
    """Batches with jittering (non-monotonic) timestamps, gaps and empty batches, in tiny segments."""
    ts = 1_000_000
    with PartitionWriter(root, "s", 0, segment_bytes=700, index_interval_bytes=100) as w:
        for records, gap in spec:
            recs = []
            for jitter, size in records:
                ts += 10
                recs.append(Record(value=b"v" * size, timestamp=ts + jitter))
            delta = len(recs) - 1 + gap if recs else gap
            w.append(recs, last_offset_delta=delta)
    return open_log(root).partitions()[0]


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spec=log_st, data=st.data())
def test_seek_matches_linear_scan(spec, data):
    with tempfile.TemporaryDirectory() as root:
        part = _write(root, spec)
        batches = [(seg, b) for seg in part.segments() for b in seg.iter_batches()]
        end = batches[-1][1].last_offset + 1
        target = data.draw(st.integers(0, end + 2))
        # offset: the first batch whose last offset >= target
        expected = next(((s.base_offset, b.position) for s, b in batches if b.last_offset >= target), None)
        seg = [s for s in part.segments() if s.base_offset <= target][-1]
        found = seg.find_offset(target)
        if found is None:  # the target lies past this segment's batches: the next segment's first batch
            later = [s for s in part.segments() if s.base_offset > target]
            found_at = (later[0].base_offset, 0) if later else None
        else:
            found_at = (seg.base_offset, found.position)
        assert found_at == expected
        got = [b.base_offset for _, b in part.batches(target)]
        assert got == [b.base_offset for _, b in batches if b.last_offset >= target]
        # timestamp: the first record with timestamp >= t (Kafka's ListOffsets)
        stamps = [(r.offset, r.timestamp) for _, b in batches for r in b]
        if stamps:
            t = data.draw(st.sampled_from([ts for _, ts in stamps] + [0, 10**15]))
            want = next((o for o, ts in stamps if ts >= t), None)
            assert part.offset_for_timestamp(t) == want
            for seg in part.segments():
                seg_batches = [b for s, b in batches if s is seg]
                want_b = next((b.position for b in seg_batches if b.max_timestamp >= t), None)
                got_b = seg.find_timestamp(t)
                assert (got_b.position if got_b else None) == want_b
        part.close()


def test_seek_reads_one_index_interval(tmp_path):
    """From the index entry, the scan to the target covers at most one interval plus the target batch."""
    with PartitionWriter(tmp_path, "s", 0, index_interval_bytes=1000) as w:
        for i in range(300):
            w.append([Record(value=bytes(100), timestamp=i)])
    seg = open_log(tmp_path).partitions()[0].segments()[0]
    for target in (0, 57, 150, 299):
        start = seg.position_for_offset(target)
        batch = seg.find_offset(target)
        assert batch.base_offset == target
        assert batch.end - start <= 1000 + 2 * batch.size
