"""Explain on damaged and hostile bytes: it always returns an explanation (never raises), says where it
stopped, and takes time linear in the input (checked as a ratio, like tests/adversarial)."""

from __future__ import annotations

import json
import time
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from support.explain import run
from support.settings import scaled

from kafkaspec import Record, build_batch
from kafkaspec.explain import explain
from kafkaspec.generated.trace import FORMATS

REPO = Path(__file__).resolve().parents[2]
SEEDS = [bytes.fromhex(json.loads(p.read_text())["hex"]) for p in sorted((REPO / "tests/codecs/vectors").glob("*.json"))]
SEEDS += [bytes.fromhex(json.loads(line)["hex"]) for line in (REPO / "tests/codecs/golden/seed002.jsonl").open()]
SEEDS.append(build_batch([Record(key=b"k", value=b"v" * 50, timestamp=1)] * 3, magic=1, compression="gzip"))
SEEDS.append(build_batch([Record(key=b"k", value=b"v" * 50, timestamp=1, headers=[("h", b"x")])] * 3,
                         compression="zstd"))


@scaled(2)
@given(seed=st.sampled_from(SEEDS), fmt=st.sampled_from(["auto", "batch", *FORMATS]), data=st.data())
def test_damaged_bytes_always_explained(seed, fmt, data):
    damaged = bytearray(seed)
    for _ in range(data.draw(st.integers(0, 4), label="changes")):
        if damaged:
            damaged[data.draw(st.integers(0, len(damaged) - 1), label="at")] = data.draw(st.integers(0, 255))
    cut = data.draw(st.integers(0, len(damaged)), label="keep")
    try:
        expl = explain(bytes(damaged[:cut]), fmt)
    except ValueError as exc:  # auto cannot tell the format: a usage error, said in words
        assert fmt == "auto" and "cannot tell the format" in str(exc)
        return
    stop = expl.failure or expl.partial
    if stop is not None:
        assert 0 <= stop.position <= len(expl.streams[stop.stream].data) and stop.message
    else:  # everything read: the entries cover the input
        assert not expl.entries or expl.entries[-1].end == cut


def test_cli_on_garbage_is_one_line_or_a_stop_never_a_traceback():
    for data in (b"", b"\x00", b"\xff" * 40, bytes(range(256)) * 4):
        code, out, err = run("explain", "-", "--format", "batch", stdin=data.hex())
        assert code in (0, 1, 2) and "Traceback" not in out + err


def test_time_is_linear_in_the_input():
    """Twice the entries must not take 3x the time (runs interleaved, best of five each: the machine is shared)."""
    batch = build_batch([Record(key=b"k", value=b"v", timestamp=1, headers=[("h", b"1")])] * 50)
    small, large = batch * 8, batch * 16
    best = {len(small): float("inf"), len(large): float("inf")}
    for _ in range(5):
        for data in (small, large):
            started = time.perf_counter()
            explain(data, "batch", on_entry=lambda entry, expl: None, keep=False)
            best[len(data)] = min(best[len(data)], time.perf_counter() - started)
    ratio = best[len(large)] / best[len(small)]
    assert ratio < 3.0, f"twice the input took {ratio:.2f}x the time"


def test_a_hostile_count_is_refused_before_reading_items():
    batch = bytearray(build_batch([Record(key=b"k", value=b"v", timestamp=1)]))
    batch[57:61] = (2**31 - 1).to_bytes(4, "big")  # records_count
    expl = explain(bytes(batch), "batch")
    assert expl.failure is not None and expl.failure.position == 57
    assert expl.failure.path == "RecordBatch.records_count"
    assert expl.failure.message == "2147483647 Records (at least 7 bytes each) cannot fit in the 9 bytes before byte 70 " \
                                   "(the end of RecordBatch set by batch_length)"
