"""Kafka's own tiered-storage test layout (LocalTieredStorage: ``<topic>-<partition>-<topic id>/
<offset>-<segment id>.{log,index,timeindex,txnindex,leader_epoch_checkpoint,snapshot}``): detected or
``layout="local-tiered"``, read by open_log, dump, verify and Arrow like the plugin's layout, each offset
once where a re-upload left a second copy, a half-written copy not served."""

from __future__ import annotations

import pytest
from support.local_tiered import copy_fileset, write_local_tiered
from support.logdir import write_partition

from kafkaspec import KafkaFormatError, logdir
from kafkaspec.cli import main
from kafkaspec.logdir.kafka import files


@pytest.fixture(scope="module")
def source(tmp_path_factory):
    root = tmp_path_factory.mktemp("logs")
    write_partition(root, topic="orders", partition=0, batches=80, seed=3)
    write_partition(root, topic="orders", partition=1, batches=40, seed=4)
    write_partition(root, topic="clicks-2", partition=12, batches=50, seed=5, segment_bytes=3000)
    return root


def _records(path, **kw) -> list[tuple]:
    with logdir.open_log(path, **kw) as log:
        return [
            (p.topic, p.partition, r.offset, r.timestamp, r.key, r.value, r.headers)
            for p in log.partitions()
            for _, r in p.records()
        ]


def test_the_layout_is_detected_and_read_like_the_log(tmp_path, source, capsys):
    folders = write_local_tiered(source, tmp_path / "storage")
    canary = tmp_path / "canary"
    canary.write_text("keep")
    expected = _records(source)
    assert len(expected) > 300
    assert _records(tmp_path / "storage") == expected  # the storage's dir: kafka-tiered-storage/ inside
    assert _records(tmp_path / "storage" / "kafka-tiered-storage", layout="local-tiered") == expected
    one = folders[("clicks-2", 12)]
    assert _records(one) == [r for r in expected if r[:2] == ("clicks-2", 12)]
    with logdir.open_log(tmp_path / "storage") as log:
        assert {(p.topic, p.partition) for p in log.partitions()} == {
            ("orders", 0),
            ("orders", 1),
            ("clicks-2", 12),
        }
        assert sum(b.num_rows for b in log.to_arrow_batches()) == len(expected)
    assert logdir.verify(tmp_path / "storage") == []
    assert main(["verify", str(tmp_path / "storage")]) == 0
    capsys.readouterr()
    assert main(["dump", str(tmp_path / "storage")]) == 0
    out = capsys.readouterr().out
    assert out.count("offset:") >= len(expected) or out.count('"offset"') >= len(expected) or len(out) > 1000
    assert canary.read_text() == "keep"


def test_a_second_copy_is_read_once_and_listed(tmp_path, source, capsys):
    """A re-upload of each partition's first segment under another segment id (the same files), and a
    copy whose upload stopped before its producer snapshot: each offset once; both copies listed, with
    the reason; verify warns of them."""
    folders = write_local_tiered(source, tmp_path)
    for (topic, partition), folder in folders.items():
        copy_fileset(folder, 0, f"again/{topic}/{partition}")
        copy_fileset(folder, 0, f"half/{topic}/{partition}", skip=(files.SNAPSHOT_SUFFIX,))
    assert _records(tmp_path) == _records(source)
    with logdir.open_log(tmp_path) as log:
        unused = log.unused_segments
        assert len(unused) == 2 * len(folders), unused
        reasons = " | ".join(u.reason for u in unused)
        assert (
            "did not finish" in reasons
            and "no .snapshot file" in reasons
            and "replaced by segment" in reasons
        ), reasons
        assert sum(1 for _ in log.partitions()[0].records()) == len(
            {
                r[2]
                for r in _records(source)
                if r[:2] == (log.partitions()[0].topic, log.partitions()[0].partition)
            }
        )
    problems = logdir.verify(tmp_path)
    assert problems and all(p.severity == "warning" and "not served" in p.message for p in problems), problems
    assert main(["dump", str(tmp_path)]) == 0
    capsys.readouterr()


def test_two_copies_that_differ_are_an_error_naming_both(tmp_path, source):
    folders = write_local_tiered(source, tmp_path)
    folder = folders[("orders", 1)]
    new = copy_fileset(folder, 0, "differs")
    log = folder / f"{new}{files.LOG_SUFFIX}"
    data = bytearray(log.read_bytes())
    data[-1] ^= 0xFF  # the same offsets and epochs, other bytes
    log.write_bytes(bytes(data))
    with pytest.raises(KafkaFormatError, match=rf"{new}\.log .*bytes differ|and {new}\.log are both"):
        _records(folder)


def test_one_segment_of_the_layout(tmp_path, source):
    folders = write_local_tiered(source, tmp_path)
    (log,) = folders[("orders", 1)].glob("00000000000000000000-*.log")
    expected = [r for r in _records(source) if r[:2] == ("orders", 1)]
    got = _records(log)
    assert got and got == expected[: len(got)]
    assert _records(log, layout="local-tiered") == got


