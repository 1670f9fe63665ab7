"""``python -m kafkaspec`` run in a folder someone else wrote (a data dir received, a shared tmp): Python
puts the working directory first on the import path, so a ``lz4.py`` or ``cramjam.py`` there was
imported, and run, in place of the package the command imports next. The command takes it off before
importing anything else; a file there is data, never code."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytestmark = pytest.mark.hostile

PLANTED = ("lz4", "cramjam", "zstandard", "pyarrow", "numpy", "yaml", "deltalake")


@pytest.mark.parametrize("module", ["kafkaspec", "kafkaspec.cli"])
@pytest.mark.parametrize("command", [["--version"], ["dump", "--help"], ["pipeline", "--help"]])
def test_modules_in_the_working_dir_are_never_imported(module, command, tmp_path):
    for name in PLANTED:
        (tmp_path / f"{name}.py").write_text(f"open({str(tmp_path / ('ran-' + name))!r}, 'w').close()\n")
    canary = tmp_path / "canary"
    canary.write_text("x")
    done = subprocess.run(
        [sys.executable, "-m", module, *command], capture_output=True, text=True, cwd=tmp_path, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in tmp_path.glob("ran-*")) == []
    assert canary.read_text() == "x"


def test_a_program_importing_kafkaspec_keeps_its_path(tmp_path):
    (tmp_path / "mine.py").write_text("VALUE = 7\n")
    program = "import sys, kafkaspec, mine; print(mine.VALUE)"
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, cwd=tmp_path, timeout=120
    )
    assert done.stdout.strip() == "7", done.stderr


@pytest.mark.parametrize("how", ["-m", "-P -m", "script"])
@pytest.mark.parametrize("shape", ["{}:", ":{}", "{}::{}"])
def test_an_empty_pythonpath_entry_puts_no_working_dir_on_the_path(how, shape, tmp_path):
    """``PYTHONPATH=/x:$PYTHONPATH`` with PYTHONPATH unset leaves an empty entry, which Python reads as the
    working directory (``-P`` or not): the command imported the folder's ``lz4.py`` through it."""
    import os
    import shutil

    work, elsewhere = tmp_path / "work", tmp_path / "elsewhere"
    work.mkdir()
    elsewhere.mkdir()
    for name in PLANTED:
        (work / f"{name}.py").write_text(f"open({str(work / ('ran-' + name))!r}, 'w').close()\n")
    if how == "script":
        script = shutil.which("kafkaspec", path=os.path.dirname(sys.executable))
        if script is None:
            pytest.skip("no kafkaspec script beside this interpreter")
        argv = [script]
    else:
        argv = [sys.executable, *how.split(), "kafkaspec"]
    env = {**os.environ, "PYTHONPATH": shape.format(elsewhere, elsewhere)}
    done = subprocess.run(
        [*argv, "pipeline", "--help"], capture_output=True, text=True, cwd=work, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in work.glob("ran-*")) == []
