"""A stream restarted over an object-store log: the checkpoint's batch marks are read back with one ranged
GET per partition, and a partition republished cut back and grown past the checkpoint is data loss."""

from __future__ import annotations

import json
import pickle
from collections import Counter

import pytest
from pyspark.sql.streaming.datasource import ReadAllAvailable

from kafkaspec import build_batch
from kafkaspec.logdir.store.publish import publish_partition
from kafkaspec.logdir.store.storage import Stats, as_path
from kafkaspec.spark.read.options import MARKS_KEY, ReadOptions
from kafkaspec.spark.stream.reader import DataLossError, KafkaLogStreamReader


def _batch(base: int, n: int, tag: bytes) -> bytes:
    return build_batch(
        values=[b"%s-%d" % (tag, base + i) for i in range(n)],
        timestamps=[base + i for i in range(n)],
        base_offset=base,
    )


def _publish(snap, uri, partition: int, *batches: bytes) -> None:
    d = snap / f"t-{partition}"
    d.mkdir(parents=True, exist_ok=True)
    (d / ("0" * 20 + ".log")).write_bytes(b"".join(batches))
    publish_partition(d, as_path(f"{uri}/t-{partition}"))


def _requests(monkeypatch, uri: str, offset: dict) -> Counter:
    """The requests a restarted reader's first trigger asks for, by kind (each URI opened gets a store of its
    own: every store's are counted)."""
    kinds: Counter = Counter()
    add = Stats.add

    def counted(self, requests, nbytes=0, *, checks=0, kind="", key=""):
        kinds[kind] += requests
        add(self, requests, nbytes, checks=checks, kind=kind, key=key)

    with monkeypatch.context() as m:
        m.setattr(Stats, "add", counted)
        KafkaLogStreamReader(uri, ReadOptions.parse({})).latestOffset(offset, ReadAllAvailable())
    return kinds


def test_the_check_is_one_ranged_get_per_partition_and_sees_a_regrown_log(s3_env, tmp_path, monkeypatch):
    uri = f"s3://{s3_env.new_bucket()}/live"
    snap = tmp_path / "snapshot"
    for p in (0, 1):
        _publish(snap, uri, p, _batch(0, 10, b"old"), _batch(10, 10, b"old"))
    reader = KafkaLogStreamReader(uri, ReadOptions.parse({}))
    start = reader.initialOffset()
    checkpointed = json.loads(json.dumps(reader.latestOffset(start, ReadAllAvailable())))
    assert sorted(checkpointed[MARKS_KEY]["t"]) == ["0", "1"]
    with_marks = _requests(monkeypatch, uri, checkpointed)
    without = _requests(monkeypatch, uri, {"t": checkpointed["t"]})
    extra = with_marks - without
    print("restart requests with marks", dict(with_marks), "without", dict(without))
    # one ranged GET per partition (and the store's look that the object did not change under it), nothing else
    assert extra["get"] <= 2 and set(extra) <= {"get", "check"} and extra["check"] <= extra["get"], (
        with_marks,
        without,
    )
    assert pickle.loads(pickle.dumps(reader)).tails.keys() == reader.tails.keys()  # as Spark may ship it
    _publish(snap, uri, 1, _batch(0, 10, b"old"), _batch(10, 25, b"new"))  # t-1 cut back to 10, grown to 35
    with pytest.raises(
        DataLossError,
        match=r"t-1: the log went back while the query was stopped: the batch holding "
        r"its offsets 10 to 19 .*below offset 20",
    ):
        KafkaLogStreamReader(uri, ReadOptions.parse({})).latestOffset(checkpointed, ReadAllAvailable())
