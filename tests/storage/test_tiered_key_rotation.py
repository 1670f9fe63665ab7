"""Rotated encryption key pairs (Aiven's ``encryption.key.pairs``): one bucket whose segments were written
under different key pairs is read in one run, each segment with the private key its manifest's
``dataKey`` names (a directory of ``<id>.pem`` files, ``KAFKASPEC_TIERED_PRIVATE_KEY_<ID>`` variables,
or ``keys=``); a key pair with no key is an error naming the manifest and the id, never the key."""

from __future__ import annotations

import pickle

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from kafkaspec import KafkaFormatError, logdir
from kafkaspec.cli import main
from kafkaspec.logdir.tiered.encryption import KEY_ENV, PrivateKeys, env_name
from kafkaspec.logdir.tiered.segment import MANIFEST_SUFFIX

OLD, NEW = "key-pair-1", "key-pair-2"


def _pair(directory, name):
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    path = directory / f"{name}.pem"
    path.write_bytes(pem)
    public = key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return path, public


@pytest.fixture(scope="module")
def pairs(tmp_path_factory):
    """Two key pairs, their private keys in a directory as ``<id>.pem``."""
    keys = tmp_path_factory.mktemp("keys")
    return {OLD: _pair(keys, OLD), NEW: _pair(keys, NEW)}, keys


def _rotated(pairs):
    """Segments below offset 30 written under the old key pair, the others under the new one (the plugin's
    keys rotated while the topics were being uploaded)."""

    def choose(topic, partition, base_offset):
        key_id = OLD if base_offset < 30 else NEW
        return key_id, pairs[key_id][1]

    return choose


def _records(path, **kw) -> list[tuple]:
    with logdir.open_log(path, **kw) as log:
        return [
            (p.topic, p.partition, r.offset, r.key, r.value, r.headers)
            for p in log.partitions()
            for _, r in p.records()
        ]


def _clear_env(monkeypatch):
    import os

    for name in list(os.environ):
        if name.startswith(KEY_ENV):
            monkeypatch.delenv(name)


def _key_ids(root) -> set[str]:
    import json

    return {
        json.loads(m.read_text())["encryption"]["dataKey"].split(":")[0]
        for m in root.rglob(f"*{MANIFEST_SUFFIX}")
    }


def test_a_bucket_written_under_two_key_pairs_reads_with_a_key_directory(
    s3_env, s3_server, local_logs, pairs, monkeypatch, capsys, tmp_path
):
    keys, key_dir = pairs
    uri = f"s3://{s3_server.new_bucket()}/tiered"
    logdir.write_tiered(local_logs, uri, chunk_size=700, key_pair=_rotated(keys))
    logdir.write_tiered(local_logs, tmp_path, chunk_size=700, key_pair=_rotated(keys))
    assert _key_ids(tmp_path) == {OLD, NEW}  # the prefix really holds both
    _clear_env(monkeypatch)
    monkeypatch.setenv(KEY_ENV, str(key_dir))  # a directory: one key per key pair id
    expected = _records(local_logs)
    assert _records(uri) == expected
    assert main(["verify", uri]) == 0, capsys.readouterr()
    capsys.readouterr()
    assert main(["dump", uri]) == 0
    out, err = capsys.readouterr()
    for path, _ in keys.values():
        assert path.read_text().splitlines()[1] not in out + err


def test_one_variable_per_key_pair(tmp_path, local_logs, pairs, monkeypatch):
    keys, _ = pairs
    logdir.write_tiered(local_logs, tmp_path / "remote", chunk_size=700, key_pair=_rotated(keys))
    _clear_env(monkeypatch)
    monkeypatch.setenv(env_name(OLD), str(keys[OLD][0]))  # KAFKASPEC_TIERED_PRIVATE_KEY_KEY_PAIR_1
    monkeypatch.setenv(env_name(NEW), str(keys[NEW][0]))
    assert env_name(NEW) == "KAFKASPEC_TIERED_PRIVATE_KEY_KEY_PAIR_2"
    assert _records(tmp_path / "remote") == _records(local_logs)


