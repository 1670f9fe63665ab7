"""A writer killed (SIGKILL) mid-publish never leaves a partition with neither version readable
(issue 30, item 6), and readers never take a partition under a publishing marker for an empty one.

A real subprocess (``support/publish_victim.py``) republishes a partition and is killed right after a
chosen request of its publication. Then: either the old version is still there, whole, and read as
it was, or the partition holds the publishing marker and ``dump``/``verify`` exit 1 naming it, while
the complete new version is readable where the marker says. Its local staging folder is gone once
the new version is in the store; a canary object beside the partition and a canary file beside the
staging folder survive.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kafkaspec import Record, logdir
from kafkaspec.cli import main
from kafkaspec.logdir.store.publish import PUBLISHING

VICTIM = Path(__file__).resolve().parent.parent / "support" / "publish_victim.py"
OLD = [b"A-%d" % i for i in range(6)]
NEW = [b"C-%d" % i for i in range(6)]


def _publish_old(dest: str, mode: str = "append") -> None:
    with logdir.PartitionWriter(dest, "t", 0, mode=mode) as w:
        for i in range(6):
            if i == 3:
                w.roll()
            w.append([Record(key=b"k%d" % i, value=OLD[i], timestamp=1_700_000_000_000 + i)])


def _kill_at(store_server, dest: str, step: str, n: int, tmp_path: Path) -> None:
    signal_file = tmp_path / f"signal-{step}-{n}"
    temp = tmp_path / "tmp"
    temp.mkdir(exist_ok=True)
    (temp / "canary").write_text("keep me")
    env = dict(os.environ, **store_server.env(), TMPDIR=str(temp), PYTHONPATH=os.pathsep.join(sys.path))
    proc = subprocess.Popen([sys.executable, str(VICTIM), dest, "C", step, str(n), str(signal_file)], env=env)
    try:
        deadline = time.monotonic() + 120
        while not signal_file.exists():
            assert proc.poll() is None, f"the writer ended (exit {proc.returncode}) before its {step} #{n}"
            assert time.monotonic() < deadline, "the writer never reached the step"
            time.sleep(0.05)
        assert signal_file.read_text() != "finished", f"the publication has fewer than {n} {step} calls"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()


def _values(uri: str) -> list[bytes]:
    with logdir.open_log(uri) as log:
        return [r.value for p in log.partitions() for _, r in p.records()]


#: requests of a publication of this partition (10 objects): puts (the objects to staging, then the
#: marker: the 11th), copies into place, the marker's deletion, the staging prefix's
STEPS = [
    ("write", 1),
    ("write", 5),
    ("write", 11),
    ("copy", 1),
    ("copy", 5),
    ("copy", 10),
    ("delete", 1),
    ("delete_prefix", 1),
]


@pytest.mark.parametrize(("step", "n"), STEPS, ids=[f"{s}{n}" for s, n in STEPS])
def test_a_writer_killed_mid_publish_leaves_one_version_readable(
    store_env, store_server, tmp_path, capsys, step, n
):
    bucket = store_server.new_bucket()
    dest = store_server.uri(bucket, "x")
    _publish_old(dest)
    canary = f"{bucket}/x/canary.txt"
    with store_server.filesystem().open_output_stream(canary) as f:
        f.write(b"keep me")
    _kill_at(store_server, dest, step, n, tmp_path)
    capsys.readouterr()

    code = main(["dump", "--print-data", dest])
    out, err = capsys.readouterr()
    marker = f"{dest}/t-0/{PUBLISHING}"
    if (
        code == 0
    ):  # killed before the switch (the old version) or after the marker's deletion (the new), whole
        assert _values(dest) in (OLD, NEW)
        assert [
            line.rsplit("payload: ", 1)[1].split(" headers: ")[0].encode()
            for line in out.splitlines()
            if "payload: " in line
        ] == _values(dest)
        assert err == ""
    else:  # killed after the switch: named, never an empty success
        assert code == 1
        assert marker in err and "Traceback" not in err
        assert main(["verify", dest]) == 1
        assert marker in capsys.readouterr().out
        staged = err.split("complete under ", 1)[1].split()[0].rstrip(";:,")
        assert _values(staged) == NEW  # the new version, whole, where the message says
        assert os.listdir(tmp_path / "tmp") == ["canary"]  # no local copy left behind
    assert store_server.filesystem().open_input_file(canary).read() == b"keep me"
    assert (tmp_path / "tmp" / "canary").read_text() == "keep me"


def test_writing_again_after_a_kill_finishes_and_cleans_up(store_env, store_server, tmp_path):
    bucket = store_server.new_bucket()
    dest = store_server.uri(bucket, "x")
    _publish_old(dest)
    _kill_at(store_server, dest, "copy", 2, tmp_path)
    _publish_old(dest, mode="overwrite")  # writing it again finishes the interrupted publication
    assert _values(dest) == OLD
    assert main(["verify", dest]) == 0
    names = {
        i.path
        for i in store_server.filesystem().get_file_info(
            __import__("pyarrow.fs").fs.FileSelector(bucket, recursive=True)
        )
    }
    assert not any("_kafkalog" in name for name in names), names


def test_the_message_under_a_marker_names_it_and_the_new_version(store_env, store_server, tmp_path, capsys):
    bucket = store_server.new_bucket()
    dest = store_server.uri(bucket, "x")
    _publish_old(dest)
    _kill_at(store_server, dest, "copy", 3, tmp_path)
    capsys.readouterr()
    assert main(["dump", f"{dest}/t-0"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{dest}/t-0/{PUBLISHING}" in err and f"{dest}/_kafkalog_staging/" in err
    from kafkaspec.logdir.store.publish import resume
    from kafkaspec.logdir.store.storage import as_path

    assert resume(as_path(f"{dest}/t-0")) == 10
    assert _values(dest) == NEW
    assert main(["verify", dest]) == 0
