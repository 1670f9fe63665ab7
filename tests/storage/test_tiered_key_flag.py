"""``--tiered-private-keys DIR`` on the commands that read tiered prefixes (dump, verify, pipeline): a
directory of ``<key pair id>.pem`` files, so that a bucket written under rotated key pairs is read without
setting variables. Keys given with the flag come first, the environment's fill in the other ids; the key
material is never shown (not in output, errors, --help or the pipeline's summary)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from test_tiered_key_rotation import NEW, OLD, _clear_env, _records, _rotated, pairs  # noqa: F401 (a fixture)

from kafkaspec import logdir
from kafkaspec.cli import main
from kafkaspec.logdir.encryption import env_name


def _secrets(keys) -> list[str]:
    return [path.read_text().splitlines()[1] for path, _ in keys.values()]


def test_dump_and_verify_take_a_key_directory(tmp_path, local_logs, pairs, monkeypatch, capsys):  # noqa: F811
    keys, key_dir = pairs
    remote = tmp_path / "remote"
    logdir.write_tiered(local_logs, remote, chunk_size=700, key_pair=_rotated(keys))
    (tmp_path / "canary").write_text("keep")
    _clear_env(monkeypatch)
    assert main(["verify", str(remote)]) == 1  # no key anywhere: the data cannot be read
    capsys.readouterr()
    assert main(["verify", str(remote), "--tiered-private-keys", str(key_dir)]) == 0, capsys.readouterr()
    capsys.readouterr()
    assert main(["dump", str(remote), "--tiered-private-keys", str(key_dir), "--json"]) == 0
    out, err = capsys.readouterr()
    offsets = sorted((r["topic"], r["partition"], r["offset"]) for r in map(json.loads, out.splitlines())
                     if r["type"] == "record")
    assert offsets == sorted((t, p, o) for t, p, o, *_ in _records(local_logs))
    assert not any(s in out + err for s in _secrets(keys))
    assert (tmp_path / "canary").read_text() == "keep"


def test_the_environment_fills_in_the_ids_the_directory_lacks(tmp_path, local_logs, pairs, monkeypatch,  # noqa: F811
                                                              capsys):
    keys, _ = pairs
    remote = tmp_path / "remote"
    logdir.write_tiered(local_logs, remote, chunk_size=700, key_pair=_rotated(keys))
    only_new = tmp_path / "only-new"
    only_new.mkdir()
    (only_new / f"{NEW}.pem").write_bytes(keys[NEW][0].read_bytes())
    _clear_env(monkeypatch)
    assert main(["dump", str(remote), "--tiered-private-keys", str(only_new)]) == 1  # OLD's segments: no key
    err = capsys.readouterr().err
    assert f"key pair {OLD!r}" in err and "Traceback" not in err
    monkeypatch.setenv(env_name(OLD), str(keys[OLD][0]))
    assert main(["dump", str(remote), "--tiered-private-keys", str(only_new)]) == 0


def test_a_key_directory_that_cannot_be_read_is_one_line(tmp_path, capsys):
    assert main(["dump", str(tmp_path), "--tiered-private-keys", str(tmp_path / "missing")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "missing" in err and "Traceback" not in err


@pytest.mark.spark
def test_pipeline_takes_it_to_its_executors(tmp_path, local_logs, pairs, monkeypatch):  # noqa: F811
    keys, key_dir = pairs
    remote = tmp_path / "remote"
    logdir.write_tiered(local_logs, remote, chunk_size=700, key_pair=_rotated(keys))
    _clear_env(monkeypatch)
    done = subprocess.run([sys.executable, "-m", "kafkaspec.cli", "pipeline", str(remote), str(tmp_path / "out"),
                           "--tiered-private-keys", str(key_dir), "--quiet"], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["records"] == len(_records(local_logs))
    shown = done.stdout + done.stderr + json.dumps(summary)
    assert not any(s in shown for s in _secrets(keys))
