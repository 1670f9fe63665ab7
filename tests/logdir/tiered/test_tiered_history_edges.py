"""A partition's whole history (a local log plus its tiered copy), at its edges: where the two copies
meet with segments cut at other offsets (an abort marker in the overlap is one abort, not two), and
where they do not meet (a gap is an error naming both sides, for every reader, not only verify).
Everything is written under the test's tmp_path, beside a canary file that must survive."""

from __future__ import annotations

import pytest

from kafkaspec import KafkaFormatError, Record, logdir
from kafkaspec.cli import main
from kafkaspec.logdir import PartitionWriter


def _write(root, segment_bytes: int) -> None:
    """One partition, the same batches whatever the segment size: plain batches, and every fifth a
    transaction of its own, every other one of those aborted."""
    with PartitionWriter(root, "t", 0, segment_bytes=segment_bytes, index_interval_bytes=200) as w:
        for i in range(60):
            recs = [
                Record(key=f"k{i}-{j}".encode(), value=bytes(40), timestamp=1_700_000_000_000 + i)
                for j in range(3)
            ]
            if i % 5 == 0:
                pid = 1000 + i
                w.append(recs, producer_id=pid, producer_epoch=0, base_sequence=0, is_transactional=True)
                w.append_control(
                    "abort" if i % 10 == 0 or i > 40 else "commit", producer_id=pid, producer_epoch=0
                )
            else:
                w.append(recs)


def _history(tmp_path, keep_from: int):
    """The local log in small segments keeping those from the ``keep_from``-th on; the tiered copy
    uploaded by another leader that rolled bigger segments: its segments straddle the local log start."""
    local, other, remote = tmp_path / "data", tmp_path / "other", tmp_path / "remote"
    _write(local, 1200)
    _write(other, 5000)
    whole = logdir.open_log(local)
    expected = [(r.offset, r.key) for p in whole.partitions() for _, r in p.records(include_control=True)]
    aborted = whole.partitions()[0].transactions()[0]
    whole.close()
    logdir.write_tiered(other, remote, chunk_size=700)
    for seg in sorted((local / "t-0").glob("*.log"))[:keep_from]:
        for p in (local / "t-0").glob(seg.name[:20] + ".*"):
            p.unlink()
    (tmp_path / "canary").write_text("keep")
    return local, remote, expected, aborted


def test_an_abort_in_the_overlap_counts_once(tmp_path):
    local, remote, expected, aborted = _history(tmp_path, keep_from=5)
    with logdir.open_log(local, tiered=remote) as log:
        (part,) = log.partitions()
        segs = part.segments()
        first_local = next(s for s in segs if s.layout == "kafka")
        assert first_local.served_from > first_local.base_offset  # the overlap this test is about
        assert any(first_local.base_offset <= a.last_offset < first_local.served_from for a in aborted)
        assert [(r.offset, r.key) for _, r in part.records(include_control=True)] == expected
        got, _ = part.transactions()
        assert sorted(a.last_offset for a in got) == sorted(a.last_offset for a in aborted)  # each abort once
        committed = [(r.offset, r.key) for _, r in part.records(read_committed=True)]
    with logdir.open_log(tmp_path / "other") as log:
        assert committed == [(r.offset, r.key) for _, r in log.partitions()[0].records(read_committed=True)]
    assert (tmp_path / "canary").read_text() == "keep"


def test_a_gap_between_the_copies_is_an_error_naming_both_sides(tmp_path, capsys):
    """The tiered copy's live lineage ends before the local log starts: reading (records, dump) stops with
    an error naming the remote segment and its end offset and the local segment and its start offset,
    instead of yielding a log with offsets missing; verify reports it as an error too."""
    local, remote, expected, _ = _history(tmp_path, keep_from=8)
    folder = next(p for t in remote.iterdir() for p in t.iterdir() if p.name == "0")
    manifests = sorted(folder.glob("*.rsm-manifest"))
    with logdir.open_log(local, tiered=remote) as log:
        below = [s for s in log.partitions()[0].segments() if s.layout == "tiered"]
    gone = below[-1].path.name[: -len(".log")]  # the last remote segment below the local log start
    for p in folder.glob(gone + ".*"):
        p.unlink()
    assert len(sorted(folder.glob("*.rsm-manifest"))) == len(manifests) - 1
    with pytest.raises(KafkaFormatError) as info:
        with logdir.open_log(local, tiered=remote) as log:
            list(log.partitions()[0].records())
    text = str(info.value)
    assert "missing" in text and below[-2].path.name in text and "local log starts at offset" in text, text
    assert main(["dump", str(local), "--tiered", str(remote)]) == 1
    err = capsys.readouterr().err
    assert "missing" in err and "Traceback" not in err
    errors = [p for p in logdir.verify(local, tiered=remote) if p.severity == "error"]
    assert len(errors) == 1 and "missing" in errors[0].message, errors
    assert (tmp_path / "canary").read_text() == "keep"


def test_remote_segments_at_or_past_the_local_log_end_are_not_served(tmp_path):
    """After an unclean election truncated the local log, the tiered copy still holds segments of offsets
    the partition no longer has: Kafka serves no remote segment ending at or past the log end offset
    (``RemoteLogManager.isRemoteSegmentWithinLeaderEpochs``). They are listed as unused, with that reason,
    and reading gives the truncated log, each offset once."""
    local, remote, expected, _ = _history(tmp_path, keep_from=5)
    part_dir = local / "t-0"
    logs = sorted(part_dir.glob("*.log"))
    for seg in logs[-3:]:  # the local log loses its last three segments
        for p in part_dir.glob(seg.name[:20] + ".*"):
            p.unlink()
    leo = int(logs[-3].name[:20])
    with logdir.open_log(local, tiered=remote) as log:
        (part,) = log.partitions()
        unused = part.unused_segments()
        reasons = [u.reason for u in unused]
        assert any(f"at or past the log end offset {leo}" in r for r in reasons), reasons
        assert [(r.offset, r.key) for _, r in part.records(include_control=True)] == [
            e for e in expected if e[0] < leo
        ]
    assert (tmp_path / "canary").read_text() == "keep"
