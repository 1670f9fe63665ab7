"""``--tiered-private-key-dir DIR`` (``<key pair id>.pem`` files) on every command that reads a tiered
prefix (dump, verify, inspect, pipeline): one run reads a prefix written under rotated key pairs with
no variable set; the flag's keys come before the environment's; a missing or empty directory is one
line and exit 2 (before Spark starts, for the pipeline); no key's bytes are ever shown (help, output,
errors)."""

from __future__ import annotations

import os

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from kafkaspec.cli import main
from kafkaspec.logdir import write_tiered
from kafkaspec.logdir.tiered.encryption import KEY_ENV
from kafkaspec.logdir.tiered.segment import MANIFEST_SUFFIX

OLD, NEW = "key-pair-1", "key-pair-2"
FLAG = "--tiered-private-key-dir"


def _pair(directory, name):
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    (directory / f"{name}.pem").write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    return key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )


@pytest.fixture(scope="module")
def rotated(tmp_path_factory, local_logs):
    """A tiered prefix whose segments below offset 30 are under the old key pair, the others under the
    new one; the private keys in a directory as ``<id>.pem``."""
    keys = tmp_path_factory.mktemp("keys")
    public = {OLD: _pair(keys, OLD), NEW: _pair(keys, NEW)}
    remote = tmp_path_factory.mktemp("remote") / "tiered"
    write_tiered(
        local_logs,
        remote,
        chunk_size=700,
        key_pair=lambda t, p, base: (OLD, public[OLD]) if base < 30 else (NEW, public[NEW]),
    )
    return remote, keys


@pytest.fixture
def no_env(monkeypatch):
    for name in list(os.environ):
        if name.startswith(KEY_ENV):
            monkeypatch.delenv(name)


def _secrets(keys) -> list[str]:
    return [line for p in keys.glob("*.pem") for line in p.read_text().splitlines()[1:-1]]


def _shown(capsys) -> str:
    out, err = capsys.readouterr()
    return out + err


def test_dump_and_verify_read_a_rotated_prefix_with_the_flag(rotated, local_logs, no_env, capsys):
    remote, keys = rotated
    assert main(["dump", str(local_logs)]) == 0
    expected = capsys.readouterr().out
    assert main(["dump", str(remote), FLAG, str(keys)]) == 0
    out, err = capsys.readouterr()
    # the same batches and records as the local log (only the paths in the headers differ)
    body = [ln for ln in out.splitlines() if not ln.startswith(("Dumping", "Log starting"))]
    want = [ln for ln in expected.splitlines() if not ln.startswith(("Dumping", "Log starting"))]
    assert body == want and body
    assert not any(s in out + err for s in _secrets(keys))
    assert main(["verify", str(remote), FLAG, str(keys)]) == 0
    assert not any(s in _shown(capsys) for s in _secrets(keys))
    # without the flag (and no variable), the same prefix cannot be read: the flag is what gave the keys
    assert main(["dump", str(remote)]) == 1
    err = capsys.readouterr().err
    assert KEY_ENV in err and "Traceback" not in err


def test_the_flag_comes_before_the_environment(rotated, tmp_path, no_env, monkeypatch, capsys):
    remote, keys = rotated
    wrong = tmp_path / "wrong"
    wrong.mkdir()
    _pair(wrong, OLD)
    _pair(wrong, NEW)  # keys under the right ids, of other key pairs: decrypting with them fails
    monkeypatch.setenv(KEY_ENV, str(wrong))
    assert main(["dump", str(remote)]) == 1
    capsys.readouterr()
    assert main(["dump", str(remote), FLAG, str(keys)]) == 0
    capsys.readouterr()


def test_a_key_pair_missing_from_the_directory_is_named_not_shown(rotated, tmp_path, no_env, capsys):
    remote, keys = rotated
    only_old = tmp_path / "only-old"
    only_old.mkdir()
    (only_old / f"{OLD}.pem").write_bytes((keys / f"{OLD}.pem").read_bytes())
    (only_old / "canary.txt").write_text("not a key")
    assert main(["dump", str(remote), FLAG, str(only_old)]) == 1
    out, err = capsys.readouterr()
    assert f"key pair {NEW!r}" in err and MANIFEST_SUFFIX in err and OLD in err and "Traceback" not in err
    assert not any(s in out + err for s in _secrets(keys))
    assert (only_old / "canary.txt").read_text() == "not a key"
    assert main(["verify", str(remote), FLAG, str(only_old)]) == 1
    shown = _shown(capsys)
    assert f"key pair {NEW!r}" in shown and not any(s in shown for s in _secrets(keys))


@pytest.mark.parametrize("command", [["dump"], ["verify"], ["inspect", "remote-log"]])
def test_a_missing_or_empty_directory_is_one_line_and_exit_2(command, rotated, tmp_path, no_env, capsys):
    remote, _ = rotated
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "README").write_text("no keys here")
    for directory, why in (
        (tmp_path / "missing", "no such file or directory"),
        (empty, "holds no <key pair id>.pem file"),
        (empty / "README", "not a directory"),
    ):
        assert main([*command, str(remote), FLAG, str(directory)]) == 2
        out, err = capsys.readouterr()
        lines = err.strip().splitlines()
        assert len(lines) == 1 and str(directory) in lines[0] and FLAG in lines[0] and why in lines[0], err
        assert "Traceback" not in err
    assert (empty / "README").read_text() == "no keys here"


def test_the_pipeline_checks_the_directory_before_spark_starts(rotated, tmp_path, no_env, capsys):
    remote, _ = rotated
    assert main(["pipeline", str(remote), str(tmp_path / "out"), FLAG, str(tmp_path / "missing")]) == 2
    out, err = capsys.readouterr()
    assert "starting Spark" not in err and FLAG in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("command", ["dump", "verify", "inspect", "pipeline"])
def test_every_command_that_reads_a_prefix_has_the_flag_with_no_default(command, capsys):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    out = capsys.readouterr().out
    assert FLAG in out and "<key pair id>.pem" in out and "default" not in out.split(FLAG)[-1].split("--")[0]
