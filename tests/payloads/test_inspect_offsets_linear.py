"""``inspect offsets`` in time linear in the number of groups (issue 30 item 15).

``GroupOffsets.to_json`` sorted every commit of every group once per group: 2,000/4,000/8,000
groups took 1.1/4.2/22 s (``--json`` 2.1/10.3/56 s). The commits are now grouped once. Checked as
a ratio (tests/support/timing.py: 4x the groups must take under 8x the CPU time), through the whole
command (text and ``--json``), on ``__consumer_offsets`` partitions written here.
"""

from __future__ import annotations

import io
import json
import os
import struct
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from support.timing import GROWTH, assert_linear

from kafkaspec import Record
from kafkaspec.cli import main
from kafkaspec.generated.messages import (
    group_metadata_key,
    group_metadata_value,
    offset_commit_key,
    offset_commit_value,
)
from kafkaspec.logdir import PartitionWriter

pytestmark = pytest.mark.hostile

SCALE = max(1, int(os.environ.get("KAFKASPEC_ADVERSARIAL_SCALE", "1")))
GROUPS = 500 * SCALE


def _commit(group: str, topic: str, partition: int, offset: int) -> Record:
    key = struct.pack(">h", 1) + offset_commit_key.encode_offset_commit_key(
        offset_commit_key.OffsetCommitKey(group, topic, partition), 1
    )
    value = struct.pack(">h", 3) + offset_commit_value.encode_offset_commit_value(
        offset_commit_value.OffsetCommitValue(offset=offset, leader_epoch=1, metadata="", commit_timestamp=1),
        3,
    )
    return Record(key=key, value=value, timestamp=1)


def _group(group: str) -> Record:
    key = struct.pack(">h", 2) + group_metadata_key.encode_group_metadata_key(
        group_metadata_key.GroupMetadataKey(group), 2
    )
    value = struct.pack(">h", 3) + group_metadata_value.encode_group_metadata_value(
        group_metadata_value.GroupMetadataValue(
            protocol_type="consumer", generation=1, protocol="range", leader="m", members=[]
        ),
        3,
    )
    return Record(key=key, value=value, timestamp=1)


def write_offsets(root: Path, groups: int, partitions: int = 2) -> Path:
    """``groups`` groups spread over ``partitions`` __consumer_offsets partitions: each commits two
    partitions of one topic; every other group has a stored GroupMetadataValue."""
    writers = [
        PartitionWriter(root, "__consumer_offsets", p, segment_bytes=1 << 30) for p in range(partitions)
    ]
    try:
        for g in range(groups):
            records = [_commit(f"group-{g}", "orders", 0, g), _commit(f"group-{g}", "orders", 1, g + 1)]
            if g % 2:
                records.append(_group(f"group-{g}"))
            writers[g % partitions].append(records)
    finally:
        for w in writers:
            w.close()
    return root


def _inspect(root: Path, *flags: str) -> str:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["inspect", "offsets", str(root), *flags])
    assert code == 0, err.getvalue()
    return out.getvalue()


@pytest.fixture(scope="module")
def logs(tmp_path_factory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("offsets")
    return write_offsets(base / "small", GROUPS), write_offsets(base / "large", GROUPS * GROWTH)


def test_the_output_has_every_group_once(logs):
    small, _ = logs
    state = json.loads(_inspect(small, "--json"))
    assert [g["group"] for g in state["groups"]] == sorted(f"group-{g}" for g in range(GROUPS))
    g7 = next(g for g in state["groups"] if g["group"] == "group-7")
    assert [(o["partition"], o["offset"]) for o in g7["offsets"]] == [(0, 7), (1, 8)]
    assert g7["state"]["generation"] == 1
    text = _inspect(small)
    assert text.count("\ngroup ") + text.startswith("group ") == GROUPS


@pytest.mark.parametrize("flags", [(), ("--json",)], ids=["text", "json"])
def test_inspect_offsets_is_linear_in_the_groups(logs, flags):
    small, large = logs
    assert_linear(
        lambda: _inspect(small, *flags),
        lambda: _inspect(large, *flags),
        what=" ".join(("inspect offsets", *flags)),
    )
