"""A file in a partition directory named like a segment but by no offset (issue 39, item 4).

The ``kafkalog`` writer once wrote rows at offsets [-5, 0] as ``t-0/-0000000000000000005.log``, and
offsets 0 and 2^63-1 as ``09223372036854775808.snapshot``: readers passed over such names and exit 0.
A broker loads neither. Every reader reports such a ``.log`` as a segment that cannot be read (its
records are a gap, named), ``verify`` reports each such name once, and the writers refuse to make them.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from kafkaspec import KafkaFormatError, Record
from kafkaspec.logdir import InvariantError, PartitionWriter, open_log, verify_path

pytestmark = pytest.mark.hostile

NAMES = ["abc.log", "-0000000000000000005.log", "09223372036854775808.log", "0000000000000000000a.log"]


def _partition(tmp_path, name):
    """t-0 with two good records and, beside them, ``name`` holding a copy of the good segment."""
    root = tmp_path / "logs"
    with PartitionWriter(root, "t", 0) as w:
        w.append([Record(key=b"k", value=b"good-%d" % i, timestamp=i) for i in range(2)])
    part = root / "t-0"
    (part / name).write_bytes((part / "00000000000000000000.log").read_bytes())
    (tmp_path / "canary").write_text("keep")
    return root, part / name


@pytest.mark.parametrize("name", NAMES)
def test_verify_reports_the_name_once(name, tmp_path):
    root, bad = _partition(tmp_path, name)
    errors = [p for p in verify_path(root) if p.severity == "error"]
    assert [p.path for p in errors] == [str(bad)], errors
    assert "offset" in errors[0].message


@pytest.mark.parametrize("name", NAMES)
def test_dump_reports_the_name_and_prints_the_rest(name, tmp_path):
    root, bad = _partition(tmp_path, name)
    done = subprocess.run(
        [sys.executable, "-m", "kafkaspec.cli", "dump", str(root), "--json", "--print-data"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1, done.stderr
    assert str(bad) in done.stderr and "offset" in done.stderr and "Traceback" not in done.stderr
    assert done.stdout.count('"good-') == 2
    assert (tmp_path / "canary").read_text() == "keep"


@pytest.mark.parametrize("name", NAMES[:2])
def test_records_and_arrow_raise_naming_the_file(name, tmp_path):
    root, bad = _partition(tmp_path, name)
    with open_log(root) as log, pytest.raises(KafkaFormatError, match="offset") as info:
        list(log.partitions()[0].records())
    assert str(bad) in str(info.value)
    with open_log(root) as log, pytest.raises(KafkaFormatError, match="offset") as info:
        log.partitions()[0].to_arrow()
    assert str(bad) in str(info.value)


def test_verify_reports_a_snapshot_named_past_int64(tmp_path):
    root = tmp_path / "logs"
    with PartitionWriter(root, "t", 0) as w:
        w.append([Record(key=None, value=b"v", timestamp=0)])
    bad = root / "t-0" / "09223372036854775808.snapshot"
    bad.write_bytes((root / "t-0" / "00000000000000000001.snapshot").read_bytes())
    assert [p.path for p in verify_path(root) if p.severity == "error"] == [str(bad)]


@pytest.mark.parametrize("offsets", [[-5, 0], [0, (1 << 63) - 1]])
def test_partition_writer_refuses_offsets_no_file_can_be_named_by(offsets, tmp_path):
    with pytest.raises(InvariantError, match=f"offset {offsets[0] if offsets[0] < 0 else offsets[1]}"):
        with PartitionWriter(tmp_path, "t", 0) as w:
            for o in offsets:
                w.append([Record(key=None, value=b"v", timestamp=0, offset=o)])
    names = sorted(p.name for p in (tmp_path / "t-0").iterdir()) if (tmp_path / "t-0").exists() else []
    assert all(n[:1] != "-" and not n.startswith("0922337203685477580") for n in names), names
    with pytest.raises(InvariantError, match="start offset -5"):
        PartitionWriter(tmp_path / "b", "t", 0, start_offset=-5)
    assert not (tmp_path / "b").exists()
    w = PartitionWriter(tmp_path / "c", "t", 0)
    with pytest.raises(InvariantError, match="base offset 9223372036854775808"):
        w.roll(base_offset=1 << 63)
