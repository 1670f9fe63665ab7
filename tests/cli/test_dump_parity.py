"""``dump`` and Kafka's DumpLogSegments: several paths, ``--max-bytes``, ``--skip-record-metadata``,
``--version``, JSON record lines that name their partition, and snapshot lines with the first sequence."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from kafkaspec import logdir


def _cli(*args) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "kafkaspec.cli", "dump", *map(str, args)],
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    out = tmp_path_factory.mktemp("parity") / "logs"
    logdir.synth(out, size_mb=1, seed=3, force=True)
    return out


def _json(*args) -> list[dict]:
    done = _cli(*args, "--json")
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_several_paths_are_dumped_in_turn(logs):
    both = _json(logs / "clicks-0", logs / "users-0")
    assert both == _json(logs / "clicks-0") + _json(logs / "users-0")
    assert {r["topic"] for r in both} == {"clicks", "users"}


def test_json_record_lines_name_their_topic_and_partition(logs):
    rows = _json(logs / "orders-1")
    assert rows and all(
        (r["topic"], r["partition"]) == ("orders", 1) for r in rows if r["type"] in ("batch", "record")
    )


def test_max_bytes_reads_whole_batches_from_the_start_of_each_segment(logs):
    every = [r for r in _json(logs / "clicks-0") if r["type"] == "batch"]
    first_segment = [b for b in every if b["file"] == every[0]["file"]]
    limit = first_segment[2]["position"] + first_segment[2]["size"]  # the end of the third batch
    cut = [r for r in _json(logs / "clicks-0", "--max-bytes", limit) if r["type"] == "batch"]
    assert [b for b in cut if b["file"] == every[0]["file"]] == first_segment[:3]
    assert [
        b
        for b in _json(logs / "clicks-0", "--max-bytes", limit - 1)
        if b["type"] == "batch" and b["file"] == every[0]["file"]
    ] == first_segment[:2]
    assert _cli(logs, "--max-bytes", "0").returncode == 2


def test_skip_record_metadata_leaves_the_data_alone(logs):
    text = _cli(logs / "clicks-0", "--print-data", "--skip-record-metadata").stdout.splitlines()
    records = [line for line in text if line.startswith("|")]
    assert records and all(line.startswith("| key: ") and "offset:" not in line for line in records)
    full = [
        line for line in _cli(logs / "clicks-0", "--print-data").stdout.splitlines() if line.startswith("|")
    ]
    assert [line.split(" key: ", 1)[1] for line in full] == [line.split(" key: ", 1)[1] for line in records]
    assert not [
        line
        for line in _cli(logs / "clicks-0", "--skip-record-metadata").stdout.splitlines()
        if line.startswith("|")
    ]
    rows = [
        r for r in _json(logs / "clicks-0", "--print-data", "--skip-record-metadata") if r["type"] == "record"
    ]
    assert rows and all("offset" not in r and "timestamp" not in r and "value" in r for r in rows)


def test_snapshot_lines_carry_the_first_sequence(logs):
    snapshot = sorted((logs / "orders-0").glob("*.snapshot"))[-1]
    rows = _json(snapshot)
    assert rows and all(r["first_sequence"] == r["last_sequence"] - r["offset_delta"] for r in rows)


def test_snapshot_transaction_and_empty_index_text_lines_are_dump_log_segments(logs, tmp_path):
    """The text of a producer snapshot, a transaction index and an empty offset index is DumpLogSegments'
    (tests/brokers compares it with Kafka's own tool over a broker's files)."""
    snapshot = sorted((logs / "orders-0").glob("*.snapshot"))[-1]
    rows = _json(snapshot)
    lines = _cli(snapshot).stdout.splitlines()
    assert lines[0] == f"Dumping {snapshot}" and len(lines) == len(rows) + 1
    r = rows[0]
    txn = (
        "OptionalLong.empty"
        if r["current_txn_first_offset"] < 0
        else f"OptionalLong[{r['current_txn_first_offset']}]"
    )
    assert lines[1] == (
        f"producerId: {r['producer_id']} producerEpoch: {r['epoch']} coordinatorEpoch: "
        f"{r['coordinator_epoch']} currentTxnFirstOffset: {txn} lastTimestamp: {r['timestamp']} "
        f"firstSequence: {r['first_sequence']} lastSequence: {r['last_sequence']} lastOffset: "
        f"{r['last_offset']} offsetDelta: {r['offset_delta']} timestamp: {r['timestamp']}"
    )
    txnindex = next(f for f in sorted(logs.glob("*/*.txnindex")) if f.stat().st_size)
    t = _json(txnindex)[0]
    assert _cli(txnindex).stdout.splitlines()[1] == (
        f"version: 0 producerId: {t['producer_id']} firstOffset: {t['first_offset']} lastOffset: {t['last_offset']} "
        f"lastStableOffset: {t['last_stable_offset']}"
    )
    empty = tmp_path / "00000000000000000000.index"
    empty.write_bytes(b"")
    assert _cli(empty).stdout.splitlines() == [f"Dumping {empty}", f"{empty} is empty."]


def test_a_snapshot_entry_without_a_batch_prints_the_producer_alone(tmp_path):
    """After a transaction marker that bumped its epoch a producer has no last batch (offset -1): Kafka's
    tool prints its producer fields only (seen in a Kafka 4.0-4.4 broker's snapshots)."""
    from kafkaspec.logdir.kafka.snapshot import ProducerSnapshotEntry, encode_snapshot

    path = tmp_path / "00000000000000000010.snapshot"
    path.write_bytes(
        encode_snapshot(
            [
                ProducerSnapshotEntry(12, 3, -1, -1, 0, 1_700_000_000_000, 0, -1),
                ProducerSnapshotEntry(13, 0, 9, 9, 9, 1_700_000_000_001, -1, 5),
            ]
        )
    )
    assert _cli(path).stdout.splitlines()[1:] == [
        "producerId: 12 producerEpoch: 3 coordinatorEpoch: 0 currentTxnFirstOffset: OptionalLong.empty "
        "lastTimestamp: 1700000000000",
        "producerId: 13 producerEpoch: 0 coordinatorEpoch: -1 currentTxnFirstOffset: OptionalLong[5] "
        "lastTimestamp: 1700000000001 firstSequence: 0 lastSequence: 9 lastOffset: 9 offsetDelta: 9 "
        "timestamp: 1700000000001",
    ]


def test_version():
    done = _cli("--version")
    assert done.returncode == 0 and done.stdout.startswith("kafkaspec dump ")
