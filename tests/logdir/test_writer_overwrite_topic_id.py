"""``PartitionWriter(mode="overwrite")`` replaces a partition's data, not its identity: the topic id of
its ``partition.metadata`` is the one the broker's metadata knows, and a partition under another id is
a stray to the broker (Kafka 4 renames it ``-stray`` and serves the topic empty)."""

from __future__ import annotations

from kafkaspec import Record
from kafkaspec.logdir import PartitionWriter, open_log
from kafkaspec.logdir.kafka import files

BROKERS_ID = "4e9e_bJSQMGfFmCzGWoOoA"


def _broker_partition(root):
    """An empty partition as a Kafka 4 broker creates it: empty segment files, its partition.metadata."""
    folder = root / "t-0"
    folder.mkdir(parents=True)
    for suffix in (".log", ".index", ".timeindex"):
        (folder / f"{0:020d}{suffix}").write_bytes(b"")
    (folder / "leader-epoch-checkpoint").write_text("0\n0\n")
    (folder / "partition.metadata").write_text(files.format_partition_metadata(BROKERS_ID))
    return folder


def test_overwrite_keeps_the_topic_id_of_the_partition_it_replaces(tmp_path):
    folder = _broker_partition(tmp_path)
    with PartitionWriter(tmp_path, "t", 0, mode="overwrite") as w:
        w.append([Record(key=b"k", value=b"v", timestamp=1)])
    assert (folder / "partition.metadata").read_text() == files.format_partition_metadata(BROKERS_ID)
    assert [r.value for _, r in open_log(tmp_path).partitions()[0].records()] == [b"v"]


def test_overwrite_with_a_topic_id_given_writes_that_one(tmp_path):
    folder = _broker_partition(tmp_path)
    with PartitionWriter(tmp_path, "t", 0, mode="overwrite", topic_id="AAAAAAAAAAAAAAAAAAAAAQ") as w:
        w.append([Record(key=b"k", value=b"v", timestamp=1)])
    assert (folder / "partition.metadata").read_text() == files.format_partition_metadata(
        "AAAAAAAAAAAAAAAAAAAAAQ"
    )


def test_overwrite_replaces_a_damaged_partition_metadata(tmp_path):
    folder = _broker_partition(tmp_path)
    (folder / "partition.metadata").write_text("garbage")
    with PartitionWriter(tmp_path, "t", 0, mode="overwrite") as w:
        w.append([Record(key=b"k", value=b"v", timestamp=1)])
    assert files.parse_partition_metadata((folder / "partition.metadata").read_text())["topic_id"]
