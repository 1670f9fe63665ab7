"""A corrupt segment fails clearly under corruptionPolicy=fail and is skipped and reported under skip."""

from __future__ import annotations

import shutil

import pytest
from support.spark import runtime_rows, source_rows

from kafkaspec import logdir

pytestmark = pytest.mark.spark


@pytest.fixture(scope="module")
def corrupt_dir(synth_dir, tmp_path_factory):
    """clicks-0 with one byte flipped inside the records of its 5th batch."""
    out = tmp_path_factory.mktemp("corrupt") / "clicks-0"
    shutil.copytree(synth_dir / "clicks-0", out)
    seg = sorted(out.glob("*.log"))[0]
    with logdir.open_log(seg) as log:
        batches = [
            (b.position, b.end, b.base_offset, b.last_offset) for b in log.segments()[0].iter_batches()
        ]
    pos, end, first, last = batches[4]
    data = bytearray(seg.read_bytes())
    data[pos + 70] ^= 0xFF
    seg.write_bytes(bytes(data))
    return out, seg, pos, end, first, last


def test_fail_policy_names_file_and_position(spark, corrupt_dir):
    out, seg, pos, *_ = corrupt_dir
    with pytest.raises(Exception) as info:
        spark.read.format("kafkalog").load(str(out)).count()
    message = str(info.value)
    assert "crc" in message.lower() and seg.name in message and f"byte {pos}" in message


def test_skip_policy_drops_the_batch_and_reports_it(spark, synth_dir, corrupt_dir):
    out, seg, pos, end, first, last = corrupt_dir
    got = source_rows(spark, out, {"corruptionPolicy": "skip"})
    expected = [r for r in runtime_rows(synth_dir / "clicks-0") if not first <= r[2] <= last]
    assert got == expected
    audit = spark.read.format("kafkalog").option("view", "batches").load(str(out))
    bad = [(r.position, r.size, r.crcStatus) for r in audit.where("crcStatus != 'ok'").collect()]
    assert bad == [(pos, end - pos, "mismatch")]
