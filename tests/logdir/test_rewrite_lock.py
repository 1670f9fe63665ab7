"""Two rewrites into one destination at the same instant: the second refuses, nothing is mixed.

Before: both runs found DST empty (``prepare``), both staged their copy, and both published into it;
with different sources DST ended up holding partitions of both, beside the staging dir of the one
that failed half-way. Now a run locks DST (``flock`` on the directory, released by the kernel when
the process dies) from before it looks at DST until it has published, so the second run refuses to
start (exit 2 on the command line). To start the second run at the worst moment, the test starts it
from inside the first: right after the first found DST empty, before it created its staging dir.
Every test works in its own ``tmp_path`` with a canary beside DST that must survive.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from kafkaspec import Record
from kafkaspec.cli import main
from kafkaspec.logdir import PartitionWriter, copy, open_log
from kafkaspec.logdir.store import staging

pytestmark = pytest.mark.hostile

CANARY = b"must survive"


def _source(root: Path, topic: str, n: int) -> Path:
    with PartitionWriter(root, topic, 0) as w:
        w.append([Record(value=b"%s-%d" % (topic.encode(), i)) for i in range(n)])
    return root


@pytest.fixture
def place(tmp_path: Path) -> Path:
    _source(tmp_path / "src-a", "alpha", 5)
    _source(tmp_path / "src-b", "beta", 3)
    (tmp_path / "canary").write_bytes(CANARY)
    yield tmp_path
    assert (tmp_path / "canary").read_bytes() == CANARY


def _values(path: Path) -> dict[str, list[bytes]]:
    with open_log(path) as log:
        return {p.name: [r.value for _, b in p.batches() for r in b] for p in log.partitions()}


def test_a_second_rewrite_started_mid_way_refuses(place: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dst = place / "dst"
    second: list[BaseException | None] = []
    started: list[bool] = []
    real_init = staging.Staging.__init__

    def first_creates_its_staging_dir(self, *args, **kwargs):  # the first run has found DST empty
        if not started:
            started.append(True)
            try:
                copy(place / "src-b", dst)
                second.append(None)
            except FileExistsError as exc:
                second.append(exc)
        real_init(self, *args, **kwargs)

    monkeypatch.setattr(staging.Staging, "__init__", first_creates_its_staging_dir)
    copy(place / "src-a", dst)
    assert isinstance(second[0], FileExistsError), "the second rewrite wrote into DST while the first did"
    assert "another rewrite is writing it" in str(second[0])
    assert _values(dst) == {"alpha-0": [b"alpha-%d" % i for i in range(5)]}  # the first's copy, alone
    assert not any(staging.is_staging_name(p.name) for p in dst.iterdir())


def test_the_command_line_refuses_while_another_run_holds_the_lock(place: Path) -> None:
    dst = place / "dst"
    dst.mkdir()
    with staging.Lock(dst):  # as a running rewrite holds it
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            code = main(["rewrite", str(place / "src-a"), str(dst)])
    assert code == 2
    assert err.getvalue().strip().splitlines() == [
        f"kafkaspec rewrite: {dst}: another rewrite is writing it (it holds the directory's lock); wait for it to "
        "finish"
    ]
    assert list(dst.iterdir()) == []
    # the lock is gone with its holder: the same run now writes the copy
    assert main(["rewrite", str(place / "src-a"), str(dst)]) == 0
    assert _values(dst) == {"alpha-0": [b"alpha-%d" % i for i in range(5)]}
