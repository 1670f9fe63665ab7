"""What choosing a tiered partition's live lineage asks the S3 server for, object by object: the
listings once, each manifest read once, and a small constant beside (one ``.indexes`` object for the
leader-epoch checkpoint); no object read twice, whatever the number of segments and copies."""

from __future__ import annotations

from collections import Counter

from pyarrow.fs import FileSelector
from support.logdir import write_partition

from kafkaspec import logdir
from kafkaspec.logdir.store.storage import as_path
from kafkaspec.logdir.tiered.segment import INDEXES_SUFFIX, MANIFEST_SUFFIX, kafka_uuid


def _prefix_with_copies(s3_server, tmp_path, batches: int) -> tuple[str, list[str], list[str]]:
    write_partition(
        tmp_path / "logs", topic="t", batches=batches, seed=5, segment_bytes=1200, codecs=("none",)
    )
    bucket = s3_server.new_bucket()
    logdir.write_tiered(tmp_path / "logs", f"s3://{bucket}/tiered/")
    fs = s3_server.filesystem()
    manifests = sorted(
        i.path
        for i in fs.get_file_info(FileSelector(f"{bucket}/tiered", recursive=True))
        if i.path.endswith(MANIFEST_SUFFIX)
    )
    copies = manifests[::4]
    for key in copies:  # a re-upload: the same three objects under another segment id
        stem = key[: -len(MANIFEST_SUFFIX)]
        new = f"{stem[:-22]}{kafka_uuid(b're' + stem.encode())}"
        for suffix in (".log", INDEXES_SUFFIX, MANIFEST_SUFFIX):
            fs.copy_file(stem + suffix, new + suffix)
    return f"s3://{bucket}/tiered/", manifests, copies


def _choose(prefix: str) -> tuple[Counter, int, int]:
    root = as_path(prefix)
    stats = root.store.stats
    stats.reset()
    log = logdir.open_log(root)
    (part,) = log.partitions()
    live = part.segments()
    assert len(log.unused_segments) > 0
    return Counter(stats.by_key), stats.requests, len(live)


def test_no_object_is_asked_for_twice_and_the_total_is_listings_plus_manifests(s3_env, s3_server, tmp_path):
    prefix, manifests, copies = _prefix_with_copies(s3_server, tmp_path, batches=40)
    by_key, requests, live = _choose(prefix)
    assert live == len(manifests)
    assert sum(by_key.values()) == requests  # every request is counted with its kind and key
    twice = {k: n for k, n in by_key.items() if n > 1}
    assert not twice, twice
    # per object, not per request: an object opened, read and checked is three requests, all of one read
    per_object = Counter(key for (kind, key) in by_key if kind != "list")
    read_twice = {k: n for k, n in per_object.items() if n > 3}
    assert not read_twice, read_twice
    objects = set(per_object)
    read_manifests = {k for k in objects if k.endswith(MANIFEST_SUFFIX)}
    assert len(read_manifests) == len(manifests) + len(copies)
    # a copy with the same offsets and epochs as its original must hold the same bytes (else the rule
    # cannot decide): the two .log objects are read, once each (an ETag does not tell: an upload in parts
    # and a server-side copy of the same bytes have different ones)
    compared = {k for k in objects if k.endswith(".log")}
    assert len(compared) == 2 * len(copies), sorted(compared)
    others = objects - read_manifests - compared
    assert len(others) <= 2, sorted(others)  # the leader-epoch checkpoint's .indexes object, and one more
    listings = sum(n for (kind, _), n in by_key.items() if kind == "list")
    assert listings <= 4, listings
    # open, GET and version check of each manifest and compared .log; the constant is the rest
    assert requests <= listings + 3 * len(read_manifests) + 3 * len(compared) + 3 * len(others), (
        requests,
        by_key,
    )


def test_the_requests_per_segment_do_not_grow_with_the_segments(s3_env, s3_server, tmp_path):
    """Twice the segments: about twice the requests (the extra per segment is a constant, not a
    second look at each)."""
    small = _choose(_prefix_with_copies(s3_server, tmp_path / "a", batches=20)[0])
    large = _choose(_prefix_with_copies(s3_server, tmp_path / "b", batches=80)[0])
    (_, small_requests, small_live), (_, large_requests, large_live) = small, large
    assert large_live >= 3 * small_live
    per_segment = (large_requests - small_requests) / (large_live - small_live)
    # a manifest (open, GET, check) per segment or copy, and two .log objects (the same) per copy (one in four)
    assert per_segment <= 3 * 1.25 + 6 * 0.25 + 0.25, per_segment
