"""Kafka 4.4's zero checkpoint (KIP-1170): ``kafka-storage format`` writes the bootstrap metadata
records (FeatureLevelRecord and others) as a data batch into
``__cluster_metadata-0/00000000000000000000-0000000000.checkpoint``, between the snapshot's control
records; with ``--standalone`` the first control batch holds three control records (SNAPSHOT_HEADER,
KRAFT_VERSION, KRAFT_VOTERS). There is no ``bootstrap.checkpoint`` any more.

The bytes are built here as Kafka's RecordsSnapshotWriter lays them out (the same layout a 4.4.0
``kafka-storage format --standalone`` wrote when this was checked): offsets 0-2 the control batch,
3-4 the bootstrap records, 5 the footer.
"""

from __future__ import annotations

import io
import json
import struct
import uuid
from contextlib import redirect_stderr, redirect_stdout

import kafkaspec
from kafkaspec import Record
from kafkaspec.cli import main
from kafkaspec.generated.messages import feature_level_record as flr
from kafkaspec.generated.messages import kraft_version_record as kvr
from kafkaspec.generated.messages import voters_record as vr
from kafkaspec.logdir import open_log

ZERO = "00000000000000000000-0000000000.checkpoint"
HEADER, FOOTER, KRAFT_VERSION, KRAFT_VOTERS = 3, 4, 5, 6


def _control(kind: int, value: bytes, offset: int) -> Record:
    return Record(key=struct.pack(">hh", 0, kind), value=value, timestamp=5, offset=offset)


def _feature(name: str, level: int) -> bytes:
    return bytes([1, 12, 0]) + flr.encode_feature_level_record(flr.FeatureLevelRecord(name, level), 0)


def zero_checkpoint() -> bytes:
    header = b"\x00\x00" + (5).to_bytes(8, "big") + b"\x00"
    voters = vr.encode_voters_record(
        vr.VotersRecord(
            0,
            [
                vr.Voter(
                    1,
                    uuid.UUID(int=7),
                    [vr.Endpoint("CONTROLLER", "127.0.0.1", 9093)],
                    vr.KRaftVersionFeature(0, 1),
                )
            ],
        ),
        0,
    )
    controls = [
        _control(HEADER, header, 0),
        _control(KRAFT_VERSION, kvr.encode_kraft_version_record(kvr.KRaftVersionRecord(0, 1), 0), 1),
        _control(KRAFT_VOTERS, voters, 2),
    ]
    features = [
        Record(key=None, value=_feature("metadata.version", 33), timestamp=5),
        Record(key=None, value=_feature("group.version", 1), timestamp=5),
    ]
    return (
        kafkaspec.build_batch(controls, is_control=True, producer_id=-1, producer_epoch=-1)
        + kafkaspec.build_batch(features, base_offset=3)
        + kafkaspec.build_control_batch(
            FOOTER, producer_id=-1, producer_epoch=-1, value=b"\x00\x00\x00", base_offset=5
        )
    )


def data_dir(tmp_path):
    root = tmp_path / "data"
    part = root / "__cluster_metadata-0"
    part.mkdir(parents=True)
    (part / ZERO).write_bytes(zero_checkpoint())
    (root / "canary").write_text("stays")
    return root


def _run(*argv):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = main([*map(str, argv)])
        except SystemExit as exc:
            code = exc.code
    return code, out.getvalue(), err.getvalue()


def test_dump_names_each_control_record_of_a_batch(tmp_path):
    root = data_dir(tmp_path)
    code, out, err = _run("dump", root / "__cluster_metadata-0" / ZERO, "--decode", "--json")
    assert code == 0, err
    records = [json.loads(line) for line in out.splitlines() if '"record"' in line]
    assert [r.get("control_type") for r in records] == [
        "snapshot_header",
        "kraft_version",
        "kraft_voters",
        None,
        None,
        "snapshot_footer",
    ]
    assert [r["decoded"]["type"] for r in records] == [
        "SnapshotHeaderRecord",
        "KRaftVersionRecord",
        "VotersRecord",
        "FeatureLevelRecord",
        "FeatureLevelRecord",
        "SnapshotFooterRecord",
    ]
    assert records[2]["decoded"]["value"]["voters"][0]["voter_id"] == 1
    code, out, _ = _run("dump", root / "__cluster_metadata-0" / ZERO, "--decode")
    assert code == 0
    assert "controlType: KRAFT_VERSION(0)" in out and "controlType: KRAFT_VOTERS(0)" in out
    assert (tmp_path / "data" / "canary").read_text() == "stays"


def test_open_log_and_verify_read_the_bootstrap_records(tmp_path):
    root = data_dir(tmp_path)
    (snap,) = open_log(root).checkpoints()
    values = [r.value for _, r in snap.records()]
    assert values == [_feature("metadata.version", 33), _feature("group.version", 1)]
    assert kafkaspec.logdir.verify(root) == []


def test_inspect_metadata_and_datadir_read_the_zero_checkpoint(tmp_path):
    root = data_dir(tmp_path)
    code, out, err = _run("inspect", "metadata", root, "--json")
    assert code == 0, err
    body = json.loads(out)
    assert body["features"] == {"metadata.version": 33, "group.version": 1}
    assert body["last_offset"] == -1  # the snapshot holds no log record: its offsets are its own
    code, out, _ = _run("inspect", "metadata", root)
    assert code == 0 and out.startswith(f"metadata before log offset 0 (from snapshot {root}/")
    code, out, err = _run("inspect", "datadir", root, "--json")
    assert code == 0, err
    boot = json.loads(out)["bootstrap"]
    assert boot["file"] == f"__cluster_metadata-0/{ZERO}"
    assert boot["metadata_version_level"] == 33
    assert boot["records"] == {"FeatureLevelRecord": 2}
    code, out, _ = _run("inspect", "datadir", root)
    assert code == 0
    assert f"__cluster_metadata-0/{ZERO}: metadata.version level 33; records: FeatureLevelRecord 2" in out
