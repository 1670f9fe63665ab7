"""Magic 0 messages have no timestamp (issue 42, item 14): their ``timestamp`` is null in the ``kafkalog``
columns, not -1 ms (which Arrow, pandas and Spark show as 1969-12-31 23:59:59.999). Kafka's consumer
gives -1 with ``NO_TIMESTAMP_TYPE``; ``timestampType`` stays -1 here, so both ways of asking agree.

Every reader that builds the column is checked: ``to_arrow()`` (the per-record path of legacy entries),
the read plan (``kafkaspec.arrow.ranges``: the Spark source and the pipeline), and a magic 1 or v2 record
beside them keeps its timestamp, including a v2 timestamp of -1 (a value its producer chose).
"""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pytest

import kafkaspec
from kafkaspec import logdir
from kafkaspec.arrow.ranges import RangeReport, RangeSettings, plan_partition, read_records

TS = 1_700_000_000_000


def _partition(tmp_path: Path) -> logdir.Partition:
    """Offsets 0-2 magic 0, 3-4 magic 1, 5-7 v2 (7 with a timestamp of -1)."""
    (tmp_path / "canary").write_text("keep")
    part = tmp_path / "t-0"
    part.mkdir()
    data = b"".join(
        [
            *(
                kafkaspec.build_batch(
                    [kafkaspec.Record(key=None, value=b"m0-%d" % i)], magic=0, base_offset=i
                )
                for i in range(3)
            ),
            *(
                kafkaspec.build_batch(
                    [kafkaspec.Record(key=None, value=b"m1-%d" % i, timestamp=TS + i)], magic=1, base_offset=i
                )
                for i in (3, 4)
            ),
            kafkaspec.build_batch(
                [
                    kafkaspec.Record(key=None, value=b"v2-5", timestamp=TS + 5),
                    kafkaspec.Record(key=None, value=b"v2-6", timestamp=TS + 6),
                    kafkaspec.Record(key=None, value=b"v2-7", timestamp=-1),
                ],
                base_offset=5,
            ),
        ]
    )
    (part / "00000000000000000000.log").write_bytes(data)
    return logdir.open_log(part).partitions()[0]


EXPECTED = [None, None, None, TS + 3, TS + 4, TS + 5, TS + 6, -1]


def _millis(table: pa.Table | pa.RecordBatch) -> list[int | None]:
    return table["timestamp"].cast(pa.int64()).to_pylist()


def _ranges(part: logdir.Partition) -> list[int | None]:
    stamps: list[int | None] = []
    for task in plan_partition(part, None, None, RangeSettings()):
        for rb in read_records(task, RangeReport()):
            stamps += [None if t is None else t // 1000 for t in _millis(rb)]
    return stamps


def test_a_magic_0_record_has_a_null_timestamp_in_every_reader(tmp_path):
    part = _partition(tmp_path)
    table = part.to_arrow()
    assert [None if t is None else t // 1000 for t in _millis(table)] == EXPECTED
    assert table["timestampType"].to_pylist() == [-1, -1, -1, 0, 0, 0, 0, 0]
    assert table["timestamp"].null_count == 3
    assert _ranges(part) == EXPECTED
    assert (tmp_path / "canary").read_text() == "keep"


@pytest.mark.parametrize("magic", [1, 2])
def test_no_null_mask_where_every_record_has_a_timestamp(tmp_path, magic):
    """Magic 1 and v2 always carry a timestamp: the column has no validity buffer to build or read."""
    (tmp_path / "canary").write_text("keep")
    part_dir = tmp_path / "t-0"
    part_dir.mkdir()
    records = [kafkaspec.Record(key=None, value=b"x", timestamp=TS + i) for i in range(4)]
    (part_dir / "00000000000000000000.log").write_bytes(kafkaspec.build_batch(records, magic=magic))
    part = logdir.open_log(part_dir).partitions()[0]
    for rb in [
        *part.to_arrow().to_batches(),
        *(
            rb
            for t in plan_partition(part, None, None, RangeSettings())
            for rb in read_records(t, RangeReport())
        ),
    ]:
        assert rb.column("timestamp").buffers()[0] is None
    assert (tmp_path / "canary").read_text() == "keep"
