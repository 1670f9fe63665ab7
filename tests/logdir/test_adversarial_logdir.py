"""Hostile log directories (issue 12 items 6, 7, 8): crafted files, not stored blobs.

Each test builds a small partition with :class:`PartitionWriter`, damages it the way an
attacker (or a broker mid-write) would, and checks that ``verify``, ``dump`` and the reading
API answer with a named problem, the right exit code and no traceback, in bounded time and
memory. ``KAFKASPEC_ADVERSARIAL_SCALE`` (default 1) multiplies the sizes for long runs.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from support.timing import GROWTH, assert_linear

from kafkaspec import Record
from kafkaspec.cli import main
from kafkaspec.logdir import PartitionWriter, open_log, verify_path
from kafkaspec.logdir.kafka import indexes, segment

pytestmark = pytest.mark.hostile

SCALE = max(1, int(os.environ.get("KAFKASPEC_ADVERSARIAL_SCALE", "1")))
REPO = Path(__file__).resolve().parents[2]
#: address space for a child process: the interpreter and kafkaspec need ~150 MB of it
AS_LIMIT = 400 << 20


def _run(*args: str, timeout: float = 60, limit_as: int | None = None, code: str | None = None):
    """Run ``kafkaspec ARGS`` (or ``code``) in a child, optionally under RLIMIT_AS; return the CompletedProcess."""
    prelude = ""
    if limit_as:
        prelude = f"import resource; resource.setrlimit(resource.RLIMIT_AS, ({limit_as}, {limit_as}))\n"
    body = (
        code
        if code is not None
        else f"import sys\nfrom kafkaspec.cli import main\nsys.exit(main({list(args)!r}))\n"
    )
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run(
        [sys.executable, "-c", prelude + body], capture_output=True, text=True, timeout=timeout, env=env
    )


def _cli(*args: str):
    """Run ``kafkaspec ARGS`` in this process (for inputs that cannot hang or exhaust it); a CompletedProcess."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return subprocess.CompletedProcess(list(args), code, out.getvalue(), err.getvalue())


def _clean(proc) -> None:
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode >= 0, f"killed by signal {-proc.returncode}: {proc.stderr}"


def _errors(problems):
    return [p for p in problems if p.severity == "error"]


def _write_txns(root: Path, *, topic="p", steps=120, seed=5, segment_bytes=2500):
    """Two transactional producers interleaving, plain writes between; return (aborted, visible) offsets:
    visible under read_committed, so below the last stable offset (a transaction left open holds back
    every offset from its first)."""
    rng = random.Random(seed)
    aborted, visible = set(), set()
    with PartitionWriter(root, topic, 0, segment_bytes=segment_bytes, index_interval_bytes=200) as w:
        pending: dict[int, list[int]] = {1: [], 2: []}
        for step in range(steps):
            pid = rng.choice([1, 2])
            action = rng.random()
            if action < 0.55:
                base, last = w.append(
                    [Record(value=b"x%d" % step, timestamp=step)] * rng.randint(1, 4),
                    producer_id=pid,
                    producer_epoch=0,
                    base_sequence=step * 10,
                    is_transactional=True,
                )
                pending[pid] += range(base, last + 1)
            elif action < 0.75:
                base, last = w.append([Record(value=b"plain", timestamp=step)])
                visible.update(range(base, last + 1))
            elif pending[pid]:
                kind = "abort" if rng.random() < 0.4 else "commit"
                w.append_control(kind, producer_id=pid, producer_epoch=0, timestamp=step)
                (aborted if kind == "abort" else visible).update(pending[pid])
                pending[pid] = []
    stable = min((p[0] for p in pending.values() if p), default=None)
    return aborted, {o for o in visible if stable is None or o < stable}


# -- item 6: transactions ---------------------------------------------------------


def test_emptied_txnindex_is_an_error_and_not_trusted(tmp_path):
    aborted, visible = _write_txns(tmp_path)
    part_dir = tmp_path / "p-0"
    emptied = [p for p in sorted(part_dir.glob("*.txnindex")) if p.stat().st_size]
    assert emptied and aborted
    for p in emptied:
        p.write_bytes(b"")
    errors = _errors(verify_path(part_dir))
    for p in emptied:
        assert any(e.path == str(p) and "abort marker" in e.message for e in errors), errors
    part = open_log(part_dir).partitions()[0]
    assert {r.offset for _, r in part.records(read_committed=True)} == visible
    proc = _cli("verify", str(part_dir))
    _clean(proc)
    assert proc.returncode == 1 and emptied[0].name in proc.stdout
    proc = _cli("dump", str(part_dir), "--json", "--read-committed")
    _clean(proc)
    offsets = {json.loads(line)["offset"] for line in proc.stdout.splitlines() if '"record"' in line}
    assert offsets == visible


