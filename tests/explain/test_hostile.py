"""Explain on damaged and hostile bytes: it always returns an explanation (never raises), says where it
stopped, and takes time linear in the input (checked as a ratio, support/timing.py)."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from support.explain import run
from support.settings import scaled
from support.timing import GROWTH, assert_linear

from kafkaspec import Record, build_batch
from kafkaspec.explain import explain
from kafkaspec.generated.trace import FORMATS

REPO = Path(__file__).resolve().parents[2]
SEEDS = [
    bytes.fromhex(json.loads(p.read_text())["hex"])
    for p in sorted((REPO / "tests/codecs/vectors").glob("*.json"))
]
SEEDS += [
    bytes.fromhex(json.loads(line)["hex"]) for line in (REPO / "tests/codecs/golden/seed002.jsonl").open()
]
SEEDS.append(build_batch([Record(key=b"k", value=b"v" * 50, timestamp=1)] * 3, magic=1, compression="gzip"))
SEEDS.append(
    build_batch(
        [Record(key=b"k", value=b"v" * 50, timestamp=1, headers=[("h", b"x")])] * 3, compression="zstd"
    )
)


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
    """4x the entries must not take 8x the time (tests/support/timing.py)."""
    batch = build_batch([Record(key=b"k", value=b"v", timestamp=1, headers=[("h", b"1")])] * 50)
    small, large = batch * 4, batch * (4 * GROWTH)
    assert_linear(
        *(
            lambda data=data: explain(data, "batch", on_entry=lambda entry, expl: None, keep=False)
            for data in (small, large)
        ),
        what="explain",
    )
