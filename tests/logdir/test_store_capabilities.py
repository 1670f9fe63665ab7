"""What a reader or writer asks of a path's storage instead of its kind (``logdir.store.fs`` and
``logdir.store.location``), for a local path; the object-store side is in ``tests/storage``."""

from __future__ import annotations

import gc
import os

import pytest

from kafkaspec.errors import KafkaFormatError
from kafkaspec.logdir.store.fs import bucket_root, check_entry, getter, reads_are_requests
from kafkaspec.logdir.store.location import LocalLocation, Location, StoreLocation
from kafkaspec.logdir.store.storage import parse_uri


def test_a_local_file_is_read_in_pieces_by_getter_and_closed_when_dropped(tmp_path):
    path = tmp_path / "f.log"
    path.write_bytes(bytes(range(100)))
    get, size = getter(path)
    assert size == 100 and get(10, 14) == bytes([10, 11, 12, 13]) and get(98, 120) == bytes([98, 99])
    fds = len(os.listdir("/proc/self/fd"))
    del get
    gc.collect()
    assert len(os.listdir("/proc/self/fd")) == fds - 1


def test_reads_of_a_local_path_are_not_requests_and_of_an_object_are(tmp_path):
    assert not reads_are_requests(tmp_path)
    assert reads_are_requests(parse_uri("s3://bucket/prefix/t-0/00000000000000000000.log"))


def test_bucket_root_is_the_bucket_of_an_object_and_a_local_folder_itself(tmp_path):
    assert bucket_root(tmp_path) == tmp_path
    assert str(bucket_root(parse_uri("s3://bucket/a/b/c"))) == "s3://bucket"


def test_check_entry_names_what_cannot_be_opened(tmp_path):
    check_entry(tmp_path)
    with pytest.raises(FileNotFoundError, match="no such file"):
        check_entry(tmp_path / "missing")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(KafkaFormatError, match="FIFO"):
        check_entry(fifo)


def test_location_of_a_path_or_uri_and_what_its_output_can_do(tmp_path):
    local = Location.of(tmp_path)
    assert isinstance(local, LocalLocation)
    out = local.output("t-0")
    assert not out.whole and out.open() == tmp_path / "t-0" and out.destination == tmp_path / "t-0"
    store = Location.of("s3://bucket/out")
    assert isinstance(store, StoreLocation)
    assert store.output("t-0").whole and str(store.output("t-0").destination) == "s3://bucket/out/t-0"


def test_a_location_holds_what_is_under_its_root_only(tmp_path):
    local = Location.of(tmp_path / "out")
    assert local.holds(str(tmp_path / "out" / "t-0" / "0.log"))
    assert not local.holds(str(tmp_path / "outside" / "0.log"))
    store = Location.of("s3://bucket/out")
    assert store.holds("s3://bucket/out/t-0/0.log") and not store.holds("s3://bucket/outer/t-0/0.log")


def test_a_local_commit_moves_made_and_taken_directories_in_and_replaces_what_the_plan_says(tmp_path):
    from kafkaspec.logdir.store.location import CommitPlan, DirPlan

    root = tmp_path / "out"
    canary = tmp_path / "canary"
    canary.write_bytes(b"canary")
    (root / "old-0").mkdir(parents=True)
    (root / "keep").mkdir()
    staged = root / "_kafkalog_staging" / "job" / "task" / "piece"
    staged.mkdir(parents=True)
    (staged / "a.log").write_bytes(b"a")

    def make(folder):
        (folder / "made-0").mkdir(parents=True)
        (folder / "made-0" / "b.log").write_bytes(b"b")

    settled = []
    plan = CommitPlan(
        "job",
        [DirPlan("taken-0", taken=lambda: sorted(staged.iterdir())), DirPlan("made-0", make=make)],
        replaces=lambda name: name.endswith("-0"),
        settle=lambda ready, root: settled.append(root),
    )
    Location.of(root).apply(plan)
    assert sorted(p.name for p in root.iterdir()) == ["keep", "made-0", "taken-0"]
    assert (root / "taken-0" / "a.log").read_bytes() == b"a" and (
        root / "made-0" / "b.log"
    ).read_bytes() == b"b"
    assert settled == [root] and canary.read_bytes() == b"canary"


def test_a_refused_local_commit_leaves_the_root_as_it_was(tmp_path):
    from kafkaspec.logdir.store.location import CommitPlan, DirPlan

    root = tmp_path / "out"
    (root / "t-0").mkdir(parents=True)
    (root / "t-0" / "0.log").write_bytes(b"old")

    def refuse(final):
        raise FileExistsError(f"{final} already holds a log")

    with pytest.raises(FileExistsError):
        Location.of(root).apply(CommitPlan("job", [DirPlan("t-0", make=lambda f: None)], refuse=refuse))
    assert (
        sorted(p.name for p in root.iterdir()) == ["t-0"] and (root / "t-0" / "0.log").read_bytes() == b"old"
    )
