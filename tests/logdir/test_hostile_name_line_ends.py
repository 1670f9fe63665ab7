"""File names that end their offset in a line end: ``00000000000000000003\\n.log``. ``verify`` called it
misnamed, yet the readers parsed its offset with a pattern whose ``$`` matches before a final line end,
and read it as the segment at offset 3: ``dump`` exited 0. The promise of issue 39 item 4 (a segment
whose name is no offset is a gap every reader reports) holds for it as for any other misnamed one."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from kafkaspec import Record
from kafkaspec.logdir import PartitionWriter
from kafkaspec.logdir.kafka.files import offset_from_name

pytestmark = pytest.mark.hostile


@pytest.mark.parametrize("name", ["00000000000000000003\n.log", "00000000000000000003\n.snapshot"])
def test_an_offset_name_with_a_line_end_is_no_offset(name):
    assert offset_from_name(name) is None


def test_dump_reports_a_segment_named_with_a_line_end_and_exits_1(tmp_path):
    root = tmp_path / "data"
    for prefix in (b"x", b"y"):
        with PartitionWriter(root, "t", 0) as w:
            w.append([Record(key=None, value=prefix + b"%d" % i) for i in range(3)])
    part = root / "t-0"
    os.rename(part / "00000000000000000003.log", part / "00000000000000000003\n.log")
    run = subprocess.run(
        [sys.executable, "-m", "kafkaspec.cli", "dump", str(part), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 1, (run.returncode, run.stderr)
    assert "00000000000000000003" in run.stderr and "Traceback" not in run.stderr, run.stderr
