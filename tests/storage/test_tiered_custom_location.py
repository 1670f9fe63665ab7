"""Segments under another prefix or key (issue 24, item 3), on the tests' S3 server.

Aiven's plugin records where it put each segment (``SegmentCustomMetadataField`` OBJECT_PREFIX and
OBJECT_KEY, in the custom metadata Kafka keeps in ``__remote_log_metadata``) and reads it from there,
so a segment copied before the plugin's prefix was changed is still served from the old prefix. With
the metadata topic given, every reader follows it; without it, the segments under the old prefix are
not found. The prefixes are written by ``write_tiered`` and then moved; the metadata topic is written
from their manifests, with the custom metadata encoded as the plugin does.
"""

from __future__ import annotations

import base64
import json
import uuid

import pytest
from pyarrow.fs import FileSelector
from support.logdir import write_partition
from support.remote_log_records import FINISHED, segment, update, write_topic

from kafkaspec import KafkaFormatError, logdir
from kafkaspec.logdir.tiered.custom import SegmentLocation, encode_custom_metadata, parse_custom_metadata
from kafkaspec.logdir.tiered.lineage import segment_epochs
from kafkaspec.logdir.tiered.segment import MANIFEST_SUFFIX


def _uuid(kafka_id: str) -> uuid.UUID:
    return uuid.UUID(bytes=base64.urlsafe_b64decode(kafka_id + "=="))


def test_the_plugins_encoding_is_read():
    """SegmentCustomMetadataSerdeTest's case: remote_size 100 and object_key "foo" in 11 bytes."""
    data = bytes.fromhex("020002c8010204" + "04666f6f")
    assert len(data) == 11
    assert parse_custom_metadata(data, "s") == SegmentLocation(100, None, "foo")
    assert encode_custom_metadata(SegmentLocation(100, None, "foo")) == data
    assert parse_custom_metadata(b"", "s") == SegmentLocation(None, None, None)
    with pytest.raises(KafkaFormatError, match="segment X: field 2 claims 9 bytes, 4 left"):
        parse_custom_metadata(bytes.fromhex("010209" + "04666f6f"), "segment X")


def _moved(s3_server, tmp_path, moved_from: int):
    """orders-0 written to s3://bucket/old/, then the segments from ``moved_from`` on moved to new/ (as
    the plugin writes after its prefix changed); the metadata topic of both, with custom metadata."""
    expected = write_partition(
        tmp_path / "logs", topic="orders", batches=60, seed=8, segment_bytes=1500, codecs=("none", "zstd")
    )
    bucket = s3_server.new_bucket()
    logdir.write_tiered(tmp_path / "logs", f"s3://{bucket}/old/", chunk_size=900)
    fs = s3_server.filesystem()
    manifests = sorted(
        i.path
        for i in fs.get_file_info(FileSelector(f"{bucket}/old", recursive=True))
        if i.path.endswith(MANIFEST_SUFFIX)
    )
    assert len(manifests) > 5
    values = []
    for i, key in enumerate(manifests):
        stem_key = key[len(f"{bucket}/old/") : -len(MANIFEST_SUFFIX)]  # <topic>-<id>/<partition>/<stem>
        prefix = "old/" if i < moved_from else "new/"
        if i >= moved_from:
            for suffix in (".log", ".indexes", MANIFEST_SUFFIX):
                fs.copy_file(f"{bucket}/old/{stem_key}{suffix}", f"{bucket}/new/{stem_key}{suffix}")
                fs.delete_file(f"{bucket}/old/{stem_key}{suffix}")
        with fs.open_input_stream(f"{bucket}/{prefix}{stem_key}{MANIFEST_SUFFIX}") as f:
            meta = json.loads(f.read())["remoteLogSegmentMetadata"]
        tid, seg = _uuid(stem_key.split("/")[0][-22:]), _uuid(stem_key[-22:])
        epochs = list(
            segment_epochs(
                {int(e): o for e, o in meta["segmentLeaderEpochs"].items()},
                meta["startOffset"],
                meta["endOffset"],
            )
        )
        custom = encode_custom_metadata(SegmentLocation(1234, prefix, stem_key))
        values += [
            segment("orders", tid, 0, seg, meta["startOffset"], meta["endOffset"], epochs),
            update("orders", tid, 0, seg, FINISHED, custom=custom),
        ]
    meta_dir = write_topic(tmp_path / "meta", values)
    return bucket, meta_dir, [r[0] for r in expected], manifests


