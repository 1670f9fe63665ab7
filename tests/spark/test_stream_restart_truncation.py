"""A stream restarted from its checkpoint over a log that went back while the query was down.

A follower truncated after a leader change (or a partition deleted and recreated) and grown again
past the query's position leaves other records at offsets the query already read: the offsets alone
look fine. The checkpointed offset carries, per partition, where the batch holding its last read offset
was and its head, so a new reader given that offset sees the log changed below it. The reader is
driven as Spark's driver and tasks call it (no JVM).
"""

from __future__ import annotations

import json
import logging

import pytest
from pyspark.sql.streaming.datasource import ReadAllAvailable
from test_stream_truncation import TS, _append, _batch, _log, _reader, _truncate_to, _values, truncated  # noqa: F401 (a fixture)

from kafkaspec import Record, build_batch, build_control_batch
from kafkaspec.logdir.store.fs import RangeReader
from kafkaspec.spark.read.options import MARKS_KEY
from kafkaspec.spark.stream.reader import DataLossError


@pytest.fixture
def restarted(truncated, tmp_path):  # noqa: F811 (the fixture imported above)
    """Offsets 0-29 read (three batches of 10) and the offset JSON a checkpoint holds; then, while the
    query is down, the log is cut back to offset 10 (``truncated``) and grown past 30 with other records."""
    log, _, end = truncated
    checkpointed = json.loads(json.dumps(end))  # what Spark writes to offsets/ and reads back
    _append(log, _batch(10, 30, b"new"))  # offsets 10-39: 10-29 replaced, the end past 30 again
    yield log, checkpointed
    assert (tmp_path / "canary").read_text() == "keep"


def test_a_restarted_reader_sees_a_log_regrown_past_its_checkpoint(restarted):
    log, checkpointed = restarted
    reader = _reader(log.parent.parent)
    with pytest.raises(DataLossError, match=r"t-0: the log went back .*below offset 30 .*failOnDataLoss"):
        reader.latestOffset(checkpointed, ReadAllAvailable())


def test_fail_on_data_loss_false_logs_it_and_reads_on_from_the_checkpoint(restarted, caplog):
    log, checkpointed = restarted
    reader = _reader(log.parent.parent, failOnDataLoss="false")
    with caplog.at_level(logging.WARNING, logger="kafkaspec.spark"):
        end = reader.latestOffset(checkpointed, ReadAllAvailable())
    assert "t-0: the log went back" in caplog.text
    assert end["t"] == {"0": 40}
    assert _values(reader, checkpointed, end) == [b"new-%d" % i for i in range(30, 40)]


def _read_to_end(root, **options):
    """A query's run: read everything there is; returns the offset JSON its checkpoint holds."""
    reader = _reader(root, **options)
    start = reader.initialOffset()
    end = reader.latestOffset(start, ReadAllAvailable())
    _values(reader, start, end)
    return json.loads(json.dumps(end))


def test_a_partition_deleted_and_recreated_while_stopped_is_data_loss(tmp_path):
    log = _log(tmp_path)
    _append(log, _batch(0, 10, b"old"), _batch(10, 10, b"old"))
    checkpointed = _read_to_end(log.parent.parent)
    for f in log.parent.iterdir():
        f.unlink()
    _append(log, _batch(0, 40, b"again"))  # one batch over offsets 0-39: the offset 20 is nothing special
    with pytest.raises(
        DataLossError,
        match=r"t-0: the log went back while the query was stopped: the batch holding "
        r"its offsets 10 to 19 .*records below offset 20",
    ):
        _reader(log.parent.parent).latestOffset(checkpointed, ReadAllAvailable())
    assert (tmp_path / "canary").read_text() == "keep"


