"""``inspect remote-log`` on a large ``__remote_log_metadata`` partition: memory bounded by what the
replayed state holds (one entry per segment), not by the input, and time linear in the records.

Memory is measured by ``support.memory.cli_memory`` (a subprocess under ``RLIMIT_AS``, its own
``VmHWM``), output to /dev/null. The large partition has the same segments as the small
one and ``GROWTH`` times the events (each segment's COPY_SEGMENT_FINISHED retried, as a broker does
after a failed write, each retry with its own custom metadata): the state is the same size, the input
much larger (over many 1 MiB segments: a segment is read whole, one at a time), so the peak may grow
by a constant only. ``KAFKASPEC_ADVERSARIAL_SCALE`` (default 1)
multiplies the sizes."""

from __future__ import annotations

import io
import json
import os
import uuid
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from support.memory import cli_memory
from support.remote_log_records import FINISHED, segment, update
from support.timing import GROWTH, assert_linear

from kafkaspec import Record
from kafkaspec.cli import main
from kafkaspec.logdir import PartitionWriter

pytestmark = pytest.mark.hostile

SCALE = max(1, int(os.environ.get("KAFKASPEC_ADVERSARIAL_SCALE", "1")))
MiB = 1 << 20
SEGMENTS = 2_000 * SCALE
RETRIES = 8  # the large partition's events per segment, over the small one's 1
TID = uuid.UUID(int=0x5EED)
#: the partition's segment size: the reader holds one segment at a time, so the input spans many
SEGMENT_BYTES = 1 * MiB


def write_metadata(root: Path, segments: int, retries: int) -> Path:
    """``root/__remote_log_metadata-0``: ``segments`` segments of two partitions, each started and
    finished, its FINISHED event then retried ``retries`` times (1 KiB of custom metadata each);
    returns root."""
    custom = bytes(range(256)) * 4
    with PartitionWriter(root, "__remote_log_metadata", 0, segment_bytes=SEGMENT_BYTES) as w:
        batch: list[bytes] = []
        for i in range(segments):
            seg, part = uuid.UUID(int=i + 1), i % 2
            batch.append(segment("orders", TID, part, seg, 100 * i, 100 * i + 99, [(i // 500, 100 * i)]))
            batch.extend(
                update("orders", TID, part, seg, FINISHED, custom=custom) for _ in range(1 + retries)
            )
            if len(batch) >= 500:
                w.append([Record(key=None, value=v, timestamp=1000) for v in batch])
                batch = []
        if batch:
            w.append([Record(key=None, value=v, timestamp=1000) for v in batch])
    return root


def _size(root: Path) -> int:
    return sum(p.stat().st_size for p in root.rglob("*.log"))


@pytest.fixture(scope="module")
def partitions(tmp_path_factory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("rlmm")
    return {
        "small": write_metadata(base / "small", SEGMENTS, 0),
        "large": write_metadata(base / "large", SEGMENTS, RETRIES),
        "linear-small": write_metadata(base / "linear-small", SEGMENTS // 2, 1),
        "linear-large": write_metadata(base / "linear-large", int(SEGMENTS // 2 * GROWTH), 1),
    }


def _inspect(root: Path, *flags: str) -> str:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["inspect", "remote-log", str(root), *flags])
    assert code == 0 and err.getvalue() == "", err.getvalue()
    return out.getvalue()


def _peak(root: Path, *flags: str) -> int:
    got = cli_memory("inspect", "remote-log", root, *flags)
    assert got.code == 0
    return got.peak


def test_the_retried_events_leave_the_state_as_it_was(partitions):
    small, large = (json.loads(_inspect(partitions[k], "--json")) for k in ("small", "large"))
    assert _size(partitions["large"]) > 6 * _size(partitions["small"])

    def states(body):
        return {
            (p["partition"], s["segment_id"]): (s["state"], s["start_offset"], s["end_offset"])
            for p in body["partitions"]
            for s in p["segments"]
        }

    assert len(states(small)) == SEGMENTS and states(small) == states(large)
    assert all(v[0] == "COPY_SEGMENT_FINISHED" for v in states(large).values())


@pytest.mark.slow  # sized runs in child processes: `make test`, not `make check-fast`
@pytest.mark.parametrize("flags", [(), ("--json",)], ids=["text", "json"])
def test_peak_memory_is_bounded_by_the_state_not_the_input(partitions, flags):
    grown_input = _size(partitions["large"]) - _size(partitions["small"])
    grown = _peak(partitions["large"], *flags) - _peak(partitions["small"], *flags)
    bound = 12 * MiB
    assert grown < bound, (
        f"{RETRIES}x the events ({grown_input / MiB:.0f} MiB more input, the same state) took "
        f"{grown / MiB:.0f} MiB more at the peak (bound {bound / MiB:.0f} MiB)"
    )


@pytest.mark.slow  # sized runs in child processes: `make test`, not `make check-fast`
@pytest.mark.parametrize("flags", [(), ("--json",)], ids=["text", "json"])
def test_inspect_remote_log_is_linear_in_the_records(partitions, flags):
    small, large = partitions["linear-small"], partitions["linear-large"]
    assert_linear(
        lambda: _inspect(small, *flags),
        lambda: _inspect(large, *flags),
        what=" ".join(("inspect remote-log", *flags)),
    )
