"""KIP-858 ``*-stray`` partition directories (issue 23, part 3): a broker that finds, at start-up, a
partition directory of a replica it no longer hosts renames it ``<topic>-<partition>.<uuid>-stray``.
Like ``-delete`` and ``-future`` directories it is not part of the log: a data dir's reader skips it
(it used to be read as topic ``orders-0.<uuid>-stray``, partition -1, its records counted twice),
``LogDir.skipped`` lists it, and ``verify`` reports it as a warning naming the directory and what it
is. Opened on its own it is still readable, as the topic and partition its name gives. Everything
is written under the test's own tmp_path, with a canary file that must survive.
"""

from __future__ import annotations

import contextlib
import io
import shutil

import pytest
from support.logdir import write_partition

from kafkaspec.cli import main
from kafkaspec.logdir import open_log, verify_path
from kafkaspec.logdir.kafka import files

UID = "0123456789abcdef0123456789abcdef"


@pytest.fixture
def data_dir(tmp_path):
    root = tmp_path / "data"
    write_partition(root, batches=5, topic="orders", partition=0)
    shutil.copytree(root / "orders-0", root / f"orders-0.{UID}-stray")
    shutil.copytree(root / "orders-0", root / f"orders-1.{UID}-delete")
    shutil.copytree(root / "orders-0", root / "orders-2-future")
    (tmp_path / "canary").write_text("keep")
    return root


def _cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([*map(str, argv)])
    return code, out.getvalue(), err.getvalue()


def test_names():
    assert files.parse_partition_dir(f"orders-0.{UID}-stray") is None
    assert files.is_skipped_dir(f"orders-0.{UID}-stray")
    assert files.parse_transient_dir(f"orders-0.{UID}-stray") == ("orders", 0, "stray")
    assert files.parse_transient_dir(f"my-topic-12.{UID}-delete") == ("my-topic", 12, "delete")
    assert files.parse_transient_dir("my-topic-3-future") == ("my-topic", 3, "future")
    assert files.parse_transient_dir("orders-0") is None
    assert files.parse_partition_dir("stray-0") == ("stray", 0)  # a topic may be named so


def test_a_data_dir_skips_and_lists_them(data_dir, tmp_path):
    log = open_log(data_dir)
    assert [(p.topic, p.partition) for p in log.partitions()] == [("orders", 0)]
    assert sorted(p.path.name for p in log.skipped) == sorted(
        [f"orders-0.{UID}-stray", f"orders-1.{UID}-delete", "orders-2-future"]
    )
    assert (tmp_path / "canary").read_text() == "keep"


def test_verify_warns_of_a_kip858_dir_and_notes_one_deleted_or_moved(data_dir, tmp_path):
    """-delete and -future are states a running broker's data dir is in (after a topic deletion, during a
    move between log dirs); a -stray one waits for an operator."""
    problems = verify_path(data_dir, notes=True)
    found = {p.path.rsplit("/", 1)[-1]: (p.severity, p.message) for p in problems}
    assert not [p for p in problems if p.severity == "error"]
    assert (
        found[f"orders-0.{UID}-stray"][0] == "warning"
        and "stray (KIP-858)" in found[f"orders-0.{UID}-stray"][1]
    )
    assert (
        found[f"orders-1.{UID}-delete"][0] == "note" and "being deleted" in found[f"orders-1.{UID}-delete"][1]
    )
    assert (
        found["orders-2-future"][0] == "note"
        and "moving to another log directory" in found["orders-2-future"][1]
    )
    code, out, err = _cli("verify", data_dir)
    assert code == 0 and f"orders-0.{UID}-stray" in out + err and "Traceback" not in err
    code, out, err = _cli("dump", data_dir)
    assert code == 0 and "stray" not in out
    assert (tmp_path / "canary").read_text() == "keep"


def test_a_stray_dir_opened_alone_is_its_partition(data_dir):
    (part,) = open_log(data_dir / f"orders-0.{UID}-stray").partitions()
    assert (part.topic, part.partition) == ("orders", 0)
    assert sum(1 for s in part.segments() for _ in s.iter_batches()) == 5
