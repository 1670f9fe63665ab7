"""Hostile arguments to the newer entry points: ``dump A B C``, ``--max-bytes``, ``review kafka-specs``.

Before: ``dump good loop`` printed the whole of ``good`` and then failed on ``loop`` with "no such file
or directory" (it is a symbolic link loop); a FIFO named ``x.log`` got "Not a directory";
``review kafka-specs`` on a spec nested 100,000 deep ended in a RecursionError naming no file, and a
spec that is not UTF-8 was named by its folder only. Now every local PATH of ``dump`` is checked
before any output (exit 2, one line with the real reason), ``open_log`` says what the path is, and a
bad spec file is an error naming that file. Every test works in its own ``tmp_path`` with a canary
beside its inputs that must survive.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kafkaspec import build_batch
from kafkaspec.cli import main
from kafkaspec.errors import KafkaFormatError
from kafkaspec.logdir import open_log

pytestmark = pytest.mark.hostile

CANARY = b"must survive"


def _cli(*args: str) -> subprocess.CompletedProcess:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return subprocess.CompletedProcess(list(args), code, out.getvalue(), err.getvalue())


def _cli_process(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """The CLI in a subprocess with a deadline: a FIFO must never make it wait for a writer."""
    return subprocess.run(
        [sys.executable, "-m", "kafkaspec.cli", *args], capture_output=True, text=True, timeout=60, cwd=cwd
    )


@pytest.fixture
def place(tmp_path: Path) -> Path:
    """A partition dir ``t-0`` with 3 records in two batches, a canary beside it."""
    part = tmp_path / "t-0"
    part.mkdir()
    segment = build_batch(values=[b"a", b"b"], base_offset=0) + build_batch(values=[b"c"], base_offset=2)
    (part / "00000000000000000000.log").write_bytes(segment)
    (tmp_path / "canary").write_bytes(CANARY)
    yield tmp_path
    assert (tmp_path / "canary").read_bytes() == CANARY


def test_dump_checks_every_path_before_printing(place: Path) -> None:
    os.symlink("loop", place / "loop")
    result = _cli("dump", str(place / "t-0"), str(place / "loop"))
    assert result.returncode == 2
    assert result.stdout == ""  # nothing of the good path printed before the bad one is found
    assert result.stderr.strip().splitlines() == [
        f"kafkaspec dump: {place / 'loop'}: too many levels of symbolic links"
    ]


def test_dump_missing_third_path(place: Path) -> None:
    result = _cli("dump", str(place / "t-0"), str(place / "t-0"), str(place / "nothere"))
    assert (result.returncode, result.stdout) == (2, "")
    assert "nothere: no such file or directory" in result.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_dump_fifo_is_named_and_never_waited_on(place: Path) -> None:
    """A FIFO where a segment should be is damaged data (exit 1, like a FIFO index file), named, and
    never opened (opening a FIFO waits for a writer)."""
    os.mkfifo(place / "t-0" / "00000000000000000099.log")
    fifo = place / "t-0" / "00000000000000000099.log"
    result = _cli_process("dump", str(fifo), cwd=place)
    assert result.returncode == 1
    assert (
        result.stderr.strip() == "kafkaspec dump: not a file or directory (a FIFO, socket or device): "
        f"Kafka writes none (at {fifo})"
    )
    with pytest.raises(KafkaFormatError, match="FIFO"):
        open_log(fifo)


def test_open_log_names_a_symlink_loop(place: Path) -> None:
    os.symlink("loop", place / "loop")
    with pytest.raises(OSError) as caught:
        open_log(place / "loop")
    assert caught.value.errno == 40 or "symbolic links" in str(caught.value)


@pytest.mark.parametrize("limit", [2**31 - 1, 2**31, 2**63, 10**30])
def test_max_bytes_beyond_the_file_is_the_whole_file(place: Path, limit: int) -> None:
    whole = _cli("dump", str(place / "t-0"))
    limited = _cli("dump", "--max-bytes", str(limit), str(place / "t-0"))
    assert limited.returncode == whole.returncode == 0
    assert limited.stdout == whole.stdout
    assert whole.stdout.count("| offset:") == 3


@pytest.mark.parametrize("bad", ["0", "-1", "1e3", "9" * 5000])
def test_max_bytes_rejects_what_is_not_a_positive_count(place: Path, bad: str) -> None:
    with pytest.raises(SystemExit) as caught, contextlib.redirect_stderr(io.StringIO()) as err:
        main(["dump", "--max-bytes", bad, str(place / "t-0")])
    assert caught.value.code == 2
    assert "--max-bytes" in err.getvalue()


def _spec(name: str) -> str:
    fields = [{"name": "Id", "type": "int32", "versions": "0+"}]
    return json.dumps(
        {
            "apiKey": 90,
            "type": "metadata",
            "name": name,
            "validVersions": "0",
            "flexibleVersions": "0+",
            "fields": fields,
        }
    )


@pytest.fixture
def specs(tmp_path: Path) -> Path:
    folder = tmp_path / "specs"
    folder.mkdir()
    (folder / "GoodRecord.json").write_text(_spec("GoodRecord"))
    (tmp_path / "canary").write_bytes(CANARY)
    yield folder
    assert (tmp_path / "canary").read_bytes() == CANARY
    assert (folder / "GoodRecord.json").read_text() == _spec("GoodRecord")


def test_review_kafka_specs_deeply_nested(specs: Path) -> None:
    deep = specs / "Deep.json"
    deep.write_text('{"name": "Deep", "validVersions": "0", "fields": ' + "[" * 100_000 + "]" * 100_000 + "}")
    result = _cli("review", "kafka-specs", str(specs))
    assert result.returncode == 1
    assert (
        result.stderr.strip()
        == "kafkaspec review: Deep.json: not a Kafka message spec (nested too deeply to read)"
    )


def test_review_kafka_specs_not_utf8(specs: Path) -> None:
    (specs / "Latin.json").write_bytes(b'{"name": "Caf\xe9", "validVersions": "0"}')
    result = _cli("review", "kafka-specs", str(specs))
    assert result.returncode == 1
    assert result.stderr.strip() == f"kafkaspec review: {specs / 'Latin.json'}: not UTF-8 text (byte 13)"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_review_kafka_specs_fifo_is_not_opened(specs: Path) -> None:
    os.mkfifo(specs / "Pipe.json")
    result = _cli_process("review", "kafka-specs", str(specs), cwd=specs.parent)
    assert result.returncode == 1
    assert result.stderr.strip() == f"kafkaspec review: {specs / 'Pipe.json'}: not a regular file"


def test_verify_refuses_one_data_dir_given_twice(place: Path) -> None:
    """``verify logs logs/`` is one directory, not two log dirs of a node: read twice, its
    meta.properties gave a false "directory.id is also the id of logs" error (exit 1)."""
    (place / "meta.properties").write_text(
        "version=1\nnode.id=1\ncluster.id=AAAAAAAAAAAAAAAAAAAAAA\ndirectory.id=BBBBBBBBBBBBBBBBBBBBBB\n"
    )
    result = _cli("verify", str(place), str(place) + "/")
    assert (result.returncode, result.stdout) == (2, "")
    assert (
        result.stderr.strip() == f"kafkaspec verify: {place} and {place}/ are the same directory: give each "
        "log dir once"
    )
    assert _cli("verify", str(place)).returncode == 0
