"""Sample logs for the Spark tests (the SparkSession fixture, ``spark``, is tests/conftest.py's)."""

from __future__ import annotations

import pytest

from kafkaspec import Record, logdir


@pytest.fixture(scope="session")
def synth_dir(tmp_path_factory):
    """A small synth data dir: every codec, magic 0/1/2, transactions, compaction, LogAppendTime."""
    out = tmp_path_factory.mktemp("synth") / "logs"
    logdir.synth(out, size_mb=3, seed=7, force=True)
    return out


@pytest.fixture(scope="session")
def txn_dir(tmp_path_factory):
    """One partition with a committed, an aborted and a still-open transaction around plain records."""
    out = tmp_path_factory.mktemp("txn")
    ts = 1_700_000_000_000
    with logdir.PartitionWriter(out, "tx", 0, index_interval_bytes=64) as w:
        w.append([Record(key=b"p", value=b"plain-0", timestamp=ts)])
        w.append(
            [Record(key=b"c", value=b"commit-%d" % i, timestamp=ts + 1) for i in range(3)],
            producer_id=7,
            producer_epoch=0,
            base_sequence=0,
            is_transactional=True,
        )
        w.append(
            [Record(key=b"a", value=b"abort-%d" % i, timestamp=ts + 2) for i in range(2)],
            producer_id=8,
            producer_epoch=0,
            base_sequence=0,
            is_transactional=True,
        )
        w.append_control("commit", producer_id=7, producer_epoch=0, timestamp=ts + 3)
        w.append_control("abort", producer_id=8, producer_epoch=0, timestamp=ts + 4)
        w.append([Record(key=b"p", value=b"plain-1", timestamp=ts + 5)])
        w.append(
            [Record(key=b"o", value=b"open-0", timestamp=ts + 6)],
            producer_id=9,
            producer_epoch=0,
            base_sequence=0,
            is_transactional=True,
        )
        w.append([Record(key=b"p", value=b"plain-2", timestamp=ts + 7, headers=[("h", b"1"), ("h", None)])])
    return out
