"""A stream's ``_schemas`` topic (``spark/values.SchemasTail``) tampered with between two triggers: never a
hang, never the schemas of before kept in silence: a clear error naming the path, or a whole replay.

Before: the partition directory swapped for a FIFO, a symbolic link loop, or deleted, was replayed whole
as no topic at all (every schema gone, each row's value an "unknown schema id" error with nothing
saying why), and a segment swapped for a FIFO or a link loop was passed over by the tail with a log
line, the schemas read from it before kept. A truncated or rewritten topic is replayed whole.
"""

from __future__ import annotations

import json
import os
import shutil

import pytest
from support.values import V1, skey, sval

from kafkaspec import Record, logdir
from kafkaspec.errors import KafkaFormatError
from kafkaspec.spark.read.values import SchemasTail, ValueColumns

pytestmark = [pytest.mark.hostile, pytest.mark.filterwarnings("ignore::UserWarning")]


def _schemas(root, n: int, prefix: str = "s") -> None:
    with logdir.PartitionWriter(root, "_schemas", 0, segment_bytes=1200) as w:
        for i in range(1, n + 1):
            subject = f"{prefix}{i}-value"
            schema = json.dumps({**V1, "name": f"R{i}"})
            w.append([Record(key=skey(subject, 1), value=sval(subject, 1, i, schema))])


@pytest.fixture
def followed(tmp_path):
    """(root, tail, vc): a data dir whose ``_schemas`` topic (three segments) a tail has followed once."""
    root = tmp_path / "data"
    (tmp_path / "canary").write_text("keep")
    with logdir.PartitionWriter(root, "orders", 0) as w:
        w.append([Record(key=b"k", value=b"v")])
    _schemas(root, 6)
    tail = SchemasTail()
    vc = tail.refresh(ValueColumns(value_format="avro"), logdir.open_log(root).partitions())
    assert len(vc.schemas.subjects()) == 6 and len(list((root / "_schemas-0").glob("*.log"))) == 3
    yield root, tail, vc
    assert (tmp_path / "canary").read_text() == "keep"


def _swap_dir(d, how: str) -> None:
    shutil.rmtree(d)
    if how == "fifo":
        os.mkfifo(d)
    elif how == "loop":
        os.symlink(d.name, d)


@pytest.mark.parametrize("how", ["fifo", "loop", "gone"])
def test_a_schemas_directory_swapped_or_gone_is_an_error_naming_it(followed, how):
    root, tail, vc = followed
    _swap_dir(root / "_schemas-0", how)
    with pytest.raises(KafkaFormatError, match="_schemas topic this stream follows is gone") as exc:
        tail.refresh(vc, logdir.open_log(root).partitions())
    assert str(root / "_schemas-0") in str(exc.value) and "\n" not in str(exc.value)


@pytest.mark.parametrize("which", [0, -1])
@pytest.mark.parametrize("how", ["fifo", "loop"])
def test_a_schemas_segment_swapped_for_no_file_is_an_error_naming_it(followed, how, which):
    root, tail, vc = followed
    seg = sorted((root / "_schemas-0").glob("*.log"))[which]
    seg.unlink()
    if how == "fifo":
        os.mkfifo(seg)  # opened by nobody: a reader that opened it blocking would hang here
    else:
        os.symlink(seg.name, seg)
    with pytest.raises(KafkaFormatError, match="segment of the _schemas topic .* cannot be read") as exc:
        tail.refresh(vc, logdir.open_log(root).partitions())
    assert str(seg) in str(exc.value)


def test_a_truncated_schemas_segment_is_replayed_whole(followed):
    root, tail, vc = followed
    last = sorted((root / "_schemas-0").glob("*.log"))[-1]
    os.truncate(last, 0)
    vc = tail.refresh(vc, logdir.open_log(root).partitions())
    assert tail.replays == 2 and vc.schemas.subjects() == [f"s{i}-value" for i in range(1, 5)]


def test_a_rewritten_schemas_topic_is_replayed_whole(followed):
    root, tail, vc = followed
    shutil.rmtree(root / "_schemas-0")
    _schemas(root, 6, prefix="other")  # the same offsets, other records
    vc = tail.refresh(vc, logdir.open_log(root).partitions())
    assert tail.replays == 2 and vc.schemas.subjects() == [f"other{i}-value" for i in range(1, 7)]
