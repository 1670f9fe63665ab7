"""The live lineage of a tiered prefix on the S3 server (issue 24, item 1): copies of segments under
other segment ids and an orphaned upload are read once, or not at all, and choosing costs one listing
per folder and one read of each manifest (plus one ``.indexes`` object for the leader-epoch checkpoint
and, for each copy, the two ``.log`` objects it is compared by)."""

from __future__ import annotations

from pyarrow.fs import FileSelector
from support.logdir import write_partition

from kafkaspec import logdir
from kafkaspec.logdir.store.storage import as_path
from kafkaspec.logdir.tiered.segment import INDEXES_SUFFIX, MANIFEST_SUFFIX, kafka_uuid


def _records(log) -> list[tuple]:
    return [
        (p.topic, p.partition, r.offset, r.key, r.value) for p in log.partitions() for _, r in p.records()
    ]


def test_copies_on_s3_are_read_once_and_each_manifest_is_read_once(s3_env, s3_server, tmp_path):
    write_partition(
        tmp_path / "logs", topic="t", batches=60, seed=21, segment_bytes=1200, codecs=("none", "zstd")
    )
    expected = _records(logdir.open_log(tmp_path / "logs"))
    bucket = s3_server.new_bucket()
    logdir.write_tiered(tmp_path / "logs", f"s3://{bucket}/tiered/", chunk_size=800)
    fs = s3_server.filesystem()
    manifests = sorted(
        i.path
        for i in fs.get_file_info(FileSelector(f"{bucket}/tiered", recursive=True))
        if i.path.endswith(MANIFEST_SUFFIX)
    )
    assert len(manifests) > 8
    copies = manifests[::3]
    for key in copies:  # a re-upload: the same three objects under another segment id
        stem = key[: -len(MANIFEST_SUFFIX)]
        new = f"{stem[:-22]}{kafka_uuid(stem.encode())}"
        for suffix in (".log", INDEXES_SUFFIX, MANIFEST_SUFFIX):
            fs.copy_file(stem + suffix, new + suffix)
    orphan = f"{manifests[1][: -len(MANIFEST_SUFFIX) - 22]}{kafka_uuid(b'orphan')}"
    for suffix in (".log", INDEXES_SUFFIX):  # an upload that never finished: no manifest
        fs.copy_file(manifests[1][: -len(MANIFEST_SUFFIX)] + suffix, orphan + suffix)

    root = as_path(f"s3://{bucket}/tiered/")
    stats = root.store.stats
    stats.reset()
    log = logdir.open_log(root)
    (part,) = log.partitions()
    found, found_checks = stats.requests, stats.checks
    live = part.segments()
    chose, checks = stats.requests - found, stats.checks - found_checks
    assert len(live) == len(manifests)
    unused = log.unused_segments
    assert len(unused) == len(copies) + 1
    assert sum("did not finish" in u.reason for u in unused) == 1
    # listings (prefix, topic folder, partition folder), each manifest opened and read once, one
    # .indexes object, and each copy compared with its original (two .log objects opened and read)
    total = len(manifests) + len(copies)
    assert found <= 8, found  # finding the layout and the partition folders (listings)
    # (each ranged GET is followed by one HEAD that checks the object did not change: storage's version
    # pins; counted apart)
    assert chose - checks <= 2 * total + 2 + 4 * len(copies), (found, chose, checks, total)
    assert checks <= total + 1 + 2 * len(copies), (checks, total)
    assert _records(log) == expected
