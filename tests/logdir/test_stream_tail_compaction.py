"""A followed partition compacted between two looks: Kafka's cleaner is no log going back.

The cleaner rewrites segments that are no longer active (``cleanup.policy=compact``): it thins batches
(keeping their base and last offsets and leader epoch), drops the batches it empties and merges small
segments into the one before, so the last batch head a tail saw moves or changes although no offset
went back and nothing a reader saw was lost. The segment a look ended in is the active one at that
look, but it may roll and be cleaned before the next look, so both checks (the head in an earlier
segment, and the segment the walk continues in) meet it. A real truncation (a new leader's batches at
the same offsets under a higher epoch, a log cut shorter than the remembered batch) is still reported.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pyarrow as pa
import pytest
from pyspark.sql.streaming.datasource import ReadAllAvailable

from kafkaspec import Record, build_batch, build_control_batch
from kafkaspec.logdir.kafka import marks as marks_module
from kafkaspec.logdir.kafka import tail as tail_module
from kafkaspec.logdir.kafka.layout import Partition
from kafkaspec.logdir.kafka.tail import PartitionTail
from kafkaspec.spark.read.options import ReadOptions
from kafkaspec.spark.stream.reader import KafkaLogStreamReader

TS = 1_700_000_000_000


def _batch(base: int, n: int, epoch: int, tag: bytes = b"old") -> bytes:
    return build_batch(
        values=[b"%s-%d" % (tag, base + i) for i in range(n)],
        timestamps=[TS + base + i for i in range(n)],
        base_offset=base,
        partition_leader_epoch=epoch,
    )


def _kept(base: int, offsets: list[int], last: int, epoch: int) -> bytes:
    """A batch as Kafka's cleaner leaves it: some of its records, its base and last offsets and epoch kept."""
    records = [Record(key=None, value=b"old-%d" % o, timestamp=TS + o, offset=o) for o in offsets]
    return build_batch(records, base_offset=base, last_offset_delta=last - base, partition_leader_epoch=epoch)


def _segment(part: Path, base: int) -> Path:
    return part / f"{base:020d}.log"


def _append(path: Path, *batches: bytes) -> None:
    with path.open("ab") as fh:
        for b in batches:
            fh.write(b)


@pytest.fixture
def part(tmp_path):
    """A partition directory with segment 0 (offsets 0-19, epoch 3) and a canary beside it that must survive."""
    d = tmp_path / "t-0"
    d.mkdir()
    _append(_segment(d, 0), _batch(0, 10, 3), _batch(10, 10, 3))
    (tmp_path / "canary").write_text("keep")
    yield d
    assert (tmp_path / "canary").read_text() == "keep"


def _clean(part: Path, how: str) -> None:
    """Segment 20 (offsets 20-39, no longer active) as the cleaner leaves it."""
    first = _kept(0, [3, 9], 9, 3) + _kept(10, [12], 19, 3)
    second = _kept(20, [21, 29], 29, 3)
    if how == "thinned in place":
        _segment(part, 20).write_bytes(second + _kept(30, [31, 38], 39, 3))
    elif how == "merged into segment 0":
        _segment(part, 20).unlink()
        _segment(part, 0).write_bytes(first + second + _kept(30, [39], 39, 3))
    else:  # "its last batch emptied and dropped"
        _segment(part, 20).write_bytes(second)


CLEANED = ["thinned in place", "merged into segment 0", "its last batch emptied and dropped"]


class Lookups:
    """Counts the lookups of a batch by offset (what a compaction check costs beyond one head)."""

    def __init__(self, monkeypatch):
        self.calls = 0
        below = marks_module.mark_below

        def counted(seg, offset):
            self.calls += 1
            return below(seg, offset)

        # the compaction rule looks batches up in marks; the tail's own mark() through its import
        monkeypatch.setattr(marks_module, "mark_below", counted)
        monkeypatch.setattr(tail_module, "mark_below", counted)


