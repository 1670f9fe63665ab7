"""The kafkalog writer's commit plan: a pure function of the tasks' pieces, the same for a local
directory (applied by rename) and an object store (applied by publishing)."""

from __future__ import annotations

import pytest

from kafkaspec.spark.write.commit import How, Piece, kept_files, plan_commit


def _piece(
    first: int, last: int, *, numbered: bool = False, sources: list | None = None, topic: str = "t"
) -> Piece:
    return Piece(topic, 0, f"/staged/{topic}/{first}", first, last, numbered, sources)


def test_each_partition_gets_one_plan_in_name_order_with_its_pieces_sorted() -> None:
    plans = plan_commit(
        {("u", 0): [_piece(10, 19, topic="u"), _piece(0, 9, topic="u")], ("t", 0): [_piece(0, 4)]}
    )
    assert [(p.name, p.how.value, [x.first_offset for x in p.pieces]) for p in plans] == [
        ("t-0", "files", [0]),
        ("u-0", "files", [0, 10]),
    ]


def test_numbered_pieces_of_several_tasks_are_renumbered_not_refused() -> None:
    # every task numbers its rows from 0: the offsets overlap, and that is why they are renumbered
    (plan,) = plan_commit({("t", 0): [_piece(0, 4, numbered=True), _piece(0, 2, numbered=True)]})
    assert plan.how is How.RENUMBER


def test_batch_preserving_pieces_are_rebuilt() -> None:
    (plan,) = plan_commit({("t", 0): [_piece(0, 4, sources=[("s.log", 0, 5)])]})
    assert plan.how is How.REBUILD


def test_overlapping_offsets_are_refused_naming_both_ranges() -> None:
    with pytest.raises(ValueError, match=r"overlapping offsets of t-0 \(0\.\.9 and 5\.\.12\)"):
        plan_commit({("t", 0): [_piece(5, 12), _piece(0, 9)]})


def test_kept_files_take_small_files_from_the_first_piece_and_the_snapshot_from_the_last() -> None:
    first = [
        ("leader-epoch-checkpoint", 20, "a/lec"),
        ("00000000000000000000.log", 100, "a/log"),
        ("00000000000000000010.snapshot", 10, "a/snap"),
        ("00000000000000000010.log", 0, "a/empty"),
    ]
    last = [
        ("leader-epoch-checkpoint", 20, "b/lec"),
        ("00000000000000000010.log", 80, "b/log"),
        ("00000000000000000020.snapshot", 10, "b/snap"),
        ("00000000000000000020.log", 0, "b/empty"),
    ]
    assert kept_files([first, last]) == ["a/lec", "a/log", "b/log", "b/snap", "b/empty"]
