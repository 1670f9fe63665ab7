"""Issue 12 item 5a: recovery mode's resync over crafted garbage takes time linear in the input.

Each generator builds hostile bytes in which (almost) every position is a candidate entry whose length
reaches far ahead, so checking each candidate's CRC directly costs candidates x length. The time for 4x
the input must stay under 8x (tests/support/timing.py). ``KAFKASPEC_ADVERSARIAL_SCALE`` (default 1)
multiplies the sizes for long runs.
"""

from __future__ import annotations

import os
import struct
import time
from collections.abc import Callable

import pytest
from support.timing import GROWTH, assert_linear

import kafkaspec
from kafkaspec import Record

pytestmark = pytest.mark.hostile

SCALE = int(os.environ.get("KAFKASPEC_ADVERSARIAL_SCALE", "1"))
KIB = 1024


def _read_all(data: bytes) -> kafkaspec.BatchIterator:
    it = kafkaspec.iter_batches(data, on_corrupt="skip")
    for _ in it:
        pass
    return it


def _assert_linear(make: Callable[[int], bytes], size: int) -> None:
    small, large = make(size // 2), make(GROWTH * size // 2)
    assert_linear(lambda: _read_all(small), lambda: _read_all(large), slack=0.05, what=f"{len(small)} bytes")


def issue_pattern(size: int) -> bytes:
    """The issue's bytes: ``00 02 00 00 40`` repeated reads as a 4 MiB batch at every fifth byte."""
    return (b"\x00\x02\x00\x00\x40" * (size // 5 + 1))[:size]


def scaled_issue_pattern(size: int) -> bytes:
    """The issue's pattern with its length scaled to the input: ``LL 02 00 00 00`` repeated reads as a
    batch of about half the input (at most 64 KiB) at every fifth byte, and as Message v0 between."""
    unit = bytes([min(0xFF, size >> 9), 2, 0, 0, 0])
    return (unit * (size // 5 + 1))[:size]


def v2_candidates(size: int, period: int = 64) -> bytes:
    """A batch head every ``period`` bytes that passes every cheap check (clean attributes, one record,
    a length that fits): only its CRC can reject it, and its length reaches half the input."""
    unit = bytearray(period)
    struct.pack_into(">qiib", unit, 0, 0, size // 2, 0, 2)
    struct.pack_into(">ihi", unit, 17, 0x12345678, 0, 0)  # crc, attributes, last_offset_delta
    struct.pack_into(">i", unit, 57, 1)  # records_count
    return (bytes(unit) * (size // period + 1))[:size]


def legacy_candidates(size: int, period: int = 32) -> bytes:
    """A Message v0 every ``period`` bytes with a null key and a value length that adds up to a length
    reaching half the input: only its CRC can reject it."""
    length = size // 2
    unit = bytearray(period)
    struct.pack_into(">qiibbii", unit, 0, 0, length, 0x12345678, 0, 0, -1, length - 14)
    return (bytes(unit) * (size // period + 1))[:size]


def corrupt_chain(size: int) -> bytes:
    """Corrupt entries whose lengths each reach near the end, each followed by a valid batch: checking
    each corrupt entry's CRC directly costs the rest of the input, once per entry."""
    ok = kafkaspec.build_batch([Record(value=b"v", timestamp=1)])
    unit = len(ok) + 61
    n = size // unit
    data = bytearray(ok[:61] + ok) * n
    for i in range(n):
        struct.pack_into(">i", data, i * unit + 8, len(data) - i * unit - 13)
    return bytes(data)


def corrupt_legacy_chain(size: int) -> bytes:
    """As corrupt_chain, in Message v0: each corrupt message's key and value lengths add up to a length
    reaching near the end (only its CRC is wrong), and a valid message follows its head."""
    ok = _smallest_message()
    unit = 26 + len(ok)
    n = size // unit
    data = bytearray()
    for i in range(n):
        length = n * unit - i * unit - 13
        data += struct.pack(">qiIbbii", 0, length, 0x12345678, 0, 0, -1, length - 14) + ok
    return bytes(data)


@pytest.mark.parametrize(
    "make",
    [
        issue_pattern,
        scaled_issue_pattern,
        v2_candidates,
        legacy_candidates,
        corrupt_chain,
        corrupt_legacy_chain,
    ],
)
def test_resync_time_is_linear(make):
    _assert_linear(make, 64 * KIB * SCALE)


def _crc_bytes(monkeypatch, data: bytes) -> int:
    """How many bytes recovery mode feeds to the CRC functions while reading ``data``: the work, counted."""
    import importlib

    fed = 0

    def counting(fn):
        def crc(view, *args):
            nonlocal fed
            fed += len(view)
            return fn(view, *args)

        return crc

    for name in (
        "kafkaspec.generated.record_batch_v2",
        "kafkaspec.generated.message_v0",
        "kafkaspec.generated.message_v1",
        "kafkaspec.recovery",
    ):
        module = importlib.import_module(name)
        for fn in ("crc32", "crc32c"):
            if hasattr(module, fn):
                monkeypatch.setattr(module, fn, counting(getattr(module, fn)))
    _read_all(data)
    return fed


@pytest.mark.parametrize(
    "make",
    [
        issue_pattern,
        scaled_issue_pattern,
        v2_candidates,
        legacy_candidates,
        corrupt_chain,
        corrupt_legacy_chain,
    ],
)
def test_each_byte_is_checksummed_a_bounded_number_of_times(monkeypatch, make):
    """The bound itself, without a clock: two checksums over the input, plus at most 2 x MARK bytes
    per candidate (a handful per position at worst). Before: candidates x their lengths."""
    size = 64 * KIB * SCALE
    assert _crc_bytes(monkeypatch, make(size)) < 40 * size


@pytest.mark.parametrize(("make", "head"), [(corrupt_chain, 61), (corrupt_legacy_chain, 26)])
def test_corrupt_chain_keeps_every_valid_entry(make, head):
    data = make(64 * KIB)
    it = kafkaspec.iter_batches(data, on_corrupt="skip")
    batches = list(it)
    assert len(batches) == len(it.skipped) == len(data) // (head + batches[0].size)
    assert all(s.end - s.start == head and s.rule == "scan" for s in it.skipped)


def test_the_issue_pattern_at_its_size():
    """123 s before the fix: its candidates now fail the cheap checks, and none is CRC-checked in full."""
    data = issue_pattern(5 * KIB * KIB)
    start = time.process_time()
    it = _read_all(data)
    assert time.process_time() - start < 30
    assert [(s.start, s.end, s.rule) for s in it.skipped] == [(0, len(data), "scan")]


def test_a_valid_batch_after_garbage_is_found():
    ok = kafkaspec.build_batch([Record(value=b"found", timestamp=1)], base_offset=7)
    for make in (issue_pattern, v2_candidates, legacy_candidates):
        garbage = make(8 * KIB)
        it = kafkaspec.iter_batches(garbage + ok, on_corrupt="skip")
        assert [(r.offset, r.value) for batch in it for r in batch] == [(7, b"found")], make.__name__
        assert it.skipped[-1].end == len(garbage)


def _smallest_message() -> bytes:
    """A Message v0 with null key and value: 26 bytes, the smallest entry there is."""
    from kafkaspec.codec.crc import crc32

    body = struct.pack(">bbii", 0, 0, -1, -1)
    return struct.pack(">qiI", 5, 4 + len(body), crc32(body)) + body


@pytest.mark.parametrize(
    "garbage",
    [
        bytes(4 * KIB),
        bytes(100) + b"\x07" + bytes(100),
        b"\x00\x02\x00\x00\x40" * 99,
        bytes(range(256)) * 8,
        bytes(64) + b"\x01" + bytes(45),
    ],
)
def test_the_smallest_entry_at_the_very_end_is_found(garbage):
    """The scan looks at up to 30 bytes from each position and steps over runs of zeros: neither may miss
    an entry that ends exactly at the end of the data."""
    data = garbage + _smallest_message()
    it = kafkaspec.iter_batches(data, on_corrupt="skip")
    assert [r.offset for batch in it for r in batch] == [5]
    assert it.skipped[-1].end == len(garbage)


def test_zeros_are_stepped_over_quickly():
    """A preallocated segment's zero tail: no position in it can start an entry."""
    data = bytes(4 * KIB * KIB * SCALE) + _smallest_message()
    start = time.process_time()
    it = _read_all(data)
    assert time.process_time() - start < 2
    assert [(s.start, s.end, s.rule) for s in it.skipped] == [(0, len(data) - 26, "scan")]


def test_recovery_leaves_an_mmap_closable(tmp_path):
    """The shared prefix checksums hold the buffer, not a lasting memoryview export of it."""
    import mmap

    path = tmp_path / "garbage.log"
    ok = kafkaspec.build_batch([Record(value=b"x", timestamp=1)])
    path.write_bytes(issue_pattern(10_000) + ok)
    with path.open("rb") as fh:
        mapped = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
        it = kafkaspec.iter_batches(mapped, on_corrupt="skip")
        assert [len(batch) for batch in it] == [1] and it.skipped
        mapped.close()  # BufferError while an export is alive
