"""A tiered-storage prefix holding more than one segment for the same offsets (issue 24, item 1).

A re-upload after a leader change, an unclean election or an upload that failed half-way leaves copies
of the same offsets under other segment ids. Every reader (``open_log``, ``dump``, ``verify``, the
Arrow API, the Spark source's planning) must see each offset once, as a broker serving Kafka's live
lineage does (``tiered_lineage``: RemoteLogMetadataCache / RemoteLogLeaderEpochState), and list the
segments it leaves out with the reason; two finished copies of the same offsets and epochs whose bytes
differ are an error naming both. Prefixes are written by ``write_tiered`` under the test's own
tmp_path (beside a canary file that must survive) or on the tests' S3 server, then altered.
"""

from __future__ import annotations

import io
import json
import re
import shutil
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from support.logdir import write_partition

from kafkaspec import KafkaFormatError, logdir
from kafkaspec.cli import main
from kafkaspec.logdir.tiered.lineage import (
    COPY_SEGMENT_FINISHED,
    Event,
    SegmentInfo,
    choose,
    segment_epochs,
)
from kafkaspec.logdir.tiered.segment import INDEXES_SUFFIX, MANIFEST_SUFFIX, kafka_uuid

SUFFIXES = (".log", INDEXES_SUFFIX, MANIFEST_SUFFIX)
PARTITIONS = (("orders", 0, 3), ("orders", 1, 4), ("clicks", 0, 5))


def _offsets(log) -> list[tuple[str, int, int]]:
    return [(p.topic, p.partition, r.offset) for p in log.partitions() for _, r in p.records()]


def _records(log) -> list[tuple]:
    return [
        (p.topic, p.partition, r.offset, r.key, r.value) for p in log.partitions() for _, r in p.records()
    ]


@pytest.fixture
def prefix(tmp_path) -> tuple[Path, list[tuple]]:
    """Three partitions in the tiered layout (several segments, leader epochs changing), the records
    the log holds, and a canary beside the prefix."""
    for topic, partition, seed in PARTITIONS:
        write_partition(
            tmp_path / "logs",
            topic=topic,
            partition=partition,
            batches=60,
            seed=seed,
            segment_bytes=2500,
            codecs=("none", "zstd"),
        )
    remote = tmp_path / "remote"
    logdir.write_tiered(tmp_path / "logs", remote, chunk_size=700, compression=False)
    (tmp_path / "canary").write_text("keep")
    expected = _records(logdir.open_log(tmp_path / "logs"))
    assert len({r[:3] for r in expected}) == len(expected) > 300
    return remote, expected


def _folders(remote: Path) -> list[Path]:
    return sorted(p for t in remote.iterdir() for p in t.iterdir())


def _stems(folder: Path) -> list[str]:
    return sorted({p.name.rsplit(".", 1)[0] for p in folder.iterdir()})


def _copy(folder: Path, stem: str, seed: str, suffixes=SUFFIXES) -> str:
    """The objects of segment ``stem`` copied as is under another segment id; the new stem."""
    new = f"{stem[:20]}-{kafka_uuid(seed.encode())}"
    for suffix in suffixes:
        shutil.copyfile(folder / f"{stem}{suffix}", folder / f"{new}{suffix}")
    return new


def _cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def test_a_copy_of_a_segment_under_another_id_is_read_once_by_every_reader(prefix, tmp_path):
    """The issue's reproduction: the first segment of each partition copied under another segment id
    (same .log, .indexes and manifest). open_log, the Arrow API, dump, verify and the Spark source's
    plan see each offset once; the copies are listed as unused, with the reason; verify warns."""
    remote, expected = prefix
    copies = []
    for folder in _folders(remote):
        copies.append(_copy(folder, _stems(folder)[0], f"copy-{folder}"))
    log = logdir.open_log(remote)
    assert _records(log) == expected
    unused = log.unused_segments
    assert len(unused) == len(copies)
    assert {u.path.name.rsplit(".", 1)[0][:20] for u in unused} == {"0" * 20}
    assert all("replaced by segment" in u.reason for u in unused), unused

    import pyarrow as pa

    table = pa.Table.from_batches(list(logdir.open_log(remote).to_arrow_batches()))
    keys = list(zip(table["topic"].to_pylist(), table["partition"].to_pylist(), table["offset"].to_pylist()))
    assert sorted(keys) == sorted(r[:3] for r in expected) and len(set(keys)) == len(keys)

    code, out, err = _cli("dump", str(remote))
    assert code == 0, err
    dumped = [int(m) for m in re.findall(r"^\| offset: (\d+)", out, re.M)]
    assert len(dumped) == len(expected), (len(dumped), len(expected))

    code, out, err = _cli("verify", str(remote))
    assert code == 0, out + err
    warned = [line for line in out.splitlines() if line.startswith("warning:") and "not served" in line]
    assert len(warned) == len(copies), out
    assert "error:" not in out

    from kafkaspec.spark.read.options import ReadOptions
    from kafkaspec.spark.read.planning import plan

    tasks = plan(str(remote), ReadOptions.parse({}))
    served = {Path(t.path).name for t in tasks}
    assert not served & {u.path.name for u in unused}
    assert (tmp_path / "canary").read_text() == "keep"


