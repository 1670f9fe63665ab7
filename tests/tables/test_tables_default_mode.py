"""The default ``--table-mode``: ``upsert`` for a topic whose ``cleanup.policy`` compacts, as the
cluster's metadata log (``__cluster_metadata``) says, ``append`` elsewhere; each table's said on stderr."""

from __future__ import annotations

import subprocess
import sys

import pytest
from support.tables import TS, table_arrow, write_orders

from kafkaspec import Record, logdir
from kafkaspec.codec.varint import encode_uvarint
from kafkaspec.generated.messages.config_record import ConfigRecord, encode_config_record

CONFIG_RECORD = 4  # its api key in the metadata log


def _config(resource_type, resource, name, value):
    body = encode_config_record(ConfigRecord(resource_type, resource, name, value), 0)
    return encode_uvarint(1) + encode_uvarint(CONFIG_RECORD) + encode_uvarint(0) + body


def _metadata(root, *configs):
    with logdir.PartitionWriter(root, "__cluster_metadata", 0) as w:
        for i, c in enumerate(configs):
            w.append([Record(key=None, value=_config(*c), timestamp=TS + i)])


def _profiles(root):
    with logdir.PartitionWriter(root, "profiles", 0) as w:
        for i, (key, value) in enumerate([(b"a", b"1"), (b"b", b"1"), (b"a", b"2"), (b"b", None)]):
            w.append([Record(key=key, value=value, timestamp=TS + i)])


def _pipeline(src, dest, fmt, *args):
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "kafkaspec.cli",
            "pipeline",
            str(src),
            "--table",
            fmt,
            str(dest),
            "--quiet",
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize("fmt", ["iceberg", "delta"])
def test_a_compacted_topic_is_upserted_and_the_others_appended(fmt, tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    _metadata(
        src,
        (2, "profiles", "cleanup.policy", "delete"),
        (2, "profiles", "cleanup.policy", "compact"),  # the last word counts
        (2, "orders", "retention.ms", "1000"),
    )
    _profiles(src)
    write_orders(src, 3)
    done = _pipeline(src, dest, fmt)
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [
        "table orders: --table-mode append (cleanup.policy=delete)",
        "table profiles: --table-mode upsert (cleanup.policy=compact)",
    ]
    profiles = table_arrow(fmt, dest, "profiles")
    assert list(zip(profiles.column("key").to_pylist(), profiles.column("value").to_pylist())) == [
        (b"a", b"2")
    ]
    assert table_arrow(fmt, dest, "orders").num_rows == 3


def test_the_cluster_default_and_an_explicit_mode(tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    _metadata(src, (4, "", "log.cleanup.policy", "compact,delete"))
    _profiles(src)
    done = _pipeline(src, dest, "iceberg")
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == ["table profiles: --table-mode upsert (cleanup.policy=compact,delete)"]
    assert table_arrow("iceberg", dest, "profiles").num_rows == 1

    other = tmp_path / "lake2"
    done = _pipeline(src, other, "iceberg", "--table-mode", "append")
    assert (done.returncode, done.stderr) == (0, "")
    assert table_arrow("iceberg", other, "profiles").num_rows == 4


def test_no_metadata_log_appends(tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    _profiles(src)
    done = _pipeline(src, dest, "delta")
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [
        "table profiles: --table-mode append (no __cluster_metadata here to say a cleanup.policy)"
    ]
    assert table_arrow("delta", dest, "profiles").num_rows == 4
