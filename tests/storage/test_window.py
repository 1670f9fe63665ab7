"""Whole-segment scans of object-store segments through a bounded window (``logdir.window``).

The window is made small here (``ranged.READ_PIECE`` patched) so that segments of a few MiB span
many windows; results must equal the local read's, and the bytes one window holds stay bounded.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import textwrap

import pytest

from kafkaspec import BatchIterator, KafkaFormatError, Record, logdir
from kafkaspec.cli import main
from kafkaspec.logdir.kafka.window import WindowedBatches
from kafkaspec.logdir.store import ranged

PIECE = 64 << 10


def _write_segment(root, mib: float, seed: int, big: int = 0, topic: str = "big") -> None:
    """One partition ``<topic>-0`` of about ``mib`` MiB in one segment: batches of 1-6 incompressible
    records of 100 B to 40 KiB, and (``big`` > 0) one batch of a ``big``-byte value in the middle."""
    rng = random.Random(seed)
    ts = 1_700_000_000_000
    with logdir.PartitionWriter(root, topic, 0, segment_bytes=1 << 31, index_interval_bytes=256 << 10) as w:
        total, i = 0, 0
        while total < mib * (1 << 20):
            if big and i == 20:
                recs = [Record(key=b"big", value=rng.randbytes(big), timestamp=ts)]
            else:
                recs = [
                    Record(
                        key=b"k%d" % i, value=rng.randbytes(rng.choice((100, 3000, 40000))), timestamp=ts + j
                    )
                    for j in range(rng.randint(1, 6))
                ]
            w.append(recs, compression="none" if i % 3 else "zstd")
            total += sum(len(r.value) for r in recs)
            i += 1


def _batches(it) -> list[tuple]:
    return [(b.position, b.end, b.base_offset, b.last_offset, b.raw()) for b in it]


@pytest.fixture
def small_window(monkeypatch):
    monkeypatch.setattr(ranged, "READ_PIECE", PIECE)
    monkeypatch.setattr(ranged, "READ_AHEAD", 2)


def test_a_remote_scan_reads_through_a_small_window_and_equals_the_local_read(
    s3_env, s3_server, tmp_path, small_window, capsys
):
    _write_segment(tmp_path / "logs", 2, seed=1, big=300_000)  # one batch far larger than the window
    uri = s3_server.upload(tmp_path / "logs", s3_server.new_bucket(), "backup")
    local = logdir.open_log(tmp_path / "logs").partitions()[0].segments()[0]
    remote = logdir.open_log(uri).partitions()[0].segments()[0]
    want = _batches(local.iter_batches())
    assert any(a // PIECE != (b - 1) // PIECE for a, b, *_ in want)  # batches straddle window boundaries
    it = remote.iter_batches()
    assert isinstance(it, WindowedBatches)
    assert _batches(it) == want
    largest = max(b - a for a, b, *_ in want)
    assert largest > 300_000 and largest <= it.largest_window <= largest + 2 * PIECE  # grew to the big batch
    assert it.partial is None and it.skipped == []
    # a window never held the segment (here 30 times the window)
    assert remote.size > 30 * PIECE and it.largest_window < remote.size / 4
    # Spark-task style ranges, dump, verify: the same through windows
    for start, end in local.split(200_000):
        assert _batches(remote.iter_batches(start, end)) == _batches(local.iter_batches(start, end))
    assert main(["dump", "--json", str(tmp_path / "logs")]) == 0
    local_rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert main(["dump", "--json", uri]) == 0
    remote_rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    strip = lambda rows: [{k: v for k, v in r.items() if k not in ("path", "file", "segment")} for r in rows]  # noqa: E731
    assert strip(remote_rows) == strip(local_rows) and len(local_rows) > 100
    assert main(["verify", uri]) == 0


def test_a_tiered_segment_scans_through_a_window_of_whole_chunks(s3_env, s3_server, tmp_path, small_window):
    _write_segment(tmp_path / "logs", 1.5, seed=2, big=200_000)
    dest = f"s3://{s3_server.new_bucket()}/tiered/"
    logdir.write_tiered(tmp_path / "logs", dest, chunk_size=20_000)
    local = logdir.open_log(tmp_path / "logs").partitions()[0].segments()[0]
    seg = logdir.open_log(dest).partitions()[0].segments()[0]
    it = seg.iter_batches()
    assert isinstance(it, WindowedBatches)
    assert _batches(it) == _batches(local.iter_batches())
    assert it.largest_window < seg.size / 4


def _damaged(data: bytes) -> list[bytes]:
    """The segment with: a flipped byte mid-way; a cut tail; a length field that claims too much."""
    flipped = bytearray(data)
    flipped[len(data) // 2] ^= 0x55
    long_length = bytearray(data)
    first_len = int.from_bytes(data[8:12], "big")
    second = 12 + first_len
    long_length[second + 8 : second + 12] = (len(data) * 3).to_bytes(4, "big")
    return [bytes(flipped), data[: len(data) - 1000], bytes(long_length)]


def _outcome(it) -> tuple:
    try:
        got = _batches(it)
    except KafkaFormatError as exc:
        return ("error", str(exc), exc.position)
    return ("ok", got, it.partial, [tuple(s) for s in it.skipped])


@pytest.mark.parametrize("piece", [1000, 4096, 65536, 1 << 20])
def test_windows_of_any_size_give_what_one_buffer_gives(tmp_path, piece):
    """The window logic alone, over the bytes of a local segment, intact and damaged: batches, partial
    tails, skipped ranges and errors equal those of one BatchIterator over the whole buffer."""
    _write_segment(tmp_path, 0.4, seed=3, big=50_000)
    data = (tmp_path / "big-0" / "00000000000000000000.log").read_bytes()
    for sample in [data, *_damaged(data)]:
        for mode in ("raise", "skip"):
            for verify in (True, False):
                windowed = WindowedBatches(
                    lambda a, b, d=sample: d[a:b],
                    0,
                    len(sample),
                    verify=verify,
                    on_corrupt=mode,
                    piece=piece,
                    ahead=2,
                )
                whole = BatchIterator(sample, verify=verify, on_corrupt=mode)
                assert _outcome(windowed) == _outcome(whole), (piece, mode, verify)


def test_a_corrupted_remote_segment_verifies_and_skips_like_the_local_one(
    s3_env, s3_server, tmp_path, small_window
):
    _write_segment(tmp_path / "logs", 1, seed=4)
    path = tmp_path / "logs" / "big-0" / "00000000000000000000.log"
    path.write_bytes(_damaged(path.read_bytes())[0])
    uri = s3_server.upload(tmp_path / "logs", s3_server.new_bucket(), "backup")
    local = logdir.open_log(tmp_path / "logs").partitions()[0].segments()[0]
    remote = logdir.open_log(uri).partitions()[0].segments()[0]
    assert _outcome(remote.iter_batches(on_corrupt="skip")) == _outcome(local.iter_batches(on_corrupt="skip"))
    assert _outcome(remote.iter_batches()) == _outcome(local.iter_batches())
    problems = lambda p: [(x.position, x.message, x.severity) for x in logdir.verify(p)]  # noqa: E731
    assert problems(uri) == problems(tmp_path / "logs") != []


_RSS_SCRIPT = textwrap.dedent("""
    import os, sys
    from kafkaspec import logdir
    from kafkaspec.logdir.store import ranged
    ranged.READ_PIECE, ranged.READ_AHEAD = 1 << 20, 2
    seg = logdir.open_log(sys.argv[1]).partitions()[0].segments()[0]
    def rss():  # resident bytes now
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    seg.index_entries()
    before, most, count = rss(), 0, 0
    for batch in seg.iter_batches():
        count += 1
        most = max(most, rss() - before)
    data = seg.data  # the same segment held whole: the measure must see it
    print(count, seg.size, most, rss() - before)
""")


@pytest.mark.skipif(
    not os.path.exists("/proc/self/statm"), reason="resident memory is read from /proc (Linux)"
)
def test_memory_of_a_remote_scan_is_bounded_by_the_window_not_the_segment(s3_env, s3_server, tmp_path):
    _write_segment(tmp_path / "logs", 40, seed=5)
    uri = s3_server.upload(tmp_path / "logs", s3_server.new_bucket(), "backup")
    out = subprocess.run(
        [sys.executable, "-c", _RSS_SCRIPT, uri],
        capture_output=True,
        text=True,
        timeout=300,
        env=dict(os.environ),
    )
    assert out.returncode == 0, out.stderr
    count, size, windowed, whole = map(int, out.stdout.split())
    assert count > 500 and size > 40 << 20
    # 1 MiB pieces, 2 ahead: a window of ~2 MiB, 2 in flight, batches held one at a time
    assert windowed < 16 << 20, (windowed, size)
    print(
        f"resident growth: windowed {windowed >> 10} KiB, whole {whole >> 10} KiB, segment {size >> 10} KiB"
    )
    assert whole > 32 << 20, (whole, size)  # the measure sees a whole-segment read