def test_an_upload_without_its_manifest_is_listed_not_read(prefix):
    """An orphaned upload (the .log and .indexes objects, no manifest: COPY_SEGMENT_STARTED) is not read
    and is listed as such."""
    remote, expected = prefix
    folder = _folders(remote)[0]
    stem = _copy(folder, _stems(folder)[1], "orphan", suffixes=(".log", INDEXES_SUFFIX))
    log = logdir.open_log(remote)
    assert _records(log) == expected
    (u,) = log.unused_segments
    assert u.path.name == f"{stem}.log" and "did not finish" in u.reason


def _renamed(folder: Path, stem: str, seed: str, dest: Path, later: int) -> None:
    """Segment ``stem`` of ``folder`` written into ``dest`` under another segment id, its event time
    ``later`` ms later (an upload by the next leader)."""
    new = f"{stem[:20]}-{kafka_uuid(seed.encode())}"
    for suffix in (".log", INDEXES_SUFFIX):
        shutil.copyfile(folder / f"{stem}{suffix}", dest / f"{new}{suffix}")
    doc = json.loads((folder / f"{stem}{MANIFEST_SUFFIX}").read_bytes())
    meta = doc["remoteLogSegmentMetadata"]
    meta["remoteLogSegmentId"]["id"] = new[21:]
    meta["eventTimestampMs"] += later
    (dest / f"{new}{MANIFEST_SUFFIX}").write_text(json.dumps(doc))


def test_a_reupload_cut_at_other_offsets_is_chosen_whole(tmp_path):
    """The next leader uploads the same log cut into larger segments (later events). Its segments replace
    the earlier ones wherever they start at or below them (RemoteLogLeaderEpochState); every offset is
    read once and none is skipped, whichever upload came last."""
    write_partition(tmp_path / "small", topic="t", batches=80, seed=11, segment_bytes=1500, codecs=("none",))
    write_partition(tmp_path / "large", topic="t", batches=80, seed=11, segment_bytes=5000, codecs=("none",))
    expected = _records(logdir.open_log(tmp_path / "small"))
    assert expected == _records(logdir.open_log(tmp_path / "large"))
    for order in ((0, 1_000_000), (1_000_000, 0)):
        out = tmp_path / f"remote_{order[0]}"  # not <topic>-<partition>: that is a Kafka partition dir
        for name in ("small", "large"):
            logdir.write_tiered(tmp_path / name, tmp_path / f"t-{name}", compression=False, chunk_size=900)
        (folder_s,) = _folders(tmp_path / "t-small")
        (folder_l,) = _folders(tmp_path / "t-large")
        dest = out / folder_s.parent.name / folder_s.name
        dest.mkdir(parents=True)
        for stem in _stems(folder_s):
            _renamed(folder_s, stem, f"s{stem}", dest, order[0])
        for stem in _stems(folder_l):
            _renamed(folder_l, stem, f"l{stem}", dest, order[1])
        log = logdir.open_log(out)
        assert _records(log) == expected, order
        (part,) = log.partitions()
        assert len(part.segments()) + len(log.unused_segments) == len(_stems(folder_s)) + len(
            _stems(folder_l)
        )
        code, text, err = _cli("verify", str(out))
        assert code == 0 and "error:" not in text, text + err
        shutil.rmtree(tmp_path / "t-small")
        shutil.rmtree(tmp_path / "t-large")


