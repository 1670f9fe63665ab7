"""An earlier layout of a message (``layout_of:``, Kafka 4.0's share-group records) says only how it
differs from the newest layout (``layout: {drop, change}``), never a copy of its fields; a difference
that names no field of the newest is a schema error naming the file and the field."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from kafkaspec.spec import load
from kafkaspec.spec.loader import SchemaError

ROOT = Path(__file__).resolve().parents[2]
EARLIER = sorted((ROOT / "schemas" / "messages").glob("*_kafka40.yaml"))


def test_there_are_earlier_layouts():
    assert len(EARLIER) == 4


@pytest.mark.parametrize("path", EARLIER, ids=lambda p: p.name)
def test_an_earlier_layout_is_no_copy(path):
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert raw.get("layout_of") and "layout" in raw
    assert "fields" not in raw and "structs" not in raw, (
        f"{path.name} copies the fields of {raw['layout_of']}"
    )


def test_the_layouts_kafka_40_wrote():
    messages = load(ROOT / "schemas").messages
    snapshot = messages["ShareSnapshotValueKafka40"].structs["ShareSnapshotValueKafka40"]
    assert [(f.name, f.type) for f in snapshot.fields] == [
        ("snapshot_epoch", "uint16"),
        ("state_epoch", "int32"),
        ("leader_epoch", "int32"),
        ("start_offset", "int64"),
        ("state_batches", "array"),
    ]
    assert "StateBatch" in messages["ShareSnapshotValueKafka40"].structs
    metadata = messages["ShareGroupStatePartitionMetadataValueKafka40"].structs[
        "ShareGroupStatePartitionMetadataValueKafka40"
    ]
    assert [f.name for f in metadata.fields] == ["initialized_topics", "deleting_topics"]
    group = messages["ShareGroupMetadataValueKafka40"].structs["ShareGroupMetadataValueKafka40"]
    assert [f.name for f in group.fields] == ["epoch"]


def _copy_with(tmp_path: Path, layout: dict) -> Path:
    root = tmp_path / "schemas"
    shutil.copytree(ROOT / "schemas", root)
    canary = tmp_path / "canary"
    canary.write_text("keep")
    path = root / "messages" / "share_update_value_kafka40.yaml"
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    raw["layout"] = layout
    path.write_text(yaml.safe_dump(raw, sort_keys=False), encoding="utf-8")
    return root


@pytest.mark.parametrize(
    ("layout", "says"),
    [
        ({"drop": ["no_such_field"]}, "drop: ShareUpdateValue has no field 'no_such_field'"),
        (
            {"change": {"no_such_field": {"type": "int8"}}},
            "change: ShareUpdateValue has no field 'no_such_field'",
        ),
        ({"change": {"snapshot_epoch": {"name": "epoch"}}}, "change: snapshot_epoch: only"),
        ({"drop": "delivery_complete_count"}, "'drop' must list field names"),
        ({"keep": []}, "unknown key(s) in 'layout': keep"),
    ],
)
def test_a_difference_that_names_nothing_is_an_error(tmp_path, layout, says):
    root = _copy_with(tmp_path, layout)
    with pytest.raises(SchemaError, match="share_update_value_kafka40.yaml") as info:
        load(root)
    assert says in str(info.value)
    assert (tmp_path / "canary").read_text() == "keep"
