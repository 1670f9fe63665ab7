"""Memory of ``dump`` and ``verify`` bounded by the input, not by the record count (issue 30 item 17).

One zstd batch of 1M records (763 KB) made ``dump`` peak at 631 MB and ``verify`` at 288 MB; 4M
records (3.2 MB) took ``verify`` to 1.05 GB and ``dump`` to a MemoryError under 2 GB. ``dump``
buffered a whole batch's lines, and iterating a batch (``dump``) or checking its records
(``verify``, recovery mode) built a list of every record. A batch of more than
``kafkaspec.records.STREAM_CHUNK`` records is now streamed: its records are decoded a chunk at a
time from the decompressed bytes (bounded by ``max_decompressed``) and not kept, and ``dump``
writes every ``FLUSH_LINES`` lines, within a batch too.

Memory is checked in a child process under ``RLIMIT_AS``: the commands run once on a small log
(so every module they load is loaded), then the address space may grow by a fixed budget, far
below what a list of the records would take, and the large batch must go through. The records a
streamed batch yields, and its errors, are those of ``batch.records``.
"""

from __future__ import annotations

import os
import struct
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import kafkaspec
from kafkaspec import iter_batches
from kafkaspec.errors import KafkaFormatError
from kafkaspec.records import STREAM_CHUNK

pytestmark = pytest.mark.hostile

SCALE = max(1, int(os.environ.get("KAFKASPEC_ADVERSARIAL_SCALE", "1")))
REPO = Path(__file__).resolve().parents[2]
RECORDS = 400_000 * SCALE
#: what the address space may grow by while the large batch is read: a list of its records takes
#: about 150 bytes a record (60 MB for 400k), a line of text or JSON about as much again
BUDGET = 40 << 20


def _one_batch_log(root: Path, n: int, **kwargs) -> Path:
    part = root / "t-0"
    part.mkdir(parents=True)
    data = kafkaspec.build_batch(values=[b"v"] * n, timestamps=[1_700_000_000_000] * n, **kwargs)
    (part / "00000000000000000000.log").write_bytes(data)
    return root


@pytest.fixture(scope="module")
def logs(tmp_path_factory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("stream")
    (base / "canary").write_text("stays")
    return _one_batch_log(base / "small", 10, compression="zstd"), _one_batch_log(
        base / "large", RECORDS, compression="zstd"
    )


def _limited(args: list[str], small: Path, large: Path) -> dict:
    """Run ``kafkaspec ARGS`` on ``small``, then, with the address space allowed to grow by BUDGET
    only, on ``large``: its exit code, or the MemoryError."""
    program = textwrap.dedent(f"""
        import os, resource, sys
        from kafkaspec.cli import main
        sys.stdout = open(os.devnull, "w")
        assert main({[*args, str(small)]!r}) == 0
        vm = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmSize:")) * 1024
        resource.setrlimit(resource.RLIMIT_AS, (vm + {BUDGET}, vm + {BUDGET}))
        try:
            code = main({[*args, str(large)]!r})
        except MemoryError:
            code = "MemoryError"
        sys.stdout = sys.__stdout__
        print(repr({{"code": code, "maxrss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}}))
    """)
    proc = subprocess.run(
        [sys.executable, "-c", program],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO,
        env=dict(os.environ, PYTHONPATH=str(REPO)),
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr and "MemoryError" not in proc.stderr, proc.stderr[-2000:]
    return eval(proc.stdout.strip().splitlines()[-1])  # our own repr of a dict


@pytest.mark.parametrize(
    "args",
    [
        ["dump"],
        ["dump", "--print-data"],
        ["dump", "--json", "--print-data"],
        ["dump", "--skip-corrupt"],
        ["verify"],
    ],
    ids=" ".join,
)
@pytest.mark.slow  # sized runs in child processes: `make test`, not `make check-fast`
def test_one_large_batch_in_bounded_memory(logs, args):
    small, large = logs
    result = _limited(args, small, large)
    assert result["code"] == 0, result
    assert (large.parent / "canary").read_text() == "stays"


def test_dump_prints_every_record_of_a_streamed_batch(logs, capfd):
    _, large = logs
    from kafkaspec.cli import main

    assert main(["dump", str(large), "--json"]) == 0
    out = capfd.readouterr().out
    assert out.count('"type":"record"') == RECORDS
    assert f'"offset":{RECORDS - 1},' in out


@pytest.mark.parametrize("compression", ["none", "zstd", "gzip"])
@pytest.mark.parametrize("log_append", [False, True])
def test_a_streamed_batch_yields_what_records_holds(compression, log_append):
    n = STREAM_CHUNK * 3 + 5
    data = kafkaspec.build_batch(
        keys=[b"k%d" % i if i % 3 else None for i in range(n)],
        values=[b"v" * (i % 50) for i in range(n)],
        timestamps=[1_000 + i for i in range(n)],
        headers=[[("h", b"%d" % i)] if i % 7 == 0 else [] for i in range(n)],
        compression=compression,
        base_offset=100,
        timestamp_type="log_append" if log_append else "create",
    )
    (batch,) = iter_batches(data)
    streamed = list(batch)
    assert batch._records is None  # nothing kept
    assert streamed == next(iter(iter_batches(data))).records


def _records_region_cut(compression: str) -> bytes:
    """A batch whose records region ends in the middle of its last record (CRC made right)."""
    import crc32c

    from kafkaspec.codec.compression import compress, decompress
    from kafkaspec.generated import record_batch_v2 as v2

    n = STREAM_CHUNK * 2 + 3
    good = kafkaspec.build_batch(values=[b"value"] * n, timestamps=[5] * n, compression=compression)
    head, region = good[: v2.RECORD_BATCH_OVERHEAD], good[v2.RECORD_BATCH_OVERHEAD :]
    codec = {"none": 0, "gzip": 1}[compression]
    raw = decompress(codec, region, max_size=1 << 30, position=0, magic=2) if codec else region
    raw = raw[:-4]
    region = compress(codec, raw, magic=2) if codec else raw
    head = bytearray(head)
    head[8:12] = struct.pack(">i", len(head) + len(region) - 12)
    out = bytes(head) + region
    return out[:17] + struct.pack(">I", crc32c.crc32c(out[21:])) + out[21:]


@pytest.mark.parametrize("compression", ["none", "gzip"])
def test_a_streamed_batch_raises_what_records_raises(compression):
    data = _records_region_cut(compression)
    with pytest.raises(KafkaFormatError) as whole:
        next(iter(iter_batches(data))).records  # noqa: B018
    (batch,) = iter_batches(data)
    seen = []
    with pytest.raises(KafkaFormatError) as streamed:
        for r in batch:
            seen.append(r.offset)
    assert (type(streamed.value), str(streamed.value)) == (type(whole.value), str(whole.value))
    assert seen == list(range(len(seen))) and len(seen) >= STREAM_CHUNK * 2  # the good records came first
    it = iter_batches(data, on_corrupt="skip")  # recovery mode checks a streamed batch's records too
    assert list(it) == [] and [s.reason for s in it.skipped] == [whole.value.reason]
