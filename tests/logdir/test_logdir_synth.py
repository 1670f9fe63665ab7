"""``synth``: deterministic, realistic, readable, verifiable."""

from __future__ import annotations

import hashlib

import pytest

from kafkaspec.logdir import open_log, synth, verify_path


def _digest(root):
    h = hashlib.sha256()
    for p in sorted(root.rglob("*")):
        if p.is_file():
            h.update(str(p.relative_to(root)).encode())
            h.update(p.read_bytes())
    return h.hexdigest()


@pytest.fixture(scope="module")
def synth_dir(tmp_path_factory):
    root = tmp_path_factory.mktemp("synth") / "logs"
    report = synth(root, size_mb=3, seed=11)
    return root, report


def test_deterministic(synth_dir, tmp_path):
    root, report = synth_dir
    again = synth(tmp_path / "again", size_mb=3, seed=11)
    assert _digest(root) == _digest(again.path)
    other = synth(tmp_path / "other", size_mb=3, seed=12)
    assert _digest(root) != _digest(other.path)
    assert 2.5e6 < report.bytes < 3.6e6


def test_writer_processes_write_the_same_bytes(synth_dir, tmp_path, monkeypatch):
    """From PARALLEL_BYTES on, partitions are written by one process per core: same files, same report."""
    from kafkaspec.logdir.write import synthesis

    root, report = synth_dir
    monkeypatch.setattr(synthesis, "PARALLEL_BYTES", 0)
    monkeypatch.setattr(synthesis.os, "cpu_count", lambda: 2)
    parallel = synth(tmp_path / "parallel", size_mb=3, seed=11)
    assert _digest(root) == _digest(parallel.path)
    assert (parallel.bytes, parallel.batches, parallel.partitions) == (
        report.bytes,
        report.batches,
        report.partitions,
    )


def test_refuses_non_empty_without_force(synth_dir):
    root, _ = synth_dir
    with pytest.raises(FileExistsError):
        synth(root, size_mb=1, seed=11)


def test_verifies_clean(synth_dir):
    root, _ = synth_dir
    assert verify_path(root, notes=True) == []  # notes too: the files a cleanly stopped broker leaves


def test_contents_are_realistic(synth_dir):
    root, report = synth_dir
    log = open_log(root)
    assert set(log.topics()) == {
        "orders",
        "clicks",
        "payments",
        "users",
        "audit",  # and the typed topics:
        "invoices",
        "profiles",
        "shipments",
        "_schemas",
    }  # tests/values/test_synth_typed
    assert len(log.partitions()) == report.partitions == 13  # the report counts the typed topics too
    codecs, magics, controls = set(), set(), set()
    tombstones = empty = horizon = dup_headers = log_append = 0
    for part in log.partitions():
        prev_last = -1
        for seg in part.segments():
            for b in seg.iter_batches():
                assert b.base_offset == prev_last + 1  # offsets are contiguous across batches and segments
                prev_last = b.last_offset
                codecs.add(b.compression)
                magics.add(b.magic)
                if b.magic == 2:
                    empty += len(b) == 0
                    horizon += bool(b.has_delete_horizon)
                    log_append += b.timestamp_type == "log_append"
                    if b.is_control:
                        controls.add(b.control.type_name)
                for r in b:
                    tombstones += part.topic == "users" and r.value is None
                    keys = [k for k, _ in r.headers or ()]
                    dup_headers += len(keys) != len(set(keys))
    assert codecs == {"none", "gzip", "snappy", "lz4", "zstd"}
    assert magics == ({0, 1, 2} if report.legacy else {2})
    assert controls == {"abort", "commit"}
    assert tombstones and empty and horizon and dup_headers and log_append
    payments = log.partition("payments", 0)
    aborted, _ = payments.transactions()
    assert aborted
    assert len(list(payments.records(read_committed=True))) < len(
        list(payments.records(isolation_level="read_uncommitted"))
    )
    assert any(s.aborted_transactions() for s in payments.segments())
    assert all(p.leader_epochs() and p.metadata() for p in log.partitions())


def test_logdir_reads_equal_plain_reads(synth_dir):
    """mmap + index-aligned byte ranges yield exactly what iter_batches gives for the file's bytes."""
    import kafkaspec

    root, _ = synth_dir
    for seg in open_log(root).segments():
        plain = [
            (r.offset, r.timestamp, r.key, r.value, r.headers)
            for b in kafkaspec.iter_batches(seg.path.read_bytes())
            for r in b
        ]
        ranged = [
            (r.offset, r.timestamp, r.key, r.value, r.headers)
            for start, end in seg.split(64 << 10)
            for b in seg.iter_batches(start, end)
            for r in b
        ]
        assert ranged == plain
        seg.close()


def test_legacy_segment_comes_first(synth_dir):
    root, report = synth_dir
    if not report.legacy:
        pytest.skip("the legacy message formats are not available")
    segs = open_log(root).partition("orders", 0).segments()
    first = {b.magic for b in segs[0].iter_batches()}
    assert first == {0, 1}
    assert all({b.magic for b in s.iter_batches()} == {2} for s in segs[1:])
    magic0 = next(b for b in segs[0].iter_batches() if b.magic == 0)
    assert all(r.timestamp == -1 for r in magic0)


def test_force_refuses_a_directory_that_is_not_a_data_dir(tmp_path):
    (tmp_path / "thesis.tex").write_text("precious")
    with pytest.raises(FileExistsError, match="refusing"):
        synth(tmp_path, size_mb=1, seed=1, force=True)
    assert (tmp_path / "thesis.tex").exists()