def test_a_log_that_only_grew_or_rolled_restarts_quietly_and_reads_every_record_once(tmp_path, caplog):
    log = _log(tmp_path)
    _append(log, _batch(0, 10, b"a"), _batch(10, 10, b"a"))
    checkpointed = _read_to_end(log.parent.parent)
    _append(log, _batch(20, 5, b"a"))
    (log.parent / f"{25:020d}.log").write_bytes(_batch(25, 5, b"b"))  # rolled: a new active segment
    reader = _reader(log.parent.parent)
    with caplog.at_level(logging.WARNING):
        end = reader.latestOffset(checkpointed, ReadAllAvailable())
    assert caplog.text == ""
    assert end["t"] == {"0": 30}
    assert _values(reader, checkpointed, end) == [b"a-%d" % i for i in range(20, 25)] + [
        b"b-%d" % i for i in range(25, 30)
    ]
    assert reader.latestOffset(end, ReadAllAvailable()) == end  # nothing new: the same offset, marks and all


def test_an_offset_without_marks_still_restarts_and_is_checked_by_its_offsets(restarted):
    """A checkpoint written before the marks (or a user's startingOffsets): the offsets are all it has."""
    log, checkpointed = restarted
    old = {"t": checkpointed["t"]}
    reader = _reader(log.parent.parent)
    end = reader.latestOffset(old, ReadAllAvailable())  # regrown past 30: the offsets cannot tell
    assert end["t"] == {"0": 40} and end[MARKS_KEY]["t"]["0"]["position"] > 0  # the next checkpoint can
    _truncate_to(log, 0)
    with pytest.raises(DataLossError, match=r"t-0: offsets went back from 30 to 0 "):
        _reader(log.parent.parent).latestOffset(old, ReadAllAvailable())


def test_starting_offsets_given_as_json_ignore_marks(restarted):
    log, checkpointed = restarted
    reader = _reader(
        log.parent.parent, startingOffsets=json.dumps(checkpointed)
    )  # an endOffset copied from progress
    start = reader.initialOffset()
    assert start["t"] == {"0": 30}
    end = reader.latestOffset(start, ReadAllAvailable())
    assert _values(reader, start, end) == [b"new-%d" % i for i in range(30, 40)]


def test_a_limited_trigger_marks_the_batch_holding_its_last_offset(tmp_path):
    """maxOffsetsPerTrigger ends a micro-batch inside the log: the mark is the batch holding its last offset,
    so a cut below that offset is seen and a cut above it (records not read yet) is not data loss."""
    log = _log(tmp_path)
    batches = [_batch(i, 10, b"old") for i in range(0, 50, 10)]
    _append(log, *batches)
    reader = _reader(log.parent.parent, maxOffsetsPerTrigger="25")
    start = reader.initialOffset()
    end = json.loads(json.dumps(reader.latestOffset(start, reader.getDefaultReadLimit())))
    assert end["t"] == {"0": 25}
    assert end[MARKS_KEY]["t"]["0"]["position"] == sum(map(len, batches[:2]))  # the batch of offsets 20-29
    _values(reader, start, end)
    _truncate_to(log, sum(map(len, batches[:3])))  # cut above it: offsets 30-49 go, none of them read
    _append(log, _batch(30, 30, b"new"))
    after = _reader(log.parent.parent).latestOffset(end, ReadAllAvailable())
    assert after["t"] == {"0": 60}
    _truncate_to(log, sum(map(len, batches[:2])))  # cut below it: offsets 20-24 were read and are replaced
    _append(log, _batch(20, 40, b"new"))
    with pytest.raises(
        DataLossError,
        match=r"t-0: the log went back while the query was stopped: the batch holding "
        r"its offsets 20 to 29 .*records below offset 25",
    ):
        _reader(log.parent.parent).latestOffset(end, ReadAllAvailable())


