"""Names, skip rules and the text files of a partition directory."""

from __future__ import annotations

import pytest

from kafkaspec import KafkaFormatError
from kafkaspec.logdir import open_log
from kafkaspec.logdir.kafka import files


def test_leader_epoch_checkpoint_round_trip():
    text = "0\n3\n0 0\n2 298\n5 711\n"
    entries = files.parse_leader_epoch_checkpoint(text)
    assert entries == [(0, 0), (2, 298), (5, 711)]
    assert files.format_leader_epoch_checkpoint(entries) == text


@pytest.mark.parametrize(
    "text, problem",
    [
        ("1\n0\n", "version"),
        ("0\n2\n0 0\n", "announces 2 entries"),
        ("0\n1\n0 x\n", "is not 'epoch start_offset'"),
        ("0\n", "needs a version line"),
        ("0\n1\n0 \u00b2\n", "is not 'epoch start_offset'"),  # a superscript digit is not a number
        ("0\n\u00b2\n", "is not a number"),
    ],
)
def test_leader_epoch_checkpoint_errors(text, problem):
    with pytest.raises(KafkaFormatError, match=problem):
        files.parse_leader_epoch_checkpoint(text, "leader-epoch-checkpoint")


def test_partition_metadata():
    assert files.parse_partition_metadata("version: 0\ntopic_id: B3_HiNPgSQ6oxG9ZZ6ED5A") == {
        "version": "0",
        "topic_id": "B3_HiNPgSQ6oxG9ZZ6ED5A",
    }
    assert files.format_partition_metadata("abc") == "version: 0\ntopic_id: abc"
    with pytest.raises(KafkaFormatError, match="version"):
        files.parse_partition_metadata("version: 1\ntopic_id: x")


def test_names():
    assert files.offset_file_name(1234, ".log") == "00000000000000001234.log"
    assert files.offset_from_name("x/00000000000000001234.timeindex") == 1234
    assert files.offset_from_name("leader-epoch-checkpoint") is None
    assert files.parse_partition_dir("my-topic-12") == ("my-topic", 12)
    assert files.parse_partition_dir("orders-0.0123456789abcdef0123456789abcdef-delete") is None
    assert files.parse_partition_dir("orders-0-future") is None
    assert files.is_skipped_file("00000000000000000000.log.deleted")


def test_skipped_files_and_dirs(tmp_path):
    from support.logdir import write_partition

    write_partition(tmp_path, batches=5)
    part = tmp_path / "t-0"
    (part / "00000000000000099999.log.deleted").write_bytes(b"junk")
    (part / "00000000000000099998.log.cleaned").write_bytes(b"junk")
    (part / "00000000000000099997.log.swap").write_bytes(b"junk")
    (tmp_path / "t-1.0123456789abcdef0123456789abcdef-delete").mkdir()
    (tmp_path / "t-2-future").mkdir()
    log = open_log(tmp_path)
    assert [p.name for p in log.partitions()] == ["t-0"]
    assert [s.base_offset for s in log.partitions()[0].segments()] == [0]
