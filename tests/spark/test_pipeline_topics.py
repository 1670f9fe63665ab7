"""``pipeline --topics``: names and shell patterns to read, ``!`` before one to leave it out, as the
source's ``subscribePattern`` (no Spark started here: the pattern and the topics it keeps)."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from kafkaspec.spark.run.pipeline import topic_pattern

TOPICS = ["orders", "orders-dlq", "payments", "__consumer_offsets", "_schemas", "users"]


def _kept(patterns: str) -> list[str]:
    regex = topic_pattern(patterns)
    return [t for t in TOPICS if re.fullmatch(regex, t)]


@pytest.mark.parametrize(
    ("patterns", "kept"),
    [
        ("orders", ["orders"]),
        ("orders*,payments", ["orders", "orders-dlq", "payments"]),
        ("orders*,!orders-dlq", ["orders"]),
        ("!_*", ["orders", "orders-dlq", "payments", "users"]),
        ("!__*, !_schemas , !orders-dlq", ["orders", "payments", "users"]),
        ("ord?rs", ["orders"]),
    ],
)
def test_patterns_keep_these_topics(patterns, kept):
    assert _kept(patterns) == kept


def test_the_source_option_keeps_the_same_topics():
    from kafkaspec.spark.read.options import ReadOptions

    opts = ReadOptions.parse({"subscribePattern": topic_pattern("orders*,!orders-dlq")})
    assert [t for t in TOPICS if opts.wants(t, 0)] == ["orders"]


def test_an_empty_topics_argument_is_a_usage_error(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "kafkaspec", "pipeline", tmp_path, tmp_path / "out", "--topics", " , "],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2 and "names no topic" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "out").exists()
