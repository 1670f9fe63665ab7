"""URIs on the command line and in errors (issue 30, item 22): ``inspect`` reads ``s3://`` as ``dump`` and
``verify`` do; credentials written into a URI (``s3://KEY:SECRET@bucket/prefix``) are used and never
shown, in any message of any command; a topic whose key pyarrow refuses (``a//b``) is a clear error, no
raw ``ArrowInvalid``, and leaves no staging folder, local or remote."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from pyarrow.fs import FileSelector

from kafkaspec import Record, logdir
from kafkaspec.cli import main

SECRET = "Sup3rSecretValue/xyz"
KEY_ID = "AKIAINURI0000SECRET"


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def ldi(s3_server, corpus):
    """The corpus's LDI-POC data dir (KRaft metadata and __consumer_offsets) in a bucket."""
    return s3_server.upload(corpus / "files" / "segments" / "LDI-POC", s3_server.new_bucket(), "ldi")


@pytest.mark.parametrize("what", ["metadata", "offsets"])
def test_inspect_reads_an_s3_uri_as_the_local_copy(s3_env, ldi, corpus, capsys, what):
    local = _run(capsys, "inspect", what, str(corpus / "files" / "segments" / "LDI-POC"), "--json")
    remote = _run(capsys, "inspect", what, ldi, "--json")
    assert remote[0] == local[0] == 0, remote[2]
    assert remote[1].replace(ldi, "LOCAL") == local[1].replace(
        str(corpus / "files" / "segments" / "LDI-POC"), "LOCAL"
    )
    code, out, err = _run(capsys, "inspect", what, ldi.replace("/ldi", "/nothing-here"))
    assert code == 2 and ldi.replace("/ldi", "/nothing-here") in err and "s3:/b" not in err


def _secret_uri(uri: str) -> str:
    return uri.replace("s3://", f"s3://{KEY_ID}:{SECRET.replace('/', '%2F')}@")


def test_credentials_in_a_uri_are_used_and_never_shown(s3_env, s3_server, ldi, capsys):
    secret_uri = _secret_uri(ldi)
    assert _run(capsys, "dump", secret_uri) == _run(capsys, "dump", ldi)
    bucket = ldi.split("/")[2]
    commands = [
        ["dump", _secret_uri(f"s3://{bucket}/missing")],
        ["verify", _secret_uri(f"s3://{bucket}/missing")],
        ["dump", _secret_uri("s3://no-such-bucket-kafkaspec/x")],
        ["inspect", "offsets", _secret_uri(f"s3://{bucket}/missing")],
        ["inspect", "metadata", _secret_uri(f"s3://{bucket}/ldi/TestTopicPatient-0")],
        ["dump", "--bogus-option", _secret_uri(ldi)],
        ["explain", _secret_uri(f"s3://{bucket}/missing")],
        ["rewrite", _secret_uri(f"s3://{bucket}/missing"), "/nonexistent-kafkaspec/x"],
        ["verify", f"s3://{KEY_ID}:@{bucket}/x"],
    ]
    for argv in commands:
        try:
            code, out, err = _run(capsys, *argv)
        except SystemExit as exc:  # argparse's usage errors
            code = exc.code
            out, err = capsys.readouterr()
        text = out + err
        assert code in (1, 2), (argv, code, text)
        for shown in (SECRET, SECRET.replace("/", "%2F"), KEY_ID):
            assert shown not in text, (argv, text)
        assert "Traceback" not in text and "ArrowInvalid" not in text, (argv, text)


def test_a_secret_uri_in_a_subprocess_error_is_redacted(s3_server, tmp_path):
    """The whole command, as a user runs it: stderr carries no part of the credentials."""
    env = dict(os.environ, **s3_server.env())
    proc = subprocess.run(
        [sys.executable, "-m", "kafkaspec.cli", "dump", _secret_uri("s3://no-bucket-kafkaspec-x/y")],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2
    assert SECRET not in proc.stderr and KEY_ID not in proc.stderr and "%2F" not in proc.stderr
    assert "s3://no-bucket-kafkaspec-x/y" in proc.stderr


def test_a_key_pyarrow_refuses_is_a_clear_error_and_leaks_no_staging(s3_server, tmp_path):
    bucket = s3_server.new_bucket()
    temp = tmp_path / "tmp"
    temp.mkdir()
    (temp / "canary").write_text("keep me")
    code = (
        "from kafkaspec import Record, logdir\n"
        f"w = logdir.PartitionWriter('s3://{bucket}/x', 'a//b', 0)\n"
        "w.append([Record(key=b'k', value=b'v', timestamp=1)])\n"
        "w.close()\n"
    )
    env = dict(os.environ, **s3_server.env(), TMPDIR=str(temp))
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1
    last = proc.stderr.strip().splitlines()[-1]
    assert "ArrowInvalid" not in last and "a//b" in last, last
    assert os.listdir(temp) == ["canary"]
    keys = [i.path for i in s3_server.filesystem().get_file_info(FileSelector(bucket, recursive=True))]
    assert not any("_kafkalog" in k or "a/" in k.split("/", 1)[-1] for k in keys), keys


def test_writing_with_credentials_in_the_uri(s3_env, s3_server):
    bucket = s3_server.new_bucket()
    with logdir.PartitionWriter(_secret_uri(f"s3://{bucket}/x"), "t", 0) as w:
        w.append([Record(key=b"k", value=b"v", timestamp=1)])
    assert str(w.destination) == f"s3://{bucket}/x/t-0"
    with logdir.open_log(f"s3://{bucket}/x") as log:
        assert [r.value for p in log.partitions() for _, r in p.records()] == [b"v"]
