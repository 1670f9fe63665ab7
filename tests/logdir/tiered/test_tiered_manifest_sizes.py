"""Tiered-storage manifests that disagree with themselves or with their objects (issue 30, item 8).

A manifest states the segment's size twice (``chunkIndex.originalFileSize``,
``remoteLogSegmentMetadata.segmentSizeInBytes``), its identity and offsets in the object names and in
``remoteLogSegmentMetadata``, and the index ranges of an object whose size is known. Each encrypted
chunk is authenticated on its own, so an authentic chunk cut out of a segment, with the chunk index
adjusted, still decrypts: ``verify`` must find what the editor left alone (a gap in the offsets, a
size stated elsewhere, an epoch starting at no batch) and name the manifest or object. Everything is
written locally under the test's own tmp_path.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from kafkaspec import Record, logdir
from kafkaspec.cli import main
from kafkaspec.logdir import PartitionWriter
from kafkaspec.logdir.tiered.encryption import KEY_ENV
from kafkaspec.logdir.tiered.segment import MANIFEST_SUFFIX, decode_chunk_sizes, encode_chunk_sizes

pytestmark = pytest.mark.hostile

BATCHES = 30
PER_CHUNK = 4  # batches in one chunk: chunk boundaries are batch boundaries, so a cut leaves whole batches


@pytest.fixture(scope="module")
def key_pair(tmp_path_factory):
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    path = tmp_path_factory.mktemp("keys") / "private.pem"
    path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    public = key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return path, public


def _tiered(
    root: Path, *, segments: int = 1, public: bytes | None = None, compression: bool = True
) -> list[Path]:
    """A partition of BATCHES equal one-record batches per segment (epoch 1 from offset 8), in the
    tiered layout with PER_CHUNK batches a chunk; the manifests, in offset order."""
    with PartitionWriter(root / "logs", "t", 0, segment_bytes=1 << 20, index_interval_bytes=1 << 20) as w:
        for s in range(segments):
            for i in range(BATCHES):
                if s == 0 and i == 8:
                    w.leader_epoch += 1
                w.append([Record(key=b"k%04d" % (s * BATCHES + i), value=b"v" * 40, timestamp=1000 + i)])
            if s + 1 < segments:
                w.roll()
    log = root / "logs" / "t-0" / "00000000000000000000.log"
    size = log.stat().st_size
    assert size % BATCHES == 0
    logdir.write_tiered(
        root / "logs",
        root / "remote",
        chunk_size=PER_CHUNK * size // BATCHES,
        public_key=public,
        compression=compression,
    )
    return sorted((root / "remote").rglob(f"*{MANIFEST_SUFFIX}"))


def _cut_chunk(manifest: Path, k: int, *, adjust_metadata: bool = False) -> int:
    """Cut stored chunk ``k`` out of the segment's .log and adjust the chunk index to match (and, with
    ``adjust_metadata``, segmentSizeInBytes and endOffset too); return the original bytes cut."""
    doc = json.loads(manifest.read_text())
    ci = doc["chunkIndex"]
    sizes = decode_chunk_sizes(ci["transformedChunks"], "m")
    log = manifest.with_suffix(".log")
    stored = log.read_bytes()
    a = sum(sizes[:k])
    log.write_bytes(stored[:a] + stored[a + sizes[k] :])
    cut = min(ci["originalChunkSize"], ci["originalFileSize"] - k * ci["originalChunkSize"])
    del sizes[k]
    ci["transformedChunks"] = encode_chunk_sizes(sizes)
    ci["originalFileSize"] -= cut
    if adjust_metadata:
        meta = doc["remoteLogSegmentMetadata"]
        meta["segmentSizeInBytes"] = ci["originalFileSize"]
        if k == len(sizes):  # the last chunk: the segment now ends PER_CHUNK offsets earlier
            meta["endOffset"] -= PER_CHUNK
            meta["maxTimestampMs"] -= PER_CHUNK
    manifest.write_text(json.dumps(doc))
    return cut


def _offsets(root: Path) -> list[int]:
    with logdir.open_log(root) as log:
        return [r.offset for p in log.partitions() for _, r in p.records()]


def _errors(root: Path) -> list[logdir.Problem]:
    return [p for p in logdir.verify(root) if p.severity == "error"]


def test_an_authentic_chunk_cut_out_of_an_encrypted_segment_is_reported(
    tmp_path, key_pair, monkeypatch, capsys
):
    """The issue's case: chunk 2 (offsets 8-11) cut out, the chunk index adjusted. The records read
    without it; verify names the gap in the .log, the manifest's two sizes, and the epoch that
    starts at offset 8 where no batch does."""
    private, public = key_pair
    monkeypatch.setenv(KEY_ENV, str(private))
    (manifest,) = _tiered(tmp_path, public=public)
    remote = tmp_path / "remote"
    assert logdir.verify(remote) == []
    _cut_chunk(manifest, 2)
    assert _offsets(remote) == [*range(8), *range(12, BATCHES)]  # the cut chunk's offsets are gone
    errors = _errors(remote)
    log = str(manifest.with_suffix(".log"))
    gap = [p for p in errors if p.path == log and "offsets 8..11 are missing" in p.message]
    assert gap and gap[0].position is not None, errors
    sizes = [p for p in errors if p.path == str(manifest) and "segmentSizeInBytes" in p.message]
    assert sizes and "originalFileSize" in sizes[0].message, errors
    epochs = [
        p
        for p in errors
        if p.path == str(manifest.with_suffix(".indexes"))
        and "epoch 1 starts at offset 8, but no batch" in p.message
    ]
    assert epochs, errors
    capsys.readouterr()
    assert main(["verify", str(remote)]) == 1
    out = capsys.readouterr().out
    assert "offsets 8..11 are missing" in out and "segmentSizeInBytes" in out


def test_a_cut_with_every_size_adjusted_still_shows_as_missing_offsets(tmp_path):
    """The editor adjusts segmentSizeInBytes as well: the gap inside the segment is still there; and
    the last chunk cut (endOffset adjusted too) leaves a gap before the next segment."""
    first, second = _tiered(tmp_path / "a", segments=2)
    _cut_chunk(first, 3, adjust_metadata=True)
    errors = _errors(tmp_path / "a" / "remote")
    batch = (tmp_path / "a" / "logs" / "t-0" / "00000000000000000000.log").stat().st_size // BATCHES
    assert [(p.position, p.message) for p in errors if "are missing" in p.message] == [
        (
            12 * batch,
            f"offsets 12..15 are missing: the batch at byte {12 * batch} starts at offset 16, the one before "
            "it ends at 11 (tiered storage holds no compacted topic: its offsets have no gaps)",
        )
    ], errors
    first, second = _tiered(tmp_path / "b", segments=2)
    chunks = -(-BATCHES // PER_CHUNK)
    _cut_chunk(first, chunks - 1, adjust_metadata=True)  # the last chunk: offsets 28-29
    errors = _errors(tmp_path / "b" / "remote")
    last = BATCHES - 1 - (BATCHES % PER_CHUNK or PER_CHUNK)
    missing = [p for p in errors if p.path == str(second.with_suffix(".log")) and "are missing" in p.message]
    assert missing and f"offsets {last + 1}..{BATCHES - 1} are missing" in missing[0].message, errors
    assert first.with_suffix(".log").name in missing[0].message


def _edit(path: Path, change) -> None:
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(doc))


def _meta(field: str, value):
    def change(doc):
        target = doc["remoteLogSegmentMetadata"]
        *parents, last = field.split(".")
        for name in parents:
            target = target[name]
        target[last] = value(target[last])

    return change


@pytest.mark.parametrize(
    "field, value, says",
    [
        ("segmentSizeInBytes", lambda v: v + 1, "segmentSizeInBytes is"),
        ("startOffset", lambda v: v + 1, "startOffset is 1, but the base offset"),
        ("endOffset", lambda v: v - 1, f"endOffset is {BATCHES - 2}, but the last offset"),
        ("maxTimestampMs", lambda v: v + 5, "maxTimestampMs is"),
        ("remoteLogSegmentId.id", lambda v: "A" * 22, "remoteLogSegmentId.id is 'AAAAAAAAAAAAAAAAAAAAAA'"),
        (
            "remoteLogSegmentId.topicIdPartition.topicId",
            lambda v: "B" * 22,
            "topicId is 'BBBBBBBBBBBBBBBBBBBBBB', but the topic id of its folder",
        ),
        ("remoteLogSegmentId.topicIdPartition.topicPartition.partition", lambda v: 3, "partition is 3"),
        ("remoteLogSegmentId.topicIdPartition.topicPartition.topic", lambda v: "other", "topic is 'other'"),
        (
            "segmentLeaderEpochs",
            lambda v: {"0": 0, "1": 12},
            "segmentLeaderEpochs gives epoch 0 from offset 0 for the batch at offset 8",
        ),
    ],
)
def test_every_statement_of_the_segment_metadata_is_compared(tmp_path, field, value, says):
    (manifest,) = _tiered(tmp_path)
    _edit(manifest, _meta(field, value))
    errors = _errors(tmp_path / "remote")
    assert [p.path for p in errors] == [str(manifest)], errors
    assert says in errors[0].message, errors[0].message


def test_the_index_ranges_are_compared_with_each_other_and_the_bundle(tmp_path):
    (manifest,) = _tiered(tmp_path)
    bundle = manifest.with_suffix(".indexes")
    bundle.write_bytes(bundle.read_bytes() + b"\0" * 7)  # bytes no index accounts for
    errors = _errors(tmp_path / "remote")
    held = bundle.stat().st_size
    assert [(p.path, p.message) for p in errors] == [
        (str(manifest), f"segmentIndexes end at byte {held - 7}, but {bundle.name} holds {held} bytes")
    ]
    bundle.write_bytes(bundle.read_bytes()[:-7])

    def gap(doc):  # the checkpoint said to start one byte later: a byte between two indexes
        doc["segmentIndexes"]["leaderEpoch"]["position"] += 1
        doc["segmentIndexes"]["leaderEpoch"]["size"] -= 1

    _edit(manifest, gap)
    at = json.loads(manifest.read_text())["segmentIndexes"]["leaderEpoch"]["position"]
    messages = [p.message for p in _errors(tmp_path / "remote") if p.path == str(manifest)]
    assert (
        f"segmentIndexes.leaderEpoch starts at byte {at} of {bundle.name}, but the indexes before it end at "
        f"byte {at - 1} (the plugin writes them back to back)" in messages
    ), messages


@pytest.mark.parametrize("field", ["transformedChunkSize", "originalFileSize"])
def test_a_fixed_chunk_index_must_state_the_stored_size_of_uncompressed_chunks(tmp_path, field, capsys):
    """Uncompressed chunks are stored in their own size: a fixed index that says otherwise (or a file
    size whose last chunk the stated final size does not fit) cannot be read and is named."""
    (manifest,) = _tiered(tmp_path, compression=False)
    _edit(manifest, lambda doc: doc["chunkIndex"].update({field: doc["chunkIndex"][field] + 1}))
    ci = json.loads(manifest.read_text())["chunkIndex"]
    ocs, size = ci["originalChunkSize"], ci["originalFileSize"]
    last = size - (-(-size // ocs) - 1) * ocs
    errors = _errors(tmp_path / "remote")
    assert [p.path for p in errors] == [str(manifest)], errors
    assert errors[0].message.startswith(
        f"manifest chunkIndex says chunks are stored in {ci['transformedChunkSize']} bytes (the last "
        f"{ci['finalTransformedChunkSize']}), but uncompressed chunks of {ocs} bytes (the last {last}) are stored in "
        f"{ocs} (the last {last})"
    ), errors[0].message
    assert "cannot be read" in errors[0].message
    capsys.readouterr()
    assert main(["verify", str(tmp_path / "remote")]) == 1
    assert "Traceback" not in capsys.readouterr().err


def test_a_compressed_chunk_index_with_chunks_smaller_than_a_zstd_frame(tmp_path):
    (manifest,) = _tiered(tmp_path)
    doc = json.loads(manifest.read_text())
    sizes = decode_chunk_sizes(doc["chunkIndex"]["transformedChunks"], "m")
    sizes[0], sizes[1] = 8, sizes[0] + sizes[1] - 8  # the same total; chunk 0 shorter than any zstd frame
    _edit(manifest, lambda d: d["chunkIndex"].update(transformedChunks=encode_chunk_sizes(sizes)))
    errors = _errors(tmp_path / "remote")
    assert [p.path for p in errors] == [str(manifest)], errors
    assert (
        "gives chunk 0 (" in errors[0].message
        and "a stored size of 8 bytes, less than the 9" in errors[0].message
    )


def test_fields_the_plugin_does_not_write_are_not_required(tmp_path):
    """Aiven's manifests hold remoteLogSegmentMetadata without segmentSizeInBytes (and a manifest may
    hold none at all): what is left out is not compared, and such a layout verifies clean."""
    (manifest,) = _tiered(tmp_path)
    _edit(manifest, lambda doc: doc["remoteLogSegmentMetadata"].pop("segmentSizeInBytes"))
    assert logdir.verify(tmp_path / "remote") == []
    _edit(manifest, lambda doc: doc.pop("remoteLogSegmentMetadata"))
    assert logdir.verify(tmp_path / "remote") == []
