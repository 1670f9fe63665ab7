"""Issue 39 item 3: a ``.log`` entry that is not a readable regular file is a gap every reader reports.

A dangling symbolic link, a FIFO, a directory or an unreadable file named like a segment was left out
of ``Partition.segments()`` in silence: ``dump`` exited 0 starting at the next segment and ``to_arrow``
returned the other segments' rows; only ``verify`` noticed. Now such an entry is a segment that
cannot be read, reported where a corrupt one is: ``dump`` names it on stderr (exit 1) and prints the
other segments, ``to_arrow`` raises the :class:`KafkaFormatError` naming it (as for a corrupt batch),
``verify`` reports it once. A FIFO is never opened for reading (it would wait for a writer). A symbolic
link to a regular segment is read, as before (a file has no loop to guard against; the data dir's walk
does not follow links to directories: tests/logdir/test_symlink_loops.py). Every tree is built in
its own ``tmp_path`` with a canary beside it.
"""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.logdir import CANARY, twelve_records_in_segments

from kafkaspec.errors import KafkaFormatError
from kafkaspec.logdir import open_log, verify_path

pytestmark = [pytest.mark.hostile]

FIRST = "00000000000000000000.log"


def _partition(root: Path) -> Path:
    return twelve_records_in_segments(root)


def _offsets_after_first(part: Path) -> list[int]:
    logs = sorted(part.glob("*.log"))
    first_of_second = int(logs[1].name.split(".")[0])
    return list(range(first_of_second, 12))


def _dangling(seg: Path) -> str:
    seg.unlink()
    seg.symlink_to(seg.parent / "gone.log")
    return "dangling"


def _fifo(seg: Path) -> str:
    seg.unlink()
    os.mkfifo(seg)
    return "FIFO"


def _directory(seg: Path) -> str:
    seg.unlink()
    seg.mkdir()
    return "directory"


#: how each entry is made from the first segment, and a word its message holds
ENTRIES = {"dangling symlink": _dangling, "fifo": _fifo, "directory": _directory}


def _dump(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "kafkaspec.cli", "dump", str(path), "--print-data"],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )


@pytest.mark.parametrize("kind", sorted(ENTRIES))
def test_dump_names_the_entry_and_prints_the_other_segments(tmp_path, kind):
    part = _partition(tmp_path)
    expected = _offsets_after_first(part)
    word = ENTRIES[kind](part / FIRST)
    for target in (part, part.parent):
        proc = _dump(target)
        assert proc.returncode == 1, proc
        assert "Traceback" not in proc.stderr
        lines = proc.stderr.splitlines()
        assert len(lines) == 1 and str(part / FIRST) in lines[0] and word in lines[0], lines
        printed = [
            int(line.split("offset: ")[1].split()[0])
            for line in proc.stdout.splitlines()
            if line.startswith("| offset: ")
        ]
        assert printed == expected, proc.stdout
    assert (tmp_path / "canary").read_bytes() == CANARY


@pytest.mark.parametrize("kind", sorted(ENTRIES))
def test_to_arrow_raises_naming_the_entry(tmp_path, kind):
    pytest.importorskip("pyarrow")
    part = _partition(tmp_path)
    ENTRIES[kind](part / FIRST)
    with open_log(part) as log:
        p = log.partitions()[0]
        assert [s.path.name for s in p.segments()][0] == FIRST
        with pytest.raises(KafkaFormatError) as info:
            p.to_arrow()
        assert info.value.source == str(part / FIRST)
        with pytest.raises(KafkaFormatError) as info:
            list(p.to_arrow_batches())
        assert info.value.source == str(part / FIRST)
        with pytest.raises(KafkaFormatError):
            list(log.to_arrow_batches())
    assert (tmp_path / "canary").read_bytes() == CANARY


@pytest.mark.parametrize("kind", sorted(ENTRIES))
def test_records_raise_and_the_other_readers_go_on(tmp_path, kind):
    """``records()`` stops at the gap as at a corrupt batch; read_committed passes over a segment that
    cannot be read (its read reports it) instead of failing the partition; a timestamp seek that meets
    it before its answer stops there (what it holds is unknown), so that reading on reports it."""
    part = _partition(tmp_path)
    ENTRIES[kind](part / FIRST)
    with open_log(part) as log:
        p = log.partitions()[0]
        with pytest.raises(KafkaFormatError) as info:
            list(p.records())
        assert info.value.source == str(part / FIRST)
        assert p.offset_for_timestamp(1_700_000_000_000 + 10) == 0
        with pytest.raises(KafkaFormatError):
            list(p.records(start_timestamp=1_700_000_000_000 + 10))
        assert p.read_committed() is not None
        assert [
            r.offset for _, r in p.records(start_offset=_offsets_after_first(part)[0])
        ] == _offsets_after_first(part)


@pytest.mark.parametrize("kind", sorted(ENTRIES))
def test_verify_reports_the_entry_once(tmp_path, kind):
    part = _partition(tmp_path)
    word = ENTRIES[kind](part / FIRST)
    problems = [p for p in verify_path(part) if p.severity == "error"]
    named = [p for p in problems if p.path == str(part / FIRST)]
    assert len(named) == 1 and word in named[0].message, problems


def test_an_unreadable_segment_is_a_gap(tmp_path, monkeypatch):
    """Tests run as root, where ``chmod 000`` denies nothing: the open is made to fail as it would."""
    from kafkaspec.logdir.store import fs

    part = _partition(tmp_path)
    target = str(part / FIRST)
    real_open = os.open

    def deny(path, flags, *args, **kwargs):
        if os.fspath(path) == target:
            raise PermissionError(errno.EACCES, "Permission denied", target)
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(fs.os, "open", deny)
    with open_log(part) as log:
        p = log.partitions()[0]
        with pytest.raises(KafkaFormatError) as info:
            p.to_arrow()
        assert info.value.source == target and "permission denied" in info.value.reason
        assert [
            r.offset for _, r in p.records(start_offset=_offsets_after_first(part)[0])
        ] == _offsets_after_first(part)
    problems = [p for p in verify_path(part) if p.path == target]
    assert len(problems) == 1 and "permission denied" in problems[0].message


def test_a_symlink_to_a_regular_segment_is_read(tmp_path):
    part = _partition(tmp_path)
    elsewhere = tmp_path / "elsewhere.log"
    (part / FIRST).rename(elsewhere)
    (part / FIRST).symlink_to(elsewhere)
    with open_log(part) as log:
        assert [r.offset for p in log.partitions() for _, r in p.records()] == list(range(12))
    proc = _dump(part)
    assert proc.returncode == 0 and proc.stderr == "", proc
    assert elsewhere.exists() and (tmp_path / "canary").read_bytes() == CANARY


def test_a_timestamp_seek_into_the_last_segment_reports_it(tmp_path):
    """``dump --start-timestamp`` whose records are in a segment that cannot be read: exit 1 naming it
    (it printed nothing and exited 0)."""
    part = _partition(tmp_path)
    last = sorted(part.glob("*.log"))[-1]
    _fifo(last)
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "kafkaspec.cli",
            "dump",
            str(part),
            "--start-timestamp",
            str(1_700_000_000_000 + 11),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 1 and str(last) in proc.stderr and "FIFO" in proc.stderr, proc
