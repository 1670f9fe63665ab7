"""A partition's whole history: a broker's local data dir plus its tiered copy (issue 24, item 5).

With tiered storage the local log keeps only its newest segments (from the local log start offset);
older ones are remote. ``open_log(local, tiered=prefix)`` reads the remote segments up to where the
local log takes over and the local ones after, each offset once; ``verify(local, tiered=prefix)``
checks that they meet without a gap or an overlap. Everything is written under the test's tmp_path,
beside a canary file that must survive.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from support.logdir import write_partition

from kafkaspec import logdir


def _records(log) -> list[tuple]:
    return [
        (p.topic, p.partition, r.offset, r.key, r.value) for p in log.partitions() for _, r in p.records()
    ]


def _broker(tmp_path: Path, keep_from: int) -> tuple[Path, Path, list[tuple], list[Path]]:
    """A data dir of two partitions, all of it uploaded; then each local log keeps only its segments from
    the ``keep_from``-th on (local retention). Returns (local, remote, every record, the local segments
    deleted)."""
    local = tmp_path / "data"
    write_partition(local, topic="t", partition=0, batches=70, seed=5, segment_bytes=1500)
    write_partition(local, topic="t", partition=1, batches=50, seed=6, segment_bytes=1500)
    expected = _records(logdir.open_log(local))
    remote = tmp_path / "remote"
    logdir.write_tiered(local, remote, chunk_size=600)
    deleted = []
    for part in ("t-0", "t-1"):
        logs = sorted((local / part).glob("*.log"))
        for seg in logs[:keep_from]:
            for p in (local / part).glob(seg.name[:20] + ".*"):
                deleted.append(p)
                p.unlink()
    (tmp_path / "canary").write_text("keep")
    return local, remote, expected, deleted


def test_the_local_log_and_its_tiered_copy_read_as_one_history(tmp_path):
    local, remote, expected, deleted = _broker(tmp_path, keep_from=3)
    assert deleted and _records(logdir.open_log(local)) != expected  # the local log alone lost its start
    log = logdir.open_log(local, tiered=remote)
    assert _records(log) == expected
    for part in log.partitions():  # three segments from the tiered copy, then the local ones
        layouts = [s.layout for s in part.segments()]
        assert layouts[:3] == ["tiered"] * 3 and set(layouts[3:]) == {"kafka"}, layouts
    for part in log.partitions():
        offsets = [r.offset for _, r in part.records()]
        assert offsets == sorted(set(offsets))
    assert logdir.verify(local, tiered=remote) == []

    import pyarrow as pa

    table = pa.Table.from_batches(list(logdir.open_log(local, tiered=remote).to_arrow_batches()))
    assert list(zip(table["partition"].to_pylist(), table["offset"].to_pylist())) == [
        (r[1], r[2]) for r in expected
    ]
    assert (tmp_path / "canary").read_text() == "keep"


def test_a_gap_between_the_tiered_copy_and_the_local_log_is_an_error(tmp_path):
    """The remote copy ends before the local log starts (its last segments were never uploaded, or were
    deleted): verify says which offsets are missing and where."""
    local, remote, expected, _ = _broker(tmp_path, keep_from=4)
    folder = next(p for t in remote.iterdir() for p in t.iterdir() if p.name == "0")
    stems = sorted({p.name.rsplit(".", 1)[0] for p in folder.iterdir()})
    gone = stems[3]  # the last remote segment below the local log start, now missing
    for p in folder.glob(gone + ".*"):
        p.unlink()
    problems = logdir.verify(local, tiered=remote)
    errors = [p for p in problems if p.severity == "error"]
    assert len(errors) == 1 and "missing" in errors[0].message, problems
    assert errors[0].path.endswith(".log") and Path(errors[0].path).parent == local / "t-0"


def test_without_the_tiered_copy_nothing_changes(tmp_path):
    local, remote, expected, _ = _broker(tmp_path, keep_from=0)
    assert _records(logdir.open_log(local, tiered=remote)) == expected == _records(logdir.open_log(local))
    shutil.rmtree(remote)
    remote.mkdir()
    assert _records(logdir.open_log(local, tiered=remote)) == expected


def test_the_cli_reads_and_verifies_the_whole_history(tmp_path, capsys):
    """``dump --tiered`` prints every offset once; ``verify --tiered`` exits 0 on a history that meets and
    1, in one line per problem and no traceback, where it does not."""
    from kafkaspec.cli import main

    local, remote, expected, _ = _broker(tmp_path, keep_from=2)
    assert main(["dump", str(local), "--tiered", str(remote)]) == 0
    out = capsys.readouterr().out
    assert len([line for line in out.splitlines() if line.startswith("| offset:")]) == len(expected)
    assert main(["verify", str(local), "--tiered", str(remote)]) == 0
    capsys.readouterr()
    folder = next(p for t in remote.iterdir() for p in t.iterdir() if p.name == "1")
    last_below = sorted({p.name.rsplit(".", 1)[0] for p in folder.iterdir()})[1]
    for p in folder.glob(last_below + ".*"):
        p.unlink()
    assert main(["verify", str(local), "--tiered", str(remote)]) == 1
    captured = capsys.readouterr()
    assert "missing" in captured.out and "Traceback" not in captured.err
