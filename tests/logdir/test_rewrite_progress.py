"""``copy`` (``kafkaspec rewrite``) reports its progress as verify and synth do: bytes of segments read so
far out of the total, rising to the total."""

from __future__ import annotations

from kafkaspec import Record
from kafkaspec.logdir import PartitionWriter, copy


def test_copy_reports_progress_up_to_the_total(tmp_path):
    src = tmp_path / "src"
    for partition in range(3):
        with PartitionWriter(src, "t", partition) as w:
            w.append([Record(value=b"v" * 100, timestamp=1) for _ in range(10)])
    (tmp_path / "canary").write_text("stays")
    calls: list[tuple[int, int]] = []
    copy(src, tmp_path / "dst", progress=lambda done, total: calls.append((done, total)))
    assert len(calls) == 3
    assert [d for d, _ in calls] == sorted(d for d, _ in calls) and calls[-1][0] == calls[-1][1] > 0
    assert (tmp_path / "canary").exists()