def test_txnindex_naming_a_committed_transaction_is_not_trusted(tmp_path):
    aborted, visible = _write_txns(tmp_path, seed=8)
    part_dir = tmp_path / "p-0"
    part = open_log(part_dir).partitions()[0]
    seg = part.segments()[0]
    # an invented abort that spans every offset of the first segment, for both producers
    last = max(b.last_offset for b in seg.iter_batches())
    fake = [indexes.AbortedTxn(pid, seg.base_offset, last, last) for pid in (1, 2)]
    seg.txn_index_path.write_bytes(indexes.encode_txn_index((seg.aborted_transactions() or []) + fake))
    errors = _errors(verify_path(part_dir))
    assert any(e.path == str(seg.txn_index_path) and "no abort marker" in e.message for e in errors)
    part = open_log(part_dir).partitions()[0]
    assert {r.offset for _, r in part.records(read_committed=True)} == visible


# -- item 7: damaged files --------------------------------------------------------


@pytest.fixture
def part_dir(tmp_path):
    with PartitionWriter(tmp_path, "t", 0, segment_bytes=3000, index_interval_bytes=200) as w:
        for i in range(40):
            w.append([Record(key=b"k%d" % i, value=bytes(60), timestamp=1000 + i)] * 2)
    return tmp_path / "t-0"


@pytest.mark.parametrize("name", ["leader-epoch-checkpoint", "partition.metadata"])
def test_non_utf8_text_file(part_dir, name):
    (part_dir / name).write_bytes(b"0\n1\n\xff\xfe 0\n")
    errors = _errors(verify_path(part_dir))
    assert [e.path for e in errors] == [str(part_dir / name)]
    assert "UTF-8" in errors[0].message and errors[0].position == 4
    if name == "partition.metadata":  # and once through the command
        proc = _cli("verify", str(part_dir))
        _clean(proc)
        assert proc.returncode == 1 and name in proc.stdout


@pytest.mark.parametrize("name", ["leader-epoch-checkpoint", "partition.metadata"])
def test_text_file_that_is_a_directory(part_dir, name):
    (part_dir / name).unlink()
    (part_dir / name).mkdir()
    errors = _errors(verify_path(part_dir))
    assert [e.path for e in errors] == [str(part_dir / name)] and "not a regular file" in errors[0].message


def test_fifo_as_index_does_not_hang(part_dir):
    index = sorted(part_dir.glob("*.index"))[0]
    index.unlink()
    os.mkfifo(index)
    proc = _run("verify", str(part_dir), timeout=30)
    _clean(proc)
    assert proc.returncode == 1 and f"{index}: not a regular file" in proc.stdout


DEV_ZERO_NAMES = [
    "leader-epoch-checkpoint",
    "partition.metadata",
    "00000000000000000000.snapshot",
    "00000000000000000000.index",
    "00000000000000000000.timeindex",
    "00000000000000000000.txnindex",
]


def test_dev_zero_linked_in(tmp_path):
    """/dev/zero at each small file's name, one partition each, verified at once in bounded memory."""
    targets = []
    for i, name in enumerate(DEV_ZERO_NAMES):
        with PartitionWriter(tmp_path, "z", i, index_interval_bytes=100) as w:
            for j in range(5):
                w.append([Record(value=bytes(60), timestamp=j)])
        target = tmp_path / f"z-{i}" / name
        if target.exists():
            target.unlink()
        target.symlink_to("/dev/zero")
        targets.append(target)
    proc = _run("verify", str(tmp_path), timeout=60, limit_as=AS_LIMIT)
    _clean(proc)
    assert proc.returncode == 1
    for target in targets:
        assert f"{target}: not a regular file" in proc.stdout, (target, proc.stdout)


def _sparse_index(part_dir: Path, size: int) -> Path:
    index = sorted(part_dir.glob("*.index"))[-1]
    with open(index, "r+b") as fh:
        fh.truncate(0)
        fh.truncate(size)  # a hole: all zeros, no disk
    return index


