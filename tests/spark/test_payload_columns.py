"""The kafkalog source on Kafka's own topics: option decode=auto and view=offsets, on the corpus's
real KRaft metadata logs and __consumer_offsets partitions, agree with kafkaspec.payloads."""

from __future__ import annotations

import json
import shutil

import pytest

from kafkaspec import payloads

pytestmark = pytest.mark.spark


@pytest.fixture(scope="module")
def ldi(corpus, tmp_path_factory):
    """The LDI-POC data dir (a KRaft log, __consumer_offsets-6, an ordinary topic), copied so Spark
    can list it."""
    target = tmp_path_factory.mktemp("ldi") / "logs"
    shutil.copytree(corpus / "files" / "segments" / "LDI-POC", target)
    return target


def test_decode_auto_adds_the_decoded_payload(spark, ldi):
    df = (
        spark.read.format("kafkalog").option("decode", "auto").option("includeControl", "true").load(str(ldi))
    )
    assert df.columns[-2:] == ["decodedType", "decoded"]
    rows = df.select("topic", "offset", "key", "value", "isControl", "decodedType", "decoded").collect()
    by_topic: dict[str, int] = {}
    for r in rows:
        by_topic[r["topic"]] = by_topic.get(r["topic"], 0) + 1
        if r["topic"] == "TestTopicPatient":
            assert r["decodedType"] is None and r["decoded"] is None
            continue
        if r["isControl"]:
            d = payloads.decode_control(int.from_bytes(r["key"][2:4], "big"), r["value"])
        else:
            d = payloads.decode(r["topic"], r["key"], r["value"])
        assert r["decodedType"] == d.type, (r["topic"], r["offset"])
        decoded = json.loads(r["decoded"])
        assert (decoded["type"], decoded["version"]) == (d.type, d.version)
        assert decoded["value"] == payloads.jsonable(d.value)
    assert by_topic == {"TestTopicPatient": 3, "__cluster_metadata": 4929, "__consumer_offsets": 13}


def test_offsets_view_is_one_row_per_commit(spark, ldi):
    df = spark.read.format("kafkalog").option("view", "offsets").load(str(ldi))
    rows = df.orderBy("offset").collect()
    assert len(rows) == 7
    first = rows[0]
    assert (first["group"], first["topic"], first["partition"], first["committedOffset"]) == (
        "DEVSmileCDR",
        "batch2.work.notification.SHR_PROD.persistence",
        0,
        0,
    )
    assert first["offsetsPartition"] == 6 and first["offset"] == 1 and first["tombstone"] is False
    assert first["expireTimestamp"] is None and first["leaderEpoch"] == -1
    assert int(first["commitTimestamp"].timestamp() * 1000) == 1769791663122
    latest = (
        df.groupBy("group", "topic", "partition")
        .agg({"committedOffset": "max"})
        .where("topic = 'TestTopicPatient'")
        .collect()
    )
    assert [r["max(committedOffset)"] for r in latest] == [3]


def test_bad_decode_option_is_named(spark, ldi):
    with pytest.raises(Exception, match="option decode must be auto or none"):
        spark.read.format("kafkalog").option("decode", "yes").load(str(ldi)).count()
