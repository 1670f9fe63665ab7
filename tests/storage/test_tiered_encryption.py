"""Encrypted tiered-storage segments (Aiven's plugin format): written by write_tiered(public_key=...),
read with the RSA private key named by KAFKASPEC_TIERED_PRIVATE_KEY, a clear error without it."""

from __future__ import annotations

import base64
import json

import pytest
import zstandard
from Crypto.Cipher import PKCS1_OAEP
from Crypto.Hash import SHA3_512
from Crypto.PublicKey import RSA
from Crypto.Signature import pss
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives.ciphers.aead import (
    AESGCM,  # the chunk layout, checked with another library
)

from kafkaspec import KafkaFormatError, logdir
from kafkaspec.cli import main
from kafkaspec.logdir.tiered.encryption import KEY_ENV
from kafkaspec.logdir.tiered.segment import MANIFEST_SUFFIX, decode_chunk_sizes


def _records(path) -> list[tuple]:
    with logdir.open_log(path) as log:
        return [
            (p.topic, p.partition, r.offset, r.timestamp, r.key, r.value, r.headers)
            for p in log.partitions()
            for _, r in p.records()
        ]


def _key_pair(tmp_path, name):
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    path = tmp_path / f"{name}.pem"
    path.write_bytes(pem)
    public = key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return key, path, public


@pytest.fixture(scope="module")
def keys(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("keys")
    return _key_pair(tmp, "ours"), _key_pair(tmp, "other")


def test_encrypted_segments_read_with_the_private_key_and_refuse_without(
    s3_env, s3_server, local_logs, keys, monkeypatch, capsys
):
    (_, key_path, public), (_, other_path, _) = keys
    uri = f"s3://{s3_server.new_bucket()}/tiered"
    logdir.write_tiered(local_logs, uri, chunk_size=700, public_key=public, key_id="pair-1")
    monkeypatch.delenv(KEY_ENV, raising=False)
    code = main(["dump", uri])
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert code == 1 and lines and "Traceback" not in err  # one line per encrypted segment
    assert all("is encrypted" in x and "key pair 'pair-1'" in x and KEY_ENV in x for x in lines), lines[0]
    monkeypatch.setenv(KEY_ENV, str(other_path))
    with pytest.raises(KafkaFormatError, match="does not decrypt this segment's data key"):
        _records(uri)
    monkeypatch.setenv(KEY_ENV, str(key_path))
    assert _records(uri) == _records(local_logs)
    assert main(["verify", uri]) == 0, capsys.readouterr().out
    out, err = capsys.readouterr()
    assert key_path.read_text().splitlines()[1] not in out + err  # the key is never shown


def test_the_encrypted_layout_is_the_plugins(tmp_path, local_logs, keys, monkeypatch):
    """Checked with the cipher primitives directly: the manifest's dataKey is '<id>:<base64 of RSA-OAEP
    (SHA3-512) of a 256-bit key>', aad is base64; each stored chunk is IV(12) || AES-GCM(zstd(chunk)) || tag;
    each index is one such chunk, uncompressed. A chunk altered by one bit is named."""
    (_, key_path, public), _ = keys
    logdir.write_tiered(local_logs, tmp_path, chunk_size=700, public_key=public, key_id="pair-1")
    manifest = next(
        m
        for m in sorted(tmp_path.rglob(f"00000000000000000000-*{MANIFEST_SUFFIX}"))
        if m.parent.name == "0" and m.parent.parent.name.startswith("orders-")
    )
    doc = json.loads(manifest.read_text())
    key_id, wrapped = doc["encryption"]["dataKey"].split(":")
    assert key_id == "pair-1"
    rsa_key = RSA.import_key(
        key_path.read_bytes()
    )  # OAEP with SHA3-512: PyCryptodome (cryptography has no SHA3 OAEP)
    oaep = PKCS1_OAEP.new(rsa_key, hashAlgo=SHA3_512, mgfunc=lambda seed, n: pss.MGF1(seed, n, SHA3_512))
    data_key = oaep.decrypt(base64.b64decode(wrapped))
    aad = base64.b64decode(doc["encryption"]["aad"])
    assert len(data_key) == 32 and len(aad) == 32
    stored = manifest.with_suffix(".log").read_bytes()
    sizes = decode_chunk_sizes(doc["chunkIndex"]["transformedChunks"], "m")
    first = stored[: sizes[0]]
    chunk = zstandard.ZstdDecompressor().decompress(AESGCM(data_key).decrypt(first[:12], first[12:], aad))
    original = (local_logs / "orders-0" / "00000000000000000000.log").read_bytes()
    assert manifest.name.startswith("00000000000000000000-") and chunk == original[:700]
    where = doc["segmentIndexes"]["offset"]
    bundle = manifest.with_suffix(".indexes").read_bytes()[
        where["position"] : where["position"] + where["size"]
    ]
    assert (
        AESGCM(data_key).decrypt(bundle[:12], bundle[12:], aad)
        == (local_logs / "orders-0" / "00000000000000000000.index").read_bytes()
    )
    monkeypatch.setenv(KEY_ENV, str(key_path))
    altered = bytearray(stored)
    altered[sizes[0] + 20] ^= 0x01  # inside chunk 1
    manifest.with_suffix(".log").write_bytes(bytes(altered))
    with pytest.raises(
        KafkaFormatError, match=r"chunk 1 \(bytes \d+\.\.\d+ of .*\) does not decrypt: its GCM tag"
    ):
        _records(manifest.with_suffix(".log"))


def test_encrypted_uncompressed_chunks_use_a_fixed_index(tmp_path, local_logs, keys, monkeypatch):
    (_, key_path, public), _ = keys
    logdir.write_tiered(local_logs, tmp_path, chunk_size=512, compression=False, public_key=public)
    doc = json.loads(next(tmp_path.rglob(f"*{MANIFEST_SUFFIX}")).read_text())
    assert doc["chunkIndex"]["type"] == "fixed" and doc["chunkIndex"]["transformedChunkSize"] == 512 + 12 + 16
    monkeypatch.setenv(KEY_ENV, str(key_path))
    assert _records(tmp_path) == _records(local_logs)
    assert logdir.verify(tmp_path) == []
