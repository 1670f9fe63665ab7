"""Issue 39 item 9: a ``_schemas`` replay is linear in its records, whatever one subject's history holds.

Each DELETE_SUBJECT walked all of its subject's versions, and each CLEAR_SUBJECT too: 40k records of
one subject took 19-25 s. The shapes below are the ones that made a record cost as much as the
subject's history; each is timed at 4x the records (support/timing.py)."""

from __future__ import annotations

import json
import os

import pytest
from support.timing import GROWTH, assert_linear
from support.values import skey, sval

from kafkaspec.values import SchemaStore

pytestmark = pytest.mark.hostile

SCALE = float(os.environ.get("KAFKASPEC_ADVERSARIAL_SCALE", "1"))


def _delete(subject: str, version: int) -> tuple[bytes, bytes]:
    return (
        json.dumps({"keytype": "DELETE_SUBJECT", "subject": subject, "magic": 0}).encode(),
        json.dumps({"subject": subject, "version": version}).encode(),
    )


def _clear(subject: str) -> tuple[bytes, bytes]:
    return (
        json.dumps({"keytype": "CLEAR_SUBJECT", "subject": subject, "magic": 0}).encode(),
        json.dumps({"subject": subject}).encode(),
    )


def _register(subject: str, version: int, deleted: bool = False) -> tuple[bytes, bytes]:
    return skey(subject, version), sval(subject, version, version, '"string"', deleted=deleted)


def delete_after_each(n: int) -> list[tuple[bytes, bytes]]:
    """A version registered, then the subject deleted up to it; n records, every version soft-deleted."""
    out = []
    for v in range(1, n // 2 + 1):
        out += [_register("s", v), _delete("s", v)]
    return out


def deletes_below_live_versions(n: int) -> list[tuple[bytes, bytes]]:
    """n/2 live versions, then n/2 deletes that reach none of them (version 0)."""
    return [_register("s", v) for v in range(1, n // 2 + 1)] + [_delete("s", 0) for _ in range(n // 2)]


def clears_beside_live_versions(n: int) -> list[tuple[bytes, bytes]]:
    """n/2 live versions, then n/2 clears (none soft-deleted: each clears nothing)."""
    return [_register("s", v) for v in range(1, n // 2 + 1)] + [_clear("s") for _ in range(n // 2)]


def redelete_and_clear(n: int) -> list[tuple[bytes, bytes]]:
    """n/3 live versions kept, and a version registered, soft-deleted and cleared n/3 times."""
    out = [_register("s", v) for v in range(1, n // 3 + 1)]
    for i in range(n // 9):
        v = n + i
        out += [_register("s", v, deleted=True), _clear("s"), _delete("s", 0)]
    return out


def _replay(records: list[tuple[bytes, bytes]]) -> SchemaStore:
    store = SchemaStore()
    for k, v in records:
        store.apply(k, v)
    assert not store.problems
    return store


@pytest.mark.parametrize(
    "shape", [delete_after_each, deletes_below_live_versions, clears_beside_live_versions, redelete_and_clear]
)
def test_one_subjects_replay_is_linear(shape):
    small, large = shape(int(10_000 * SCALE)), shape(int(10_000 * SCALE * GROWTH))
    assert_linear(lambda: _replay(small), lambda: _replay(large), what=f"_schemas replay, {shape.__name__}")


def test_the_shapes_replay_as_the_registry_does():
    """The semantics the timed shapes rely on (the quick version of each, checked by hand)."""
    store = _replay(delete_after_each(8))
    assert sorted(store.versions) == [("s", v) for v in range(1, 5)]
    assert all(sv.deleted for sv in store.versions.values()) and store.latest("s") is None
    store = _replay(deletes_below_live_versions(8))
    assert not any(sv.deleted for sv in store.versions.values()) and store.latest("s").version == 4
    store = _replay(clears_beside_live_versions(8))
    assert len(store.versions) == 4 and store.latest("s").version == 4
    store = _replay(redelete_and_clear(27))
    assert sorted(store.versions) == [("s", v) for v in range(1, 10)] and store.latest("s").version == 9


def test_a_deleted_version_registered_again_is_deleted_again_and_cleared():
    """Re-registration brings a soft-deleted version back; a later delete reaches it again, a clear
    then removes it, and a version above the delete stays."""
    store = SchemaStore()
    for k, v in [
        _register("s", 1),
        _register("s", 2),
        _delete("s", 2),
        _register("s", 1),
        _register("s", 3),
        _delete("s", 1),
    ]:
        store.apply(k, v)
    assert {v: sv.deleted for (_, v), sv in store.versions.items()} == {1: True, 2: True, 3: False}
    store.apply(*_register("s", 2))
    assert store.latest("s").version == 3
    store.apply(*_clear("s"))
    assert sorted(store.versions) == [("s", 2), ("s", 3)]
    store.apply(*_delete("s", 3))
    store.apply(*_clear("s"))
    assert store.versions == {} and store.ids == {} and store.subjects() == []
    store.apply(*_register("s", 1))
    assert store.latest("s").version == 1 and store.by_id(1) is not None


def test_a_soft_delete_by_register_then_a_live_reregistration():
    """``deleted: true`` in a SCHEMA record, then the same version live again: CLEAR_SUBJECT keeps it."""
    store = SchemaStore()
    for k, v in [_register("s", 1, deleted=True), _register("s", 1), _clear("s")]:
        store.apply(k, v)
    assert list(store.versions) == [("s", 1)] and store.latest("s").version == 1
