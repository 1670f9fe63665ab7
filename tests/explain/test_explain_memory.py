"""Issue 30 item 16: ``explain`` of one batch of many records in memory bounded by its input.

A zstd batch of small records is a few bytes a record, but each record is a dozen spans (nodes)
and a dozen output lines: before the fix the whole batch's tree (and, as JSON, its whole dict) was
held until the batch ended, so 100k records (59 KB) peaked at 1.3 GB as text and 3.4 GB as JSON.
Records are now written as each one's span is complete, so the peak must not grow with the record
count: the batch of 4x the records may take at most a constant more (plus a small multiple of its
larger input, decompressed size included).

Memory is measured in a subprocess under ``RLIMIT_AS`` (`support.memory.cli_memory`: its own ``VmHWM``);
the output goes to /dev/null. ``KAFKASPEC_ADVERSARIAL_SCALE`` (default 1) multiplies the sizes.

A single large value is bounded the same way: its text line showed the repr of the whole value cut
to 48 characters (up to 4x the value), and its JSON held its hex several times over (a 192 MiB value
peaked at 1.2 GB as text, 4 GB as JSON); now the peak may grow by at most 3x the value.
"""

from __future__ import annotations

import os

import pytest
from support.big_batches import big_value_batch
from support.memory import cli_memory
from support.timing import assert_linear

from kafkaspec import build_batch
from kafkaspec.explain import explain, jsonout, text

pytestmark = pytest.mark.hostile

SCALE = max(1, int(os.environ.get("KAFKASPEC_ADVERSARIAL_SCALE", "1")))
MiB = 1 << 20
RECORDS = 5_000 * SCALE
GROWTH = 4


def _batch(path, n: int) -> tuple[int, int]:
    """One zstd batch of ``n`` one-byte values; (its size, its decompressed records' size)."""
    data = build_batch(values=[b"v"] * n, compression="zstd")
    path.write_bytes(data)
    plain = build_batch(values=[b"v"] * n)
    return len(data), len(plain) - 61


def _peak(*argv) -> int:
    got = cli_memory("explain", *argv)
    assert got.code == 0
    return got.peak


@pytest.mark.slow  # sized runs in child processes: `make test`, not `make check-fast`
@pytest.mark.parametrize("mode", [(), ("--json",)], ids=["text", "json"])
def test_peak_memory_does_not_grow_with_the_record_count(tmp_path, mode):
    small, large = tmp_path / "small.log", tmp_path / "large.log"
    _batch(small, RECORDS)
    size, decompressed = _batch(large, RECORDS * GROWTH)
    grown = _peak(large, *mode) - _peak(small, *mode)
    bound = 24 * MiB + 8 * (size + decompressed)
    assert grown < bound, (
        f"{GROWTH}x the records ({RECORDS * GROWTH}) took {grown / MiB:.0f} MiB more at the peak "
        f"(bound {bound / MiB:.0f} MiB)"
    )


def _value_batch(path, size: int) -> None:
    """A zstd batch of one record with a ``size``-byte value, compressed a MiB at a time."""
    path.write_bytes(big_value_batch(size))


@pytest.mark.parametrize("mode", [(), ("--json",)], ids=["text", "json"])
def test_peak_memory_of_a_large_value_is_a_small_multiple_of_it(tmp_path, mode):
    small, large = tmp_path / "small.log", tmp_path / "large.log"
    _value_batch(small, 16 * MiB)
    _value_batch(large, 64 * MiB)
    grown = _peak(large, *mode) - _peak(small, *mode)
    bound = 24 * MiB + 3 * 48 * MiB
    assert grown < bound, (
        f"48 MiB more of one value took {grown / MiB:.0f} MiB more at the peak (bound {bound / MiB:.0f})"
    )


@pytest.mark.slow  # sized runs in child processes: `make test`, not `make check-fast`
@pytest.mark.parametrize("mode", ["text", "json"])
def test_time_is_linear_in_the_record_count(mode):
    """A batch written in pieces: 4x the records must not take 8x the time (tests/support/timing.py)."""

    def run(data: bytes) -> None:
        with open(os.devnull, "w") as out:
            sink = text.Writer(out, text.Style(False)) if mode == "text" else jsonout.Writer(out)
            expl = explain(data, sink=sink, keep=False)
        assert expl.count == 1 and expl.ok

    n = 2_500 * SCALE
    small, large = (build_batch(values=[b"v"] * count, compression="zstd") for count in (n, n * GROWTH))
    assert_linear(lambda: run(small), lambda: run(large), what=f"explain ({mode}) of one batch")
