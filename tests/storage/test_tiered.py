"""Kafka tiered storage in the layout of Aiven's RemoteStorageManager: written by logdir.write_tiered,
read back by open_log (detected, or layout="tiered"), locally and from the S3 server."""

from __future__ import annotations

import base64
import json

import pytest
import zstandard

from kafkaspec import KafkaFormatError, logdir
from kafkaspec.cli import main
from kafkaspec.logdir.tiered import (
    MANIFEST_SUFFIX,
    decode_chunk_sizes,
    encode_chunk_sizes,
    parse_manifest,
)


def _records(log) -> list[tuple]:
    return [(p.topic, p.partition, r.offset, r.timestamp, r.key, r.value, r.headers)
            for p in log.partitions() for _, r in p.records()]


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
    assert list(manifest["segmentIndexes"]) == ["offset", "timestamp", "producerSnapshot", "leaderEpoch",
                                                "transaction"]
    # each stored chunk is one zstd frame holding its chunk of the segment
    stored = (orders / "0" / f"{first}.log").read_bytes()
    original = (local_logs / "orders-0" / "00000000000000000000.log").read_bytes()
    assert zstandard.ZstdDecompressor().decompress(stored[:sizes[0]]) == original[:1000]
    idx = (orders / "0" / f"{first}.indexes").read_bytes()
    off = manifest["segmentIndexes"]["offset"]
    assert idx[off["position"]:off["position"] + off["size"]] == \
        (local_logs / "orders-0" / "00000000000000000000.index").read_bytes()


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


def test_round_trip_through_s3_with_the_cli(s3_env, s3_server, capsys, local_logs):
    bucket = s3_server.new_bucket()
    report = logdir.write_tiered(local_logs, f"s3://{bucket}/tiered/", chunk_size=700)
    assert report.segments > 10
    assert _records(logdir.open_log(f"s3://{bucket}/tiered")) == _records(logdir.open_log(local_logs))
    assert main(["dump", f"s3://{bucket}/tiered/", "--json"]) == 0
    remote = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert main(["dump", str(local_logs), "--json"]) == 0
    local = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    for d in remote + local:
        d.pop("file", None)
    assert remote == local
    assert main(["verify", f"s3://{bucket}/tiered/"]) == 0


def test_uncompressed_chunks_use_a_fixed_chunk_index(tmp_path, local_logs):
    logdir.write_tiered(local_logs, tmp_path, chunk_size=512, compression=False)
    manifest = next(tmp_path.rglob(f"*{MANIFEST_SUFFIX}"))
    assert json.loads(manifest.read_text())["chunkIndex"]["type"] == "fixed"
    assert _records(logdir.open_log(tmp_path)) == _records(logdir.open_log(local_logs))


def test_chunk_size_codec_matches_the_plugins_examples():
    for values in ([], [5], [1000000, 1000010, 1000020, 7], [300, 70000, 5, 1 << 30]):
        assert decode_chunk_sizes(encode_chunk_sizes(values), "m") == values
    # count 3, base 1000000, 1 byte per value (0, 10), last 1000020: the byte layout the plugin documents
    raw = bytes.fromhex("00000003" "000f4240" "01" "00" "0a" "000f4254")
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
    with pytest.raises(KafkaFormatError, match=r"chunk 0 \(bytes 0\.\.\d+ of .*\) holds 3 bytes after its zstd frame") as info:
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


def test_an_encrypted_segment_says_what_is_missing(tmp_path, local_logs, capsys):
    manifest, doc = _one_segment(tmp_path, local_logs)
    doc["encryption"] = {"dataKey": "rsa-wrapped", "aad": "CgsMDQ=="}
    manifest.write_text(json.dumps(doc))
    code = main(["dump", str(manifest.with_suffix(".log"))])
    err = capsys.readouterr().err
    assert code == 1 and "encrypted" in err and "RSA private key" in err and err.count("\n") == 1
