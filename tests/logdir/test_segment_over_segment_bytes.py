"""A segment larger than ``segment.bytes`` (KAFKA-17375): a follower appends a batch the leader
accepted before ``segment.bytes`` was lowered, so the segment it starts holds more than the bound
(Kafka's UnifiedLogTest: the active segment's size is the oversized batch's). No reader, writer or
verify check may assume a segment stays within the bound."""

from __future__ import annotations

import io
from contextlib import redirect_stderr, redirect_stdout

from kafkaspec import Record
from kafkaspec.cli import main
from kafkaspec.logdir import PartitionWriter, open_log, verify

SEGMENT_BYTES = 1024


def _records(n: int, size: int, first: int = 0) -> list[Record]:
    return [Record(key=b"k%d" % (first + i), value=b"x" * size, timestamp=5 + first + i) for i in range(n)]


def _partition(tmp_path):
    root = tmp_path / "logs"
    with PartitionWriter(root, "orders", 0, segment_bytes=SEGMENT_BYTES, index_interval_bytes=64) as w:
        w.append(_records(2, 10))
        w.append(_records(40, 200, first=2))  # one batch of about 8 KiB: over the bound on its own
        w.append(_records(2, 10, first=42))
    (root / "canary").write_text("stays")
    return root


def test_a_segment_over_segment_bytes_reads_and_verifies(tmp_path):
    root = _partition(tmp_path)
    part = open_log(root).partition("orders", 0)
    sizes = [s.path.stat().st_size for s in part.segments()]
    assert max(sizes) > 4 * SEGMENT_BYTES and len(sizes) == 3
    assert [r.offset for _, r in part.records()] == list(range(44))
    assert part.to_arrow().num_rows == 44
    (seg,) = [s for s in part.segments() if s.path.stat().st_size > SEGMENT_BYTES]
    assert seg.position_for_offset(30) is not None
    assert [r.offset for _, r in part.records(start_offset=30, end_offset=33)] == [30, 31, 32]
    assert [p for p in verify(root) if p.severity != "note"] == []
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["dump", str(root / "orders-0"), "--batches-only"])
    assert code == 0, err.getvalue()
    assert out.getvalue().count("baseOffset:") == 3
    assert (root / "canary").read_text() == "stays"


def test_the_writer_appends_to_a_segment_already_over_the_bound(tmp_path):
    root = _partition(tmp_path)
    with PartitionWriter(root, "orders", 0, segment_bytes=SEGMENT_BYTES) as w:
        w.append(_records(1, 10, first=44))
    part = open_log(root).partition("orders", 0)
    assert [r.offset for _, r in part.records()] == list(range(45))
    assert [p for p in verify(root) if p.severity != "note"] == []
