"""Golden vectors for the message-spec codecs (tests/codecs/vectors/messages.jsonl): bytes composed
by hand from Kafka's documented layouts, with the values they hold. Every vector decodes to its
value (fields the version lacks read as their defaults) and encodes back to the same bytes."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest

from kafkaspec.payloads import fields_of, jsonable
from kafkaspec.spec import snake

VECTORS = [json.loads(line) for line in (Path(__file__).parent / "vectors" / "messages.jsonl").read_text().splitlines()]


def test_the_vectors_cover_every_family():
    names = {v["message"] for v in VECTORS}
    assert {"LeaderChangeMessage", "VotersRecord", "PartitionChangeRecord", "OffsetCommitValue",
            "TransactionLogValue", "ConsumerGroupMemberMetadataValue"} <= names
    assert {v["version"] for v in VECTORS if v["message"] == "OffsetCommitValue"} == {0, 1, 2, 3, 4}


@pytest.mark.parametrize("vector", VECTORS, ids=[f"{v['message']}-v{v['version']}-{i}" for i, v in enumerate(VECTORS)])
def test_vector(vector):
    name, version = vector["message"], vector["version"]
    module = importlib.import_module(f"kafkaspec.generated.messages.{snake(name)}")
    data = bytes.fromhex(vector["hex"])
    value, end = getattr(module, f"decode_{snake(name)}")(data, version)
    assert end == len(data)
    assert jsonable(fields_of(value)) == vector["value"]
    assert getattr(module, f"encode_{snake(name)}")(value, version) == data
