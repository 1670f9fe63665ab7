"""Issue 39 item 11: a ``<key pair id>.pem`` in ``--tiered-private-key-dir`` that is no small regular file
never hangs or floods a reader.

A FIFO (or a symbolic link to /dev/stdin) named ``k.pem`` hung every command given the directory, even
one reading no encrypted segment: every key file was read when the directory was given. Now the
directory's key files are looked at with ``stat`` when it is given (nothing opened): one that is no
regular file, or is larger than a PEM private key can be, is one line naming it, exit 2 (the directory is
the user's setup, not the data, as a key file that is a symbolic link loop already was). A key's bytes
are read only when a segment needs that key pair, through a non-blocking open checked with ``fstat``
(regular, bounded), so a file swapped for a FIFO after the directory was listed is an error naming it,
never a hang. Every tree is built in its own ``tmp_path`` with a canary beside it.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from kafkaspec import Record
from kafkaspec.errors import KafkaFormatError
from kafkaspec.logdir import PartitionWriter, open_log, write_tiered
from kafkaspec.logdir.tiered.encryption import KEY_ENV, PrivateKeys

pytestmark = [pytest.mark.hostile]

CANARY = b"must survive"
KEY = "key-pair-1"


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """(plain data dir, encrypted tiered prefix, directory holding KEY.pem)."""
    pytest.importorskip("cryptography")
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    root = tmp_path_factory.mktemp("keyworld")
    data = root / "data"
    with PartitionWriter(data, "t", 0) as w:
        w.append(
            [Record(key=b"k%d" % i, value=b"v%d" % i, timestamp=1_700_000_000_000 + i) for i in range(5)]
        )
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    keys = root / "keys"
    keys.mkdir()
    (keys / f"{KEY}.pem").write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    public = key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    remote = root / "tiered"
    write_tiered(data, remote, chunk_size=700, public_key=public, key_id=KEY)
    return data, remote, keys


def _fifo(p: Path) -> None:
    os.mkfifo(p)


def _stdin(p: Path) -> None:
    p.symlink_to("/dev/stdin")


def _zero(p: Path) -> None:
    p.symlink_to("/dev/zero")


def _huge(p: Path) -> None:
    with open(p, "wb") as f:
        f.truncate(100 << 20)  # a hole: 100 MB, no disk


#: how each hostile key file is made, and a word of its one line
HOSTILE = {
    "fifo": (_fifo, "FIFO"),
    "dev-stdin": (_stdin, "not a regular file"),
    "dev-zero": (_zero, "a device"),
    "100MB": (_huge, "larger than"),
}


def _key_dir(tmp_path: Path, world, kind: str, name: str) -> Path:
    """A copy of the good key directory plus a hostile ``name``.pem; a canary beside it."""
    _, _, good = world
    keys = tmp_path / "keys"
    keys.mkdir()
    if name != KEY:
        (keys / f"{KEY}.pem").write_bytes((good / f"{KEY}.pem").read_bytes())
    HOSTILE[kind][0](keys / f"{name}.pem")
    (tmp_path / "canary").write_bytes(CANARY)
    return keys


def _dump(path: Path, keys: Path) -> subprocess.CompletedProcess:
    """``kafkaspec dump PATH --tiered-private-key-dir KEYS`` with stdin a pipe that stays open and silent (a
    read of /dev/stdin would wait for ever); a run past 60 s is a hang."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(KEY_ENV)}
    args = [sys.executable, "-m", "kafkaspec.cli", "dump", str(path), "--tiered-private-key-dir", str(keys)]
    with subprocess.Popen(
        args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True
    ) as proc:
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            pytest.fail(f"dump hung on the key directory {keys}")
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        proc.stdin.close()
        return subprocess.CompletedProcess(args, proc.returncode, proc.stdout.read(), proc.stderr.read())


@pytest.mark.parametrize("kind", sorted(HOSTILE))
@pytest.mark.parametrize("needed", [False, True], ids=["no-key-needed", "key-needed"])
def test_the_command_names_the_file_at_once(tmp_path, world, kind, needed):
    data, remote, _ = world
    name = KEY if needed else "other"  # the key pair the prefix's segments need, or one nothing needs
    keys = _key_dir(tmp_path, world, kind, name)
    proc = _dump(remote if needed else data, keys)
    assert proc.returncode == 2, proc
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and f"{name}.pem" in lines[0] and HOSTILE[kind][1] in lines[0], lines
    assert "Traceback" not in proc.stderr and proc.stdout == ""
    assert (tmp_path / "canary").read_bytes() == CANARY


def test_key_files_are_read_only_when_a_segment_needs_them(tmp_path, world):
    """Given as a directory, no key is read; a key file swapped for a FIFO after that is an error naming it
    when (and only when) a segment needs its key pair, never a hang."""
    data, remote, good = world
    keys = _key_dir(tmp_path, world, "fifo", "other")
    (keys / "other.pem").unlink()
    given = PrivateKeys.from_dir(keys)
    (keys / f"{KEY}.pem").unlink()  # (the listing kept the name, not the bytes)
    os.mkfifo(keys / f"{KEY}.pem")
    with open_log(data, keys=given) as log:  # no segment needs a key: nothing is opened
        assert [r.offset for p in log.partitions() for _, r in p.records()] == list(range(5))
    with open_log(remote, keys=given) as log, pytest.raises(KafkaFormatError) as info:
        [r.offset for p in log.partitions() for _, r in p.records()]
    assert f"{KEY}.pem" in str(info.value) and "FIFO" in str(info.value)
    fresh = PrivateKeys.from_dir(good)
    with open_log(remote, keys=fresh) as log:
        assert [r.offset for p in log.partitions() for _, r in p.records()] == list(range(5))
    assert (tmp_path / "canary").read_bytes() == CANARY


def test_keys_shipped_to_executors_carry_their_bytes_and_their_errors(tmp_path, world):
    """Pickled for Spark's executors (which may share no file with the driver), the keys carry the bytes
    of each readable key file; one that cannot be read is its error there, raised when it is needed."""
    _, remote, good = world
    keys = _key_dir(tmp_path, world, "fifo", "other")
    (keys / "other.pem").unlink()
    given = PrivateKeys.from_dir(keys)
    os.mkfifo(keys / "late.pem")  # after the listing: not one of the keys
    (keys / f"{KEY}.pem").rename(keys / "moved")
    os.mkfifo(keys / f"{KEY}.pem")
    shipped = pickle.loads(pickle.dumps(given))
    with pytest.raises(KafkaFormatError, match="FIFO"):
        shipped.pem(KEY)
    ok = pickle.loads(pickle.dumps(PrivateKeys.from_dir(good)))
    assert ok.pem(KEY) is not None and ok.pem(KEY)[0] == (good / f"{KEY}.pem").read_bytes()
    with open_log(remote, keys=ok) as log:
        assert [r.offset for p in log.partitions() for _, r in p.records()] == list(range(5))
