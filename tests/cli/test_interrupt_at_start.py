"""A SIGINT or SIGTERM while ``kafkaspec`` is still importing (issue 42, item 8): one line and exit 130,
as an interrupt later in any command gives, not a KeyboardInterrupt traceback or a death by signal 15.

The console script runs ``from kafkaspec.cli import main``: the package's first lines set the handlers
when the process is that script (or ``python -m kafkaspec``), before the heavy imports. The tests
send the signal at a set point of the import (right after the package's first module), so they do not
depend on timing: a script named ``kafkaspec``, as pip writes it, signals itself there.
"""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = """\
import os, signal, sys
import kafkaspec
os.kill(os.getpid(), signal.{sig})
import time
time.sleep(5)
from kafkaspec.cli import main
sys.exit(main())
"""


@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM"])
def test_a_signal_while_the_command_imports_is_one_line_and_exit_130(tmp_path: Path, sig: str):
    (tmp_path / "canary").write_text("keep")
    script = tmp_path / "kafkaspec"
    script.write_text(SCRIPT.format(sig=sig))
    done = subprocess.run(
        [sys.executable, str(script), "verify", str(tmp_path)], capture_output=True, text=True, timeout=60
    )
    assert (done.returncode, done.stdout, done.stderr) == (130, "", "kafkaspec verify: interrupted\n")
    assert (tmp_path / "canary").read_text() == "keep"


def test_a_program_that_imports_kafkaspec_keeps_its_own_handlers(tmp_path: Path):
    """Only the command's own process: a library user's program is not the command."""
    (tmp_path / "canary").write_text("keep")
    script = tmp_path / "mine.py"
    script.write_text(
        "import signal\nimport kafkaspec\n"
        "print(signal.getsignal(signal.SIGINT) is signal.default_int_handler,"
        " signal.getsignal(signal.SIGTERM) is signal.SIG_DFL)\n"
    )
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60)
    assert done.stdout == "True True\n", done.stderr
    assert (tmp_path / "canary").read_text() == "keep"


def test_a_sigterm_during_a_command_is_one_line_and_exit_130(tmp_path: Path):
    """After the import too: ``main`` turns SIGTERM into the interrupt a Ctrl-C is (not only ``pipeline``)."""
    (tmp_path / "canary").write_text("keep")
    code = (
        "import os, signal, sys\n"
        "from kafkaspec import cli\n"
        "from kafkaspec.commands import verify\n"
        "def run(args):\n"
        "    os.kill(os.getpid(), signal.SIGTERM)\n"
        "    import time; time.sleep(5)\n"
        "    return 0\n"
        "verify.run = run\n"
        "sys.exit(cli.main())\n"
    )
    script = tmp_path / "kafkaspec"
    script.write_text(code)
    done = subprocess.run(
        [sys.executable, str(script), "verify", str(tmp_path)], capture_output=True, text=True, timeout=60
    )
    assert (done.returncode, done.stderr) == (130, "kafkaspec verify: interrupted\n")
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL  # pytest's own process untouched
    assert (tmp_path / "canary").read_text() == "keep"