@pytest.mark.parametrize(
    "mark",
    [
        {"segment": 0, "position": 12, "head": "zz"},
        {"segment": 0, "position": -1, "head": "00" * 27},
        {"segment": 0, "position": 2**63, "head": "00" * 27},
        {"segment": 2**70, "position": 0, "head": "00" * 27},
        {"segment": 0, "position": 0, "head": "00" * 28},
        {"segment": 0, "head": "00" * 27},
        [0, 0, "00"],
    ],
)
def test_marks_a_checkpoint_cannot_hold_are_refused_naming_them(restarted, mark):
    log, checkpointed = restarted
    bad = {**checkpointed, MARKS_KEY: {"t": {"0": mark}}}
    with pytest.raises(
        ValueError,
        match=r'not an offset of this source: its "kafkalog/marks" must be .*; '
        r"kafkalog/marks\.t\.0 is ",
    ):
        _reader(log.parent.parent).latestOffset(bad, ReadAllAvailable())


@pytest.mark.parametrize("topic", ["a\nb", "\x1b[2J", "t\u202e", "x\\n"])
def test_a_bad_mark_under_a_hostile_name_is_named_escaped(restarted, topic):
    """A checkpoint edited by hand (or by an attacker): the refusal names where the bad mark is with
    its control characters escaped, so a log line cannot be split or a terminal driven by it."""
    log, checkpointed = restarted
    bad = {**checkpointed, MARKS_KEY: {topic: {"0\r": {"segment": "x"}}}}
    with pytest.raises(ValueError) as got:
        _reader(log.parent.parent).latestOffset(bad, ReadAllAvailable())
    message = str(got.value)
    assert message.isprintable(), message
    assert "kafkalog/marks." in message


def test_the_marks_key_is_no_topic(tmp_path):
    """Topics named like the key's parts still read: a "/" is in no topic name (Kafka: [a-zA-Z0-9._-])."""
    for topic in ("kafkalog", "marks", "kafkalog.marks"):
        d = tmp_path / "logs" / f"{topic}-0"
        d.mkdir(parents=True)
        (d / ("0" * 20 + ".log")).write_bytes(_batch(0, 3, topic.encode()))
    checkpointed = _read_to_end(tmp_path / "logs")
    assert sorted(checkpointed) == ["kafkalog", "kafkalog.marks", MARKS_KEY, "marks"]
    assert sorted(checkpointed[MARKS_KEY]) == ["kafkalog", "kafkalog.marks", "marks"]
    assert _reader(tmp_path / "logs").latestOffset(checkpointed, ReadAllAvailable()) == checkpointed


def _kept(base: int, offsets: list[int], last: int, epoch: int, tag: bytes = b"old") -> bytes:
    """A batch as Kafka's cleaner leaves it: some of its records, its base and last offsets and epoch kept."""
    records = [Record(key=None, value=b"%s-%d" % (tag, o), timestamp=TS + o, offset=o) for o in offsets]
    return build_batch(records, base_offset=base, last_offset_delta=last - base, partition_leader_epoch=epoch)


def _epoch_batch(base: int, n: int, epoch: int, tag: bytes = b"old") -> bytes:
    return build_batch(
        values=[b"%s-%d" % (tag, base + i) for i in range(n)],
        timestamps=[TS + base + i for i in range(n)],
        base_offset=base,
        partition_leader_epoch=epoch,
    )


def _segment(log, base: int):
    return log.parent / f"{base:020d}.log"


@pytest.fixture
def two_segments(tmp_path):
    """Segment 0 (offsets 0-19) and segment 20 (20-39, the mark's batch 30-39), leader epoch 3, read to 40."""
    log = _log(tmp_path)
    _append(log, _epoch_batch(0, 10, 3), _epoch_batch(10, 10, 3))
    _append(_segment(log, 20), _epoch_batch(20, 10, 3), _epoch_batch(30, 10, 3))
    checkpointed = _read_to_end(log.parent.parent)
    assert checkpointed[MARKS_KEY]["t"]["0"]["segment"] == 20
    _append(_segment(log, 40), _epoch_batch(40, 5, 4, b"more"))  # rolled, then the cleaner may run
    yield log, checkpointed
    assert (tmp_path / "canary").read_text() == "keep"