def test_sparse_zero_index_costs_nothing(part_dir):
    size = (64 << 20) * SCALE
    _sparse_index(part_dir, size)
    started = time.perf_counter()
    proc = _run("verify", str(part_dir), timeout=120, limit_as=AS_LIMIT)
    elapsed = time.perf_counter() - started
    _clean(proc)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert elapsed < 10, elapsed

    def index_read(n: int):
        def run() -> None:
            index = _sparse_index(part_dir, n)  # the sizes take turns on the one index file
            seg = open_log(part_dir).partitions()[0].segments()[-1]
            assert seg.index_path == index
            seg.index_entries()

        return run

    small, big = index_read(size // GROWTH), index_read(size)
    assert_linear(small, big, what="a sparse index")


def test_badly_named_segment_is_reported(part_dir):
    bad = part_dir / "00000000000000000abc.log"
    first = sorted(part_dir.glob("*.log"))[0]
    bad.write_bytes(first.read_bytes())
    (part_dir / "00000000000000000abc.index").write_bytes(b"")
    orphan = part_dir / "00000000000000099999.timeindex"
    orphan.write_bytes(b"")
    problems = verify_path(part_dir)
    named = {Path(p.path).name for p in _errors(problems)}
    assert {"00000000000000000abc.log", "00000000000000000abc.index"} <= named
    assert any(p.path == str(orphan) for p in problems)


def test_directory_without_kafka_logs(tmp_path):
    for name in ("dbus-1", "polkit-1", "conf"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "settings.conf").write_text("x = 1\n")
    assert _errors(verify_path(tmp_path))
    proc = _cli("verify", str(tmp_path))
    _clean(proc)
    assert proc.returncode != 0
    if Path("/etc").is_dir():
        proc = _cli("verify", "/etc")
        _clean(proc)
        assert proc.returncode != 0


def test_dump_read_committed_over_a_corrupt_segment(tmp_path):
    _write_txns(tmp_path, topic="a")
    aborted_b, visible_b = _write_txns(tmp_path, topic="b", seed=9)
    seg = sorted((tmp_path / "a-0").glob("*.log"))[0]
    data = bytearray(seg.read_bytes())
    data[16] = 77  # the first batch's magic byte
    seg.write_bytes(bytes(data))
    proc = _cli("dump", str(tmp_path), "--json", "--read-committed")
    _clean(proc)
    assert proc.returncode == 1
    assert str(seg) in proc.stderr
    in_b, file = set(), ""
    for line in proc.stdout.splitlines():
        row = json.loads(line)
        file = row.get("file", file)
        if row["type"] == "record" and "/b-0/" in file:
            in_b.add(row["offset"])
    assert in_b == visible_b


def _point_past_the_end(part_dir: Path) -> int:
    """Make an index entry point past the end of its .log; return the offset a seek through it starts at."""
    seg = open_log(part_dir).partitions()[0].segments()[1]
    entries = seg.index_entries()
    raw = bytearray(seg.index_path.read_bytes())
    raw[12:16] = (seg.size + 1000).to_bytes(4, "big")  # entry 1
    seg.index_path.write_bytes(bytes(raw))
    return entries[1].offset


def test_seek_through_an_index_entry_past_the_end(part_dir):
    start = _point_past_the_end(part_dir)
    want = list(range(start, start + 4))
    part = open_log(part_dir).partitions()[0]
    assert [r.offset for _, r in part.records(start, start + 4)] == want
    proc = _cli("dump", str(part_dir), "--json", "--start-offset", str(start), "--end-offset", str(start + 4))
    _clean(proc)
    offsets = [json.loads(line)["offset"] for line in proc.stdout.splitlines() if '"record"' in line]
    assert offsets == want and proc.returncode == 0


def test_seek_through_a_stale_index_entry(part_dir):
    """An entry at a real batch start but naming an offset below that batch: the seek must not skip records."""
    part = open_log(part_dir).partitions()[0]
    seg = part.segments()[0]
    entries = seg.index_entries()
    raw = bytearray(seg.index_path.read_bytes())
    # entry 1 now claims entry 2's position: a seek to entry 1's offset would start too late
    raw[12:16] = entries[2].position.to_bytes(4, "big")
    seg.index_path.write_bytes(bytes(raw))
    seg = open_log(part_dir).partitions()[0].segments()[0]
    want = entries[1].offset
    assert seg.find_offset(want).base_offset <= want
    part = open_log(part_dir).partitions()[0]
    assert [r.offset for _, r in part.records(want, want + 2)] == [want, want + 1]


# -- item 8: a segment truncated while it is read ----------------------------------


def test_segment_truncated_while_read(tmp_path):
    with PartitionWriter(tmp_path, "t", 0) as w:
        for i in range(200 * SCALE):
            w.append([Record(key=b"k%d" % i, value=random.Random(i).randbytes(4000), timestamp=i)])
    seg_path = sorted((tmp_path / "t-0").glob("*.log"))[0]
    code = textwrap.dedent(f"""
        import os
        from kafkaspec.logdir import Segment
        seg = Segment({str(seg_path)!r})
        it = seg.iter_batches()
        first = next(it)
        os.truncate(seg.path, seg.size // 3 // 4096 * 4096)  # a broker truncates it (at a page: SIGBUS for a mapping)
        n = 1 + sum(len(b.records) for b in it)
        print(n, it.partial is not None)
        seg.close()
        seg = Segment({str(seg_path)!r})
        it = seg.iter_batches()
        print(sum(len(b.records) for b in it), it.partial is not None)
    """)
    proc = _run(code=code, timeout=60)
    _clean(proc)
    assert proc.returncode == 0, proc.stderr
    during, after = proc.stdout.split("\n")[:2]
    n_during = int(during.split()[0])
    n_after, partial_after = after.split()
    # while reading: the records that were read (all of them, or those before the cut); afterwards:
    # those before the cut, and the cut batch reported as a partial tail
    assert n_during >= int(n_after) > 0 and partial_after == "True"


def test_dump_of_damaged_small_files(part_dir):
    index = sorted(part_dir.glob("*.index"))[0]
    index.unlink()
    os.mkfifo(index)
    (part_dir / "leader-epoch-checkpoint").write_bytes(b"0\n1\n\xff 0\n")
    snapshot = part_dir / "00000000000000000007.snapshot"
    snapshot.symlink_to("/dev/zero")
    paths = [str(index), str(part_dir / "leader-epoch-checkpoint"), str(snapshot)]
    code = f"from kafkaspec.cli import main\nfor p in {paths!r}:\n    print(main(['dump', p]))\n"
    proc = _run(code=code, timeout=30, limit_as=AS_LIMIT)  # a FIFO or /dev/zero: a child, in bounded memory
    _clean(proc)
    assert proc.stdout.split() == ["1", "1", "1"], proc.stdout + proc.stderr
    for path in paths:
        assert path in proc.stderr, proc.stderr
    # reading the partition does not need the index: the seek scans instead
    proc = _cli("dump", str(part_dir), "--json", "--start-offset", "5", "--end-offset", "7")
    _clean(proc)
    assert [json.loads(line)["offset"] for line in proc.stdout.splitlines() if '"record"' in line] == [5, 6]


def test_marker_scan_reads_heads_and_agrees_with_recovery_reading(tmp_path):
    """read_committed's marker scan walks batch heads; on a head that does not parse it reads the segment in
    recovery mode instead, and both ways find the same transactions."""
    aborted, visible = _write_txns(tmp_path, steps=300, segment_bytes=1 << 20)
    part = open_log(tmp_path / "p-0").partitions()[0]
    (seg,) = part.segments()
    walked = part.transactions()
    assert walked[0] and {r.offset for _, r in part.records(read_committed=True)} == visible
    with open(seg.path, "ab") as fh:
        fh.write(bytes(4096))  # a preallocated, zero-filled tail: no head parses there
    part = open_log(tmp_path / "p-0").partitions()[0]
    with pytest.raises(segment._WalkFailed):
        list(part.segments()[0].transactional_batches())
    assert part.transactions() == walked


def test_huge_garbage_index_is_read_only_as_far_as_the_log_allows(part_dir):
    """An index of non-zero garbage far larger than its log: entries beyond what the log can hold are not read."""
    index = sorted(part_dir.glob("*.index"))[-1]
    size = (64 << 20) * SCALE
    with open(index, "wb") as fh:
        block = bytes([1]) * (1 << 20)
        for _ in range(size >> 20):
            fh.write(block)
    proc = _run("verify", str(part_dir), timeout=120, limit_as=AS_LIMIT)
    _clean(proc)
    assert proc.returncode == 1 and "can have batches" in proc.stdout, proc.stdout
