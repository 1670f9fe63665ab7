"""The real KRaft metadata logs, snapshots and __consumer_offsets partitions of the corpus decode
completely (issue 14, "Done means"): every record through kafkaspec.payloads, every control record's
value through ControlRecord.decoded, and `kafkaspec dump --decode` flags none."""

from __future__ import annotations

import io
import json
from collections import Counter
from contextlib import redirect_stderr, redirect_stdout

import pytest

import kafkaspec
from kafkaspec import payloads
from kafkaspec.cli import main
from kafkaspec.logdir.kafka import files

#: the data dirs of the corpus that hold Kafka's own topics
DATA_DIRS = ("KafkaDemo/kraft-combined-logs", "LDI-POC", "Bheem6005-kafka/kafka-logs")


def _payload_files(corpus):
    root = corpus / "files" / "segments"
    for path in sorted(root.rglob("*")):
        if path.name.endswith(".log") and path.parent.name.startswith(
            ("__cluster_metadata-", "__consumer_offsets-")
        ):
            yield path, "metadata" if "__cluster_metadata" in path.parent.name else "offsets"
        elif files.is_metadata_checkpoint(path):
            yield path, "metadata"


def test_every_record_decodes(corpus):
    types: Counter = Counter()
    for path, family in _payload_files(corpus):
        for batch in kafkaspec.iter_batches(path.read_bytes()):
            if batch.is_control:
                control = batch.control
                assert control is not None and control.decoded is not None, f"{path}: control type {control}"
                types[control.decoded.type] += 1
                continue
            for r in batch:
                decoded = payloads.decode_as(family, r.key, r.value)
                types[decoded.type] += 1
    # both clusters' logs, their snapshots and the offsets partitions, with the record types they hold
    assert (
        types["LeaderChangeMessage"] == 6
        and types["SnapshotHeaderRecord"] == 2
        and types["SnapshotFooterRecord"] == 2
    )
    assert types["TopicRecord"] == 5 and types["PartitionRecord"] == 54 and types["RegisterBrokerRecord"] == 6
    assert types["OffsetCommit"] == 7 and types["GroupMetadata"] == 14 and types["NoOpRecord"] == 7855
    assert sum(types.values()) == 8028


def _dump(*argv):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["dump", *map(str, argv)])
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("data_dir", DATA_DIRS)
def test_dump_decode_flags_nothing(corpus, data_dir):
    code, out, err = _dump(corpus / "files" / "segments" / data_dir, "--decode", "--json")
    assert code == 0, err
    rows = [json.loads(line) for line in out.splitlines()]
    records = [r for r in rows if r["type"] == "record"]
    assert not [r for r in records if "decode_error" in r]
    files_read = {r["file"] for r in rows if r["type"] == "batch"}
    own = [r for r in records if r.get("control_type") or "decoded" in r]
    assert own and all("decoded" in r for r in own)
    if data_dir != "Bheem6005-kafka/kafka-logs":  # the KRaft data dirs: snapshot files are dumped too
        assert any(f.endswith("bootstrap.checkpoint") for f in files_read)


def test_dump_text_decodes_a_checkpoint_file(corpus):
    path = corpus / "files" / "segments" / "LDI-POC" / "bootstrap.checkpoint"
    code, out, _ = _dump(path, "--decode")
    assert code == 0
    assert 'controlType: SNAPSHOT_HEADER(0) decoded: {"type":"SnapshotHeaderRecord","version":0' in out
    assert '"type":"FeatureLevelRecord","version":0,"key":null,"value":{"name":"metadata.version"' in out
    assert "controlType: SNAPSHOT_FOOTER(0)" in out