@pytest.mark.parametrize("how", CLEANED)
def test_a_rolled_segment_compacted_between_looks_is_not_a_log_that_went_back(part, how, monkeypatch):
    """The last head seen lies in the segment before the (empty) active one: the cleaner rewrote it."""
    _append(_segment(part, 20), _batch(20, 10, 3), _batch(30, 10, 3))
    tail = PartitionTail()
    assert tail.look(Partition(part)).end == 40
    _segment(part, 40).write_bytes(b"")  # rolled: a new, empty active segment
    assert tail.look(Partition(part)).rewound is None
    _clean(part, how)
    lookups = Lookups(monkeypatch)
    point = tail.look(Partition(part))
    assert (point.rewound, point.end) == (None, 40)
    assert lookups.calls >= 1  # the head's bytes differ: looked up once
    seen = lookups.calls
    assert tail.look(Partition(part)).rewound is None
    assert lookups.calls == seen  # the head it now remembers is the batch as the cleaner left it
    _append(_segment(part, 40), _batch(40, 5, 4, b"more"))
    point = tail.look(Partition(part))
    assert (point.rewound, point.end) == (None, 45)


@pytest.mark.parametrize("how", CLEANED)
def test_the_segment_a_look_ended_in_rolled_and_compacted_before_the_next_is_followed_on(
    part, how, monkeypatch
):
    """The cleaner never touches the active segment, but the one the last look ended in (active then) may roll
    and be cleaned before the next look: batches appended to it meanwhile are still counted, none invented."""
    _append(_segment(part, 20), _batch(20, 10, 3))
    tail = PartitionTail()
    assert tail.look(Partition(part)).end == 30
    _append(_segment(part, 20), _batch(30, 10, 3))  # appended after that look, then the roll and the clean
    _append(_segment(part, 40), _batch(40, 5, 4, b"more"))
    _clean(part, how)
    lookups = Lookups(monkeypatch)
    point = tail.look(Partition(part))
    assert (point.rewound, point.end) == (None, 45)
    seen = lookups.calls
    _append(_segment(part, 40), _batch(45, 5, 4, b"more"))
    point = tail.look(Partition(part))
    assert (point.rewound, point.end) == (None, 50)
    assert lookups.calls == seen  # following on: no lookup when nothing moved


def test_a_segment_compacted_after_the_look_that_walked_all_of_it_is_followed_on(part):
    """The segment a look ended in, read to its end, rolled and cleaned: its last batch thinned (shorter)."""
    _append(_segment(part, 20), _batch(20, 10, 3), _batch(30, 10, 3))
    tail = PartitionTail()
    assert tail.look(Partition(part)).end == 40
    _append(_segment(part, 40), _batch(40, 5, 4, b"more"))
    _clean(part, "thinned in place")
    point = tail.look(Partition(part))
    assert (point.rewound, point.end) == (None, 45)


@pytest.mark.parametrize(
    "rolled_first", [True, False], ids=["head in the segment before", "head in the segment continued"]
)
def test_a_new_leaders_batch_at_the_same_offsets_is_still_a_log_that_went_back(part, rolled_first):
    """Truncated to offset 30 and written again by a new leader (epoch 4), rolled at 40 as before: the same
    offsets, the same length, another epoch."""
    _append(_segment(part, 20), _batch(20, 10, 3), _batch(30, 10, 3))
    tail = PartitionTail()
    assert tail.look(Partition(part)).end == 40
    if rolled_first:
        _segment(part, 40).write_bytes(b"")
        assert tail.look(Partition(part)).rewound is None
    _segment(part, 20).write_bytes(_batch(20, 10, 3) + _batch(30, 10, 4, b"new"))
    _segment(part, 40).write_bytes(_batch(40, 5, 4, b"more"))
    point = tail.look(Partition(part))
    assert point.rewound == 40


@pytest.mark.parametrize("cut_to", ["inside the batch", "its start", "the segment's start"])
def test_a_log_cut_shorter_than_the_remembered_batch_is_still_a_log_that_went_back(part, cut_to):
    """The remembered batch was in the active segment (which the cleaner never touches): cut back, nothing
    later, it is truncation, not a batch the cleaner dropped."""
    last = _batch(30, 10, 3)
    _append(_segment(part, 20), _batch(20, 10, 3), last)
    tail = PartitionTail()
    assert tail.look(Partition(part)).end == 40
    size = _segment(part, 20).stat().st_size
    keep = {"inside the batch": size - 10, "its start": size - len(last), "the segment's start": 0}[cut_to]
    with _segment(part, 20).open("r+b") as fh:
        fh.truncate(keep)
    point = tail.look(Partition(part))
    assert point.rewound == 40
    assert point.end == (20 if keep == 0 else 30)