def test_two_finished_copies_with_other_bytes_are_an_error_naming_both(prefix):
    """Same offsets and epochs, different bytes: the rule cannot decide. Reading the partition is an error
    naming both objects; verify and dump say so (exit 1, no traceback) and go on with the others."""
    remote, expected = prefix
    folder = _folders(remote)[0]
    stem = _stems(folder)[0]
    copy = _copy(folder, stem, "twin")
    data = bytearray((folder / f"{copy}.log").read_bytes())
    data[-3] ^= 0x55  # a byte of the last record's value (uncompressed chunks): same size, other bytes
    (folder / f"{copy}.log").write_bytes(bytes(data))
    log = logdir.open_log(remote)
    part = next(p for p in log.partitions() if p.path == folder)
    with pytest.raises(KafkaFormatError) as caught:
        part.segments()
    assert f"{stem}.log" in str(caught.value) and f"{copy}.log" in str(caught.value)
    for command in ("verify", "dump"):
        code, out, err = _cli(command, str(remote))
        assert code == 1, (command, out, err)
        assert "Traceback" not in err
        assert f"{copy}.log" in out + err and f"{stem}.log" in out + err
    others = [r for r in expected if (r[0], r[1]) != (part.topic, part.partition)]
    again = logdir.open_log(remote)
    assert [
        (p.topic, p.partition, r.offset, r.key, r.value)
        for p in again.partitions()
        if p.path != folder
        for _, r in p.records()
    ] == others


def _info(seg_id: str, start: int, end: int, epochs: dict[int, int], event: int) -> SegmentInfo:
    return SegmentInfo(seg_id, start, end, segment_epochs(epochs, start, end), event, seg_id)


def test_the_rule_follows_kafkas_examples():
    """RemoteLogLeaderEpochState's own examples: a superset upload by the next leader replaces the copy
    (case 1); an overlapping one that starts earlier and ends later replaces it (case 2), and offsets
    above a kept segment are served from the next one (findNextSegmentMetadata); a segment outside the
    partition's leader-epoch lineage (an unclean leader's divergent upload) is left out."""
    s0, s1 = _info("S0", 0, 100, {0: 0}, 1), _info("S1", 0, 200, {0: 0}, 2)
    got = choose([Event(COPY_SEGMENT_FINISHED, s0), Event(COPY_SEGMENT_FINISHED, s1)])
    assert [(s.segment_id, o) for s, o in got.live] == [("S1", 0)]
    assert [s.segment_id for s, _ in got.unused] == ["S0"]
    a, b, c = _info("A", 10, 90, {0: 10}, 1), _info("B", 5, 100, {0: 5}, 2), _info("C", 101, 200, {0: 101}, 3)
    got = choose([Event(COPY_SEGMENT_FINISHED, x) for x in (a, b, c)])
    assert [(s.segment_id, o) for s, o in got.live] == [("B", 5), ("C", 101)]
    # a kept segment ending inside a later one: the later one serves from the kept one's end + 1
    k, m = _info("K", 0, 100, {0: 0}, 1), _info("M", 50, 200, {0: 50}, 2)
    got = choose([Event(COPY_SEGMENT_FINISHED, x) for x in (m, k)])
    assert [(s.segment_id, o) for s, o in got.live] == [("K", 0), ("M", 101)]
    # lineage (0, 0), (2, 150): the old leader's epoch-1 upload diverged and is not in it
    good, bad = _info("G", 0, 149, {0: 0}, 1), _info("D", 100, 180, {0: 0, 1: 120}, 2)
    after = _info("N", 150, 300, {2: 150}, 3)
    got = choose([Event(COPY_SEGMENT_FINISHED, x) for x in (good, bad, after)], [(0, 0), (2, 150)])
    assert [(s.segment_id, o) for s, o in got.live] == [("G", 0), ("N", 150)]
    assert [(s.segment_id, "lineage" in why) for s, why in got.unused] == [("D", True)]


