"""Two ``PartitionWriter`` of one partition at once (the same process or two): both continued the
partition from the same log end offset and wrote the same segment file, the second over the first's
batches; both closed without an error, the first's records were gone and ``verify`` exited 0 (one
warning of a torn tail). The promise: one writer of a partition at a time; a second is refused in one
line naming the partition before it reads or writes anything, and the first's records all stay."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from kafkaspec import Record
from kafkaspec.logdir import ExistingPartitionError, PartitionWriter, open_log

pytestmark = pytest.mark.hostile


def _records(partition_dir):
    with open_log(partition_dir) as log:
        return [(r.offset, r.value) for _, r in log.partitions()[0].records()]


def _rows(prefix: bytes, n: int) -> list[Record]:
    return [Record(key=None, value=prefix + b"%d" % i) for i in range(n)]


@pytest.mark.parametrize("exists", [True, False])
def test_a_second_writer_of_a_partition_is_refused_and_the_first_keeps_every_record(tmp_path, exists):
    (tmp_path / "canary").write_text("keep")
    root = tmp_path / "data"
    before = []
    if exists:
        with PartitionWriter(root, "t", 0) as w:
            w.append(_rows(b"a", 5))
        before = [(i, b"a%d" % i) for i in range(5)]
    first = PartitionWriter(root, "t", 0)
    first.append(_rows(b"A", 3))
    with pytest.raises(ExistingPartitionError) as err:
        PartitionWriter(root, "t", 0)
    assert "t-0" in str(err.value) and "another writer" in str(err.value) and "\n" not in str(err.value)
    first.close()
    n = len(before)
    assert _records(root / "t-0") == before + [(n + i, b"A%d" % i) for i in range(3)]
    with PartitionWriter(root, "t", 0) as again:  # closed, the first lets the next one in
        again.append(_rows(b"B", 1))
    assert _records(root / "t-0")[-1] == (n + 3, b"B0")
    assert (tmp_path / "canary").read_text() == "keep"


def test_a_writer_in_another_process_is_refused_while_one_writes(tmp_path):
    root = tmp_path / "data"
    with PartitionWriter(root, "t", 0) as w:
        w.append(_rows(b"a", 2))
        script = textwrap.dedent(f"""
            from kafkaspec import Record
            from kafkaspec.logdir import ExistingPartitionError, PartitionWriter
            try:
                with PartitionWriter({str(root)!r}, "t", 0) as other:
                    other.append([Record(key=None, value=b"other")])
            except ExistingPartitionError as exc:
                print(exc)
                raise SystemExit(3)
            """)
        run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
        assert run.returncode == 3, (run.returncode, run.stdout, run.stderr)
        w.append(_rows(b"b", 1))
    assert _records(root / "t-0") == [(0, b"a0"), (1, b"a1"), (2, b"b0")]


def test_a_refused_or_discarded_writer_lets_the_next_one_in(tmp_path):
    root = tmp_path / "data"
    with PartitionWriter(root, "t", 0) as w:
        w.append(_rows(b"a", 1))
    with pytest.raises(ExistingPartitionError):
        PartitionWriter(root, "t", 0, mode="create")
    with PartitionWriter(root, "t", 0) as w:
        w.append(_rows(b"b", 1))
    assert _records(root / "t-0") == [(0, b"a0"), (1, b"b0")]
