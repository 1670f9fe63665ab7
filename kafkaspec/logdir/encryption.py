"""Encrypted tiered-storage segments (Aiven's plugin): an RSA-wrapped data key, AES-GCM chunks.

The plugin's format (``AesEncryptionProvider``, ``RsaEncryptionProvider``, ``EncryptionChunkEnumeration``,
``SegmentEncryptionMetadataV1``, ``EncryptedDataKey``), as this module reads and writes it:

* each segment has its own 256-bit AES data key and 32 bytes of additional authenticated data (AAD);
* the manifest's ``encryption`` object holds ``{"dataKey": "<key pair id>:<base64 of the data key
  encrypted with the RSA public key>", "aad": "<base64>"}``; the RSA encryption is OAEP with SHA3-512
  (digest and MGF1, as BouncyCastle's ``RSA/NONE/OAEPWithSHA3-512AndMGF1Padding`` does);
* every stored chunk of the ``.log`` (compressed first, when the manifest says so) and every index in
  the ``.indexes`` object (each one chunk, never compressed) is ``IV (12 bytes) || ciphertext ||
  GCM tag (16 bytes)``, encrypted with the data key and the AAD.

The ciphers are PyCryptodome's (``Crypto``): the ``cryptography`` package offers OAEP only with SHA-1
and SHA-2 digests, not the plugin's SHA3-512. The RSA private key is given as the path of a PEM
file in ``KAFKASPEC_TIERED_PRIVATE_KEY`` (``PKCS#8`` or ``PKCS#1``, unencrypted, as the plugin's own), read when the first
encrypted segment is, and never shown in a message, log or ``repr``.
"""

from __future__ import annotations

import base64
import binascii
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import KafkaFormatError

IV_SIZE = 12
TAG_SIZE = 16
#: the environment variable naming the PEM file of the RSA private key
KEY_ENV = "KAFKASPEC_TIERED_PRIVATE_KEY"
_KEYS: dict[tuple[str, float], Any] = {}  # (path, mtime) -> loaded private key


@dataclass(frozen=True)
class SegmentKey:
    """A manifest's ``encryption`` object: the key pair id, the wrapped data key and the AAD."""

    key_id: str
    wrapped: bytes = field(repr=False)
    aad: bytes = field(repr=False)


def parse_encryption(value: Any, source: str) -> SegmentKey | None:
    """The manifest's ``encryption`` field (None when absent), checked."""
    if value is None:
        return None
    if not isinstance(value, dict) or not isinstance(value.get("dataKey"), str) or not isinstance(value.get("aad"), str):
        raise KafkaFormatError("manifest encryption must be an object with string fields dataKey and aad", None, source)
    key_id, sep, wrapped = value["dataKey"].partition(":")
    if not sep or not key_id or ":" in wrapped:
        raise KafkaFormatError("manifest encryption.dataKey is not '<key pair id>:<base64>'", None, source)
    try:
        return SegmentKey(key_id, base64.b64decode(wrapped, validate=True), base64.b64decode(value["aad"], validate=True))
    except (binascii.Error, ValueError):
        raise KafkaFormatError("manifest encryption.dataKey or aad is not base64", None, source) from None


def _crypto() -> Any:
    """PyCryptodome's AES and RSA, and the plugin's OAEP (SHA3-512 digest and MGF1) for an RSA key."""
    try:
        from Crypto.Cipher import AES, PKCS1_OAEP
        from Crypto.Hash import SHA3_512
        from Crypto.PublicKey import RSA
        from Crypto.Signature import pss
    except ImportError:  # pragma: no cover - installed with the spark and dev extras
        raise KafkaFormatError("encrypted tiered segments need the 'pycryptodome' package: "
                               "pip install 'kafkaspec[spark]'") from None

    def oaep(key: Any) -> Any:
        return PKCS1_OAEP.new(key, hashAlgo=SHA3_512, mgfunc=lambda seed, n: pss.MGF1(seed, n, SHA3_512))

    return AES, oaep, RSA


