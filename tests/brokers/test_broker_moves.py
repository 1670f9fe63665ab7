"""A broker of each release with two log directories (:mod:`support.kafka_moves`), one start per release:

- a partition moved to the other log directory by ``alterReplicaLogDirs``, its copy throttled, so that
  both directories are copied while ``moving-0-future`` is half written, then again after the broker
  swapped them (the old directory renamed ``-delete``); kafkaspec reads each directory as the broker
  serves it, passes over the ``-future`` and ``-delete`` folders, and ``verify`` finds nothing wrong;
- a kill -9, then the last batch of a partition's active segment cut in half (a torn write), the two
  directories copied, and a restart: ``verify`` of the copy names the segment and the position where
  the log's whole batches end, and Kafka's recovery truncates the segment there; kafkaspec's read of the
  torn copy is what the recovered broker serves.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from support import kafka_moves
from support.kafka_broker import RELEASES, Broker
from support.kafka_moves import CORRUPT, MOVING, TORN
from support.kafka_workload import Row, served
from support.logdir import corrupt_middle_batch

from kafkaspec.errors import KafkaFormatError, SkippedDirWarning
from kafkaspec.logdir import open_log


@dataclass
class Served:
    uncommitted: list[Row]
    committed: list[Row]


pytestmark = pytest.mark.filterwarnings("ignore::kafkaspec.errors.SkippedDirWarning")


@dataclass
class MovesRun:
    release: str
    #: (the log directory ``moving-0`` started in, the one it moved to), as copied while the -future
    #: directory was half written, and after the move (with more records written during it)
    during: tuple[Path, Path]
    after: tuple[Path, Path]
    served_during: list[Row]
    served_after: list[Row]
    #: both log directories after a kill -9 and :func:`kafka_moves.tear`, before the restart
    killed: tuple[Path, Path]
    #: the torn segment (relative to its log directory) and the position its whole batches end at
    torn: tuple[str, int]
    #: the torn segment's size once the broker had restarted (recovery) and stopped; what it served then
    recovered_size: int
    served_recovered: list[Row]
    #: the segment (relative to its log directory) of :data:`CORRUPT` with a corrupt batch, the batch's
    #: position and the offset after the batch before it (:func:`kafka_moves.corrupt`, after the kill);
    #: that segment's size after the recovery, and the segments the partition had left then
    corrupt: tuple[str, int, int]
    corrupt_size: int
    corrupt_left: list[str]
    #: ``kafkaspec synth``'s directory, and what the broker served of it once put into its own
    synthesized: Path
    synth_topics: dict[str, int]
    served_synth: Served


def _copy(dirs: tuple[Path, ...], to: Path) -> tuple[Path, Path]:
    copies = tuple(to / d.name for d in dirs)
    for d, c in zip(dirs, copies, strict=True):
        shutil.copytree(d, c)
    return copies  # type: ignore[return-value]


@pytest.fixture(scope="session", params=RELEASES)
def moves_run(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[MovesRun]:
    release = request.param
    home = tmp_path_factory.mktemp(f"kafka-moves-{release}")
    first, second = home / "broker" / "data", home / "broker" / "data2"
    broker = Broker(
        release,
        home / "broker",
        {"log.dirs": f"{first},{second}", **kafka_moves.BROKER_CONFIG},
    )
    synthesized = home / "synth"
    synth_topics = kafka_moves.synth(synthesized)
    try:
        broker.start()
        kafka_moves.create_topics(broker.bootstrap)
        kafka_moves.create_synth_topics(broker.bootstrap, synth_topics)
        kafka_moves.produce(broker.bootstrap, MOVING, 0, kafka_moves.MOVING_RECORDS)
        kafka_moves.produce(broker.bootstrap, TORN, 0, kafka_moves.TORN_RECORDS, partitions=2)
        source, target = kafka_moves.start_move(broker.bootstrap, release, home, (first, second))
        served_during = served(broker.bootstrap, "read_uncommitted", {MOVING: 1})
        during = _copy((source, target), home / "during")
        kafka_moves.produce(broker.bootstrap, MOVING, kafka_moves.MOVING_RECORDS, 500)
        kafka_moves.finish_move(broker.bootstrap, source, target)
        served_after = served(broker.bootstrap, "read_uncommitted", kafka_moves.TOPICS)
        after = _copy((source, target), home / "after")
        # after the move, whose end is the last time the broker checkpoints recovery points before the kill
        kafka_moves.produce_rounds(
            broker.bootstrap, CORRUPT, kafka_moves.CORRUPT_ROUNDS, kafka_moves.CORRUPT_PER_ROUND
        )
        broker.kill()
        torn_in = kafka_moves.where((source, target), f"{TORN}-0")
        assert torn_in is not None
        segment, position = kafka_moves.tear(torn_in / f"{TORN}-0")
        torn = (str(segment.relative_to(torn_in)), position)
        corrupt_in = kafka_moves.where((source, target), f"{CORRUPT}-0")
        assert corrupt_in is not None
        bad, bad_at, bad_next, _ = corrupt_middle_batch(corrupt_in / f"{CORRUPT}-0")
        corrupt = (str(bad.relative_to(corrupt_in)), bad_at, bad_next)
        killed = _copy((source, target), home / "killed")
        broker.start()
        served_recovered = served(broker.bootstrap, "read_uncommitted", kafka_moves.TOPICS)
        broker.stop()
        recovered_size = (torn_in / torn[0]).stat().st_size
        corrupt_size = (corrupt_in / corrupt[0]).stat().st_size
        corrupt_left = sorted(p.name for p in (corrupt_in / f"{CORRUPT}-0").glob("*.log"))
        kafka_moves.swap_in_synth(synthesized, (first, second))
        broker.start()
        served_synth = Served(
            served(broker.bootstrap, "read_uncommitted", synth_topics),
            served(broker.bootstrap, "read_committed", synth_topics),
        )
    finally:
        broker.stop()
    yield MovesRun(
        release,
        during,
        after,
        served_during,
        served_after,
        killed,
        torn,
        recovered_size,
        served_recovered,
        corrupt,
        corrupt_size,
        corrupt_left,
        synthesized,
        synth_topics,
        served_synth,
    )


def kafkaspec(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kafkaspec.cli", *args], capture_output=True, text=True, timeout=300
    )


def test_the_future_directory_is_half_written_while_the_copy_is_throttled(moves_run):
    source, target = moves_run.during
    (future,) = target.glob(kafka_moves.FUTURE)
    assert (source / f"{MOVING}-0").is_dir(), sorted(p.name for p in source.iterdir())
    copied = sum(f.stat().st_size for f in future.glob("*.log"))
    assert 0 < copied < sum(f.stat().st_size for f in (source / f"{MOVING}-0").glob("*.log"))


def test_during_the_move_the_source_directory_is_what_the_broker_serves(moves_run):
    source, target = moves_run.during
    assert kafka_moves.rows(source, {MOVING: 1}) == moves_run.served_during
    with pytest.warns(SkippedDirWarning, match=r"-future: skipped: a partition directory moving"):
        log = open_log(str(target))
        assert MOVING not in log.topics()


def test_after_the_move_the_target_directory_is_what_the_broker_serves(moves_run):
    source, target = moves_run.after
    assert not list(target.glob(kafka_moves.FUTURE))
    assert kafka_moves.rows(target, {MOVING: 1}) == [r for r in moves_run.served_after if r.topic == MOVING]
    with pytest.warns(SkippedDirWarning, match=r"-delete: skipped: a partition directory being deleted"):
        assert MOVING not in open_log(str(source)).topics()
    both = kafka_moves.rows(source, kafka_moves.TOPICS) + kafka_moves.rows(target, kafka_moves.TOPICS)
    assert sorted(both, key=lambda r: (r.topic, r.partition, r.offset)) == moves_run.served_after


@pytest.mark.parametrize("when", ["during", "after"])
def test_verify_of_each_log_directory_finds_nothing_wrong(moves_run, when):
    """The copies are of a running broker: notes only (no clean shutdown, the -future or -delete
    folder), no warning and no error, in either log directory."""
    for data in getattr(moves_run, when):
        got = kafkaspec("verify", str(data))
        out = got.stdout + got.stderr
        assert " 0 errors, 0 warnings" in out, f"{data.name}: {out}"
        assert got.returncode == 0, out


@pytest.mark.parametrize("when", ["during", "after"])
def test_dump_reads_the_served_directory_and_passes_over_the_moving_one(moves_run, when):
    import json

    source, target = getattr(moves_run, when)
    live = source if when == "during" else target
    got = kafkaspec("dump", "--json", "--print-data", str(live / f"{MOVING}-0"))
    assert got.returncode == 0, got.stderr
    objs = [json.loads(ln) for ln in got.stdout.splitlines()]
    offsets = [o["offset"] for o in objs if o["type"] == "record"]
    served_now = moves_run.served_during if when == "during" else moves_run.served_after
    assert offsets == [r.offset for r in served_now if r.topic == MOVING]


def _torn_dir(run: MovesRun, dirs: tuple[Path, Path]) -> Path:
    segment, _ = run.torn
    found = kafka_moves.where(dirs, f"{TORN}-0")
    assert found is not None
    return found


def test_verify_names_where_recovery_truncates_a_torn_segment(moves_run):
    segment, position = moves_run.torn
    data = _torn_dir(moves_run, moves_run.killed)
    got = kafkaspec("verify", str(data))
    out = got.stdout + got.stderr
    assert moves_run.recovered_size == position, "Kafka's recovery truncated elsewhere"
    (warning,) = [ln for ln in out.splitlines() if f"{TORN}-0" in ln and "ends in a partial batch" in ln]
    assert f"Kafka's recovery truncates the segment to byte {position} (" in warning, out


def test_the_torn_copy_reads_as_the_recovered_broker_serves(moves_run):
    """Both log directories of the torn copy (the topic's two partitions are one in each): the partial
    batch is no record, as the recovered broker has none of it."""
    killed = [r for d in moves_run.killed for r in kafka_moves.rows(d, {TORN: 2})]
    killed.sort(key=lambda r: (r.partition, r.offset))
    assert killed == [r for r in moves_run.served_recovered if r.topic == TORN]
    assert len(killed) < kafka_moves.TORN_RECORDS


def test_kafkas_recovery_truncates_at_a_corrupt_batch_and_deletes_the_later_segments(moves_run):
    """A batch in the middle of a closed segment whose CRC fails, past the recovery point (none was
    checkpointed): Kafka's recovery truncates the segment at that batch and deletes every later segment;
    the broker then serves the offsets before it, and nothing after."""
    segment, position, next_offset = moves_run.corrupt
    assert moves_run.corrupt_size == position
    assert moves_run.corrupt_left == [Path(segment).name]
    served = [r.offset for r in moves_run.served_recovered if r.topic == CORRUPT]
    assert served == list(range(next_offset))


def test_verify_says_what_recovery_does_with_a_corrupt_batch(moves_run):
    segment, position, next_offset = moves_run.corrupt
    data = kafka_moves.where(moves_run.killed, f"{CORRUPT}-0")
    assert data is not None
    got = kafkaspec("verify", str(data))
    out = got.stdout + got.stderr
    assert got.returncode == 1, out
    name = Path(segment).name
    said = [ln for ln in out.splitlines() if f"{CORRUPT}-0" in ln and name in ln]
    assert any("corrupt entry" in ln for ln in said), out
    (warning,) = [ln for ln in said if "Kafka's recovery truncates" in ln]
    assert f"truncates the segment to byte {position} (the corrupt batch) and deletes the " in warning, out
    assert f"the log then ends at offset {next_offset} (offsets {next_offset}.." in warning, out


def test_the_corrupt_copy_read_up_to_the_corrupt_batch_is_what_the_recovered_broker_serves(moves_run):
    """kafkaspec reads the copy as it stands: the records before the corrupt batch, which are what the
    recovered broker serves, then an error naming the segment and the batch's byte. (The batches after
    it, whose CRCs hold, are what Kafka's recovery deleted: verify says so, above.) A read that ends at
    the corrupt batch's first offset asks for nothing of it: the same records, no error."""
    segment, position, first = moves_run.corrupt
    data = kafka_moves.where(moves_run.killed, f"{CORRUPT}-0")
    assert data is not None
    (part,) = [p for p in open_log(str(data)).partitions() if p.topic == CORRUPT]
    ours = []
    with pytest.raises(KafkaFormatError) as raised:
        for _, r in part.records(isolation_level="read_uncommitted"):
            ours.append(
                Row(
                    CORRUPT,
                    0,
                    r.offset,
                    r.timestamp,
                    r.key,
                    r.value,
                    tuple((h.key, h.value) for h in r.headers),
                )
            )
    assert ours == [r for r in moves_run.served_recovered if r.topic == CORRUPT]
    assert f"{Path(segment).name}, byte {position})" in str(raised.value), raised.value
    bounded = part.records(end_offset=first, isolation_level="read_uncommitted")
    assert [r.offset for _, r in bounded] == [r.offset for r in ours]


def _synth_rows(data: Path, topics: dict[str, int], read_committed: bool) -> list[Row]:
    rows = []
    for part in open_log(str(data)).partitions():
        if part.topic in topics:
            for _, r in part.records(read_committed=read_committed):
                rows.append(
                    Row(
                        part.topic,
                        part.partition,
                        r.offset,
                        r.timestamp,
                        r.key,
                        r.value,
                        tuple((h.key, h.value) for h in r.headers),
                    )
                )
            part.close()
    return sorted(rows, key=lambda r: (r.topic, r.partition, r.offset))


def _first_difference(ours: list[Row], theirs: list[Row]) -> str:
    for a, b in zip(ours, theirs):
        if a != b:
            return f"kafkaspec {a} / broker {b}"
    return f"kafkaspec has {len(ours)} records, the broker served {len(theirs)}"


@pytest.mark.parametrize("isolation", ["read_uncommitted", "read_committed"])
def test_the_broker_serves_what_synth_wrote(moves_run, isolation):
    """``kafkaspec synth``'s partitions (every codec, idempotent and transactional producers with
    aborts, a compacted topic's tombstones and empty batches, LogAppendTime, old-magic segments), put
    into the stopped broker's log directories beside its ``partition.metadata``, are served as kafkaspec
    reads them."""
    committed = isolation == "read_committed"
    ours = _synth_rows(moves_run.synthesized, moves_run.synth_topics, committed)
    theirs = moves_run.served_synth.committed if committed else moves_run.served_synth.uncommitted
    assert ours, "synth wrote no records"
    assert ours == theirs, _first_difference(ours, theirs)
