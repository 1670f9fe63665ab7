"""Kafka tiered storage in the layout of Aiven's RemoteStorageManager: written by logdir.write_tiered,
read back by open_log (detected, or layout="tiered"), locally and from the S3 server."""

from __future__ import annotations

import base64
import json
import re

import pytest
import zstandard
from pyarrow.fs import FileSelector
from support.logdir import write_partition

from kafkaspec import KafkaFormatError, logdir
from kafkaspec.cli import main
from kafkaspec.logdir.tiered.segment import (
    MANIFEST_SUFFIX,
    decode_chunk_sizes,
    encode_chunk_sizes,
    parse_manifest,
)


def _records(log) -> list[tuple]:
    return [
        (p.topic, p.partition, r.offset, r.timestamp, r.key, r.value, r.headers)
        for p in log.partitions()
        for _, r in p.records()
    ]


@pytest.fixture(scope="module")
def tiered_local(tmp_path_factory, local_logs):
    out = tmp_path_factory.mktemp("tiered") / "remote"
    report = logdir.write_tiered(local_logs, out, chunk_size=1000, compression=True)
    assert report.segments > 10 and report.bytes_stored < report.bytes_in
    return out


def test_the_layout_on_disk_is_the_plugins(tiered_local, local_logs):
    topics = sorted(p.name for p in tiered_local.iterdir())
    assert [t.rsplit("-", 1)[0] for t in topics] == ["clicks", "orders"]
    assert all(len(t.rsplit("-", 1)[1]) == 22 for t in topics)
    orders = next(p for p in tiered_local.iterdir() if p.name.startswith("orders-"))
    assert sorted(p.name for p in orders.iterdir()) == ["0", "1"]
    names = sorted(p.name for p in (orders / "0").iterdir())
    stems = {n.rsplit(".", 1)[0] for n in names}
    assert names == sorted(f"{s}{x}" for s in stems for x in (".indexes", ".log", ".rsm-manifest"))
    first = min(stems)
    assert first.startswith("00000000000000000000-") and len(first) == 20 + 1 + 22
    manifest = json.loads((orders / "0" / f"{first}{MANIFEST_SUFFIX}").read_text())
    assert manifest["version"] == "1" and manifest["compression"] is True
    ci = manifest["chunkIndex"]
    assert ci["type"] == "variable" and ci["originalChunkSize"] == 1000
    assert ci["originalFileSize"] == (local_logs / "orders-0" / "00000000000000000000.log").stat().st_size
    sizes = decode_chunk_sizes(ci["transformedChunks"], "m")
    assert sum(sizes) == (orders / "0" / f"{first}.log").stat().st_size
    assert list(manifest["segmentIndexes"]) == [
        "offset",
        "timestamp",
        "producerSnapshot",
        "leaderEpoch",
        "transaction",
    ]
    # each stored chunk is one zstd frame holding its chunk of the segment
    stored = (orders / "0" / f"{first}.log").read_bytes()
    original = (local_logs / "orders-0" / "00000000000000000000.log").read_bytes()
    assert zstandard.ZstdDecompressor().decompress(stored[: sizes[0]]) == original[:1000]
    idx = (orders / "0" / f"{first}.indexes").read_bytes()
    off = manifest["segmentIndexes"]["offset"]
    assert (
        idx[off["position"] : off["position"] + off["size"]]
        == (local_logs / "orders-0" / "00000000000000000000.index").read_bytes()
    )


def test_round_trip_locally_detected_and_explicit(tiered_local, local_logs):
    expected = _records(logdir.open_log(local_logs))
    assert _records(logdir.open_log(tiered_local)) == expected
    assert _records(logdir.open_log(tiered_local, layout="tiered")) == expected
    log = logdir.open_log(tiered_local)
    part = next(p for p in log.partitions() if p.name == "orders-0")
    assert part.metadata()["topic_id"] == part.path.parent.name.rsplit("-", 1)[1]
    seg = part.segments()[1]
    local_seg = logdir.open_log(local_logs).partition("orders", 0).segments()[1]
    assert seg.index_entries() == local_seg.index_entries()
    target = local_seg.index_entries()[-1].offset
    assert seg.find_offset(target).position == local_seg.find_offset(target).position
    assert logdir.verify(tiered_local) == []