def test_a_rolled_segment_cut_shorter_than_the_remembered_batch_is_a_log_that_went_back(part):
    """The head in the segment before the (empty) active one, that segment cut below it and the active one
    deleted (truncation deletes the segments above the offset it cuts to): went back."""
    _append(_segment(part, 20), _batch(20, 10, 3), _batch(30, 10, 3))
    tail = PartitionTail()
    tail.look(Partition(part))
    _segment(part, 40).write_bytes(b"")
    assert tail.look(Partition(part)).rewound is None
    _segment(part, 20).write_bytes(_batch(20, 10, 3))
    _segment(part, 40).unlink()
    assert tail.look(Partition(part)).rewound == 40


def test_the_segment_a_look_ended_in_merged_into_the_one_before_is_not_a_log_that_went_back(part):
    """The cleaner merged it (rolled since) into segment 0: its name is gone, its offsets are there."""
    _append(_segment(part, 20), _batch(20, 10, 3), _batch(30, 10, 3))
    tail = PartitionTail()
    assert tail.look(Partition(part)).end == 40
    _append(_segment(part, 40), _batch(40, 5, 4, b"more"))
    _clean(part, "merged into segment 0")
    point = tail.look(Partition(part))
    assert (point.rewound, point.end) == (None, 45)


def test_the_segment_a_look_ended_in_cut_away_and_the_log_regrown_past_it_went_back(part):
    """Truncated to offset 10 (segment 20 deleted, segment 0 cut), a new leader writes offsets 10-49 and the log
    rolls at 50: the segment the last look ended in is gone and a later one exists, as after a merge, but the
    offsets it read are held by another leader's batch."""
    _append(_segment(part, 20), _batch(20, 10, 3), _batch(30, 10, 3))
    tail = PartitionTail()
    assert tail.look(Partition(part)).end == 40
    _segment(part, 20).unlink()
    _segment(part, 0).write_bytes(_batch(0, 10, 3) + _batch(10, 40, 4, b"new"))
    _segment(part, 50).write_bytes(_batch(50, 5, 4, b"new"))
    point = tail.look(Partition(part))
    assert (point.rewound, point.end) == (40, 55)


@pytest.mark.parametrize("how", CLEANED)
def test_a_running_query_reads_on_quietly_over_a_compacted_segment(part, how, caplog):
    """The stream reader (driven as Spark's driver and tasks call it): no DataLossError, no warning, every
    record appended since read once."""
    _append(_segment(part, 20), _batch(20, 10, 3), _batch(30, 10, 3))
    reader = KafkaLogStreamReader(str(part.parent), ReadOptions.parse({}))
    start = reader.initialOffset()
    end = reader.latestOffset(start, ReadAllAvailable())
    assert end["t"] == {"0": 40}
    _segment(part, 40).write_bytes(b"")
    end = reader.latestOffset(end, ReadAllAvailable())
    _clean(part, how)
    _append(_segment(part, 40), _batch(40, 5, 4, b"more"))
    with caplog.at_level(logging.WARNING):
        after = reader.latestOffset(end, ReadAllAvailable())
    assert caplog.text == ""
    assert after["t"] == {"0": 45}
    values = [
        v
        for p in reader.partitions(end, after)
        for b in reader.read(p)
        for v in pa.Table.from_batches([b])["value"].to_pylist()
    ]
    assert values == [b"more-%d" % i for i in range(40, 45)]


def test_a_transaction_opened_in_a_segment_compacted_before_the_next_look_is_followed(part):
    """read_committed: a transactional batch appended to the segment the last look ended in, then rolled and the
    segment cleaned (its earlier batch thinned): the open transaction holds the stable offset, its marker
    (in the new active segment) releases it."""
    _append(_segment(part, 20), _batch(20, 10, 3))
    tail = PartitionTail(transactions=True)
    assert tail.look(Partition(part)).stable == 30
    txn = build_batch(
        values=[b"txn-%d" % i for i in range(30, 35)],
        timestamps=[TS] * 5,
        base_offset=30,
        producer_id=7,
        producer_epoch=0,
        base_sequence=0,
        is_transactional=True,
        partition_leader_epoch=3,
    )
    _append(_segment(part, 20), txn)
    _segment(part, 35).write_bytes(b"")  # rolled
    _segment(part, 20).write_bytes(_kept(20, [25], 29, 3) + txn)  # cleaned: the first batch thinned, moved up
    point = tail.look(Partition(part))
    assert (point.rewound, point.stable, point.end) == (None, 30, 35)
    _append(
        _segment(part, 35), build_control_batch("commit", producer_id=7, producer_epoch=0, base_offset=35)
    )
    point = tail.look(Partition(part))
    assert (point.rewound, point.stable, point.end) == (None, 36, 36)
