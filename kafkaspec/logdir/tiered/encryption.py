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
and SHA-2 digests, not the plugin's SHA3-512.

The plugin rotates keys (``encryption.key.pairs``, ``encryption.key.pair.id``: new segments are
written under the current pair, older ones stay under theirs), so one bucket may need several private
keys, chosen by the key pair id in each manifest's ``dataKey``. :class:`PrivateKeys` maps key pair ids
to private keys (``PKCS#8`` or ``PKCS#1`` PEM, unencrypted, as the plugin's own); it is given explicitly
(``open_log(..., keys=)``) or read from the environment:

* ``KAFKASPEC_TIERED_PRIVATE_KEY``: the PEM file of the one private key, used whatever the key pair id
  (the single-key way), or a directory of PEM files named ``<key pair id>.pem``;
* ``KAFKASPEC_TIERED_PRIVATE_KEY_<ID>``: the PEM file of key pair ``<ID>`` (the id as written, or
  upper-cased with every character other than a letter or digit as ``_``: ``key-pair-2`` is
  ``KAFKASPEC_TIERED_PRIVATE_KEY_KEY_PAIR_2``).

A segment under a key pair with no private key is an error naming the manifest and the id. Key
material is read when the first segment needing it is, and never shown in a message, log or ``repr``
(only the key pair ids and the files' paths are).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
import re
import stat
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...errors import KafkaFormatError
from ..store.fs import file_kind, open_regular

IV_SIZE = 12
TAG_SIZE = 16
#: the environment variable naming the PEM file of the RSA private key
KEY_ENV = "KAFKASPEC_TIERED_PRIVATE_KEY"
_KEYS: dict[bytes, Any] = {}  # sha-256 of the PEM -> the loaded private key


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
    if (
        not isinstance(value, dict)
        or not isinstance(value.get("dataKey"), str)
        or not isinstance(value.get("aad"), str)
    ):
        raise KafkaFormatError(
            "manifest encryption must be an object with string fields dataKey and aad", None, source
        )
    key_id, sep, wrapped = value["dataKey"].partition(":")
    if not sep or not key_id or ":" in wrapped:
        raise KafkaFormatError("manifest encryption.dataKey is not '<key pair id>:<base64>'", None, source)
    try:
        return SegmentKey(
            key_id, base64.b64decode(wrapped, validate=True), base64.b64decode(value["aad"], validate=True)
        )
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
        raise KafkaFormatError(
            "encrypted tiered segments need the 'pycryptodome' package: pip install 'kafkaspec[spark]'"
        ) from None

    def oaep(key: Any) -> Any:
        return PKCS1_OAEP.new(key, hashAlgo=SHA3_512, mgfunc=lambda seed, n: pss.MGF1(seed, n, SHA3_512))

    return AES, oaep, RSA


#: a key pair id the plugin accepts in ``dataKey`` (``<id>:<base64>``), and a PEM file's stem in a key directory
_KEY_ID = re.compile(r"[A-Za-z0-9._-]{1,255}")


def env_name(key_id: str) -> str:
    """The environment variable naming key pair ``key_id``'s PEM file (its portable spelling)."""
    return f"{KEY_ENV}_{re.sub(r'[^A-Za-z0-9]', '_', key_id).upper()}"


@dataclass(frozen=True)
class PrivateKeys:
    """Private keys by key pair id (the PEM bytes, never in ``repr``), and optionally one key for any id
    (the single-key way). Picklable, to be shipped to Spark executors that do not share the driver's
    files or environment. ``origin`` says where each key came from (a path or a variable's name), for
    messages.

    A key given as a file (a key directory's ``<id>.pem``, a path, a variable naming a file) is looked at
    with ``stat`` when given (nothing is opened: a FIFO or a device cannot hang or flood the reader, and
    one that is no regular file or is too large to be a key is an error naming it) and read only when a
    segment needs that key pair (``files`` until then). Pickled, each such file is read (the executors
    may not share it); one that cannot be read then travels as its error (``errors``), raised where
    that key pair is needed."""

    by_id: dict[str, bytes] = field(default_factory=dict, repr=False)
    any_id: bytes | None = field(default=None, repr=False)
    origin: dict[str, str] = field(default_factory=dict, repr=False)
    #: key pair id -> (path, what it is, for messages): key files not read yet
    files: dict[str, tuple[str, str]] = field(default_factory=dict, repr=False)
    #: key pair id -> why its key file could not be read when these keys were pickled
    errors: dict[str, str] = field(default_factory=dict, repr=False)

    def __repr__(self) -> str:
        return f"PrivateKeys(ids={self.ids_given()!r}{', any id' if self.any_id is not None else ''})"

    def __bool__(self) -> bool:
        return bool(self.by_id or self.files or self.errors) or self.any_id is not None

    def __reduce__(self) -> tuple[Any, ...]:
        by_id, errors = dict(self.by_id), dict(self.errors)
        for key_id, (path, what) in self.files.items():
            try:
                by_id[key_id] = _read_pem(Path(path), what)
            except KafkaFormatError as exc:
                errors[key_id] = exc.reason
        return (PrivateKeys, (by_id, self.any_id, dict(self.origin), {}, errors))

    @classmethod
    def of(cls, keys: Mapping[str, str | Path | bytes]) -> PrivateKeys:
        """From ``{key pair id: PEM bytes, or the path of a PEM file}`` (a file: checked now, read when needed)."""
        by_id: dict[str, bytes] = {}
        origin: dict[str, str] = {}
        pending: dict[str, tuple[str, str]] = {}
        for key_id, value in keys.items():
            if not isinstance(key_id, str) or not _KEY_ID.fullmatch(key_id):
                raise ValueError(
                    f"{str(key_id)[:60]!r} is not a key pair id (letters, digits, '.', '_', '-')"
                )
            if isinstance(value, bytes):
                by_id[key_id], origin[key_id] = value, f"the key given for {key_id!r}"
            else:
                what = f"the key of key pair {key_id!r}"
                _check_pem(Path(value), what)
                pending[key_id], origin[key_id] = (str(value), what), str(value)
        return cls(by_id, None, origin, pending)

    @classmethod
    def from_dir(cls, directory: str | Path) -> PrivateKeys:
        """Every ``<key pair id>.pem`` file in ``directory`` (other files are not keys: ignored), each
        checked now and read when a segment needs its key pair."""
        d = Path(directory)
        try:
            entries = sorted(p for p in d.iterdir() if p.suffix == ".pem" and _KEY_ID.fullmatch(p.stem))
        except OSError as exc:
            raise KafkaFormatError(f"the key directory {d} cannot be read: {exc.strerror}") from None
        for p in entries:
            _check_pem(p, "a private key file")
        return cls(
            {},
            None,
            {p.stem: str(p) for p in entries},
            {p.stem: (str(p), "a private key file") for p in entries},
        )

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> PrivateKeys:
        """The keys this process's environment names (see the module's docstring); empty when none."""
        env = os.environ if environ is None else environ
        keys = cls()
        single = env.get(KEY_ENV)
        if single:
            if Path(single).is_dir():
                keys = cls.from_dir(single)
            else:
                keys = cls({}, _read_pem(Path(single), f"{KEY_ENV}'s file"), {"": single})
        prefix = KEY_ENV + "_"
        for name in sorted(env):
            if name.startswith(prefix) and len(name) > len(prefix) and env[name]:
                key_id = name[len(prefix) :]
                _check_pem(Path(env[name]), f"{name}'s file")
                keys.by_id.pop(key_id, None)
                keys.files[key_id] = (env[name], f"{name}'s file")
                keys.origin[key_id] = name
        return keys

    def merged(self, other: PrivateKeys) -> PrivateKeys:
        """These keys, with ``other``'s for the ids (and the any-id key) these do not have."""
        mine = set(self.by_id) | set(self.files) | set(self.errors)

        def theirs(d: dict) -> dict:
            return {k: v for k, v in d.items() if k not in mine}

        return PrivateKeys(
            {**theirs(other.by_id), **self.by_id},
            self.any_id if self.any_id is not None else other.any_id,
            {**other.origin, **self.origin},
            {**theirs(other.files), **self.files},
            {**theirs(other.errors), **self.errors},
        )

    def pem(self, key_id: str) -> tuple[bytes, str] | None:
        """Key pair ``key_id``'s PEM bytes and where they came from (None: no key for it); a key file is
        read here, the first time its key pair is needed."""
        spelled = env_name(key_id)[len(KEY_ENV) + 1 :]
        for k in (key_id, spelled):
            if k in self.errors:
                raise KafkaFormatError(self.errors[k])
            if k in self.files:
                path, what = self.files[k]
                self.by_id[k] = _read_pem(Path(path), what)
                del self.files[k]
            if k in self.by_id:
                return self.by_id[k], self.origin.get(k, k)
        if self.any_id is not None:
            return self.any_id, self.origin.get("", KEY_ENV)
        return None

    def ids_given(self) -> list[str]:
        return sorted(set(self.by_id) | set(self.files) | set(self.errors))

    def ids(self) -> list[str]:
        return self.ids_given() + (
            ["(any: " + self.origin.get("", KEY_ENV) + ")"] if self.any_id is not None else []
        )


def _check_pem(path: Path, what: str) -> None:
    """That ``path`` can be a PEM private key, by ``stat`` alone (nothing is opened): a regular file (after
    following symbolic links) of at most :data:`_MAX_PEM` bytes."""
    try:
        st = path.stat()
    except OSError as exc:
        raise KafkaFormatError(f"{what} {path} cannot be read: {exc.strerror}") from None
    if not stat.S_ISREG(st.st_mode):
        raise KafkaFormatError(f"{what} {path} is not a regular file but {file_kind(st.st_mode)}")
    if st.st_size > _MAX_PEM:
        raise KafkaFormatError(f"{what} {path} is larger than a PEM private key can be ({_MAX_PEM} bytes)")


def _read_pem(path: Path, what: str) -> bytes:
    """The bytes of the key file ``path``: opened without blocking and checked with ``fstat`` (regular, at
    most :data:`_MAX_PEM` bytes) before anything is read, so no FIFO or device is ever read from."""
    try:
        fd = open_regular(path)
    except KafkaFormatError as exc:
        raise KafkaFormatError(f"{what} {path} is {exc.reason}") from None
    except OSError as exc:
        raise KafkaFormatError(f"{what} {path} cannot be read: {exc.strerror}") from None
    try:
        if os.fstat(fd).st_size > _MAX_PEM:
            raise KafkaFormatError(
                f"{what} {path} is larger than a PEM private key can be ({_MAX_PEM} bytes)"
            )
        data = os.read(fd, _MAX_PEM + 1)
    except OSError as exc:
        raise KafkaFormatError(f"{what} {path} cannot be read: {exc.strerror}") from None
    finally:
        os.close(fd)
    if len(data) > _MAX_PEM:
        raise KafkaFormatError(f"{what} {path} is larger than a PEM private key can be ({_MAX_PEM} bytes)")
    return data


#: an RSA private key of 16384 bits is under 13 KiB of PEM
_MAX_PEM = 1 << 16


def _private_key(key: SegmentKey, source: str, keys: PrivateKeys | None) -> tuple[Any, str]:
    """The RSA private key for the segment's key pair (explicit ``keys`` first, then the environment's),
    and where it came from."""
    given = keys.pem(key.key_id) if keys is not None else None
    if given is None:
        env = PrivateKeys.from_env()
        given = env.pem(key.key_id)
        if given is None:
            known = sorted({*(keys.ids() if keys is not None else ()), *env.ids()})
            if not known:
                raise KafkaFormatError(
                    f"the segment is encrypted (its manifest has 'encryption', key pair "
                    f"{key.key_id!r}): set {KEY_ENV} to the PEM file of that key pair's RSA "
                    f"private key (or to a directory of <key pair id>.pem files)",
                    None,
                    source,
                )
            raise KafkaFormatError(
                f"the manifest's data key is wrapped with key pair {key.key_id!r}, for which no "
                f"private key is given (keys are given for: {', '.join(known)}; add "
                f"{key.key_id}.pem to the key directory or set {env_name(key.key_id)})",
                None,
                source,
            )
    pem, origin = given
    _, _, rsa = _crypto()
    digest = hashlib.sha256(pem).digest()
    loaded = _KEYS.get(digest)
    if loaded is None:
        try:
            loaded = rsa.import_key(pem)
            if not loaded.has_private():
                raise ValueError("a public key")
        except (ValueError, TypeError, IndexError):
            raise KafkaFormatError(
                f"{origin}, the key of key pair {key.key_id!r}, is not an unencrypted PEM RSA private key",
                None,
                source,
            ) from None
        _KEYS[digest] = loaded
    return loaded, origin


def unwrap(key: SegmentKey, source: str, keys: PrivateKeys | None = None) -> bytes:
    """The segment's AES data key, decrypted with its key pair's private key (from ``keys``, else from
    the environment)."""
    _, oaep, _ = _crypto()
    private, origin = _private_key(key, source, keys)
    try:
        data_key: bytes = oaep(private).decrypt(key.wrapped)
    except (ValueError, TypeError, AttributeError):
        raise KafkaFormatError(
            f"the private key in {origin} does not decrypt this segment's data "
            f"key (key pair {key.key_id!r}): another key pair's",
            None,
            source,
        ) from None
    if len(data_key) not in (16, 24, 32):
        raise KafkaFormatError(
            f"the decrypted data key has {len(data_key)} bytes, not an AES key", None, source
        )
    return data_key


def decrypt(data_key: bytes, aad: bytes, stored: bytes, where: str, source: str) -> bytes:
    """One stored chunk (``IV || ciphertext || tag``) decrypted; a tag that does not match is an error."""
    aes, _, _ = _crypto()
    if len(stored) < IV_SIZE + TAG_SIZE:
        raise KafkaFormatError(
            f"{where} holds {len(stored)} bytes, fewer than an encrypted chunk's IV and tag "
            f"({IV_SIZE + TAG_SIZE})",
            None,
            source,
        )
    cipher = aes.new(data_key, aes.MODE_GCM, nonce=stored[:IV_SIZE], mac_len=TAG_SIZE)
    cipher.update(aad)
    try:
        return bytes(cipher.decrypt_and_verify(stored[IV_SIZE:-TAG_SIZE], stored[-TAG_SIZE:]))
    except ValueError:  # "MAC check failed": altered bytes, or another key
        raise KafkaFormatError(
            f"{where} does not decrypt: its GCM tag does not match (the bytes were altered, "
            "or the chunk boundaries are wrong)",
            None,
            source,
        ) from None


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
        return cls(
            data_key,
            aad,
            {
                "dataKey": f"{key_id}:{base64.b64encode(wrapped).decode()}",
                "aad": base64.b64encode(aad).decode(),
            },
        )

    def encrypt(self, chunk: bytes) -> bytes:
        aes, _, _ = _crypto()
        iv = os.urandom(IV_SIZE)
        cipher = aes.new(self.data_key, aes.MODE_GCM, nonce=iv, mac_len=TAG_SIZE)
        cipher.update(self.aad)
        ciphertext, tag = cipher.encrypt_and_digest(chunk)
        return iv + ciphertext + tag


__all__ = [
    "IV_SIZE",
    "KEY_ENV",
    "TAG_SIZE",
    "Encrypter",
    "PrivateKeys",
    "SegmentKey",
    "env_name",
    "decrypt",
    "parse_encryption",
    "unwrap",
]
