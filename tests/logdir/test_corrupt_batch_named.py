"""A batch whose CRC fails, in the middle of a closed segment (what a broker's recovery truncates at, see
tests/brokers/test_broker_moves.py): every reader of the partition stops there with an error naming the
segment file and the batch's byte, after giving the records before it."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.logdir import corrupt_middle_batch, write_partition

from kafkaspec.errors import CorruptRecordError
from kafkaspec.logdir import open_log

pytestmark = pytest.mark.hostile


@pytest.fixture
def corrupt(tmp_path: Path) -> tuple[Path, Path, int, int]:
    root = tmp_path / "data"
    write_partition(root, batches=20)
    (tmp_path / "canary").write_text("keep")
    segment, position, next_offset, _ = corrupt_middle_batch(root / "t-0")
    return root, segment, position, next_offset


@pytest.mark.parametrize("reader", ["records", "batches", "to_arrow_batches"])
def test_a_reader_stops_at_the_corrupt_batch_naming_its_segment(corrupt, reader):
    root, segment, position, next_offset = corrupt
    (part,) = open_log(str(root)).partitions()
    read = {
        "records": lambda: (r.offset for _, r in part.records(isolation_level="read_uncommitted")),
        "batches": lambda: (b.last_offset for _, b in part.batches()),
        "to_arrow_batches": lambda: (
            o
            for rb in part.to_arrow_batches(isolation_level="read_uncommitted")
            for o in rb["offset"].to_pylist()
        ),
    }[reader]
    got = []
    with pytest.raises(CorruptRecordError) as raised:
        for offset in read():
            got.append(offset)
    assert str(raised.value).endswith(f"(at {segment}, byte {position})"), raised.value
    assert raised.value.source == str(segment) and raised.value.position == position
    assert not got or max(got) < next_offset
    assert (root.parent / "canary").read_text() == "keep"