@pytest.mark.parametrize(
    "cleaned", ["thinned in place", "merged into segment 0", "its batch emptied and dropped"]
)
def test_a_segment_compacted_while_stopped_is_no_data_loss(two_segments, cleaned, caplog):
    """Compaction keeps offsets: the records it drops are ones a newer record with the same key replaces."""
    log, checkpointed = two_segments
    first = _kept(0, [3, 9], 9, 3) + _kept(10, [12], 19, 3)
    second = _kept(20, [21, 29], 29, 3)
    if cleaned == "thinned in place":
        _segment(log, 20).write_bytes(second + _kept(30, [31, 38], 39, 3))
    elif cleaned == "merged into segment 0":
        _segment(log, 20).unlink()
        log.write_bytes(first + second + _kept(30, [39], 39, 3))
    else:
        _segment(log, 20).write_bytes(second)
    reader = _reader(log.parent.parent)
    with caplog.at_level(logging.WARNING):
        end = reader.latestOffset(checkpointed, ReadAllAvailable())
    assert caplog.text == ""
    assert end["t"] == {"0": 45}
    assert _values(reader, checkpointed, end) == [b"more-%d" % i for i in range(40, 45)]


@pytest.mark.parametrize("rewritten", ["by a new leader", "with other records"])
def test_a_batch_with_the_same_offsets_written_again_is_data_loss(two_segments, rewritten):
    """Truncated to offset 30 and written again: a new leader's epoch, or (a partition recreated, its epochs
    counted again) records that do not fit where the old ones were."""
    log, checkpointed = two_segments
    _segment(log, 40).unlink()
    again = (
        _epoch_batch(30, 10, 4, b"new")
        if rewritten == "by a new leader"
        else _epoch_batch(30, 10, 3, b"newer")
    )
    _segment(log, 20).write_bytes(_epoch_batch(20, 10, 3) + again + _epoch_batch(40, 5, 4, b"more"))
    with pytest.raises(
        DataLossError,
        match=r"t-0: the log went back while the query was stopped: the batch holding "
        r"its offsets 30 to 39 .*below offset 40",
    ):
        _reader(log.parent.parent).latestOffset(checkpointed, ReadAllAvailable())


def test_a_restart_that_replays_its_planned_batch_checks_before_planning(tmp_path):
    """Spark restarts by planning again the micro-batch whose offsets it logged and did not commit, before any
    latestOffset: the check comes first there, so nothing of the new log is read under the old offsets."""
    log = _log(tmp_path)
    first = _batch(0, 10, b"old")
    _append(log, first, _batch(10, 10, b"old"))
    reader = _reader(log.parent.parent)
    start = reader.initialOffset()
    end = json.loads(json.dumps(reader.latestOffset(start, ReadAllAvailable())))
    _values(reader, start, end)
    _append(log, _batch(20, 10, b"old"))
    planned = json.loads(json.dumps(reader.latestOffset(end, ReadAllAvailable())))  # logged, then the crash
    _truncate_to(log, len(first))
    _append(log, _batch(10, 30, b"new"))
    restarted = _reader(log.parent.parent)
    with pytest.raises(
        DataLossError,
        match=r"t-0: the log went back while the query was stopped: the batch holding "
        r"its offsets 10 to 19 .*below offset 20",
    ):
        restarted.partitions(end, planned)
    lenient = _reader(log.parent.parent, failOnDataLoss="false")
    assert _values(lenient, end, planned) == [b"new-%d" % i for i in range(20, 30)]  # the offsets it logged
    assert lenient.latestOffset(planned, ReadAllAvailable())["t"] == {"0": 40}  # checked once: said once