def _metadata_of(folder, topic, partition, started_only=()):
    """``__remote_log_metadata`` values for every fileset in ``folder``: COPY_SEGMENT_STARTED then
    COPY_SEGMENT_FINISHED, in offset order, but STARTED alone for the stems in ``started_only`` (after the
    others: an upload the broker was killed in)."""
    import base64
    import uuid

    from support import remote_log_records as rl

    from kafkaspec.logdir.tiered.lineage import segment_epochs
    from kafkaspec.logdir.tiered.local_storage import EPOCHS_SUFFIX, LocalTieredSegment

    def as_uuid(kafka_id: str) -> uuid.UUID:
        return uuid.UUID(bytes=base64.urlsafe_b64decode(kafka_id + "=="))

    topic_id = as_uuid(folder.name[-22:])
    values, last = [], []
    for log in sorted(folder.glob(f"*{files.LOG_SUFFIX}")):
        stem = log.name[: -len(files.LOG_SUFFIX)]
        seg = LocalTieredSegment(log)
        start, end = seg.base_offset, seg.last_offset()
        seg.close()
        entries = files.parse_leader_epoch_checkpoint((folder / f"{stem}{EPOCHS_SUFFIX}").read_text(), stem)
        epochs = list(segment_epochs({e.epoch: e.start_offset for e in entries}, start, end))
        seg_id = as_uuid(stem[21:])
        started = rl.segment(topic, topic_id, partition, seg_id, start, end, epochs, event_time=start)
        if stem in started_only:
            last.append(started)
        else:
            values += [started, rl.update(topic, topic_id, partition, seg_id, rl.FINISHED, event_time=start)]
    return values + last


def test_the_remote_log_metadata_beside_the_data_decides(tmp_path, source):
    """A broker killed in an upload whose files were all written, before its COPY_SEGMENT_FINISHED, left a
    complete second fileset that no broker serves, here with other bytes and written last: with the
    data dir's ``__remote_log_metadata`` (Kafka's own record of the uploads), the history reads the
    finished copy, and names the other as an upload that did not finish."""
    import shutil

    from support import remote_log_records as rl

    folders = write_local_tiered(source, tmp_path / "remote")
    folder = folders[("clicks-2", 12)]
    copy = copy_fileset(folder, 0, "killed/clicks-2/12")
    log = folder / f"{copy}{files.LOG_SUFFIX}"
    data = bytearray(log.read_bytes())
    data[-1] ^= 0xFF
    log.write_bytes(bytes(data))
    local = tmp_path / "local"
    shutil.copytree(source, local)
    part = local / "clicks-2-12"
    logs = sorted(part.glob(f"*{files.LOG_SUFFIX}"))
    assert len(logs) > 3
    for old in logs[:-2]:  # uploaded, then deleted by local retention
        for f in part.glob(old.name[: -len(files.LOG_SUFFIX)] + ".*"):
            f.unlink()
    rl.write_topic(local, _metadata_of(folder, "clicks-2", 12, started_only=(copy,)))
    expected = [r for r in _records(source) if r[:2] == ("clicks-2", 12)]
    with logdir.open_log(local, tiered=tmp_path / "remote") as history:
        (p,) = [p for p in history.partitions() if (p.topic, p.partition) == ("clicks-2", 12)]
        got = [
            (p.topic, p.partition, r.offset, r.timestamp, r.key, r.value, r.headers) for _, r in p.records()
        ]
        (unused,) = p.unused_segments()
    assert got == expected
    assert unused.path.name == log.name
    assert "did not finish (COPY_SEGMENT_STARTED in __remote_log_metadata)" in unused.reason, unused.reason


def test_a_finished_upload_without_its_files_is_an_error_naming_it(tmp_path, source):
    """``__remote_log_metadata`` says a segment is COPY_SEGMENT_FINISHED, and its fileset lacks a file: the
    broker would fail to serve it; reading says which segment and which file."""
    import shutil

    from support import remote_log_records as rl

    folders = write_local_tiered(source, tmp_path / "remote")
    folder = folders[("clicks-2", 12)]
    values = _metadata_of(folder, "clicks-2", 12)
    (snapshot,) = folder.glob(f"00000000000000000000-*{files.SNAPSHOT_SUFFIX}")
    snapshot.unlink()
    local = tmp_path / "local"
    shutil.copytree(source, local)
    rl.write_topic(local, values)
    with logdir.open_log(local, tiered=tmp_path / "remote") as history:
        (p,) = [p for p in history.partitions() if (p.topic, p.partition) == ("clicks-2", 12)]
        with pytest.raises(
            KafkaFormatError, match=r"COPY_SEGMENT_FINISHED in __remote_log_metadata .*no \.snapshot file"
        ):
            p.segments()


@pytest.mark.parametrize("layout", ["local-tiered", None])
def test_remote_log_metadata_given_with_the_layout_decides(tmp_path, source, layout):
    """``open_log(path, layout="local-tiered", remote_log_metadata=...)`` (or the layout detected): the
    topic's events choose the live segments, as with a history; a complete fileset whose upload the
    topic says did not finish is not read (it was ignored: the files alone chose the later copy)."""
    from support import remote_log_records as rl

    folders = write_local_tiered(source, tmp_path / "remote")
    folder = folders[("clicks-2", 12)]
    copy = copy_fileset(folder, 0, "killed-again/clicks-2/12")
    log = folder / f"{copy}{files.LOG_SUFFIX}"
    data = bytearray(log.read_bytes())
    data[-1] ^= 0xFF
    log.write_bytes(bytes(data))
    rl.write_topic(tmp_path / "meta", _metadata_of(folder, "clicks-2", 12, started_only=(copy,)))
    (tmp_path / "canary").write_text("keep")
    expected = [r for r in _records(source) if r[:2] == ("clicks-2", 12)]
    with logdir.open_log(tmp_path / "remote", layout=layout, remote_log_metadata=tmp_path / "meta") as opened:
        (p,) = [p for p in opened.partitions() if (p.topic, p.partition) == ("clicks-2", 12)]
        got = [
            (p.topic, p.partition, r.offset, r.timestamp, r.key, r.value, r.headers) for _, r in p.records()
        ]
        (unused,) = p.unused_segments()
    assert got == expected
    assert unused.path.name == log.name and "COPY_SEGMENT_STARTED in __remote_log_metadata" in unused.reason
    assert (tmp_path / "canary").read_text() == "keep"
