"""Issue 30 item 7: a symbolic link in a data dir never multiplies (or imports) data.

``ln -s . data/loop`` made the walk read every partition once per level it descends (5 times:
``dump`` printed 15 records for 3, ``rewrite`` reported 15 and wrote 3). The walk follows no
symbolic link to a directory, out of the tree or back into it: each is passed over and said
(``LogDir.skipped``, a ``SkippedDirWarning``, one line on the CLI's stderr, a warning in
``verify``). A partition directory that is a link to one outside the tree is passed over the same
way (decided: the tree is what is read; open the link's own path to read it). Every test builds
its tree in its own ``tmp_path``, with a canary file beside it that must survive.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import warnings
from pathlib import Path

import pytest

from kafkaspec import Record
from kafkaspec.cli import main
from kafkaspec.errors import SkippedDirWarning
from kafkaspec.logdir import PartitionWriter, copy, open_log, verify_path, write_tiered

pytestmark = pytest.mark.hostile

CANARY = b"must survive"


def _cli(*args: str) -> subprocess.CompletedProcess:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return subprocess.CompletedProcess(list(args), code, out.getvalue(), err.getvalue())


def _data_dir(root: Path) -> Path:
    """``root/data`` with t-0 (3 records) and u-1 (2 records), and a canary beside ``data``."""
    data = root / "data"
    for topic, partition, n in (("t", 0, 3), ("u", 1, 2)):
        with PartitionWriter(data, topic, partition) as w:
            w.append(
                [Record(key=b"k%d" % i, value=b"v%d" % i, timestamp=1_700_000_000_000 + i) for i in range(n)]
            )
    (root / "canary").write_bytes(CANARY)
    return data


def _records(path: Path) -> list[tuple[str, int, int]]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SkippedDirWarning)
        with open_log(path) as log:
            return [(p.topic, p.partition, r.offset) for p in log.partitions() for _, r in p.records()]


EXPECTED = [("t", 0, 0), ("t", 0, 1), ("t", 0, 2), ("u", 1, 0), ("u", 1, 1)]


#: (link inside data, its target): loops back into the tree at several depths
LOOPS = [("loop", "."), ("up", ".."), ("nested/deeper/back", "../.."), ("nested/self", "../nested")]


@pytest.mark.parametrize(("link", "target"), LOOPS)
def test_a_symlink_loop_reads_each_partition_once(tmp_path, link, target):
    data = _data_dir(tmp_path)
    (data / link).parent.mkdir(parents=True, exist_ok=True)
    os.symlink(target, data / link)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        log = open_log(data)
        parts = [p.name for p in log.partitions()]
    assert parts == ["t-0", "u-1"]
    assert [str(s.path) for s in log.skipped] == [str(data / link)]
    assert "symbolic link" in log.skipped[0].reason
    assert [str(w.message.path) for w in caught if isinstance(w.message, SkippedDirWarning)] == [
        str(data / link)
    ]
    assert _records(data) == EXPECTED
    assert (tmp_path / "canary").read_bytes() == CANARY


def test_dump_of_a_looped_data_dir_prints_each_record_once_and_says_what_it_skipped(tmp_path):
    data = _data_dir(tmp_path)
    os.symlink(".", data / "loop")
    proc = _cli("dump", str(data), "--print-data")
    assert proc.returncode == 0, proc
    assert proc.stdout.count("| offset: ") == 5, proc.stdout
    assert proc.stderr.splitlines() == [
        f"kafkaspec dump: warning: {data / 'loop'}: skipped: a symbolic link (to .): "
        "not followed, so that no directory is read twice or from outside the "
        "tree; open it by its own path to read it"
    ]


def test_rewrite_of_a_looped_data_dir_reports_what_it_wrote(tmp_path):
    data = _data_dir(tmp_path)
    os.symlink(".", data / "loop")
    dst = tmp_path / "dst"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        report = copy(data, dst)
    assert (report.partitions, report.records) == (2, 5)
    assert [w.message.path for w in caught if isinstance(w.message, SkippedDirWarning)] == [
        str(data / "loop")
    ]
    assert _records(dst) == EXPECTED
    dst2 = tmp_path / "dst2"
    proc = _cli("rewrite", str(data), str(dst2))
    assert proc.returncode == 0 and "wrote 2 partitions, 2 batches, 5 records" in proc.stdout, proc
    assert len(proc.stderr.splitlines()) == 1 and "warning:" in proc.stderr and "loop" in proc.stderr
    assert (tmp_path / "canary").read_bytes() == CANARY


def test_verify_checks_each_partition_once_and_warns_about_the_link(tmp_path):
    data = _data_dir(tmp_path)
    os.symlink("..", data / "up")
    problems = verify_path(data)
    assert [(p.path, p.severity) for p in problems] == [(str(data / "up"), "warning")]
    assert "symbolic link" in problems[0].message


def test_a_partition_linked_from_outside_the_tree_is_not_read_and_is_named(tmp_path):
    """Decided: a data dir's walk reads the tree, not what its links point at; such a partition is named in
    one line (its own path still opens it)."""
    data = _data_dir(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    with PartitionWriter(elsewhere, "ext", 0) as w:
        w.append([Record(value=b"x", timestamp=1)])
    os.symlink(elsewhere / "ext-0", data / "ext-0")
    assert _records(data) == EXPECTED
    proc = _cli("dump", str(data))
    assert proc.returncode == 0 and "ext-0" in proc.stderr and "symbolic link" in proc.stderr, proc
    assert _records(data / "ext-0") == [("ext", 0, 0)]


def test_a_symlink_to_a_file_is_not_a_directory_to_walk(tmp_path):
    data = _data_dir(tmp_path)
    os.symlink(data / "t-0" / "00000000000000000000.log", data / "stray.log")
    with warnings.catch_warnings():
        warnings.simplefilter("error", SkippedDirWarning)
        assert [p.name for p in open_log(data).partitions()] == ["t-0", "u-1"]


def test_a_tiered_layout_with_a_loop_reads_each_partition_once(tmp_path):
    data = _data_dir(tmp_path)
    tiered = tmp_path / "tiered"
    write_tiered(data, tiered)
    os.symlink(".", tiered / "loop")
    os.symlink("..", tiered / next(p.name for p in tiered.iterdir() if p.name.startswith("t-")) / "up")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        parts = [(p.topic, p.partition) for p in open_log(tiered).partitions()]
    assert parts == [("t", 0), ("u", 1)]
    assert sum(isinstance(w.message, SkippedDirWarning) for w in caught) >= 1
    assert _records(tiered) == EXPECTED
    proc = _cli("dump", str(tiered), "--print-data")
    assert proc.returncode == 0 and proc.stdout.count("| offset: ") == 5, proc
    lines = proc.stderr.splitlines()  # each link once, though both layouts' walks meet the first
    assert [line.split(": skipped: ")[0].rsplit("/", 1)[-1] for line in lines] == ["loop", "up"], lines


def test_a_directory_reached_twice_without_a_link_is_read_once(tmp_path, monkeypatch):
    """A bind mount (``mount --bind data data/again``) reaches a directory by a second path with no link
    to see; the walk knows directories by (st_dev, st_ino). Mounting needs privileges a test should not
    use, so the second path is a copy that the walk is told has the first one's identity."""
    from kafkaspec.logdir.kafka import layout

    data = _data_dir(tmp_path)
    again = data / "again"
    again.mkdir()
    (data / "t-0").rename(again / "t-0")
    real = layout._identity

    def identity(path: Path) -> tuple[int, int]:
        return real(data) if path == again else real(path)

    monkeypatch.setattr(layout, "_identity", identity)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        log = open_log(data)
        assert [p.name for p in log.partitions()] == ["u-1"]
    assert [(str(s.path), "bind mount" in s.reason) for s in log.skipped] == [(str(again), True)]
    assert sum(isinstance(w.message, SkippedDirWarning) for w in caught) == 1
