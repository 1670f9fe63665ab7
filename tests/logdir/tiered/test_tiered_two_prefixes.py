"""A bucket holding one partition under two prefixes (Aiven's plugin after its key prefix changed: the
segments copied before under ``old/``, the later ones under ``new/``; or a prefix copied whole) and
opened at its root: each folder was read as a partition of its own, so every offset held in both came
out twice. Now the partition found under two prefixes is an error naming both folders (exit 1 on the
command line); a prefix opened on its own still reads."""

from __future__ import annotations

import shutil
from collections import Counter

import pytest
from support.logdir import write_partition

from kafkaspec import logdir
from kafkaspec.cli import main
from kafkaspec.errors import KafkaFormatError


@pytest.fixture
def bucket(tmp_path):
    write_partition(tmp_path / "data", topic="orders", partition=0, batches=20, seed=3, segment_bytes=2000)
    logdir.write_tiered(tmp_path / "data", tmp_path / "bucket" / "new", compression=False)
    shutil.copytree(tmp_path / "bucket" / "new", tmp_path / "bucket" / "old")
    (tmp_path / "canary").write_text("keep")
    yield tmp_path / "bucket"
    assert (tmp_path / "canary").read_text() == "keep"


def test_a_partition_under_two_prefixes_is_an_error_naming_both(bucket):
    with pytest.raises(KafkaFormatError, match="orders-0.* under more than one prefix") as info:
        with logdir.open_log(bucket) as log:
            Counter((p.topic, p.partition, r.offset) for p in log.partitions() for _, r in p.records())
    assert str(bucket / "new") in str(info.value) and str(bucket / "old") in str(info.value)


@pytest.mark.parametrize("command", ["dump", "verify"])
def test_the_cli_says_it_in_one_line(bucket, command, capsys):
    assert main([command, str(bucket)]) == 1  # what the bucket holds is the problem
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "under more than one prefix" in err and "Traceback" not in err


def test_each_prefix_alone_reads_each_offset_once(bucket):
    for prefix in ("new", "old"):
        with logdir.open_log(bucket / prefix) as log:
            got = Counter((p.topic, p.partition, r.offset) for p in log.partitions() for _, r in p.records())
        assert got and max(got.values()) == 1


def test_hostile_folder_names_stay_one_escaped_line(tmp_path, capsys):
    """A bucket folder named with a newline, an escape sequence and a non-UTF-8 byte: the error is still
    one line, the name shown escaped, nothing written."""
    import os

    write_partition(tmp_path / "data", topic="orders", partition=0, batches=5, seed=3, segment_bytes=2000)
    bucket = tmp_path / os.fsdecode(b"bu\nck\x1b[31met\xff")
    logdir.write_tiered(tmp_path / "data", bucket / "new", compression=False)
    shutil.copytree(bucket / "new", bucket / "old")
    before = sorted(p for p in tmp_path.rglob("*"))
    assert main(["dump", str(bucket)]) == 1
    err = capsys.readouterr().err
    assert (
        err.count("\n") == 1
        and "\x1b" not in err
        and "\\x1b[31m" in err
        and "under more than one prefix" in err
    )
    assert sorted(p for p in tmp_path.rglob("*")) == before
