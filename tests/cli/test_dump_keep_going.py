"""``dump`` never claims a check it did not make: ``--no-verify`` prints no ``isvalid``, ``--keep-going``
prints every batch with ``isvalid: true|false`` (and the computed CRC of a bad one), as DumpLogSegments
does, and exits 1 at the end; a legacy wrapper's inner checksums follow the same switch."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys

import pytest

from kafkaspec import Record
from kafkaspec.generated import message_v1
from kafkaspec.logdir import PartitionWriter

pytestmark = pytest.mark.hostile


def _cli(*args: object) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "kafkaspec.cli", *map(str, args)], capture_output=True, text=True, check=False
    )


def _three_batches_middle_bad(tmp_path):
    """A partition of three one-record batches whose second one's value was changed (its CRC is wrong)."""
    logs = tmp_path / "logs"
    with PartitionWriter(logs, "t", 0) as w:
        for i in range(3):
            w.append([Record(value=b"value-%d" % i, timestamp=1000 + i)])
    seg = logs / "t-0" / "00000000000000000000.log"
    seg.write_bytes(seg.read_bytes().replace(b"value-1", b"value-X"))
    (tmp_path / "canary").write_text("stays")
    return logs, seg


def test_no_verify_claims_no_check(tmp_path):
    logs, _ = _three_batches_middle_bad(tmp_path)
    done = _cli("dump", logs, "--no-verify")
    assert done.returncode == 0, done.stderr
    batches = [line for line in done.stdout.splitlines() if line.startswith("baseOffset")]
    assert len(batches) == 3
    assert not any("isvalid" in line for line in batches), batches
    assert (tmp_path / "canary").exists()


def test_keep_going_flags_the_bad_batch_prints_all_and_exits_1(tmp_path):
    logs, seg = _three_batches_middle_bad(tmp_path)
    done = _cli("dump", logs, "--keep-going", "--print-data")
    assert done.returncode == 1, done.stderr
    batches = [line for line in done.stdout.splitlines() if line.startswith("baseOffset")]
    assert len(batches) == 3
    assert "isvalid: true" in batches[0] and "isvalid: true" in batches[2]
    assert "isvalid: false" in batches[1] and "computedCrc: " in batches[1]
    assert "payload: value-2" in done.stdout  # went on after the bad one
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1
    assert "crc" in done.stderr.lower() and str(seg) in done.stderr


def test_keep_going_json_says_valid_and_the_computed_crc(tmp_path):
    logs, _ = _three_batches_middle_bad(tmp_path)
    done = _cli("dump", logs, "--keep-going", "--json", "--batches-only")
    assert done.returncode == 1
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["valid"] for r in rows] == [True, False, True]
    assert "computed_crc" in rows[1] and rows[1]["computed_crc"] != rows[1]["crc"]
    assert "computed_crc" not in rows[0]


def test_default_still_stops_at_the_bad_batch(tmp_path):
    logs, _ = _three_batches_middle_bad(tmp_path)
    done = _cli("dump", logs)
    assert done.returncode == 1
    batches = [line for line in done.stdout.splitlines() if line.startswith("baseOffset")]
    assert len(batches) == 1 and "isvalid: true" in batches[0]


def _legacy_wrapper_with_bad_inner_crc(tmp_path):
    """A segment of one gzip Message v1 wrapper whose second inner message's CRC is wrong (the wrapper's
    own CRC is right)."""
    inner = bytearray()
    for i in range(3):
        msg = bytearray(message_v1.encode_message(offset=i, timestamp=5, key=None, value=b"inner-%d" % i))
        if i == 1:
            msg[message_v1.CRC_OFFSET] ^= 0xFF
        inner += msg
    wrapper = message_v1.encode_message(
        offset=2, attributes=1, timestamp=5, key=None, value=gzip.compress(bytes(inner))
    )
    part = tmp_path / "logs" / "old-0"
    part.mkdir(parents=True)
    (part / "00000000000000000000.log").write_bytes(wrapper)
    (tmp_path / "canary").write_text("stays")
    return tmp_path / "logs"


def test_no_verify_reads_a_legacy_wrapper_with_a_bad_inner_checksum(tmp_path):
    logs = _legacy_wrapper_with_bad_inner_crc(tmp_path)
    assert _cli("dump", logs, "--print-data").returncode == 1  # checked by default
    done = _cli("dump", logs, "--no-verify", "--print-data")
    assert done.returncode == 0, done.stderr
    assert all(f"payload: inner-{i}" in done.stdout for i in range(3)), done.stdout


def test_keep_going_flags_a_legacy_wrapper_with_a_bad_inner_checksum(tmp_path):
    logs = _legacy_wrapper_with_bad_inner_crc(tmp_path)
    done = _cli("dump", logs, "--keep-going", "--print-data")
    assert done.returncode == 1
    batch = next(line for line in done.stdout.splitlines() if line.startswith("baseOffset"))
    assert "isvalid: false" in batch
    assert all(f"payload: inner-{i}" in done.stdout for i in range(3)), done.stdout
    assert "inner" in done.stderr and done.stderr.count("\n") == 1, done.stderr
