"""A tiered partition's live segments chosen by ``__remote_log_metadata`` (issue 24, item 1: the
metadata-topic route).

A broker serves what ``__remote_log_metadata`` says, not what the prefix holds: a segment whose copy
finished and was not deleted. The prefix alone cannot tell a segment the broker started deleting (its
objects are still there) or an upload whose COPY_SEGMENT_FINISHED was never written (its manifest is
there) from a live one: the manifests' route reads both. Given the topic (``remote_log_metadata=``,
``--remote-log-metadata``) or finding it beside the data, the readers follow its events; a finished
segment whose objects are missing is an error naming it. Prefixes are written by ``write_tiered``
under the test's tmp_path (beside a canary that must survive), the topic from their manifests.
"""

from __future__ import annotations

import base64
import io
import json
import shutil
import uuid
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from support.logdir import write_partition
from support.remote_log_records import DELETE_STARTED, FINISHED, segment, update, write_topic

from kafkaspec import KafkaFormatError, logdir
from kafkaspec.cli import main
from kafkaspec.logdir.tiered.lineage import COPY_SEGMENT_FINISHED, events_from_metadata_topic, segment_epochs
from kafkaspec.logdir.tiered.segment import MANIFEST_SUFFIX
from kafkaspec.payloads import decode


def _uuid(kafka_id: str) -> uuid.UUID:
    return uuid.UUID(bytes=base64.urlsafe_b64decode(kafka_id + "=="))


def _cli(*args) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main([*map(str, args)])
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def prefix(tmp_path):
    write_partition(
        tmp_path / "logs",
        topic="orders",
        partition=0,
        batches=60,
        seed=3,
        segment_bytes=2500,
        codecs=("none", "zstd"),
    )
    remote = tmp_path / "remote"
    logdir.write_tiered(tmp_path / "logs", remote, chunk_size=700, compression=False)
    (tmp_path / "canary").write_text("keep")
    (folder,) = [p for t in remote.iterdir() for p in t.iterdir()]
    segments = []
    for m in sorted(folder.glob(f"*{MANIFEST_SUFFIX}")):
        meta = json.loads(m.read_text())["remoteLogSegmentMetadata"]
        stem = m.name[: -len(MANIFEST_SUFFIX)]
        segments.append((stem, meta))
    assert len(segments) >= 4
    yield remote, folder, segments
    assert (tmp_path / "canary").read_text() == "keep"


def _records(stem: str, meta: dict, topic_id: str, states=(FINISHED,)) -> list[bytes]:
    tid, seg = _uuid(topic_id), _uuid(stem[21:])
    # as Kafka uploads them: the epochs within the segment, the first from its start offset
    epochs = list(
        segment_epochs(
            {int(e): o for e, o in meta["segmentLeaderEpochs"].items()},
            meta["startOffset"],
            meta["endOffset"],
        )
    )
    out = [
        segment(
            "orders",
            tid,
            0,
            seg,
            meta["startOffset"],
            meta["endOffset"],
            epochs,
            event_time=meta["eventTimestampMs"],
            size=meta["segmentSizeInBytes"],
        )
    ]
    return out + [update("orders", tid, 0, seg, s) for s in states]


def _topic(tmp_path: Path, folder: Path, segments, states: dict[int, tuple[int, ...]]) -> Path:
    """``tmp_path/meta/__remote_log_metadata-0``: every segment finished, but those in ``states``."""
    topic_id = folder.parent.name[-22:]
    values = [
        v
        for i, (stem, meta) in enumerate(segments)
        for v in _records(stem, meta, topic_id, states.get(i, (FINISHED,)))
    ]
    return write_topic(tmp_path / "meta", values)


def _offsets(log) -> list[int]:
    return [r.offset for p in log.partitions() for _, r in p.records()]


