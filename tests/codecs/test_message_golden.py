"""Golden vectors for the message-spec codecs (tests/codecs/vectors/messages.jsonl): bytes composed
by hand from Kafka's documented layouts, and bytes composed by ``vectors/compose_messages.py`` from
Kafka's own JSON specs (independently of our schemas and encoders), with the values they hold.
Every vector decodes to its value (hand-made ones: every field, those the version lacks as their
defaults; ``present_only`` ones: the fields on the wire) and encodes back to the same bytes; every
version of every message has one."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest

from kafkaspec.payloads import fields_of, jsonable
from kafkaspec.spec import load, snake

VECTORS = [
    json.loads(line)
    for line in (Path(__file__).parent / "vectors" / "messages.jsonl").read_text().splitlines()
]
SCHEMAS = load(Path(__file__).resolve().parents[2] / "schemas")


def test_every_message_version_has_a_vector():
    have = {(v["message"], v["version"]) for v in VECTORS}
    missing = [(m.name, v) for m in SCHEMAS.messages.values() for v in m.versions if (m.name, v) not in have]
    assert not missing, f"message versions without a golden vector: {missing}"


def _mismatches(expected, actual, path="value") -> list[str]:
    """Where ``actual`` differs from ``expected`` in the fields ``expected`` lists (nested too)."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{path}: {actual!r} is not a structure"]
        return [
            m
            for k, v in expected.items()
            for m in (_mismatches(v, actual[k], f"{path}.{k}") if k in actual else [f"{path}.{k}: missing"])
        ]
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [f"{path}: {actual!r}, expected {expected!r}"]
        return [
            m
            for i, (e, a) in enumerate(zip(expected, actual, strict=True))
            for m in _mismatches(e, a, f"{path}[{i}]")
        ]
    return [] if expected == actual else [f"{path}: {actual!r}, expected {expected!r}"]


def test_the_subset_comparison_sees_differences():
    assert _mismatches({"a": [{"b": 1}]}, {"a": [{"b": 1, "c": 2}], "d": 3}) == []
    assert _mismatches({"a": [{"b": 1}]}, {"a": [{"b": 2}]}) == ["value.a[0].b: 2, expected 1"]
    assert _mismatches({"a": 1}, {}) == ["value.a: missing"]


def test_the_vectors_cover_every_family():
    names = {v["message"] for v in VECTORS}
    assert {
        "LeaderChangeMessage",
        "VotersRecord",
        "PartitionChangeRecord",
        "OffsetCommitValue",
        "TransactionLogValue",
        "ConsumerGroupMemberMetadataValue",
    } <= names
    assert {v["version"] for v in VECTORS if v["message"] == "OffsetCommitValue"} == {0, 1, 2, 3, 4}


@pytest.mark.parametrize(
    "vector", VECTORS, ids=[f"{v['message']}-v{v['version']}-{i}" for i, v in enumerate(VECTORS)]
)
def test_vector(vector):
    name, version = vector["message"], vector["version"]
    module = importlib.import_module(f"kafkaspec.generated.messages.{snake(name)}")
    data = bytes.fromhex(vector["hex"])
    value, end = getattr(module, f"decode_{snake(name)}")(data, version)
    assert end == len(data)
    if vector.get("present_only"):
        assert not _mismatches(vector["value"], jsonable(fields_of(value)))
        assert not getattr(value, "unknown_tagged_fields", None), (
            "a tagged field Kafka defines is unknown to the schema"
        )
    else:
        assert jsonable(fields_of(value)) == vector["value"]
    assert getattr(module, f"encode_{snake(name)}")(value, version) == data
