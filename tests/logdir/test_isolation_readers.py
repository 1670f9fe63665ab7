"""One topic, one answer (issue 42, item 1): every reader of a partition takes the isolation level, and
every one reads read_committed unless told otherwise, control markers never rows unless asked.

``records()``, ``to_arrow()``, ``to_arrow_batches()`` (a partition's and a log dir's) and the read plan
(``kafkaspec.arrow.ranges``) give the same (offset, value) rows as the topic's construction says
(:mod:`support.txn_topic`: commits, an abort, markers, a transaction left open at the end), for each
choice. The Spark source, the pipeline and DuckDB over its output are checked against the same rows
in ``tests/spark/test_isolation_every_reader.py``.
"""

from __future__ import annotations

import pyarrow as pa
import pytest
from support.txn_topic import TxnTopic, write_txn_topic

from kafkaspec import logdir
from kafkaspec.arrow.ranges import RangeReport, RangeSettings, plan_partition, read_records

LEVELS = ("read_committed", "read_uncommitted")


@pytest.fixture
def topic(tmp_path) -> TxnTopic:
    t = write_txn_topic(tmp_path / "logs")
    (tmp_path / "canary").write_text("keep")
    assert len(logdir.open_log(t.path).partition(t.topic, t.partition).segments()) > 3
    return t


def _rows(table: pa.Table | pa.RecordBatch) -> list[tuple[int, bytes | None]]:
    values = [None if c else v for v, c in zip(table["value"].to_pylist(), table["isControl"].to_pylist())]
    return list(zip(table["offset"].to_pylist(), values))


def _records(part, **kw) -> list[tuple[int, bytes | None]]:
    return [(r.offset, None if b.is_control else r.value) for b, r in part.records(**kw)]


def _ranges(part, level: str, control: bool) -> list[tuple[int, bytes | None]]:
    rows: list[tuple[int, bytes | None]] = []
    for task in plan_partition(
        part, None, None, RangeSettings(include_control=control), isolation_level=level
    ):
        for rb in read_records(task, RangeReport()):
            rows.extend(_rows(rb))
    return rows


@pytest.mark.parametrize("control", [False, True])
@pytest.mark.parametrize("level", LEVELS)
def test_every_reader_gives_the_rows_of_the_level(topic, level, control):
    part = logdir.open_log(topic.path).partition(topic.topic, topic.partition)
    expected = topic.rows[(level, control)]
    assert _records(part, isolation_level=level, include_control=control) == expected
    assert _rows(part.to_arrow(isolation_level=level, include_control=control)) == expected
    batches = list(part.to_arrow_batches(isolation_level=level, include_control=control))
    assert [r for rb in batches for r in _rows(rb)] == expected
    whole = logdir.open_log(topic.path).to_arrow_batches(isolation_level=level, include_control=control)
    assert [r for rb in whole for r in _rows(rb)] == expected
    assert _ranges(part, level, control) == expected
    assert (topic.path.parent / "canary").read_text() == "keep"


def test_the_default_of_every_reader_is_read_committed_without_markers(topic):
    """No argument: no aborted record, no record of the transaction left open, no marker."""
    expected = topic.rows[("read_committed", False)]
    part = logdir.open_log(topic.path).partition(topic.topic, topic.partition)
    assert _records(part) == expected
    assert _rows(part.to_arrow()) == expected
    assert [r for rb in part.to_arrow_batches() for r in _rows(rb)] == expected
    assert [r for rb in logdir.open_log(topic.path).to_arrow_batches() for r in _rows(rb)] == expected
    assert not any(v.startswith(b"open-") or v.startswith(b"abort-") for _, v in expected if v)


def test_the_older_read_committed_flag_still_decides(topic):
    part = logdir.open_log(topic.path).partition(topic.topic, topic.partition)
    assert _records(part, read_committed=False) == topic.rows[("read_uncommitted", False)]
    assert _records(part, read_committed=True) == topic.rows[("read_committed", False)]


def test_an_unknown_isolation_level_is_refused_by_name(topic):
    part = logdir.open_log(topic.path).partition(topic.topic, topic.partition)
    for call in (
        lambda: list(part.records(isolation_level="read-committed")),
        lambda: part.to_arrow(isolation_level="read-committed"),
        lambda: part.to_arrow_batches(isolation_level="committed"),
        lambda: logdir.open_log(topic.path).to_arrow_batches(isolation_level="nope"),
    ):
        with pytest.raises(
            ValueError, match="isolation_level must be 'read_committed' or 'read_uncommitted'"
        ):
            call()


def test_a_topic_without_transactions_never_reads_its_transactions(tmp_path, monkeypatch):
    """The Arrow readers ask for the partition's transactions only when they meet a transactional batch:
    a plain topic costs no scan of its batch heads."""
    from support.logdir import write_partition

    write_partition(tmp_path, topic="plain", batches=20, seed=3, segment_bytes=2000, codecs=("none",))
    part = logdir.open_log(tmp_path).partitions()[0]
    asked = []
    monkeypatch.setattr(type(part), "read_committed", lambda self: asked.append(1))
    assert part.to_arrow().num_rows == part.to_arrow(isolation_level="read_uncommitted").num_rows > 0
    assert asked == []


@pytest.mark.parametrize("level", LEVELS)
def test_tiered_partitions_and_histories_read_by_the_same_rule(topic, tmp_path, level):
    """The tiered copy of the topic (``write_tiered``) and the local log plus that copy (a history) are
    partitions too: the same rows for each level, read_committed by default."""
    remote = tmp_path / "remote"
    logdir.write_tiered(topic.path, remote, chunk_size=300, compression=False)
    for opened in (logdir.open_log(remote), logdir.open_log(topic.path, tiered=remote)):
        (part,) = opened.partitions()
        expected = topic.rows[(level, False)]
        assert _records(part, isolation_level=level) == expected
        assert _rows(part.to_arrow(isolation_level=level)) == expected
        assert [r for rb in opened.to_arrow_batches(isolation_level=level) for r in _rows(rb)] == expected
        assert _rows(part.to_arrow()) == topic.rows[("read_committed", False)]
