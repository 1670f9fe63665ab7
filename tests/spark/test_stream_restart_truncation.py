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
from test_stream_truncation import _append, _batch, _log, _reader, _truncate_to, _values

from kafkaspec.spark.streaming import DataLossError


@pytest.fixture
def restarted(tmp_path):
    """Offsets 0-29 read (three batches of 10) and the offset JSON a checkpoint holds; then, while the
    query is down, the log is cut back to offset 10 and grown past 30 with other records."""
    log = _log(tmp_path)
    first = _batch(0, 10, b"old")
    _append(log, first, _batch(10, 10, b"old"), _batch(20, 10, b"old"))
    reader = _reader(log.parent.parent)
    start = reader.initialOffset()
    end = reader.latestOffset(start, ReadAllAvailable())
    assert len(_values(reader, start, end)) == 30
    checkpointed = json.loads(json.dumps(end))  # what Spark writes to offsets/ and reads back
    _truncate_to(log, len(first))
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
