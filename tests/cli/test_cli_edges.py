"""Edges of the CLI a new user meets: a folder with no Kafka data, offsets that cannot exist."""

from __future__ import annotations

import subprocess
import sys

import pytest

from kafkaspec import logdir


def _cli(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "kafkaspec.cli", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=cwd,
        check=False,
    )


@pytest.fixture
def no_kafka_files(tmp_path):
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "readme.txt").write_text("not a log\n")
    return folder


@pytest.mark.parametrize("command", ["dump", "verify", "rewrite"])
def test_a_folder_with_no_kafka_files_is_exit_2_in_one_line(no_kafka_files, tmp_path, command):
    args = [command, no_kafka_files] + ([tmp_path / "copy"] if command == "rewrite" else [])
    done = _cli(*args)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert (
        done.stderr.count("\n") == 1 and "no Kafka partition directory or segment (.log) file" in done.stderr
    )
    assert str(no_kafka_files) in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "copy").exists()


@pytest.mark.parametrize("flag", ["--start-offset", "--end-offset"])
def test_a_negative_offset_is_refused(tmp_path, flag):
    with logdir.PartitionWriter(tmp_path / "logs", "t", 0) as w:
        from kafkaspec import Record

        w.append([Record(value=b"v", timestamp=1)])
    done = _cli("dump", tmp_path / "logs", flag, "-5")
    assert done.returncode == 2 and "must be a non-negative offset" in done.stderr, done.stderr


def test_a_segment_outside_a_partition_directory_says_its_topic_is_unknown(tmp_path):
    """(It read as topic = the folder's name, partition -1, without a word.)"""
    from kafkaspec import Record

    with logdir.PartitionWriter(tmp_path / "logs", "t", 0) as w:
        w.append([Record(value=b"v", timestamp=1)])
    loose = tmp_path / "loose"
    loose.mkdir()
    (loose / "00000000000000000000.log").write_bytes(
        (tmp_path / "logs" / "t-0" / "00000000000000000000.log").read_bytes()
    )
    for target in (loose, loose / "00000000000000000000.log"):
        done = _cli("dump", target)
        assert done.returncode == 0, done.stderr
        assert (
            done.stderr.count("\n") == 1
            and "not in a <topic>-<partition> directory: read as topic 'loose', partition -1" in done.stderr
        ), done.stderr
    done = _cli("dump", tmp_path / "logs" / "t-0" / "00000000000000000000.log")
    assert done.returncode == 0 and done.stderr == ""
