"""``_schemas`` records whose JSON is nested thousands of levels deep.

The registry's topic is data like any other: a key or value nested deeply raised RecursionError out of
the replay, so ``inspect schemas`` and every decoder built from that data dir stopped there. Such a
record is now a problem of the store (named where it is), and the replay goes on.
"""

from __future__ import annotations

import pytest
from support.values import skey, sval

from kafkaspec.values import SchemaStore

pytestmark = pytest.mark.hostile

DEEP = b"[" * 100_000 + b"]" * 100_000
DEEP_OBJECT = b'{"a":' * 900 + b"1" + b"}" * 900


def test_deep_keys_and_values_are_problems_and_the_replay_goes_on():
    store = SchemaStore()
    store.apply(DEEP, b"{}", "at 0")
    store.apply(skey("x-value", 1), DEEP, "at 1")
    store.apply(skey("x-value", 1), DEEP_OBJECT, "at 2")
    store.apply(skey("x-value", 1), sval("x-value", 1, 1, '"long"'), "at 3")
    deep_text = "[" * 5000 + "]" * 5000  # the same subject-version and id again, with a deep schema text
    store.apply(skey("x-value", 1), sval("x-value", 1, 1, deep_text), "at 4")
    assert [where for where, _ in store.problems[:3]] == ["at 0", "at 1", "at 2"]
    assert [reason for _, reason in store.problems[:2]] == [
        "the key is JSON nested deeper than Python's reader goes",
        "the value is JSON nested deeper than Python's reader goes",
    ]
    got = store.by_id(1)  # the last record of a key wins, as the registry replays its compacted topic
    assert got is not None and got.schema == deep_text
