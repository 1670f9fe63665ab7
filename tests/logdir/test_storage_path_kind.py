"""The readers take any :class:`~kafkaspec.logdir.store.fs.StoragePath`, not only the two classes the package has:
a path of a third kind (here a wrapper of a local path that is neither a ``pathlib.Path`` nor ``os.PathLike``)
reads, finds and verifies a log directory as its local path does, so no reader asks which class it holds
(only ``fs`` does, and a path that is not in an object store is a local file named by its text)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.logdir import write_partition

from kafkaspec.logdir import open_log
from kafkaspec.logdir.store.fs import read_all, storage_path
from kafkaspec.logdir.store.storage import RemotePath
from kafkaspec.logdir.verify.verifier import same_directory_twice, verify_path


class Wrapped:
    """A StoragePath of its own kind: every answer from the local path it wraps, nothing else of Path."""

    def __init__(self, path: Path):
        self._p = path

    def __str__(self) -> str:
        return str(self._p)

    def __repr__(self) -> str:
        return f"Wrapped({self._p!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Wrapped) and other._p == self._p

    def __hash__(self) -> int:
        return hash(self._p)

    def __lt__(self, other: Wrapped) -> bool:
        return self._p < other._p

    @property
    def name(self) -> str:
        return self._p.name

    @property
    def parent(self) -> Wrapped:
        return Wrapped(self._p.parent)

    def __truediv__(self, name: str) -> Wrapped:
        return Wrapped(self._p / name)

    def with_name(self, name: str) -> Wrapped:
        return Wrapped(self._p.with_name(name))

    def exists(self) -> bool:
        return self._p.exists()

    def is_file(self) -> bool:
        return self._p.is_file()

    def is_dir(self) -> bool:
        return self._p.is_dir()

    def iterdir(self) -> Iterator[Wrapped]:
        return (Wrapped(p) for p in self._p.iterdir())

    def glob(self, pattern: str) -> Iterator[Wrapped]:
        return (Wrapped(p) for p in self._p.glob(pattern))

    def stat(self) -> os.stat_result:
        return self._p.stat()


def _records(log) -> list[tuple]:
    return [
        (p.topic, p.partition, r.offset, r.key, r.value) for p in log.partitions() for _, r in p.records()
    ]


def test_a_third_kind_of_path_is_kept_as_it_is(tmp_path):
    w = Wrapped(tmp_path)
    assert storage_path(w) is w
    assert storage_path(str(tmp_path)) == tmp_path


def test_a_third_kind_of_path_reads_a_data_dir_as_its_local_path(tmp_path):
    write_partition(tmp_path / "data", topic="t", partition=0, batches=30, seed=2)
    write_partition(tmp_path / "data", topic="u", partition=1, batches=12, seed=3)
    canary = tmp_path / "canary"
    canary.write_text("keep")
    with open_log(tmp_path / "data") as local, open_log(Wrapped(tmp_path / "data")) as other:
        assert _records(other) == _records(local) and len(_records(local)) > 40
        seg = other.partitions()[0].segments()[0]
        assert isinstance(seg.path, Wrapped)
        assert seg.index_entries() == local.partitions()[0].segments()[0].index_entries()
    assert read_all(Wrapped(canary)) == b"keep"


def test_a_third_kind_of_path_verifies_as_its_local_path(tmp_path):
    write_partition(tmp_path / "data", topic="t", partition=0, batches=30, seed=2)
    seg = sorted((tmp_path / "data" / "t-0").glob("*.log"))[0]
    with open(seg, "r+b") as f:  # one damaged CRC: both report it at the same byte
        f.seek(61)
        byte = f.read(1)
        f.seek(61)
        f.write(bytes([byte[0] ^ 0xFF]))
    local = [(p.position, p.message) for p in verify_path(tmp_path / "data")]
    other = [(p.position, p.message) for p in verify_path(Wrapped(tmp_path / "data"))]
    assert local and other == local


class _Store:
    """Just what a RemotePath's text needs: its URI (nothing is read)."""

    def uri(self, key: str) -> str:
        return f"s3://bucket/{key}"


def test_one_store_directory_given_twice_is_named_by_its_uri(tmp_path):
    """A RemotePath is a URI to ``same_directory_twice`` (its text, with or without a trailing slash), never
    resolved as a local path; a local path is resolved, so two spellings of it are one directory."""
    a, b = RemotePath(_Store(), "logs"), RemotePath(_Store(), "logs/")
    with pytest.raises(ValueError, match="s3://bucket/logs and s3://bucket/logs are the same directory"):
        same_directory_twice([a, b])
    with pytest.raises(ValueError, match="are the same directory"):
        same_directory_twice([a, "s3://bucket/logs/"])
    same_directory_twice([a, RemotePath(_Store(), "logs2"), tmp_path / "logs"])  # three directories
    with pytest.raises(ValueError, match="are the same directory"):
        same_directory_twice([Wrapped(tmp_path), tmp_path / "x" / ".."])
