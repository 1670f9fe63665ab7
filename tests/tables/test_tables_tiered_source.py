"""Issue 43's item 3 for tiered data: a table written from a bucket's layout where segments were uploaded
twice (a re-upload, an upload that stopped half-way), and from a log dir whose local segments overlap
the remote ones, holds each offset once (the live lineage), equal to the data dir read; a later run
after more data appends only the new."""

from __future__ import annotations

import shutil

import pytest
from support.local_tiered import copy_fileset, write_local_tiered
from support.logdir import write_partition
from support.tables import FORMATS, consumer_rows, table_rows

from kafkaspec import logdir
from kafkaspec.logdir.kafka import files
from kafkaspec.tables import write_table


@pytest.fixture(scope="module")
def source(tmp_path_factory):
    root = tmp_path_factory.mktemp("logs")
    write_partition(root, topic="orders", partition=0, batches=40, seed=3, segment_bytes=3000)
    write_partition(root, topic="orders", partition=1, batches=20, seed=4, segment_bytes=3000)
    return root


def _rows(fmt, dest):
    return table_rows(fmt, dest, "orders")


@pytest.mark.parametrize("fmt", FORMATS)
def test_segments_uploaded_twice_are_each_offset_once(fmt, source, tmp_path):
    bucket, dest = tmp_path / "bucket", tmp_path / "lake"
    for (topic, partition), folder in write_local_tiered(source, bucket).items():
        copy_fileset(folder, 0, f"again/{topic}/{partition}")
        copy_fileset(folder, 0, f"half/{topic}/{partition}", skip=(files.SNAPSHOT_SUFFIX,))
    expected = consumer_rows(source)
    assert len(expected) == len(set(expected))
    assert write_table(str(bucket), str(dest), format=fmt).rows == len(expected)
    assert _rows(fmt, dest) == expected
    assert write_table(str(bucket), str(dest), format=fmt).rows == 0


@pytest.mark.parametrize("fmt", FORMATS)
def test_local_and_remote_overlapping_are_each_offset_once(fmt, source, tmp_path):
    local, remote, dest = tmp_path / "local", tmp_path / "remote", tmp_path / "lake"
    shutil.copytree(source, local)
    write_local_tiered(source, remote)  # every segment both local and remote
    expected = consumer_rows(source)
    with logdir.open_log(str(local), tiered=str(remote)) as history:
        assert write_table(history, str(dest), format=fmt).rows == len(expected)
    assert _rows(fmt, dest) == expected
    write_partition(local, topic="orders", partition=0, batches=3, seed=9, segment_bytes=3000)
    more = consumer_rows(local)
    assert len(more) > len(expected)
    with logdir.open_log(str(local), tiered=str(remote)) as history:
        assert write_table(history, str(dest), format=fmt).rows == len(more) - len(expected)
    assert _rows(fmt, dest) == more