def test_the_check_reads_one_head_per_partition_and_a_running_query_none(tmp_path, monkeypatch):
    for p in (0, 1, 2):
        d = tmp_path / "logs" / f"t-{p}"
        d.mkdir(parents=True)
        (d / ("0" * 20 + ".log")).write_bytes(b"".join(_batch(b, 10, b"x") for b in range(0, 100, 10)))
    root = tmp_path / "logs"
    checkpointed = _read_to_end(root)
    reads: list[tuple[str, int, int]] = []
    read_span = RangeReader.read_span

    def counted(self, start, end):
        reads.append((str(self.path), start, end))
        return read_span(self, start, end)

    monkeypatch.setattr(RangeReader, "read_span", counted)
    _reader(root).latestOffset({"t": checkpointed["t"]}, ReadAllAvailable())
    assert reads == []  # without marks: the tails' own reads only
    reader = _reader(root)
    end = reader.latestOffset(checkpointed, ReadAllAvailable())
    heads = {(p, s) for p, s, _ in reads}
    assert len(reads) == len(heads) == 3 and all(e - s == 27 for _, s, e in reads), reads  # one v2 head each
    reads.clear()
    for p in (0, 1, 2):
        _append(root / f"t-{p}" / ("0" * 20 + ".log"), _batch(100, 5, b"y"))
    assert reader.latestOffset(end, ReadAllAvailable())["t"] == {"0": 105, "1": 105, "2": 105}
    assert reads == []  # the tails follow on: no mark is read again, the new marks are the last heads seen


def test_the_pipelines_summary_shows_offsets_not_marks(tmp_path):
    """``kafkaspec pipeline --incremental`` reports the checkpoint's last offsets: the marks are not offsets."""
    from kafkaspec.spark.run.incremental import IncrementalSummary, format_summary, last_offsets

    log = _log(tmp_path)
    _append(log, _batch(0, 10, b"a"))
    checkpointed = _read_to_end(log.parent.parent)
    ck = tmp_path / "ck"
    (ck / "commits").mkdir(parents=True)
    (ck / "offsets").mkdir()
    (ck / "commits" / "0").write_text("v1\n{}\n")
    (ck / "offsets" / "0").write_text("v1\n{}\n" + json.dumps(checkpointed) + "\n")
    assert MARKS_KEY in checkpointed and last_offsets(ck) == {"t": {"0": 10}}
    summary = IncrementalSummary(input="logs", output="out", mode="incremental", offsets=last_offsets(ck))
    assert "t-0 10" in format_summary(summary) and "marks" not in format_summary(summary)


def test_read_committed_marks_the_batch_below_the_last_stable_offset(tmp_path, caplog):
    """An open transaction holds the offset at its first: the mark is the batch before it, not the last seen."""
    log = _log(tmp_path)
    plain = _batch(0, 10, b"plain")
    txn = build_batch(
        values=[b"txn-%d" % i for i in range(10, 15)],
        timestamps=[TS] * 5,
        base_offset=10,
        producer_id=7,
        producer_epoch=0,
        base_sequence=0,
        is_transactional=True,
    )
    _append(log, plain, txn, _batch(15, 5, b"after"))
    checkpointed = _read_to_end(log.parent.parent, isolationLevel="read_committed")
    assert checkpointed["t"] == {"0": 10}
    assert checkpointed[MARKS_KEY]["t"]["0"]["position"] == 0  # the batch of offsets 0-9
    _append(log, build_control_batch("commit", producer_id=7, producer_epoch=0, base_offset=20))
    reader = _reader(log.parent.parent, isolationLevel="read_committed")
    with caplog.at_level(logging.WARNING):
        end = reader.latestOffset(checkpointed, ReadAllAvailable())
    assert caplog.text == "" and end["t"] == {"0": 21}
    assert _values(reader, checkpointed, end) == [b"txn-%d" % i for i in range(10, 15)] + [
        b"after-%d" % i for i in range(15, 20)
    ]
    _truncate_to(log, 0)
    _append(log, _batch(0, 30, b"new"))
    with pytest.raises(
        DataLossError,
        match=r"t-0: the log went back while the query was stopped: the batch holding "
        r"its offsets 0 to 9 .*below offset 10",
    ):
        _reader(log.parent.parent, isolationLevel="read_committed").latestOffset(
            checkpointed, ReadAllAvailable()
        )