def test_events_from_the_topic_are_the_manifests_events(prefix, tmp_path):
    remote, folder, segments = prefix
    meta_dir = _topic(tmp_path, folder, segments, {})
    records = [
        decode("__remote_log_metadata", r.key, r.value)
        for p in logdir.open_log(meta_dir).partitions()
        for _, r in p.records()
    ]
    events = events_from_metadata_topic(records, "orders", 0)
    finished = [e.segment for e in events if e.state == COPY_SEGMENT_FINISHED]
    assert [s.segment_id for s in finished] == [stem for stem, _ in segments]
    assert [(s.start, s.end) for s in finished] == [(m["startOffset"], m["endOffset"]) for _, m in segments]


def test_deleted_and_unfinished_segments_are_not_read_though_their_objects_exist(prefix, tmp_path):
    remote, folder, segments = prefix
    everything = _offsets(logdir.open_log(remote))
    # the first segment is being deleted (retention), the last one's copy never finished
    meta_dir = _topic(tmp_path, folder, segments, {0: (FINISHED, DELETE_STARTED), len(segments) - 1: ()})
    log = logdir.open_log(remote, remote_log_metadata=meta_dir)
    first, last = segments[0][1], segments[-1][1]
    assert _offsets(log) == [o for o in everything if first["endOffset"] < o < last["startOffset"]]
    (part,) = log.partitions()
    assert part.lineage_source == f"__remote_log_metadata ({meta_dir})"
    reasons = {u.base_offset: u.reason for u in log.unused_segments}
    assert "DELETE_SEGMENT_STARTED in __remote_log_metadata" in reasons[first["startOffset"]]
    assert "COPY_SEGMENT_STARTED in __remote_log_metadata" in reasons[last["startOffset"]]
    # the manifests alone read them all
    assert _offsets(logdir.open_log(remote)) == everything


def test_a_copy_the_topic_never_names_is_left_out(prefix, tmp_path):
    remote, folder, segments = prefix
    stem = segments[1][0]
    copy = f"{stem[:20]}-{'C' * 21}A"
    for suffix in (".log", ".indexes", MANIFEST_SUFFIX):
        shutil.copyfile(folder / f"{stem}{suffix}", folder / f"{copy}{suffix}")
    meta_dir = _topic(tmp_path, folder, segments, {})
    offsets = _offsets(logdir.open_log(remote, remote_log_metadata=meta_dir))
    assert len(offsets) == len(set(offsets)) and offsets == sorted(offsets)
    log = logdir.open_log(remote, remote_log_metadata=meta_dir)
    (unused,) = log.unused_segments
    assert unused.path.name == f"{copy}.log" and "has no record of this segment" in unused.reason


def test_a_finished_segment_whose_objects_are_missing_is_an_error_naming_it(prefix, tmp_path):
    remote, folder, segments = prefix
    stem = segments[2][0]
    meta_dir = _topic(tmp_path, folder, segments, {})
    (folder / f"{stem}.log").unlink()
    with pytest.raises(
        KafkaFormatError,
        match=f"segment {stem[21:]} .offsets .* is COPY_SEGMENT_FINISHED in "
        f"__remote_log_metadata .*missing: no {stem}.log",
    ):
        logdir.open_log(remote, remote_log_metadata=meta_dir).partitions()[0].segments()
    code, out, err = _cli("verify", remote, "--remote-log-metadata", meta_dir)
    assert code == 1 and f"no {stem}.log" in out and "Traceback" not in err


def test_dump_and_verify_take_the_option_and_say_the_source(prefix, tmp_path):
    remote, folder, segments = prefix
    meta_dir = _topic(tmp_path, folder, segments, {0: (FINISHED, DELETE_STARTED)})
    code, out, err = _cli(
        "dump", remote, "--remote-log-metadata", meta_dir / "__remote_log_metadata-0", "--json"
    )
    assert code == 0, err
    offsets = [
        json.loads(line)["offset"]
        for line in out.splitlines()
        if '"offset"' in line and '"batch"' not in line
    ]
    assert offsets and min(offsets) > segments[0][1]["endOffset"]
    code, out, err = _cli("verify", remote, "--remote-log-metadata", meta_dir)
    assert code == 0, out
    assert "live segments chosen by __remote_log_metadata" in out
    assert "DELETE_SEGMENT_STARTED in __remote_log_metadata" in out  # the unused segment, as a warning