def test_round_trip_through_the_store_with_the_cli(store_env, store_server, capsys, local_logs):
    bucket = store_server.new_bucket()
    uri = store_server.uri(bucket, "tiered")
    report = logdir.write_tiered(local_logs, uri + "/", chunk_size=700)
    assert report.segments > 10
    assert _records(logdir.open_log(uri)) == _records(logdir.open_log(local_logs))
    assert main(["dump", uri + "/", "--json"]) == 0
    remote = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert main(["dump", str(local_logs), "--json"]) == 0
    local = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    for d in remote + local:
        d.pop("file", None)
    assert remote == local
    assert main(["verify", uri + "/"]) == 0


def test_uncompressed_chunks_use_a_fixed_chunk_index(tmp_path, local_logs):
    logdir.write_tiered(local_logs, tmp_path, chunk_size=512, compression=False)
    manifest = next(tmp_path.rglob(f"*{MANIFEST_SUFFIX}"))
    assert json.loads(manifest.read_text())["chunkIndex"]["type"] == "fixed"
    assert _records(logdir.open_log(tmp_path)) == _records(logdir.open_log(local_logs))


def test_chunk_size_codec_matches_the_plugins_examples():
    for values in ([], [5], [1000000, 1000010, 1000020, 7], [300, 70000, 5, 1 << 30]):
        assert decode_chunk_sizes(encode_chunk_sizes(values), "m") == values
    # count 3, base 1000000, 1 byte per value (0, 10), last 1000020: the byte layout the plugin documents
    raw = bytes.fromhex("00000003000f424001000a000f4254")
    text = base64.b64encode(zstandard.ZstdCompressor(write_content_size=True).compress(raw)).decode()
    assert decode_chunk_sizes(text, "m") == [1000000, 1000010, 1000020]


def _one_segment(tmp_path, local_logs):
    logdir.write_tiered(local_logs, tmp_path, chunk_size=800)
    manifest = sorted(tmp_path.rglob(f"*{MANIFEST_SUFFIX}"))[0]
    return manifest, json.loads(manifest.read_text())


def test_a_manifest_whose_chunk_sizes_lie_is_a_clear_error(tmp_path, local_logs, capsys):
    manifest, doc = _one_segment(tmp_path, local_logs)
    sizes = decode_chunk_sizes(doc["chunkIndex"]["transformedChunks"], "m")
    sizes[0] += 3
    sizes[1] -= 3  # the same total: only the chunk boundaries lie
    doc["chunkIndex"]["transformedChunks"] = encode_chunk_sizes(sizes)
    manifest.write_text(json.dumps(doc))
    with pytest.raises(
        KafkaFormatError, match=r"chunk 0 \(bytes 0\.\.\d+ of .*\) holds 3 bytes after its zstd frame"
    ) as info:
        list(logdir.open_log(manifest.with_suffix(".log")).partitions()[0].records())
    assert str(manifest) in str(info.value)
    sizes[1] += 10  # now the total is wrong too
    doc["chunkIndex"]["transformedChunks"] = encode_chunk_sizes(sizes)
    manifest.write_text(json.dumps(doc))
    with pytest.raises(KafkaFormatError, match=r"chunk sizes add up to \d+ bytes but .* holds \d+"):
        logdir.open_log(manifest.with_suffix(".log")).segments()[0].iter_batches()
    code = main(["dump", str(manifest.with_suffix(".log"))])
    err = capsys.readouterr().err
    assert code == 1 and "chunk sizes add up to" in err and "Traceback" not in err


def test_a_manifest_with_the_wrong_chunk_count_or_file_size(tmp_path, local_logs):
    manifest, doc = _one_segment(tmp_path, local_logs)
    doc["chunkIndex"]["originalFileSize"] += 5000
    manifest.write_text(json.dumps(doc))
    with pytest.raises(KafkaFormatError, match="stored chunk sizes but a"):
        logdir.open_log(manifest.with_suffix(".log")).segments()[0].size  # noqa: B018
    doc["chunkIndex"] = {"type": "spiral"}
    manifest.write_text(json.dumps(doc))
    with pytest.raises(KafkaFormatError, match="originalChunkSize must be an integer"):
        logdir.open_log(manifest.with_suffix(".log")).segments()[0].size  # noqa: B018
    manifest.write_text("{not json")
    with pytest.raises(KafkaFormatError, match="manifest is not JSON"):
        parse_manifest(manifest.read_bytes(), str(manifest))


