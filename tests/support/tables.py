"""Log directories for the table tests, and the tables read back (pyiceberg, deltalake)."""

from __future__ import annotations

import os

from kafkaspec import Record, logdir

FORMATS = ("iceberg", "delta")
TS = 1_700_000_000_000  # 2023-11-14, in ms


def write_orders(root, n=5, *, tag=b"a", partition=0, topic="orders", start_ts=TS):
    """``n`` plain records appended to ``topic``-``partition`` (created or continued)."""
    with logdir.PartitionWriter(root, topic, partition) as w:
        for i in range(n):
            w.append([Record(key=b"k%d" % i, value=b"%s-%d" % (tag, i), timestamp=start_ts + i)])


def write_transactions(root, topic="orders", partition=0, *, open_pid=None):
    """An aborted transaction (pid 7), a committed one (pid 8), and with ``open_pid`` one left open."""
    with logdir.PartitionWriter(root, topic, partition) as w:
        w.append(
            [Record(key=None, value=b"aborted", timestamp=TS)],
            producer_id=7,
            producer_epoch=0,
            is_transactional=True,
        )
        w.append_control("abort", producer_id=7, producer_epoch=0)
        w.append(
            [Record(key=None, value=b"committed", timestamp=TS)],
            producer_id=8,
            producer_epoch=0,
            is_transactional=True,
        )
        w.append_control("commit", producer_id=8, producer_epoch=0)
        if open_pid is not None:
            w.append(
                [Record(key=None, value=b"open", timestamp=TS)],
                producer_id=open_pid,
                producer_epoch=0,
                is_transactional=True,
            )
            w.append([Record(key=None, value=b"after-open", timestamp=TS)])


def close_open(root, pid, topic="orders", partition=0):
    with logdir.PartitionWriter(root, topic, partition) as w:
        w.append_control("commit", producer_id=pid, producer_epoch=0)


def consumer_rows(src):
    """What a read_committed consumer gets, as (topic, partition, offset, value) rows, sorted."""
    out = []
    for part in logdir.open_log(str(src)).partitions():
        if part.topic.startswith("__"):
            continue
        for _, r in part.records(read_committed=True):
            out.append((part.topic, part.partition, r.offset, r.value))
    return sorted(out)


def iceberg_table(dest, name):
    from pyiceberg.catalog import load_catalog

    dest = os.path.abspath(dest)
    catalog = load_catalog(
        "kafkaspec", type="sql", uri=f"sqlite:///{dest}/catalog.db", warehouse=f"file://{dest}"
    )
    return catalog.load_table(("kafka", name))


def table_arrow(fmt, dest, name):
    if fmt == "iceberg":
        return iceberg_table(dest, name).scan().to_arrow()
    from deltalake import DeltaTable

    return DeltaTable(os.path.join(str(dest), name)).to_pyarrow_table()


def table_rows(fmt, dest, name):
    t = table_arrow(fmt, dest, name)
    cols = [t.column(c).to_pylist() for c in ("topic", "partition", "offset", "value")]
    return sorted(zip(*cols, strict=True))


def referenced_files(fmt, dest, name):
    """The data files the table's current version references (absolute local paths)."""
    if fmt == "iceberg":
        table = iceberg_table(dest, name)
        return [t.file.file_path.removeprefix("file://") for t in table.scan().plan_files()]
    from deltalake import DeltaTable

    return [f.removeprefix("file://") for f in DeltaTable(os.path.join(str(dest), name)).file_uris()]
