"""``--table-mode upsert``: the table equals the topic read whole, keeping the last record per key
(a tombstone deleting it), after a backfill and after later runs."""

from __future__ import annotations

import pytest
from support.tables import FORMATS, TS, table_arrow

from kafkaspec import Record, logdir
from kafkaspec.tables import write_table


def _write(root, items, partition=0):
    with logdir.PartitionWriter(root, "profiles", partition) as w:
        for i, (key, value) in enumerate(items):
            w.append([Record(key=key, value=value, timestamp=TS + i)])


def _last_per_key(root):
    last = {}
    for part in logdir.open_log(str(root)).partitions():
        for _, r in part.records(read_committed=True):
            if r.key is not None:
                last[(part.topic, r.key)] = r.value
    return {k: v for k, v in last.items() if v is not None}


def _table(fmt, dest):
    t = table_arrow(fmt, dest, "profiles")
    rows = list(
        zip(t.column("topic").to_pylist(), t.column("key").to_pylist(), t.column("value").to_pylist())
    )
    assert len(rows) == len({(a, b) for a, b, _ in rows})  # one row per key
    return {(a, b): v for a, b, v in rows}


@pytest.mark.parametrize("fmt", FORMATS)
def test_upsert_equals_last_record_per_key(fmt, tmp_path):
    src, dest = tmp_path / "logs", tmp_path / "lake"
    _write(
        src, [(b"a", b"a1"), (b"b", b"b1"), (b"a", b"a2"), (b"c", b"c1"), (None, b"keyless"), (b"c", None)]
    )
    _write(src, [(b"d", b"d1")], partition=1)
    write_table(str(src), str(dest), format=fmt, mode="upsert")
    assert (
        _table(fmt, dest)
        == _last_per_key(src)
        == {
            ("profiles", b"a"): b"a2",
            ("profiles", b"b"): b"b1",
            ("profiles", b"d"): b"d1",
        }
    )

    _write(src, [(b"b", None), (b"a", b"a3"), (b"e", b"e1"), (b"c", b"c2")])
    run = write_table(str(src), str(dest), format=fmt, mode="upsert")
    assert run.rows == 4
    assert _table(fmt, dest) == _last_per_key(src)
    assert write_table(str(src), str(dest), format=fmt, mode="upsert").commits == []  # nothing new