def test_an_encrypted_segment_says_what_is_missing(tmp_path, local_logs, capsys, monkeypatch):
    monkeypatch.delenv("KAFKASPEC_TIERED_PRIVATE_KEY", raising=False)
    manifest, doc = _one_segment(tmp_path, local_logs)
    doc["encryption"] = {"dataKey": "rsa-wrapped", "aad": "CgsMDQ=="}
    manifest.write_text(json.dumps(doc))
    code = main(["dump", str(manifest.with_suffix(".log"))])
    err = capsys.readouterr().err
    assert code == 1 and "encryption.dataKey is not '<key pair id>:<base64>'" in err and err.count("\n") == 1
    doc["encryption"] = {"dataKey": "pair-7:" + base64.b64encode(bytes(256)).decode(), "aad": "CgsMDQ=="}
    manifest.write_text(json.dumps(doc))
    code = main(["dump", str(manifest.with_suffix(".log"))])
    err = capsys.readouterr().err
    assert code == 1 and "encrypted" in err and "key pair 'pair-7'" in err and "RSA private key" in err
    assert "KAFKASPEC_TIERED_PRIVATE_KEY" in err and err.count("\n") == 1


def _corrupt_bundle(s3_server, key: str, kind: str, change) -> tuple[int, int]:
    """Apply ``change(bytearray)`` to the ``kind`` index inside the ``.indexes`` object ``key`` on the server."""
    fs = s3_server.filesystem()
    manifest = json.loads(fs.open_input_file(key[: -len(".indexes")] + MANIFEST_SUFFIX).read())
    where = manifest["segmentIndexes"][kind]
    pos, size = where["position"], where["size"]
    bundle = bytearray(fs.open_input_file(key).read())
    part = bytearray(bundle[pos : pos + size])
    change(part)
    assert len(part) == size
    bundle[pos : pos + size] = part
    with fs.open_output_stream(key) as f:
        f.write(bytes(bundle))
    return pos, size


def _shift_first_position(b: bytearray) -> None:
    b[4:8] = (int.from_bytes(b[4:8], "big") + 1).to_bytes(4, "big")


def _earlier_first_timestamp(b: bytearray) -> None:
    b[0:8] = (int.from_bytes(b[0:8], "big") - 7).to_bytes(8, "big")


def _other_last_epoch(b: bytearray) -> None:
    """The last checkpoint line ``epoch start`` gets epoch 9 (its epochs here are single digits)."""
    start = b.rindex(b"\n", 0, len(b) - 1) + 1
    assert b[start + 1 : start + 2] == b" "
    b[start] = ord("9")


def _flip_last_byte(b: bytearray) -> None:
    b[-1] ^= 0x01


@pytest.mark.parametrize(
    "kind, change, says",
    [
        (
            "offset",
            _shift_first_position,
            r"offset index \(bytes \d+\.\.\d+ of the bundle\): entry 0: position \d+ is not the start of a batch",
        ),
        (
            "timestamp",
            _earlier_first_timestamp,
            r"time index \(bytes \d+\.\.\d+ of the bundle\): entry 0: timestamp \d+ but the batch holding offset \d+ "
            r"has max timestamp \d+",
        ),
        (
            "leaderEpoch",
            _other_last_epoch,
            r"leader-epoch checkpoint \(bytes \d+\.\.\d+ of the bundle\): the batch at offset \d+ has leader epoch \d+, "
            r"but the checkpoint gives epoch 9",
        ),
        ("producerSnapshot", _flip_last_byte, r"producer snapshot \(bytes \d+\.\.\d+ of the bundle\): .*crc"),
    ],
)
def test_verify_checks_the_indexes_inside_the_bundle(s3_env, s3_server, capsys, tmp_path, kind, change, says):
    """verify reads a tiered segment's .indexes bundle as local verify reads .index/.timeindex: one index
    corrupted inside the bundle is an error naming the bundle, the index and the byte (exit 1)."""
    write_partition(tmp_path / "logs", topic="t", batches=40, seed=9, segment_bytes=1 << 20)  # one segment
    bucket = s3_server.new_bucket()
    logdir.write_tiered(tmp_path / "logs", f"s3://{bucket}/tiered/", chunk_size=4096)
    assert main(["verify", f"s3://{bucket}/tiered/"]) == 0
    capsys.readouterr()
    listing = s3_server.filesystem().get_file_info(FileSelector(f"{bucket}/tiered", recursive=True))
    key = next(i.path for i in listing if i.path.endswith(".indexes"))
    _corrupt_bundle(s3_server, key, kind, change)
    code = main(["verify", f"s3://{bucket}/tiered/"])
    out, err = capsys.readouterr()
    assert code == 1, out + err
    line = next(x for x in out.splitlines() if x.startswith("error:"))
    assert line.startswith(f"error: s3://{key}"), line
    assert re.search(says, line, re.IGNORECASE), line
    assert "Traceback" not in err
