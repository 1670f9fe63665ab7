"""``kafkaspec pipeline`` plans while Spark starts (``kafkaspec.spark.run.planned.PlanAhead``): the same plan
as made in turn, and what planning raises is raised where the plan is used. No Spark session."""

from __future__ import annotations

from dataclasses import replace

import pytest

from kafkaspec.spark.run.planned import PlanAhead, plan_pipeline


def _plain(tasks):
    """The ranges, their transaction index as what it says (it has no equality of its own)."""
    return [(replace(t, read_committed=None), t.read_committed and vars(t.read_committed)) for t in tasks]


def test_the_plan_made_ahead_is_the_plan(synth_dir):
    ahead = PlanAhead(str(synth_dir), isolation_level="read_uncommitted", split_size="256k")
    assert ahead._thread.daemon  # an interrupt does not wait for it
    got = ahead.result()
    made = plan_pipeline(str(synth_dir), isolation_level="read_uncommitted", split_size="256k")
    assert _plain(got.tasks) == _plain(made.tasks) and len(got.tasks) > 10
    assert got.unused == made.unused and got.opts == made.opts and got.values is None
    assert got.seconds > 0


def test_what_planning_raises_comes_from_result(tmp_path):
    with pytest.raises(Exception) as made:
        plan_pipeline(str(tmp_path / "missing"))
    ahead = PlanAhead(str(tmp_path / "missing"))  # made without raising
    with pytest.raises(type(made.value)) as got:
        ahead.result()
    assert str(got.value) == str(made.value)
    with pytest.raises(type(made.value)):  # and again, to any later caller
        ahead.result()


def test_an_option_error_too(synth_dir):
    with pytest.raises(Exception) as made:
        plan_pipeline(str(synth_dir), split_size="lots")
    with pytest.raises(type(made.value), match="lots"):
        PlanAhead(str(synth_dir), split_size="lots").result()


@pytest.mark.hostile
def test_a_fifo_for_a_segment_is_refused_not_waited_on(tmp_path):
    """A FIFO named as a segment: planning ahead refuses it (it would block a reader opening it), and the
    refusal comes from result(), naming it; the canary beside it stays."""
    import os

    from kafkaspec.errors import KafkaFormatError

    (tmp_path / "canary").write_text("stays")
    fifo = tmp_path / "00000000000000000000.log"
    os.mkfifo(fifo)
    with pytest.raises(KafkaFormatError, match="FIFO") as got:
        PlanAhead(str(fifo)).result()
    assert str(fifo) in str(got.value)
    assert (tmp_path / "canary").read_text() == "stays"


@pytest.mark.hostile
def test_a_name_with_a_newline_and_an_escape_is_shown_escaped(tmp_path):
    name = str(tmp_path / "no\nsuch\x1b[31mdir")
    with pytest.raises(FileNotFoundError) as got:
        PlanAhead(name).result()
    assert "\n" not in str(got.value) and "\x1b" not in str(got.value)
