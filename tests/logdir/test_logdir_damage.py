"""Torn tails and preallocated indexes are handled; injected corruption is found and named."""

from __future__ import annotations

import os
import shutil

import pytest
from support.logdir import write_partition

from kafkaspec.logdir import open_log, verify_path


@pytest.fixture
def part_dir(tmp_path):
    write_partition(tmp_path, batches=40, segment_bytes=3000, index_interval_bytes=200)
    return tmp_path / "t-0"


def _segments(part_dir):
    return open_log(part_dir).partitions()[0].segments()


def _errors(problems):
    return [p for p in problems if p.severity == "error"]


def test_truncated_tail_segment_is_a_warning(part_dir):
    last = _segments(part_dir)[-1]
    batches = list(last.iter_batches())
    keep = batches[-1].position + 30  # cut inside the last batch
    os.truncate(last.path, keep)
    last.close()
    seg = _segments(part_dir)[-1]
    it = seg.iter_batches()
    assert [b.base_offset for b in it] == [b.base_offset for b in batches[:-1]]
    assert it.partial.position == batches[-1].position and it.partial.size == 30
    problems = verify_path(part_dir)
    assert not _errors(problems)
    warning = problems[0]
    assert warning.path.endswith(seg.path.name) and warning.position == batches[-1].position
    assert all("partial batch" in p.message for p in problems)


def test_a_torn_tail_names_what_kafkas_recovery_truncates(part_dir):
    """What a broker's recovery does with it after an unclean shutdown (compared with Kafka's own in
    tests/brokers/test_broker_moves.py): the segment cut back to the end of its last whole batch."""
    last = _segments(part_dir)[-1]
    start = list(last.iter_batches())[-1].position
    os.truncate(last.path, start + 30)
    last.close()
    (warning,) = [p for p in verify_path(part_dir) if p.message.startswith("segment ends in a partial batch")]
    assert f"Kafka's recovery truncates the segment to byte {start} (30 bytes dropped)" in warning.message


def test_truncated_middle_segment_is_an_error(part_dir):
    first = _segments(part_dir)[0]
    os.truncate(first.path, first.size - 5)
    errors = _errors(verify_path(part_dir))
    err = errors[0]
    assert err.path == str(first.path) and "not the last segment" in err.message
    # index entries naming the lost batch are reported too, each against its own file
    assert all(e.path.startswith(str(first.path)[:-4]) for e in errors)


def test_zero_filled_preallocated_indexes(part_dir):
    last = _segments(part_dir)[-1]
    entries, tentries = last.index_entries(), last.time_index_entries()
    with open(last.index_path, "ab") as fh:
        fh.write(bytes(8 * 100))
    with open(last.time_index_path, "ab") as fh:
        fh.write(bytes(12 * 100))
    seg = _segments(part_dir)[-1]
    assert seg.index_entries() == entries and seg.time_index_entries() == tentries
    assert verify_path(part_dir) == []


def test_flipped_byte_is_found(part_dir):
    seg = _segments(part_dir)[1]
    batch = list(seg.iter_batches())[2]
    flip_at = batch.position + 70
    seg.close()
    data = bytearray(seg.path.read_bytes())
    data[flip_at] ^= 0x40
    seg.path.write_bytes(bytes(data))
    errors = _errors(verify_path(part_dir))
    assert errors and errors[0].path == str(seg.path)
    assert errors[0].position == batch.position
    assert "crc" in errors[0].message.lower()


def test_truncated_index_is_found(part_dir):
    seg = _segments(part_dir)[0]
    size = seg.index_path.stat().st_size
    os.truncate(seg.index_path, size - 3)
    errors = _errors(verify_path(part_dir))
    assert [(e.path, e.position) for e in errors] == [(str(seg.index_path), size - 8)]
    assert "not a multiple" in errors[0].message


def test_index_pointing_past_the_end_is_found(part_dir):
    seg = _segments(part_dir)[0]
    data = bytearray(seg.index_path.read_bytes())
    data[-4:] = (10**6).to_bytes(4, "big")
    seg.index_path.write_bytes(bytes(data))
    errors = _errors(verify_path(part_dir))
    assert any(
        e.path == str(seg.index_path) and e.position == len(data) - 8 and "past the end" in e.message
        for e in errors
    )


def test_index_not_at_batch_start_and_wrong_offset(part_dir):
    seg = _segments(part_dir)[0]
    data = bytearray(seg.index_path.read_bytes())
    pos = int.from_bytes(data[4:8], "big")
    data[4:8] = (pos + 1).to_bytes(4, "big")
    rel = int.from_bytes(data[8:12], "big")
    data[8:12] = (rel + 1).to_bytes(4, "big")
    seg.index_path.write_bytes(bytes(data))
    messages = [e.message for e in _errors(verify_path(part_dir))]
    assert any("not the start of a batch" in m for m in messages)
    assert any("ends at offset" in m for m in messages)


def test_time_index_mismatch_is_found(part_dir):
    seg = _segments(part_dir)[0]
    data = bytearray(seg.time_index_path.read_bytes())
    data[0:8] = (int.from_bytes(data[0:8], "big") + 1).to_bytes(8, "big")
    seg.time_index_path.write_bytes(bytes(data))
    errors = _errors(verify_path(part_dir))
    assert any(
        e.path == str(seg.time_index_path) and e.position == 0 and "max timestamp" in e.message
        for e in errors
    )


def test_bad_snapshot_and_checkpoint_are_found(part_dir, tmp_path):
    snap = sorted(part_dir.glob("*.snapshot"))[-1]
    snap.write_bytes(snap.read_bytes()[:-1] + b"\x07")
    (part_dir / "leader-epoch-checkpoint").write_text("0\n5\n0 0\n")
    found = {os.path.basename(e.path) for e in _errors(verify_path(part_dir))}
    assert {snap.name, "leader-epoch-checkpoint"} <= found


def test_every_problem_reported_across_segments(part_dir, tmp_path):
    copy = tmp_path / "copy" / "t-0"
    shutil.copytree(part_dir, copy)
    segs = _segments(copy)
    for seg in segs[:2]:
        os.truncate(seg.index_path, seg.index_path.stat().st_size - 1)
    assert len(_errors(verify_path(copy))) == 2


def test_reading_resumes_after_corruption_and_reports_each(part_dir):
    seg = _segments(part_dir)[1]
    batches = list(seg.iter_batches())
    seg.close()
    data = bytearray(seg.path.read_bytes())
    for b in (batches[1], batches[-2]):
        data[b.position + 65] ^= 0x01
    seg.path.write_bytes(bytes(data))
    errors = _errors(verify_path(part_dir))
    assert [(e.path, e.position) for e in errors] == [
        (str(seg.path), batches[1].position),
        (str(seg.path), batches[-2].position),
    ]
    shallow = _errors(verify_path(part_dir, deep=False))
    assert shallow[0].position == batches[1].position and "cannot be read" in shallow[0].message
