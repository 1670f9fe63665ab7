"""Hostile data-dir files (meta.properties, the offset checkpoints, quorum-state, .kafka_cleanshutdown):
too large, not regular files, nested or long beyond reason. Each is one finding or one error line
naming the file, never a hang, a traceback or memory that grows past the file's cap."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from support.logdir import write_partition
from support.timing import GROWTH, assert_linear

from kafkaspec.cli import main
from kafkaspec.errors import KafkaFormatError
from kafkaspec.logdir.kafka import node_files
from kafkaspec.logdir.verify.verifier import verify_path

pytestmark = pytest.mark.hostile

REPO = Path(__file__).resolve().parents[2]
V1_META = "version=1\nnode.id=1\ncluster.id=MkU3OEVBNTcwNTJENDM2Qg\n"


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = main([str(a) for a in argv])
        except SystemExit as exc:
            code = exc.code
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def data(tmp_path):
    root = tmp_path / "data"
    write_partition(root, batches=3)
    (root / "meta.properties").write_text(V1_META)
    (root / ".kafka_cleanshutdown").write_text('{"version":0,"brokerEpoch":1}')
    (tmp_path / "canary").write_text("keep")
    yield root
    assert (tmp_path / "canary").read_text() == "keep"


def test_a_meta_properties_past_its_cap_is_one_error(data):
    (data / "meta.properties").write_text("# " + "x" * (node_files.MAX_SIZE + 10) + "\n" + V1_META)
    problems = verify_path(data)
    assert [(Path(p.path).name, p.severity) for p in problems] == [("meta.properties", "error")]
    assert "too large for this text file (limit 1048576)" in problems[0].message
    code, out, err = run("dump", data / "meta.properties")
    assert code == 1 and out == "" and err.count("\n") == 1 and "too large" in err


@pytest.mark.parametrize("name", ["meta.properties", "replication-offset-checkpoint", ".kafka_cleanshutdown"])
def test_a_fifo_at_a_data_dir_file_name_is_reported_not_read(data, name):
    """A FIFO would block a reader for ever: the check runs in a subprocess with a timeout."""
    path = data / name
    path.unlink(missing_ok=True)
    os.mkfifo(path)
    program = (
        "import sys; from kafkaspec.logdir.verify.verifier import verify_path; "
        "print([(p.path, p.severity, p.message) for p in verify_path(sys.argv[1])])"
    )
    done = subprocess.run(
        [sys.executable, "-c", program, str(data)], capture_output=True, text=True, timeout=60, cwd=REPO
    )
    assert done.returncode == 0, done.stderr
    assert str(path) in done.stdout and "not a regular file" in done.stdout


def test_a_directory_at_meta_properties_is_an_error(data):
    (data / "meta.properties").unlink()
    (data / "meta.properties").mkdir()
    problems = verify_path(data)
    assert [(Path(p.path).name, p.severity) for p in problems] == [("meta.properties", "error")]


def test_deep_json_is_refused_before_it_is_parsed_in_linear_time():
    def deep(n: int) -> str:
        return "[" * n + "]" * n

    small, large = deep(100_000), deep(100_000 * GROWTH)

    def attempt(text: str):
        def go():
            with pytest.raises(KafkaFormatError, match="nested more than 16 levels"):
                node_files.parse_quorum_state(text)

        return go

    assert_linear(attempt(small), attempt(large), what="nested JSON")


def test_a_long_properties_file_is_read_in_linear_time():
    def text(n: int) -> str:
        return "".join(f"key{i}=value\\u0041\\\n  continued{i}\n" for i in range(n)) + V1_META

    small, large = text(4000), text(4000 * GROWTH)
    assert_linear(
        lambda: node_files.parse_meta_properties(small),
        lambda: node_files.parse_meta_properties(large),
        what="meta.properties lines",
    )


def test_a_number_of_many_digits_costs_nothing(data):
    (data / "meta.properties").write_text("version=1\ncluster.id=x\nnode.id=" + "9" * 1_000_000 + "\n")
    problems = verify_path(data)
    assert (
        len(problems) == 1 and "node.id '99999999999999999999'... (1000000 characters)" in problems[0].message
    )


def test_quorum_state_with_a_huge_integer_is_an_error_not_a_crash(tmp_path):
    path = tmp_path / "quorum-state"
    path.write_text(
        '{"leaderId":' + "9" * 10_000 + ',"leaderEpoch":1,"votedId":1,"votedDirectoryId":'
        '"xqYz9jS0QRuWvW0Y7eW8Ag","data_version":1}'
    )
    code, out, err = run("explain", path)
    assert code == 1 and "quorum-state" in out and "Traceback" not in out + err
