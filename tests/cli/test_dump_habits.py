"""``dump`` in the words of kcat and DumpLogSegments: topic and partition filters, ``-o`` relative to the
end with ``-c``, a ``-f`` format, and DumpLogSegments' option names as aliases."""

from __future__ import annotations

import subprocess
import sys

import pytest

from kafkaspec import Record
from kafkaspec.logdir import PartitionWriter


def _cli(*args: object) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "kafkaspec.cli", *map(str, args)], capture_output=True, text=True, check=False
    )


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    """orders-0 (30 records in batches of 3), orders-1 and users-0 (5 each)."""
    root = tmp_path_factory.mktemp("habits") / "logs"
    for topic, partition, n in (("orders", 0, 30), ("orders", 1, 5), ("users", 0, 5)):
        with PartitionWriter(root, topic, partition) as w:
            for i in range(0, n, 3):
                w.append(
                    [
                        Record(
                            key=b"k%d" % j,
                            value=b"%s-%d-%d" % (topic.encode(), partition, j),
                            timestamp=100 + j,
                            headers=[("h", b"x")],
                        )
                        for j in range(i, min(n, i + 3))
                    ]
                )
    return root


def _offsets(stdout: str) -> list[int]:
    return [int(line.split()[2]) for line in stdout.splitlines() if line.startswith("| offset:")]


def test_topic_and_partition_filters(logs):
    done = _cli("dump", logs, "--topic", "orders", "--partition", "1")
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("Dumping ") == 1 and "orders-1" in done.stdout
    assert _offsets(done.stdout) == [0, 1, 2, 3, 4]


def test_a_topic_filter_that_matches_nothing_says_so(logs):
    done = _cli("dump", logs, "--topic", "nope")
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "topic nope" in done.stderr


def test_offset_relative_to_the_end_and_a_count(logs):
    done = _cli("dump", logs / "orders-0", "-o", "-10", "-c", "5")
    assert done.returncode == 0, done.stderr
    assert _offsets(done.stdout) == [20, 21, 22, 23, 24]


def test_offset_end_prints_nothing_and_an_absolute_offset_starts_there(logs):
    assert _offsets(_cli("dump", logs / "orders-0", "-o", "end").stdout) == []
    assert _offsets(_cli("dump", logs / "orders-0", "-o", "28").stdout) == [28, 29]


def test_count_stops_across_partitions(logs):
    done = _cli("dump", logs, "--topic", "orders", "-c", "32")
    assert len(_offsets(done.stdout)) == 32 and done.stdout.count("Dumping ") == 2


def test_a_format_string_prints_one_line_per_record(logs):
    done = _cli("dump", logs / "users-0", "-f", "%t/%p@%o %k=%s (%S) %T [%h]\\n")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "users/0@0 k0=users-0-0 (9) 100 [h=x]"
    assert len(lines) == 5


def test_a_format_with_an_unknown_field_is_a_usage_error(logs):
    done = _cli("dump", logs, "-f", "%q")
    assert done.returncode == 2 and "%q" in done.stderr and done.stderr.count("\n") == 1


def test_dump_log_segments_option_names(logs):
    seg = logs / "users-0" / "00000000000000000000.log"
    ours = _cli("dump", seg, "--print-data", "--value-format", "string")
    theirs = _cli(
        "dump",
        "--files",
        seg,
        "--print-data-log",
        "--deep-iteration",
        "--value-decoder-class",
        "kafka.serializer.StringDecoder",
    )
    assert theirs.returncode == 0, theirs.stderr
    assert theirs.stdout == ours.stdout and "valueDecoded" in ours.stdout


def test_an_unknown_decoder_class_is_a_usage_error(logs):
    done = _cli("dump", logs, "--value-decoder-class", "com.example.Mine")
    assert done.returncode == 2 and "StringDecoder" in done.stderr