def _private_key(key: SegmentKey, source: str) -> Any:
    path = os.environ.get(KEY_ENV)
    if not path:
        raise KafkaFormatError(f"the segment is encrypted (its manifest has 'encryption', key pair {key.key_id!r}): "
                               f"set {KEY_ENV} to the PEM file of that key pair's RSA private key", None, source)
    _, _, rsa = _crypto()
    try:
        stamp = (path, os.stat(path).st_mtime)
        loaded = _KEYS.get(stamp)
        if loaded is None:
            loaded = _KEYS[stamp] = rsa.import_key(Path(path).read_bytes())
            if not loaded.has_private():
                raise ValueError("a public key")
    except OSError as exc:
        raise KafkaFormatError(f"{KEY_ENV} names {path}, which cannot be read: {exc.strerror}", None, source) from None
    except (ValueError, TypeError):
        raise KafkaFormatError(f"{KEY_ENV} names {path}, which is not an unencrypted PEM RSA private key",
                               None, source) from None
    return loaded


def unwrap(key: SegmentKey, source: str) -> bytes:
    """The segment's AES data key, decrypted with the private key the environment names."""
    _, oaep, _ = _crypto()
    private = _private_key(key, source)
    try:
        data_key: bytes = oaep(private).decrypt(key.wrapped)
    except (ValueError, TypeError, AttributeError):
        raise KafkaFormatError(f"the private key in {os.environ.get(KEY_ENV)} does not decrypt this segment's data "
                               f"key (key pair {key.key_id!r}): another key pair's", None, source) from None
    if len(data_key) not in (16, 24, 32):
        raise KafkaFormatError(f"the decrypted data key has {len(data_key)} bytes, not an AES key", None, source)
    return data_key


def decrypt(data_key: bytes, aad: bytes, stored: bytes, where: str, source: str) -> bytes:
    """One stored chunk (``IV || ciphertext || tag``) decrypted; a tag that does not match is an error."""
    aes, _, _ = _crypto()
    if len(stored) < IV_SIZE + TAG_SIZE:
        raise KafkaFormatError(f"{where} holds {len(stored)} bytes, fewer than an encrypted chunk's IV and tag "
                               f"({IV_SIZE + TAG_SIZE})", None, source)
    cipher = aes.new(data_key, aes.MODE_GCM, nonce=stored[:IV_SIZE], mac_len=TAG_SIZE)
    cipher.update(aad)
    try:
        return bytes(cipher.decrypt_and_verify(stored[IV_SIZE:-TAG_SIZE], stored[-TAG_SIZE:]))
    except ValueError:  # "MAC check failed": altered bytes, or another key
        raise KafkaFormatError(f"{where} does not decrypt: its GCM tag does not match (the bytes were altered, "
                               "or the chunk boundaries are wrong)", None, source) from None


@dataclass(frozen=True)
class Encrypter:
    """A new segment's data key and AAD, for writing (``write_tiered(public_key=...)``)."""

    data_key: bytes = field(repr=False)
    aad: bytes = field(repr=False)
    manifest_field: dict[str, str] = field(repr=False)

    @classmethod
    def new(cls, public_key_pem: bytes, key_id: str) -> Encrypter:
        _, oaep, rsa = _crypto()
        try:
            public = rsa.import_key(public_key_pem).public_key()
        except (ValueError, IndexError, TypeError):
            raise ValueError("public_key is not a PEM RSA public key") from None
        data_key, aad = os.urandom(32), os.urandom(32)
        wrapped = oaep(public).encrypt(data_key)
        return cls(data_key, aad, {"dataKey": f"{key_id}:{base64.b64encode(wrapped).decode()}",
                                   "aad": base64.b64encode(aad).decode()})

    def encrypt(self, chunk: bytes) -> bytes:
        aes, _, _ = _crypto()
        iv = os.urandom(IV_SIZE)
        cipher = aes.new(self.data_key, aes.MODE_GCM, nonce=iv, mac_len=TAG_SIZE)
        cipher.update(self.aad)
        ciphertext, tag = cipher.encrypt_and_digest(chunk)
        return iv + ciphertext + tag


__all__ = ["IV_SIZE", "KEY_ENV", "TAG_SIZE", "Encrypter", "SegmentKey", "decrypt", "parse_encryption", "unwrap"]