def test_explicit_keys_and_an_unknown_key_pair(tmp_path, local_logs, pairs, monkeypatch, capsys):
    """``keys=`` maps ids to PEM files or bytes; a segment under a key pair not among them is an error
    naming the manifest and the id (and the ids that are known), never key material."""
    keys, _ = pairs
    remote = tmp_path / "remote"
    logdir.write_tiered(local_logs, remote, chunk_size=700, key_pair=_rotated(keys))
    _clear_env(monkeypatch)
    both = PrivateKeys.of({OLD: keys[OLD][0], NEW: keys[NEW][0].read_bytes()})
    assert _records(remote, keys=both) == _records(local_logs)
    only_old = PrivateKeys.of({OLD: keys[OLD][0]})
    with pytest.raises(KafkaFormatError) as info:
        _records(remote, keys=only_old)
    text = str(info.value)
    assert f"key pair {NEW!r}" in text and "no private key" in text and OLD in text, text
    assert info.value.source.endswith(MANIFEST_SUFFIX)  # the manifest, by path
    secret_line = keys[OLD][0].read_text().splitlines()[1]
    assert secret_line not in text and secret_line not in repr(only_old)
    assert secret_line not in repr(pickle.loads(pickle.dumps(both)))
    # the CLI: the same, one line per segment, exit 1 (the data needs a key that is not there)
    monkeypatch.setenv(env_name(OLD), str(keys[OLD][0]))
    assert main(["dump", str(remote)]) == 1
    out, err = capsys.readouterr()
    assert "Traceback" not in err and f"key pair {NEW!r}" in err and MANIFEST_SUFFIX in err
    assert secret_line not in out + err


def test_the_single_key_way_still_reads_any_key_pair(tmp_path, local_logs, pairs, monkeypatch):
    keys, _ = pairs
    logdir.write_tiered(
        local_logs, tmp_path / "remote", chunk_size=700, public_key=keys[NEW][1], key_id="whatever"
    )
    _clear_env(monkeypatch)
    monkeypatch.setenv(KEY_ENV, str(keys[NEW][0]))
    assert _records(tmp_path / "remote") == _records(local_logs)


def test_key_files_that_are_not_keys_are_named(tmp_path, local_logs, pairs, monkeypatch):
    keys, _ = pairs
    remote = tmp_path / "remote"
    logdir.write_tiered(local_logs, remote, chunk_size=700, key_pair=_rotated(keys))
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / f"{OLD}.pem").write_bytes(b"-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n")
    _clear_env(monkeypatch)
    with pytest.raises(
        KafkaFormatError, match=rf"{OLD}\.pem, the key of key pair '{OLD}', is not an unencrypted PEM"
    ):
        _records(remote, keys=PrivateKeys.from_dir(bad))
    with pytest.raises(ValueError, match="is not a key pair id"):
        PrivateKeys.of({"../x": b""})


def test_reader_options_read_the_keys_on_the_driver_and_show_no_key(tmp_path, local_logs, pairs, monkeypatch):
    """``tieredPrivateKeyDir`` / ``tieredPrivateKey.<id>`` hold paths; the driver reads the keys and every
    task carries them (the executors may share neither the files nor the environment); no repr shows one."""
    from kafkaspec.arrow.ranges import load_range
    from kafkaspec.spark.read.options import OptionError, ReadOptions
    from kafkaspec.spark.read.planning import plan

    keys, key_dir = pairs
    remote = tmp_path / "remote"
    logdir.write_tiered(local_logs, remote, chunk_size=700, key_pair=_rotated(keys))
    _clear_env(monkeypatch)
    secret_line = keys[NEW][0].read_text().splitlines()[1]
    for options in (
        {"tieredPrivateKeyDir": str(key_dir)},
        {f"tieredPrivateKey.{OLD}": str(keys[OLD][0]), f"tieredPrivateKey.{NEW}": str(keys[NEW][0])},
    ):
        opts = ReadOptions.parse(options)
        tasks = plan(str(remote), opts)
        assert tasks and all(t.keys is not None and t.keys.pem(NEW) for t in tasks)
        assert secret_line not in repr(opts) + repr(tasks)
    opts = ReadOptions.parse({f"tieredPrivateKey.{OLD}": str(keys[OLD][0])})
    tasks = [t for t in plan(str(remote), opts) if t.end > t.start]
    assert load_range(tasks[0]) and tasks[-1].path.endswith(".log")
    with pytest.raises(KafkaFormatError, match=f"key pair {NEW!r}, for which no private key") as info:
        load_range(tasks[-1])  # the executor's read of a segment under the new key pair
    assert info.value.source.endswith(MANIFEST_SUFFIX) and secret_line not in str(info.value)
    with pytest.raises(OptionError, match="missing.pem cannot be read"):
        ReadOptions.parse({f"tieredPrivateKey.{OLD}": str(tmp_path / "missing.pem")})
