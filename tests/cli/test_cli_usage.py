"""Usage mistakes read as usage mistakes: one line that says what to do, the subcommand's usage for an
option typo with the closest option, ``--version`` everywhere, ``python -m kafkaspec``, one wording for a
missing path, and ``pipeline SRC OUT`` with OUT inside SRC refused before anything starts."""

from __future__ import annotations

import subprocess
import sys

import pytest

from kafkaspec import Record
from kafkaspec.logdir import PartitionWriter

COMMANDS = [
    "dump",
    "verify",
    "explain",
    "rewrite",
    "synth",
    "pipeline",
    "inspect",
    "review",
    "generate",
    "completion",
]


def _cli(*args: object, module: str = "kafkaspec.cli", cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", module, *map(str, args)], capture_output=True, text=True, check=False, cwd=cwd
    )


@pytest.fixture
def logs(tmp_path):
    with PartitionWriter(tmp_path / "logs", "t", 0) as w:
        w.append([Record(value=b"v", timestamp=1)])
    (tmp_path / "canary").write_text("stays")
    return tmp_path / "logs"


def test_python_dash_m_kafkaspec_runs_the_command():
    done = _cli("--version", module="kafkaspec")
    assert done.returncode == 0 and done.stdout.startswith("kafkaspec "), done.stderr


@pytest.mark.parametrize("command", COMMANDS)
def test_version_on_every_subcommand(command):
    done = _cli(command, "--version")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"kafkaspec {command} "), done.stdout


def test_an_option_typo_shows_the_subcommands_usage_and_the_closest_option(logs):
    done = _cli("dump", logs, "--prnt-data")
    assert done.returncode == 2
    assert done.stderr.startswith("usage: kafkaspec dump "), done.stderr
    assert "did you mean --print-data?" in done.stderr and "Traceback" not in done.stderr


def test_a_subcommand_typo_says_the_closest_one():
    done = _cli("dupm", "logs")
    assert done.returncode == 2 and "did you mean dump?" in done.stderr, done.stderr


def test_a_usage_mistake_names_no_exception_class(tmp_path, logs):
    out = tmp_path / "out"
    (out / "records").mkdir(parents=True)  # a full run's output: --incremental cannot continue it
    done = _cli("pipeline", logs, out, "--incremental")
    if "pip install" in done.stderr:
        pytest.skip("the spark extra is not installed")
    assert done.returncode == 2
    assert "Error" not in done.stderr and "KAFKASPEC_DEBUG" not in done.stderr, done.stderr
    assert done.stderr.count("\n") == 1 and "--incremental" in done.stderr


@pytest.mark.parametrize("command", ["dump", "verify", "pipeline", "rewrite", "inspect offsets"])
def test_a_missing_path_reads_the_same_in_every_command(tmp_path, command):
    done = _cli(*command.split(), "nope", *([tmp_path / "out"] if command in ("pipeline", "rewrite") else []))
    if "pip install" in done.stderr:
        pytest.skip("the spark extra is not installed")
    assert done.returncode == 2
    assert done.stderr == f"kafkaspec {command.split()[0]}: nope: no such file or directory\n", done.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("inside", [".", "out", "t-0/out"])
def test_pipeline_refuses_an_output_inside_its_input(logs, inside):
    before = sorted(p.relative_to(logs) for p in logs.rglob("*"))
    done = _cli("pipeline", logs, logs / inside)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "inside the input" in done.stderr, done.stderr
    assert sorted(p.relative_to(logs) for p in logs.rglob("*")) == before
    assert (logs.parent / "canary").exists()


def test_review_help_is_in_users_words():
    done = _cli("review", "--help")
    assert done.returncode == 0
    assert "seed" not in done.stdout.lower() and "protocol owners" not in done.stdout
    assert "breaks" in done.stdout or "still reads" in done.stdout
