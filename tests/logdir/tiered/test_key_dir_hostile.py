"""``--tiered-private-key-dir`` given a hostile directory: a key file that is a symlink loop, names that
are not key pair ids (non-UTF-8 bytes, a newline, an escape sequence). Each is one line naming the
directory, exit 2, before anything is read; nothing in the directory is written or removed."""

from __future__ import annotations

import os

import pytest

from kafkaspec.cli import main

pytestmark = pytest.mark.hostile


def _run(capsys, key_dir) -> tuple[int, str]:
    code = main(["dump", str(key_dir.parent), "--tiered-private-key-dir", str(key_dir)])
    return code, capsys.readouterr().err


def test_a_key_file_that_is_a_symlink_loop_is_named(tmp_path, capsys):
    keys = tmp_path / "keys"
    keys.mkdir()
    (keys / "loop.pem").symlink_to("loop.pem")
    code, err = _run(capsys, keys)
    assert code == 2 and err.count("\n") == 1 and "loop.pem" in err and "symbolic links" in err
    assert os.path.islink(keys / "loop.pem")


def test_names_that_are_no_key_pair_id_are_not_keys(tmp_path, capsys):
    keys = tmp_path / "keys"
    keys.mkdir()
    os.close(os.open(os.fsencode(keys) + b"/\xff\xfe.pem", os.O_CREAT | os.O_WRONLY))
    (keys / "a\nb.pem").write_text("x")
    (keys / "\x1b[31mred.pem").write_text("x")
    before = sorted(os.listdir(os.fsencode(keys)))
    code, err = _run(capsys, keys)
    assert code == 2 and err.count("\n") == 1 and "holds no <key pair id>.pem file" in err
    assert "\x1b" not in err
    assert sorted(os.listdir(os.fsencode(keys))) == before