def _offsets(log) -> list[int]:
    return [r.offset for p in log.partitions() for _, r in p.records()]


def test_segments_under_the_old_prefix_are_read_from_there(s3_env, s3_server, tmp_path):
    bucket, meta_dir, expected, manifests = _moved(s3_server, tmp_path, moved_from=3)
    (tmp_path / "canary").write_text("keep")
    log = logdir.open_log(f"s3://{bucket}/new/", remote_log_metadata=meta_dir)
    assert _offsets(log) == expected
    assert log.unused_segments == []
    paths = [str(s.path) for s in log.partitions()[0].segments()]
    assert sum(f"s3://{bucket}/old/" in p for p in paths) == 3 and all(
        "old/" in p or "new/" in p for p in paths
    )
    # the manifests alone: only what the new prefix holds
    alone = _offsets(logdir.open_log(f"s3://{bucket}/new/"))
    assert alone and alone[0] > expected[0] and set(alone) < set(expected)
    assert (tmp_path / "canary").read_text() == "keep"


def test_a_segment_missing_where_its_custom_metadata_puts_it_is_an_error_naming_it(
    s3_env, s3_server, tmp_path
):
    bucket, meta_dir, _, manifests = _moved(s3_server, tmp_path, moved_from=3)
    fs = s3_server.filesystem()
    stem_key = manifests[1][len(f"{bucket}/old/") : -len(MANIFEST_SUFFIX)]
    fs.delete_file(f"{bucket}/old/{stem_key}.log")
    log = logdir.open_log(f"s3://{bucket}/new/", remote_log_metadata=meta_dir)
    with pytest.raises(
        KafkaFormatError,
        match=f"is COPY_SEGMENT_FINISHED in __remote_log_metadata .* no s3://{bucket}/old/{stem_key}.log",
    ):
        log.partitions()[0].segments()


def test_a_key_that_leaves_the_bucket_is_refused(tmp_path):
    write_partition(tmp_path / "logs", topic="orders", batches=20, seed=9, segment_bytes=1500)
    logdir.write_tiered(tmp_path / "logs", tmp_path / "remote")
    (tmp_path / "canary").write_text("keep")
    manifest = next((tmp_path / "remote").rglob(f"*{MANIFEST_SUFFIX}"))
    meta = json.loads(manifest.read_text())["remoteLogSegmentMetadata"]
    stem = manifest.name[: -len(MANIFEST_SUFFIX)]
    tid, seg = _uuid(manifest.parent.parent.name[-22:]), _uuid(stem[-22:])
    epochs = list(
        segment_epochs(
            {int(e): o for e, o in meta["segmentLeaderEpochs"].items()},
            meta["startOffset"],
            meta["endOffset"],
        )
    )
    custom = encode_custom_metadata(SegmentLocation(None, "../", "canary"))
    meta_dir = write_topic(
        tmp_path / "meta",
        [
            segment("orders", tid, 0, seg, meta["startOffset"], meta["endOffset"], epochs),
            update("orders", tid, 0, seg, FINISHED, custom=custom),
        ],
    )
    log = logdir.open_log(tmp_path / "remote", remote_log_metadata=meta_dir)
    with pytest.raises(KafkaFormatError, match="is not a plain key"):
        log.partitions()[0].segments()
    assert (tmp_path / "canary").read_text() == "keep"
