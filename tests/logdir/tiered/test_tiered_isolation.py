"""One bad tiered-storage manifest is one reported problem, not the end of the run (issue 30, item 20).

``verify`` and ``dump`` of a tiered layout with a malformed manifest in one partition name that manifest
and go on: the other partitions' records are printed and their own problems reported, and the exit code
says there was a problem (1) only at the end. A manifest nested 5,000 deep (deeper than json's recursion)
is a format error naming the file, not a RecursionError. Everything is written under tmp_path, beside a
canary file that must survive.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from kafkaspec import Record, logdir
from kafkaspec.cli import main
from kafkaspec.logdir import PartitionWriter
from kafkaspec.logdir.tiered.segment import MANIFEST_SUFFIX

pytestmark = pytest.mark.hostile

RECORDS = 12


def _layout(root: Path) -> dict[str, Path]:
    """Three tiered partitions (t-0, t-1, u-0) of RECORDS one-record batches, uncompressed chunks; the
    manifest of each, by partition directory name."""
    for topic, partition in (("t", 0), ("t", 1), ("u", 0)):
        with PartitionWriter(root / "logs", topic, partition) as w:
            for i in range(RECORDS):
                w.append(
                    [Record(key=b"%s%d-%02d" % (topic.encode(), partition, i), value=b"v" * 30, timestamp=i)]
                )
    logdir.write_tiered(root / "logs", root / "remote", chunk_size=500, compression=False)
    found = {}
    for m in (root / "remote").rglob(f"*{MANIFEST_SUFFIX}"):
        found[f"{m.parent.parent.name.rsplit('-', 1)[0]}-{m.parent.name}"] = m
    return found


def _cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


BAD_MANIFESTS = {
    "not JSON": (b"{not json", "manifest is not JSON"),
    "nested 5000 deep": (
        b'{"version": "1", "chunkIndex": ' + b"[" * 5000 + b"]" * 5000 + b"}",
        "nest deeper than the interpreter's recursion limit",
    ),
    "another version": (b'{"version": "2"}', "manifest version '2' is not supported"),
    "no chunk index": (b'{"version": "1"}', "manifest has no chunkIndex object"),
}


@pytest.mark.parametrize("name", BAD_MANIFESTS)
def test_verify_and_dump_go_on_past_a_bad_manifest(tmp_path, name):
    canary = tmp_path / "canary"
    canary.write_text("still here")
    manifests = _layout(tmp_path)
    text, says = BAD_MANIFESTS[name]
    manifests["t-0"].write_bytes(text)
    log = manifests["u-0"].with_suffix(".log")  # u-0's own problem: a flipped byte in a record (CRC)
    data = bytearray(log.read_bytes())
    data[150] ^= 0x40
    log.write_bytes(bytes(data))
    remote = str(tmp_path / "remote")

    code, out, err = _cli("verify", remote)
    assert code == 1 and "Traceback" not in err and "RecursionError" not in out + err, err
    errors = [x for x in out.splitlines() if x.startswith("error:")]
    bad = [x for x in errors if x.startswith(f"error: {manifests['t-0']}: ")]
    assert len(bad) == 1 and says in bad[0] and "cannot be read" in bad[0], errors
    assert any(x.startswith(f"error: {log}") and "crc" in x.lower() for x in errors), errors
    assert "verified 3 partitions" in out

    code, out, err = _cli("dump", remote, "--json")
    assert code == 1 and "Traceback" not in err and "RecursionError" not in err, err
    offsets: dict[str, list[int]] = {}  # .log file -> offsets of the records dumped from it
    for line in out.splitlines():
        d = json.loads(line)
        if d["type"] == "batch":
            current = offsets.setdefault(d["file"], [])
        elif d["type"] == "record":
            current.append(d["offset"])
    healthy = str(manifests["t-1"].with_suffix(".log"))
    assert offsets.get(healthy) == list(range(RECORDS)), offsets  # the healthy partition, whole
    assert str(manifests["t-0"].with_suffix(".log")) not in offsets
    lines = err.strip().splitlines()
    assert any(str(manifests["t-0"]) in x and says in x for x in lines), lines
    assert any(str(log) in x for x in lines), lines  # u-0's problem too
    assert canary.read_text() == "still here"


def test_a_bad_manifest_in_a_later_segment_leaves_the_earlier_ones_read(tmp_path):
    """Two segments in t-0; the second's manifest is broken: the first segment's records are dumped."""
    with PartitionWriter(tmp_path / "logs", "t", 0, segment_bytes=700) as w:
        for i in range(RECORDS):
            w.append([Record(key=b"k%02d" % i, value=b"v" * 30, timestamp=i)])
    logdir.write_tiered(tmp_path / "logs", tmp_path / "remote", chunk_size=500)
    manifests = sorted((tmp_path / "remote").rglob(f"*{MANIFEST_SUFFIX}"))
    assert len(manifests) >= 2
    manifests[-1].write_bytes(b"[" * 5000)
    code, out, err = _cli("dump", str(tmp_path / "remote"), "--json")
    assert code == 1 and "Traceback" not in err
    first = logdir.open_log(tmp_path / "logs").partitions()[0].segments()[0]
    assert sum(1 for line in out.splitlines() if json.loads(line)["type"] == "record") == sum(
        b.records_count for b in first.iter_batches()
    )
    assert str(manifests[-1]) in err and "nest deeper" in err
    code, out, err = _cli("verify", str(tmp_path / "remote"))
    assert code == 1 and out.count(f"error: {manifests[-1]}") == 1, out