def test_the_topic_is_found_beside_the_data(prefix, tmp_path):
    remote, folder, segments = prefix
    meta_dir = _topic(tmp_path, folder, segments, {0: (FINISHED, DELETE_STARTED)})
    shutil.copytree(meta_dir / "__remote_log_metadata-0", remote / "__remote_log_metadata-0")
    log = logdir.open_log(remote)
    assert [p.topic for p in log.partitions()] == ["orders"]
    assert log.partitions()[0].lineage_source.startswith("__remote_log_metadata")
    assert min(_offsets(log)) > segments[0][1]["endOffset"]


def test_a_metadata_topic_that_does_not_decode_is_an_error_naming_it(prefix, tmp_path):
    remote, folder, segments = prefix
    meta_dir = write_topic(tmp_path / "meta", [b"\x01\x00\x00\x05"])
    with pytest.raises(KafkaFormatError, match="offset 0: .*RemoteLogSegmentMetadataRecord"):
        logdir.open_log(remote, remote_log_metadata=meta_dir)
    code, out, err = _cli("dump", remote, "--remote-log-metadata", tmp_path / "nothing-here")
    assert code in (1, 2) and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_the_spark_source_plans_only_the_live_segments(prefix, tmp_path):
    """The ``remoteLogMetadata`` option of ``kafkalog`` (planning runs on the driver; no Spark here)."""
    from kafkaspec.spark.read.options import ReadOptions
    from kafkaspec.spark.read.planning import plan

    remote, folder, segments = prefix
    meta_dir = _topic(tmp_path, folder, segments, {0: (FINISHED, DELETE_STARTED)})
    first = segments[0][0]
    planned = plan(str(remote), ReadOptions.parse({"remoteLogMetadata": str(meta_dir)}))
    read = [t for t in planned if t.unused is None]
    assert read and not any(Path(t.path).name.startswith(first) for t in read)
    assert all(t.unused is None for t in planned)
    audit = plan(str(remote), ReadOptions.parse({"remoteLogMetadata": str(meta_dir), "view": "batches"}))
    left_out = [t for t in audit if t.unused is not None]  # the audit view's row for it
    assert [Path(t.path).name for t in left_out] == [f"{first}.log"]
    assert "DELETE_SEGMENT_STARTED in __remote_log_metadata" in left_out[0].unused
    every = plan(str(remote), ReadOptions.parse({}))
    assert any(Path(t.path).name.startswith(first) and t.unused is None for t in every)


def test_the_topic_in_the_local_data_dir_chooses_the_remote_history(prefix, tmp_path):
    """``open_log(local, tiered=prefix)``: the broker's own data dir holds ``__remote_log_metadata``."""
    remote, folder, segments = prefix
    local = tmp_path / "logs"
    for seg in sorted((local / "orders-0").glob("*.log"))[:2]:  # uploaded, then deleted locally
        for f in (local / "orders-0").glob(seg.name[:-4] + ".*"):
            f.unlink()
    local_start = min(int(p.name[:20]) for p in (local / "orders-0").glob("*.log"))
    meta_dir = _topic(tmp_path, folder, segments, {0: (FINISHED, DELETE_STARTED)})
    shutil.copytree(meta_dir / "__remote_log_metadata-0", local / "__remote_log_metadata-0")
    log = logdir.open_log(local, tiered=remote)
    orders = log.partition("orders", 0)
    offsets = [r.offset for _, r in orders.records()]
    assert offsets[0] == segments[1][1]["startOffset"] and len(offsets) == len(set(offsets))
    assert local_start in offsets
    assert orders.remote.lineage_source == f"__remote_log_metadata ({local})"
