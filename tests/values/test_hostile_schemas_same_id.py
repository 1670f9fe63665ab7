"""``_schemas`` records that register, under other subjects, an id a large schema holds: each was
compared with the held schema by parsing both texts as JSON, so one schema of S bytes and N such
records cost N x S (a 750 KB schema: 9 ms a record, minutes for a few MB of topic). The promise of
issue 39 item 9 (replay is linear in the topic) holds: the held schema's form is worked out once.
Timed at 4x the schema and 4x the records (support/timing.py)."""

from __future__ import annotations

import json

import pytest
from support.timing import GROWTH, assert_linear

from kafkaspec.values import SchemaStore

pytestmark = pytest.mark.hostile


def _records(fields: int, claims: int) -> list[tuple[bytes, bytes]]:
    big = json.dumps(
        {
            "type": "record",
            "name": "R",
            "fields": [{"name": f"f{i}", "type": "string"} for i in range(fields)],
        }
    )
    out = [
        (
            json.dumps({"keytype": "SCHEMA", "subject": "big", "version": 1, "magic": 1}).encode(),
            json.dumps({"subject": "big", "version": 1, "id": 1, "schema": big}).encode(),
        )
    ]
    for i in range(claims):
        schema = json.dumps(json.loads(big), indent=1) if i in (0, 2) else '"string"'  # the same, or another
        out.append(
            (
                json.dumps({"keytype": "SCHEMA", "subject": f"s{i}", "version": 1, "magic": 1}).encode(),
                json.dumps({"subject": f"s{i}", "version": 1, "id": 1, "schema": schema}).encode(),
            )
        )
    return out


def _replay(records) -> SchemaStore:
    store = SchemaStore()
    for k, v in records:
        store.apply(k, v)
    return store


def test_claims_on_a_held_id_replay_in_linear_time():
    small, large = _records(2000, 60), _records(2000 * GROWTH, 60 * GROWTH)
    assert_linear(lambda: _replay(small), lambda: _replay(large), what="claims on a held schema id")


def test_a_claim_is_refused_unless_it_is_the_same_schema():
    store = _replay(_records(50, 6))
    assert len(store.problems) == 4 and all("already 'big' version 1's" in p for _, p in store.problems)
    assert sorted(store.ids[1]) == ["big", "s0", "s2"]
