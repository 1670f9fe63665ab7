"""Real broker data directories from the corpus open, dump and verify cleanly."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout

import pytest

from kafkaspec.cli import main
from kafkaspec.logdir import Problem, open_log, verify_path


@pytest.mark.filterwarnings("ignore::kafkaspec.errors.SkippedDirWarning")
def test_corpus_directories_open_and_verify(corpus):
    root = corpus / "files/segments"
    log = open_log(root)
    names = {p.name for p in log.partitions()}
    assert {"__cluster_metadata-0", "__consumer_offsets-6", "TestTopicPatient-0", "cities-0"} <= names
    # kafka-gleam/ holds a bare segment: not a <topic>-<partition> a broker loads, so the data dir's walk
    # passes it over and says so (issue 30 item 1); opened by its own path it is read
    assert verify_path(root) == [
        Problem(
            str(root / "kafka-gleam"),
            None,
            "not read: holds segments but is not a "
            "partition directory: the name is not <topic>-<partition>; Kafka would "
            "not load it",
            "warning",
        )
    ]
    assert [str(s.path) for s in log.skipped] == [str(root / "kafka-gleam")]
    for part in log.partitions() + open_log(root / "kafka-gleam").partitions():
        records = list(part.records(include_control=True))
        assert records, part


def test_kraft_metadata_log_control_records(corpus):
    part = open_log(
        corpus / "files/segments/KafkaDemo/kraft-combined-logs/__cluster_metadata-0"
    ).partitions()[0]
    types = {b.control.type_name for _, b in part.batches() if b.is_control}
    assert "leader_change" in types
    epochs = part.leader_epochs()
    assert [e.epoch for e in epochs] == [1, 2, 3, 5, 6] and epochs[-1].start_offset == 712
    assert part.metadata()["topic_id"] == "AAAAAAAAAAAAAAAAAAAAAQ"
    assert part.snapshots()[0][0] == 712
    # control records are hidden from the record view
    assert all(not b.is_control for b, _ in part.records())


def test_kraft_snapshot_markers_in_ldi_log(corpus):
    part = open_log(corpus / "files/segments/LDI-POC/__cluster_metadata-0").partitions()[0]
    types = {b.control.type_name for _, b in part.batches() if b.is_control}
    assert types & {"leader_change", "snapshot_header", "snapshot_footer", "kraft_version", "kraft_voters"}


def test_idempotent_producer_topic(corpus):
    part = open_log(corpus / "files/segments/LDI-POC/TestTopicPatient-0").partitions()[0]
    assert part.metadata()["topic_id"] == "B3_HiNPgSQ6oxG9ZZ6ED5A"
    batches = [b for _, b in part.batches()]
    assert batches and all(b.producer_id >= 0 for b in batches)


def test_corpus_dump_json(corpus):
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["dump", str(corpus / "files/segments"), "--json", "--print-data"]) == 0
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert {d["type"] for d in lines} == {"batch", "record"}
    assert any(d.get("control_type") == "leader_change" for d in lines)
    with redirect_stdout(io.StringIO()):
        assert main(["verify", str(corpus / "files/segments")]) == 0
