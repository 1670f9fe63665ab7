"""Kafka tiered storage (KIP-405) as Aiven's RemoteStorageManager lays it out: its object keys and manifest.

Object keys, under an optional prefix::

    <topic>-<topic id>/<partition>/<20-digit base offset>-<segment id>.log            the segment, in chunks
    <topic>-<topic id>/<partition>/<20-digit base offset>-<segment id>.indexes        its index files, concatenated
    <topic>-<topic id>/<partition>/<20-digit base offset>-<segment id>.rsm-manifest   JSON: how to read both

Topic and segment ids are Kafka ``Uuid`` strings (16 bytes, URL-safe base64 without padding: 22
characters). The ``.log`` object is the segment cut into chunks of ``originalChunkSize`` bytes (the
last one shorter), each stored as is or as its own zstd frame (``"compression": true``; each frame
records its content size). The manifest (``"version": "1"``, ``SegmentManifestV1``) holds:

* ``chunkIndex``: ``{"type": "fixed", "originalChunkSize", "originalFileSize",
  "transformedChunkSize", "finalTransformedChunkSize"}`` when every stored chunk has the same size, or
  ``{"type": "variable", "originalChunkSize", "originalFileSize", "transformedChunks"}``, the stored
  sizes as base64 of a zstd frame of: int32 count, then (count > 1) int32 base, int8 bytes per value,
  count-1 values minus base in that many big-endian bytes, and the last size as an int32 (count 1: just
  that int32; count 0: nothing more);
* ``segmentIndexes``: ``{"offset", "timestamp", "producerSnapshot", "leaderEpoch", "transaction"}``,
  each ``{"position", "size"}`` in the ``.indexes`` object (in that order; ``transaction`` may be
  null); the leader-epoch part is the ``leader-epoch-checkpoint`` text of the segment;
* ``compression``, and ``encryption`` (a data key wrapped by the plugin's RSA key pair and the AES-GCM
  AAD) when the chunks and indexes are encrypted: read with the key pair's private key, chosen by the
  key pair id the manifest names among the keys given (``keys=``, or ``KAFKASPEC_TIERED_PRIVATE_KEY``
  and ``KAFKASPEC_TIERED_PRIVATE_KEY_<ID>``: :mod:`.encryption`), and a clear error without it;
* ``remoteLogSegmentMetadata``: topic id and partition, segment id, offsets, timestamps, epochs
  (what a partition's live lineage is chosen by; reading one segment does not need it).


Every size a manifest states is checked here before it is used (:func:`parse_manifest`): a lie is a
:class:`~kafkaspec.KafkaFormatError` naming the manifest. The reader (:mod:`.segment`) and the writer
(:mod:`.writer`) share these definitions (key names, chunk arithmetic, the manifest and its chunk-size
codec), which change together when the plugin's format does.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, overload

import zstandard

from ...errors import KafkaFormatError
from .encryption import IV_SIZE, TAG_SIZE, SegmentKey, parse_encryption

MANIFEST_SUFFIX = ".rsm-manifest"
INDEXES_SUFFIX = ".indexes"
#: index kinds in the order the plugin concatenates them into the ``.indexes`` object
INDEX_KINDS = ("offset", "timestamp", "producerSnapshot", "leaderEpoch", "transaction")
DEFAULT_CHUNK_SIZE = 4 << 20
_UUID = r"[A-Za-z0-9_-]{22}"
_TOPIC_DIR = re.compile(rf"^(?P<topic>.+)-(?P<topic_id>{_UUID})$")
_SEGMENT = re.compile(
    rf"^(?P<offset>[0-9]{{20}})-(?P<segment_id>{_UUID})(?P<suffix>\.log|\.indexes|\.rsm-manifest)$"
)
_I32 = struct.Struct(">i")
#: the plugin refuses an encoded chunk-size list larger than this; so do we
_MAX_CHUNK_LIST = 10 << 20
#: the smallest zstd frame: magic (4), frame header descriptor (1), a one-byte window descriptor or
#: content size (1), one block header (3); a stored compressed chunk is never shorter
MIN_ZSTD_FRAME = 9
#: a manifest is a small JSON document (its largest field, the encoded chunk-size list, is bounded by
#: ``_MAX_CHUNK_LIST`` before base64); one larger than this is refused before it is read
MAX_MANIFEST_SIZE = 32 << 20


def kafka_uuid(seed: bytes) -> str:
    """A Kafka ``Uuid`` string (URL-safe base64 of 16 bytes, no padding) derived from ``seed``."""
    return base64.urlsafe_b64encode(hashlib.sha256(seed).digest()[:16]).decode().rstrip("=")


# -- the manifest ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Chunk:
    """One chunk: where it is in the segment (original) and in the ``.log`` object (stored)."""

    index: int
    original_position: int
    original_size: int
    stored_position: int
    stored_size: int


class Chunks(Sequence[Chunk]):
    """The chunks a chunk index describes, each made when asked for: a fixed index states two sizes
    for any number of chunks, so nothing here grows with the count a manifest claims (only a variable
    index's list of stored sizes, which the manifest holds)."""

    def __init__(
        self,
        original_chunk_size: int,
        original_file_size: int,
        stored: Sequence[int] | None = None,
        fixed: tuple[int, int] = (0, 0),
    ):
        self._ocs, self._size = original_chunk_size, original_file_size
        self._count = -(-original_file_size // original_chunk_size)
        self._fixed = fixed  # (transformedChunkSize, finalTransformedChunkSize) when stored is None
        self._ends: list[int] | None = None
        if stored is not None:
            ends, total = [], 0
            for v in stored:
                total += v
                ends.append(total)
            self._ends = ends

    def __len__(self) -> int:
        return self._count

    def stored_size_of(self, i: int) -> int:
        if self._ends is not None:
            return self._ends[i] - (self._ends[i - 1] if i else 0)
        return self._fixed[1] if i == self._count - 1 else self._fixed[0]

    def _stored_position(self, i: int) -> int:
        if self._ends is not None:
            return self._ends[i - 1] if i else 0
        return i * self._fixed[0]

    @property
    def stored_total(self) -> int:
        if not self._count:
            return 0
        return self._stored_position(self._count - 1) + self.stored_size_of(self._count - 1)

    def _chunk(self, i: int) -> Chunk:
        if not 0 <= i < self._count:
            raise IndexError(i)
        start = i * self._ocs
        return Chunk(
            i, start, min(self._ocs, self._size - start), self._stored_position(i), self.stored_size_of(i)
        )

    @overload
    def __getitem__(self, i: int) -> Chunk: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[Chunk]: ...

    def __getitem__(self, i: int | slice) -> Chunk | Sequence[Chunk]:
        if isinstance(i, slice):
            return [self._chunk(k) for k in range(*i.indices(self._count))]
        return self._chunk(i + self._count if i < 0 else i)


@dataclass(frozen=True)
class Manifest:
    """A parsed ``.rsm-manifest`` (SegmentManifestV1)."""

    source: str
    original_chunk_size: int
    original_file_size: int
    chunks: Chunks
    compression: bool
    encryption: SegmentKey | None
    index_ranges: dict[str, tuple[int, int] | None]  # kind -> (position, size) in the .indexes object
    chunk_index: dict[str, Any]
    #: ``remoteLogSegmentMetadata`` as written (for verify's cross-checks; readers do not use it)
    segment_metadata: Any = None

    @property
    def encrypted(self) -> bool:
        return self.encryption is not None

    @property
    def stored_size(self) -> int:
        return self.chunks.stored_total


def _int(obj: dict[str, Any], name: str, where: str, source: str, minimum: int = 0) -> int:
    value = obj.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or not minimum <= value < 1 << 31:
        raise KafkaFormatError(
            f"manifest {where}.{name} must be an integer from {minimum} to 2^31-1, got {value!r}",
            None,
            source,
        )
    return value


def decode_chunk_sizes(text: str, source: str, expected: int | None = None, why: str = "") -> list[int]:
    """The stored chunk sizes of a variable chunk index (``transformedChunks``). With ``expected``, a
    count other than that is refused before any size is read (the count is checked, then the sizes
    are built); ``why`` says where the expected count comes from."""
    try:
        compressed = base64.b64decode(text, validate=True)
        raw = zstandard.ZstdDecompressor().decompress(compressed, max_output_size=_MAX_CHUNK_LIST)
    except (ValueError, TypeError, zstandard.ZstdError) as exc:
        raise KafkaFormatError(
            f"manifest chunkIndex.transformedChunks is not base64 of a zstd frame: {exc}", None, source
        ) from None
    if len(raw) < 4:
        raise KafkaFormatError("manifest chunkIndex.transformedChunks holds no count", None, source)
    (count,) = _I32.unpack_from(raw)
    if count < 0:
        raise KafkaFormatError(
            f"manifest chunkIndex.transformedChunks count {count} is negative", None, source
        )
    if expected is not None and count != expected:
        raise KafkaFormatError(
            f"manifest lists {count} stored chunk sizes but {why or f'{expected} are expected'}", None, source
        )
    if count == 0:
        values: list[int] = []
        need = 4
    elif count == 1:
        need = 8
        values = [_I32.unpack_from(raw, 4)[0]] if len(raw) >= need else []
    else:
        if len(raw) < 9:
            raise KafkaFormatError(
                "manifest chunkIndex.transformedChunks ends inside its header", None, source
            )
        base, width = _I32.unpack_from(raw, 4)[0], raw[8]
        if not 1 <= width <= 4:
            raise KafkaFormatError(
                f"manifest chunkIndex.transformedChunks has {width} bytes per value (1 to 4)", None, source
            )
        need = 9 + (count - 1) * width + 4
        values = []
        if len(raw) >= need:
            values = [
                int.from_bytes(raw[9 + i * width : 9 + (i + 1) * width], "big") + base
                for i in range(count - 1)
            ]
            values.append(_I32.unpack_from(raw, need - 4)[0])
    if len(raw) != need:
        raise KafkaFormatError(
            f"manifest chunkIndex.transformedChunks announces {count} sizes in {need} bytes "
            f"but holds {len(raw)}",
            None,
            source,
        )
    if any(v < 0 for v in values):
        raise KafkaFormatError("manifest chunkIndex.transformedChunks holds a negative size", None, source)
    return values


def encode_chunk_sizes(values: list[int]) -> str:
    """``transformedChunks`` for a list of stored chunk sizes (what :func:`decode_chunk_sizes` reads)."""
    if not values:
        raw = _I32.pack(0)
    elif len(values) == 1:
        raw = _I32.pack(1) + _I32.pack(values[0])
    else:
        base = min(values[:-1])
        width = max(max(((v - base).bit_length() + 7) // 8 for v in values[:-1]), 1)
        raw = (
            _I32.pack(len(values))
            + _I32.pack(base)
            + bytes([width])
            + b"".join((v - base).to_bytes(width, "big") for v in values[:-1])
            + _I32.pack(values[-1])
        )
    frame = zstandard.ZstdCompressor(write_content_size=True).compress(raw)
    return base64.b64encode(frame).decode()


def min_stored_chunk(compression: bool, encrypted: bool) -> int:
    """The fewest bytes a stored chunk of one byte or more can take: a zstd frame with ``compression``
    (else the chunk itself, at least one byte), plus an IV and a GCM tag when encrypted."""
    return (MIN_ZSTD_FRAME if compression else 1) + (IV_SIZE + TAG_SIZE if encrypted else 0)


def parse_manifest(data: bytes, source: str, log_size: int | None = None) -> Manifest:
    """Parse and check a ``.rsm-manifest``: every size it states must be possible.

    With ``log_size`` (the ``.log`` object's size, as :class:`~.segment.TieredSegment` passes it) the chunk
    count is checked against it before any per-chunk list is built: no stored chunk is shorter than
    :func:`min_stored_chunk`, so a manifest cannot describe more chunks than the object can hold,
    and the stored sizes must add up to the object's size. Uncompressed chunks are stored in exactly
    their original size (plus IV and tag when encrypted); a fixed index must say so.
    """
    try:
        doc = json.loads(data)
    except (ValueError, UnicodeDecodeError) as exc:
        raise KafkaFormatError(f"manifest is not JSON: {exc}", None, source) from None
    except RecursionError:  # json's decoder recurses once per nesting level
        raise KafkaFormatError(
            "manifest is not JSON a reader can take: its arrays and objects nest deeper than "
            "the interpreter's recursion limit",
            None,
            source,
        ) from None
    if not isinstance(doc, dict) or str(doc.get("version")) != "1":
        version = doc.get("version") if isinstance(doc, dict) else None
        raise KafkaFormatError(
            f"manifest version {version!r} is not supported (SegmentManifestV1: '1')", None, source
        )
    ci = doc.get("chunkIndex")
    if not isinstance(ci, dict):
        raise KafkaFormatError("manifest has no chunkIndex object", None, source)
    compression = doc.get("compression")
    if not isinstance(compression, bool):
        raise KafkaFormatError(
            f"manifest compression must be true or false, got {compression!r}", None, source
        )
    encryption = parse_encryption(doc.get("encryption"), source)
    ocs = _int(ci, "originalChunkSize", "chunkIndex", source, 1)
    size = _int(ci, "originalFileSize", "chunkIndex", source)
    count = -(-size // ocs)
    least = min_stored_chunk(compression, encryption is not None)
    overhead = IV_SIZE + TAG_SIZE if encryption is not None else 0
    name = f"the .log object ({log_size} bytes)"
    if log_size is not None and count * least > log_size:
        raise KafkaFormatError(
            f"the manifest's chunk index describes {count} chunks ({size} bytes in {ocs}-byte "
            f"chunks), but {name} can hold at most {log_size // least}: a stored chunk takes "
            f"at least {least} byte{'s' if least > 1 else ''}",
            None,
            source,
        )
    kind = ci.get("type")
    if kind == "fixed":
        t = _int(ci, "transformedChunkSize", "chunkIndex", source)
        final = _int(ci, "finalTransformedChunkSize", "chunkIndex", source)
        chunks = Chunks(ocs, size, fixed=(t, final))
        if not compression and count and (t, final) != (ocs + overhead, size - (count - 1) * ocs + overhead):
            last = size - (count - 1) * ocs
            raise KafkaFormatError(
                f"manifest chunkIndex says chunks are stored in {t} bytes (the last {final}), but uncompressed chunks "
                f"of {ocs} bytes (the last {last}) are stored in {ocs + overhead} (the last {last + overhead})"
                + (f", with {overhead} bytes of IV and tag" if overhead else ""),
                None,
                source,
            )
    elif kind == "variable":
        text = ci.get("transformedChunks")
        if not isinstance(text, str):
            raise KafkaFormatError("manifest chunkIndex.transformedChunks must be a string", None, source)
        stored = decode_chunk_sizes(
            text, source, count, f"a {size}-byte segment in {ocs}-byte chunks has {count} chunks"
        )
        chunks = Chunks(ocs, size, stored)
        for i, s in enumerate(stored):
            original = min(ocs, size - i * ocs)
            if (s < least) if compression else (s != original + overhead):
                raise KafkaFormatError(
                    f"manifest chunkIndex.transformedChunks gives chunk {i} ({original} bytes) a stored size of {s} "
                    + (
                        f"bytes, less than the {least} of the smallest stored chunk"
                        if compression
                        else f"bytes, but an uncompressed chunk is stored in {original + overhead}"
                    ),
                    None,
                    source,
                )
    else:
        raise KafkaFormatError(
            f"manifest chunkIndex.type {kind!r} is neither 'fixed' nor 'variable'", None, source
        )
    if kind == "fixed" and count and min(chunks.stored_size_of(0), final) < least:
        raise KafkaFormatError(
            f"manifest chunkIndex gives stored chunks of {min(chunks.stored_size_of(0), final)} "
            f"bytes, less than the {least} of the smallest stored chunk",
            None,
            source,
        )
    if log_size is not None and chunks.stored_total != log_size:
        raise KafkaFormatError(
            f"the manifest's chunk sizes add up to {chunks.stored_total} bytes but {name} holds {log_size}",
            None,
            source,
        )
    si = doc.get("segmentIndexes")
    if not isinstance(si, dict):
        raise KafkaFormatError("manifest has no segmentIndexes object", None, source)
    ranges: dict[str, tuple[int, int] | None] = {}
    for index_name in INDEX_KINDS:
        entry = si.get(index_name)
        if entry is None and index_name == "transaction":
            ranges[index_name] = None
            continue
        if not isinstance(entry, dict):
            raise KafkaFormatError(f"manifest segmentIndexes.{index_name} must be an object", None, source)
        ranges[index_name] = (
            _int(entry, "position", f"segmentIndexes.{index_name}", source),
            _int(entry, "size", f"segmentIndexes.{index_name}", source),
        )
    return Manifest(
        source, ocs, size, chunks, compression, encryption, ranges, ci, doc.get("remoteLogSegmentMetadata")
    )
