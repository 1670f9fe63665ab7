"""Filter pushdown: topic, partition and offset filters prune planning and are applied exactly."""

from __future__ import annotations

import pytest
from pyspark.sql.datasource import (
    EqualTo,
    GreaterThan,
    GreaterThanOrEqual,
    In,
    IsNotNull,
    LessThan,
    LessThanOrEqual,
    Not,
)
from support.spark import runtime_rows, source_rows

from kafkaspec.spark.read.options import ReadOptions
from kafkaspec.spark.read.planning import plan
from kafkaspec.spark.read.pushdown import Pushed, push
from kafkaspec.spark.read.source import KafkaLogReader


def test_push_reduces_supported_filters_and_returns_the_rest_by_reference():
    other = [
        EqualTo(("key",), b"k"),
        In(("offset",), (1, 2)),
        Not(EqualTo(("topic",), "a")),
        IsNotNull(("offset",)),
        GreaterThan(("topic",), "a"),
        EqualTo(("offset",), 1.5),
    ]
    filters = [
        EqualTo(("topic",), "users"),
        In(("topic",), ("users", "orders")),
        GreaterThanOrEqual(("partition",), 0),
        LessThan(("partition",), 2),
        In(("partition",), (0, 1, 5)),
        GreaterThan(("offset",), 9),
        LessThanOrEqual(("offset",), 30),
        GreaterThanOrEqual(("offset",), 5),
        *other,
    ]
    pushed, rest = push(filters)
    assert pushed == Pushed(
        topics=frozenset({"users"}),
        partitions=frozenset({0, 1, 5}),
        partition_lo=0,
        partition_hi=2,
        offset_lo=10,
        offset_hi=31,
    )
    assert len(rest) == len(other) and all(a is b for a, b in zip(rest, other, strict=True))
    assert pushed.wants("users", 1) and not pushed.wants("users", 5) and not pushed.wants("orders", 0)


def test_pushed_offsets_combine_with_the_offset_options():
    opts = ReadOptions.parse({"startingOffsets": '{"t": {"0": 20}}', "endingOffsets": '{"t": {"0": 50}}'})
    assert opts.offset_range("t", 0) == (20, 50)
    tighter = ReadOptions(**{**opts.__dict__, "pushed": Pushed(offset_lo=-3, offset_hi=40)})
    assert tighter.offset_range("t", 0) == (20, 40)
    assert tighter.offset_range("u", 0) == (0, 40)


def test_pushdown_prunes_the_plan(synth_dir):
    near_end = max(r[2] for r in runtime_rows(synth_dir, {"assign": '{"users": [0]}'})) - 10
    reader = KafkaLogReader(str(synth_dir), ReadOptions.parse({"splitSize": "64k"}))
    everything = plan(str(synth_dir), reader.opts)
    rest = list(
        reader.pushFilters(
            [
                EqualTo(("topic",), "users"),
                EqualTo(("partition",), 0),
                GreaterThanOrEqual(("offset",), near_end),
            ]
        )
    )
    assert rest == []
    pruned = [p.task for p in reader.partitions()]
    assert 0 < len(pruned) < len([t for t in everything if t.topic == "users"])
    assert {(t.topic, t.partition, t.min_offset) for t in pruned} == {("users", 0, near_end)}


@pytest.mark.spark
@pytest.mark.parametrize(
    ("where", "keep"),
    [
        (
            "topic = 'users' and partition = 0 and offset >= 1500 and offset < 1800",
            lambda t, p, o, k: t == "users" and p == 0 and 1500 <= o < 1800,
        ),
        (
            "topic in ('orders', 'clicks') and partition > 0 and offset <= 40",
            lambda t, p, o, k: t in ("orders", "clicks") and p > 0 and o <= 40,
        ),
        ("offset = 7", lambda t, p, o, k: o == 7),
        (
            "partition in (1, 2) and offset > 100 and key is not null",
            lambda t, p, o, k: p in (1, 2) and o > 100 and k is not None,
        ),
        ("not (topic = 'users') and offset < 3", lambda t, p, o, k: t != "users" and o < 3),
        ("topic = 'nope'", lambda t, p, o, k: False),
    ],
)
def test_filtered_reads_match_the_runtime_reader(spark, synth_dir, where, keep):
    df = spark.read.format("kafkalog").load(str(synth_dir)).where(where)
    got = sorted(
        (r["topic"], r["partition"], r["offset"], r["value"])
        for r in df.select("topic", "partition", "offset", "value").toArrow().to_pylist()
    )
    expected = [(t, p, o, v) for t, p, o, _, k, v, _ in runtime_rows(synth_dir) if keep(t, p, o, k)]
    assert got == sorted(expected)
    assert expected or where == "topic = 'nope'"


def test_unfiltered_read_is_unchanged_by_pushdown(spark, synth_dir):
    assert source_rows(spark, synth_dir, {"subscribe": "users"}) == runtime_rows(
        synth_dir, {"subscribe": "users"}
    )
