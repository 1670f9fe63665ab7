"""The run markers of a table (:mod:`kafkaspec.tables.leftovers`) against races: a run that marks the
table while another cleans keeps its marker (the cleaner removes only the markers it found dead), and
a run whose owner lives is never cleaned after, whatever its marker's age. In-process, times set by
hand (a file system's clock may give a marker and a file the same tick)."""

from __future__ import annotations

import os

import pytest

from kafkaspec.tables import leftovers
from kafkaspec.tables.leftovers import RunMarker

pytestmark = pytest.mark.hostile

T0 = 1_700_000_000 * 10**9
SECOND = 10**9


def _at(path, ns):
    os.utime(path, ns=(ns, ns))


def test_a_run_that_marks_while_another_cleans_keeps_its_marker(tmp_path, monkeypatch):
    dest, canary = tmp_path / "lake", tmp_path / "canary"
    canary.write_text("keep")
    data = dest / "orders"
    data.mkdir(parents=True)
    dead = RunMarker(str(dest), "orders")
    dead.close()  # it let go without committing: a dead run's
    _at(dead.path, T0)
    (data / "dead.parquet").write_bytes(b"x")
    _at(data / "dead.parquet", T0 + SECOND)
    me = RunMarker(str(dest), "orders")
    _at(me.path, T0 + 2 * SECOND)
    newcomer = []
    walk = os.walk

    def walk_while_a_run_marks(*args, **kwargs):  # between the cleaner's look at the markers and its end
        newcomer.append(RunMarker(str(dest), "orders"))
        yield from walk(*args, **kwargs)

    monkeypatch.setattr(leftovers.os, "walk", walk_while_a_run_marks)
    assert me.clean(str(data), set()) == 1
    monkeypatch.undo()
    assert not (data / "dead.parquet").exists() and not os.path.exists(dead.path)
    assert os.path.exists(newcomer[0].path) and os.path.exists(me.path)
    assert me.dead() is None  # the newcomer lives: the next clean touches nothing
    assert canary.read_text() == "keep"


def test_the_files_of_a_live_run_are_never_cleaned(tmp_path):
    dest = tmp_path / "lake"
    data = dest / "orders"
    data.mkdir(parents=True)
    live = RunMarker(str(dest), "orders")  # this process: alive, however old its marker
    _at(live.path, T0)
    ended = RunMarker(str(dest), "orders")
    ended.close()
    _at(ended.path, T0)
    (data / "live.parquet").write_bytes(b"x")
    _at(data / "live.parquet", T0 + SECOND)
    me = RunMarker(str(dest), "orders")
    _at(me.path, T0 + 2 * SECOND)
    assert me.clean(str(data), set()) == 0
    assert (data / "live.parquet").exists() and os.path.exists(ended.path)
    live.done()
    assert me.clean(str(data), set()) == 1  # the other one committed: what is left is the dead one's
    assert not (data / "live.parquet").exists()
    assert sorted(os.listdir(dest / leftovers.MARKERS / "orders")) == [os.path.basename(me.path)]


def test_a_file_of_the_same_tick_as_the_mark_is_left_to_the_next_run(tmp_path):
    """A store's times are whole seconds: a dead run's last file and the next run's mark may share one.
    That file stays (it could be a new run's), and so does the dead run's marker, so that the run after
    deletes it; before, the marker went and the file stayed for good."""
    dest = tmp_path / "lake"
    data = dest / "orders"
    data.mkdir(parents=True)
    dead = RunMarker(str(dest), "orders")
    dead.close()
    _at(dead.path, T0)
    (data / "early.parquet").write_bytes(b"x")
    _at(data / "early.parquet", T0 + SECOND)
    (data / "late.parquet").write_bytes(b"x")
    _at(data / "late.parquet", T0 + 2 * SECOND)
    me = RunMarker(str(dest), "orders")
    _at(me.path, T0 + 2 * SECOND)
    assert me.clean(str(data), set()) == 1
    assert (data / "late.parquet").exists() and os.path.exists(dead.path)
    me.done()
    after = RunMarker(str(dest), "orders")
    _at(after.path, T0 + 3 * SECOND)
    assert after.clean(str(data), set()) == 1
    assert not (data / "late.parquet").exists() and not os.path.exists(dead.path)


def test_files_named_with_a_run_go_with_that_run_only(tmp_path):
    """Per run: a dead run's named files go while another host's stale marker stands (which used to
    block the whole table); the files of that host's run, of a live run, of a run with no marker (one
    that committed since the references were read) and the referenced ones stay; a file named with no
    run stays while a run is not proven dead, and so do the dead markers, which bound it later."""
    dest, canary = tmp_path / "lake", tmp_path / "canary"
    canary.write_text("keep")
    data = dest / "orders"
    data.mkdir(parents=True)
    dead = RunMarker(str(dest), "orders")
    dead.close()
    live = RunMarker(str(dest), "orders")  # this process: alive
    other = "f" * 32
    (dest / leftovers.MARKERS / "orders" / other).write_text("elsewhere@pid:[1] boot 4242 777\n")
    gone = "c" * 32  # a run that committed and removed its marker since
    names = {
        "dead": f"part-00000-x-c000{leftovers.run_tag(dead.run)}.snappy.parquet",
        "dead-referenced": f"00000-1-x{leftovers.run_tag(dead.run)}.parquet",
        "live": f"00000-0-x{leftovers.run_tag(live.run)}.parquet",
        "other": f"00000-0-y{leftovers.run_tag(other)}.parquet",
        "committed": f"00000-0-z{leftovers.run_tag(gone)}.parquet",
        "unnamed": "00000-0-0b8e7f4c.parquet",
    }
    for n in names.values():
        (data / n).write_bytes(b"x")
    for marker in (dead.path, live.path, data / names["dead"], data / names["unnamed"]):
        _at(marker, T0)
    me = RunMarker(str(dest), "orders")
    _at(me.path, T0 + 2 * SECOND)
    assert me.dead() is None and me.any_dead()
    assert me.clean(str(data), {str(data / names["dead-referenced"])}) == 1
    assert sorted(os.listdir(data)) == sorted(n for k, n in names.items() if k != "dead")
    assert os.path.exists(dead.path)  # kept while a run is not proven dead
    assert leftovers.file_run(str(data / names["other"])) == other
    assert leftovers.file_run(str(data / names["unnamed"])) is None
    assert canary.read_text() == "keep"
