"""``leader-epoch-checkpoint`` and ``partition.metadata`` read as Kafka reads them (issue 30, item 21).

Epochs are int32 and start offsets int64, neither negative; the count is an int32. A number's digits
are counted before it is converted, so a 5,000-digit one is a format error naming the file and line,
not a ValueError from ``int()`` (whose limit is 4,300 digits). ``partition.metadata`` has one line per
key and a topic id that Kafka's ``Uuid.fromString`` takes. ``verify`` reports each, naming the file and
the line, and goes on. Files are written under the test's own tmp_path.
"""

from __future__ import annotations

import contextlib
import io

import pytest

from kafkaspec import Record
from kafkaspec.cli import main
from kafkaspec.errors import KafkaFormatError
from kafkaspec.logdir import PartitionWriter, verify_path
from kafkaspec.logdir.kafka import files

GOOD_ID = "B3_HiNPgSQ6oxG9ZZ6ED5A"


@pytest.fixture
def part_dir(tmp_path):
    with PartitionWriter(tmp_path, "t", 0) as w:
        for i in range(5):
            w.append([Record(key=b"k%d" % i, value=b"v", timestamp=i)])
    return tmp_path / "t-0"


EPOCHS = {
    "epoch past int32": (
        "0\n1\n2147483648 0\n",
        "line 3: epoch '2147483648' is out of range: an int32 from 0 to 2147483647",
    ),
    "epoch past int64": (
        "0\n1\n9223372036854775808 0\n",
        "line 3: epoch '9223372036854775808' is out of range",
    ),
    "negative epoch": ("0\n1\n-1 0\n", "line 3: epoch '-1' is out of range"),
    "offset past int64": (
        "0\n1\n0 9223372036854775808\n",
        "line 3: start offset '9223372036854775808' is out of range: an int64 from 0 to 9223372036854775807",
    ),
    "negative offset": ("0\n1\n0 -5\n", "line 3: start offset '-5' is out of range"),
    "5000 digits": (
        "0\n1\n0 " + "7" * 5000 + "\n",
        "line 3: start offset '77777777777777777777'... (5000 characters) is out of range",
    ),
    "5000-digit count": (
        "0\n" + "1" * 5000 + "\n0 0\n",
        "line 2: count '11111111111111111111'... (5000 characters) is out of range",
    ),
    "not a number": ("0\n1\n0 x1\n", "line 3: '0 x1' is not 'epoch start_offset'"),
    "unicode digits": ("0\n1\n0 \u0663\n", "line 3: '0 \u0663' is not 'epoch start_offset'"),
}


@pytest.mark.parametrize("name", EPOCHS)
def test_leader_epoch_checkpoint_values_are_in_range(part_dir, name):
    text, says = EPOCHS[name]
    path = part_dir / files.LEADER_EPOCH_CHECKPOINT
    path.write_text(text)
    with pytest.raises(KafkaFormatError) as info:
        files.parse_leader_epoch_checkpoint(text, str(path))
    assert type(info.value) is KafkaFormatError and info.value.source == str(path)
    assert info.value.reason.startswith("leader-epoch-checkpoint " + says), info.value.reason
    errors = [p for p in verify_path(part_dir) if p.severity == "error"]
    assert [(p.path, p.message) for p in errors] == [(str(path), info.value.reason)]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        assert main(["verify", str(part_dir)]) == 1
    assert "Traceback" not in err.getvalue() and "ValueError" not in out.getvalue() + err.getvalue()


def test_in_range_values_are_read():
    text = "0\n2\n0 0\n2147483647 9223372036854775807\n"
    assert files.parse_leader_epoch_checkpoint(text) == [(0, 0), (2147483647, 9223372036854775807)]


METADATA = {
    "topic id x": (
        "version: 0\ntopic_id: x",
        "line 2: topic_id 'x' is not a Kafka Uuid (22 characters of URL-safe base64 encoding 16 bytes)",
    ),
    "two topic ids": (
        f"version: 0\ntopic_id: {GOOD_ID}\ntopic_id: {GOOD_ID}",
        "line 3: a second topic_id line (the first is line 2)",
    ),
    "two versions": (
        f"version: 0\nversion: 0\ntopic_id: {GOOD_ID}",
        "line 2: a second version line (the first is line 1)",
    ),
    "the zero uuid": (
        "version: 0\ntopic_id: AAAAAAAAAAAAAAAAAAAAAA",
        "line 2: topic_id 'AAAAAAAAAAAAAAAAAAAAAA' is the zero Uuid, which Kafka refuses",
    ),
    "23 characters": (
        f"version: 0\ntopic_id: {GOOD_ID}A",
        "line 2: topic_id 'B3_HiNPgSQ6oxG9ZZ6ED5AA' is not a Kafka Uuid",
    ),
    "standard base64": (
        "version: 0\ntopic_id: B3/HiNPgSQ6oxG9ZZ6ED5A",
        "line 2: topic_id 'B3/HiNPgSQ6oxG9ZZ6ED5A' is not a Kafka Uuid",
    ),
    "another key": (
        f"version: 0\ntopic_id: {GOOD_ID}\ndirectory_id: x",
        "line 3: unknown key 'directory_id' (Kafka writes version and topic_id)",
    ),
}


@pytest.mark.parametrize("name", METADATA)
def test_partition_metadata_is_one_line_per_key_and_a_real_topic_id(part_dir, name):
    text, says = METADATA[name]
    path = part_dir / files.PARTITION_METADATA
    path.write_text(text)
    with pytest.raises(KafkaFormatError) as info:
        files.parse_partition_metadata(text, str(path))
    assert info.value.reason.startswith("partition.metadata " + says), info.value.reason
    assert info.value.source == str(path)
    errors = [p for p in verify_path(part_dir) if p.severity == "error"]
    assert [(p.path, p.message) for p in errors] == [(str(path), info.value.reason)]


def test_valid_partition_metadata():
    assert files.parse_partition_metadata(f"version: 0\ntopic_id: {GOOD_ID}\n") == {
        "version": "0",
        "topic_id": GOOD_ID,
    }
    assert files.parse_partition_metadata(f"version: 0\ntopic_id: {GOOD_ID}==")["topic_id"] == GOOD_ID + "=="