def test_the_next_leader_uploads_from_a_segment_starting_inside_the_last_one(tmp_path):
    """The common case of a leader change: the old leader uploaded its segments up to offset e; the new
    leader cuts its log elsewhere and uploads from its segment holding e + 1, which starts below it. The
    lineage keeps the old segment and serves the new one from e + 1 (RemoteLogManager reads on at the end
    offset plus one): open_log, dump, verify, Arrow and the Spark plan read offsets below e + 1 once."""
    write_partition(tmp_path / "small", topic="t", batches=80, seed=11, segment_bytes=1500, codecs=("none",))
    write_partition(tmp_path / "large", topic="t", batches=80, seed=11, segment_bytes=5000, codecs=("none",))
    expected = _records(logdir.open_log(tmp_path / "small"))
    for name in ("small", "large"):
        logdir.write_tiered(tmp_path / name, tmp_path / f"t-{name}", compression=False, chunk_size=900)
    (folder_s,) = _folders(tmp_path / "t-small")
    (folder_l,) = _folders(tmp_path / "t-large")
    small, large = _stems(folder_s), _stems(folder_l)
    # the old leader's uploads end at the small segment holding the second large segment's base offset
    cut = int(large[1][:20])
    old = [s for s in small if int(s[:20]) <= cut]
    new = large[1:]
    assert int(old[-1][:20]) < cut, (old, new)  # the new upload starts inside the old leader's last segment
    out = tmp_path / "remote"
    dest = out / folder_s.parent.name / folder_s.name
    dest.mkdir(parents=True)
    for stem in old:
        _renamed(folder_s, stem, f"s{stem}", dest, 0)
    for stem in new:
        _renamed(folder_l, stem, f"l{stem}", dest, 1_000_000)
    log = logdir.open_log(out)
    (part,) = log.partitions()
    assert _records(log) == expected
    served = [s.served_from for s in part.segments()]
    assert any(f > s.base_offset for f, s in zip(served, part.segments())), served
    assert log.unused_segments == []

    import pyarrow as pa

    table = pa.Table.from_batches(list(logdir.open_log(out).to_arrow_batches()))
    assert table["offset"].to_pylist() == [r[2] for r in expected]
    code, text, err = _cli("dump", str(out))
    assert code == 0, err
    assert [int(m) for m in re.findall(r"^\| offset: (\d+)", text, re.M)] == [r[2] for r in expected]
    code, text, err = _cli("verify", str(out))
    assert code == 0 and "error:" not in text, text + err

    from kafkaspec.spark.read.options import ReadOptions
    from kafkaspec.spark.read.planning import plan

    tasks = plan(str(out), ReadOptions.parse({}))
    floors = {Path(t.path).name: t.min_offset for t in tasks}
    for seg in part.segments():
        assert floors[seg.path.name] == (seg.served_from if seg.served_from > seg.base_offset else None)


def test_the_audit_view_lists_the_segments_left_out(prefix):
    """The Spark source's audit view (view=batches) has one ``unused`` row per segment left out, saying
    why, and reads nothing of it (planned and read without a Spark session)."""
    from kafkaspec.spark.read.audit import audit_rows
    from kafkaspec.spark.read.options import ReadOptions
    from kafkaspec.spark.read.planning import plan

    remote, expected = prefix
    folder = _folders(remote)[0]
    copy = _copy(folder, _stems(folder)[2], "audit")
    tasks = plan(str(remote), ReadOptions.parse({"view": "batches"}))
    (unused,) = [t for t in tasks if t.unused is not None]
    assert Path(unused.path).name == f"{copy}.log"
    (row,) = audit_rows(unused)
    assert row["crcStatus"] == "unused" and row["error"].startswith("not served: replaced by segment")
    rows = [r for t in tasks if t.unused is None for r in audit_rows(t)]
    assert sum(r["recordCount"] for r in rows if not r["isControl"]) == len(expected)
    assert all(t.unused is None for t in plan(str(remote), ReadOptions.parse({})))


def _copies_and_reuploads(n: int) -> list[Event]:
    """n segments of 100 offsets over epochs of 1,000 offsets, each uploaded twice (the second time by
    the next leader, later), and every tenth one a third time cut at other offsets."""
    events = []
    for i in range(n):
        start = i * 100
        epochs = {start // 1000: start}
        events.append(Event(COPY_SEGMENT_FINISHED, _info(f"a{i}", start, start + 99, epochs, i)))
        events.append(Event(COPY_SEGMENT_FINISHED, _info(f"b{i}", start, start + 99, epochs, i + 1)))
        if i % 10 == 9:
            events.append(
                Event(
                    COPY_SEGMENT_FINISHED,
                    _info(f"c{i}", start - 50, start + 99, {(start - 50) // 1000: start - 50}, i + 2),
                )
            )
    return events


def test_choosing_takes_time_linear_in_the_segments():
    """Choosing among copies and overlapping re-uploads: 4x the segments in about 4x the time."""
    from support.timing import GROWTH, assert_linear

    small, large = _copies_and_reuploads(2_000), _copies_and_reuploads(int(2_000 * GROWTH))
    got = choose(large)
    covered = sum(s.end - first + 1 for s, first in got.live)
    assert covered == int(2_000 * GROWTH) * 100  # every offset once
    assert_linear(lambda: choose(small), lambda: choose(large), what="choose")
