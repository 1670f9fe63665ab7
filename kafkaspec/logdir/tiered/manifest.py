"""Kafka tiered storage (KIP-405) as Aiven's RemoteStorageManager lays it out: reading it.

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

A manifest is written last: a segment whose manifest is missing is not there (how the plugin
publishes, and how a failed upload stays invisible). A folder may hold more than one published
segment for the same offsets (a re-upload after a leader change, an unclean election): a partition
reads only the live lineage, the segments a broker serves, chosen by Kafka's rule from the manifests'
``remoteLogSegmentMetadata`` and the partition's leader epochs (:mod:`.lineage`); the others
are listed in :attr:`~.partition.TieredPartition.unused` (``LogDir.unused_segments``) with the reason. Every size the manifest states is checked
against the object and the decompressed chunk before it is used; a lie is a
:class:`~kafkaspec.KafkaFormatError` naming the manifest and the chunk. The chunk count is checked
against the ``.log`` object's size before anything per chunk is built (no stored chunk is shorter than
a zstd frame, or than its own bytes uncompressed, plus IV and tag when encrypted; the chunks are made
on demand, so a fixed index claiming 2^31 chunks costs nothing), and no chunk decompresses to more
than ``max_decompressed`` bytes (256 MiB by default, as for a compressed batch). What a reader does
not need (``remoteLogSegmentMetadata``, the index ranges against the bundle's size) ``verify``
compares in :mod:`.checks`.

This module reads the layout; :mod:`.writer` writes it from a log directory. Both share the
definitions here (key names, chunk arithmetic, the manifest and its chunk-size codec), which change
together when the plugin's format does. Why one module of this size: the manifest codec and the
segment reader are one job, reading the plugin's format; the reader's chunk arithmetic (which chunk
holds a byte, how big it decompresses) is checked against the manifest the same module parses.
:class:`~.partition.TieredPartition` turns a folder of such segments into the live ones, in
its own module.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import struct
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, overload

import zstandard

from ...codec.compression import ZSTD, decompress
from ...entry import LogBatch
from ...errors import KafkaFormatError, LimitExceededError
from ...records import DEFAULT_MAX_DECOMPRESSED
from ..kafka import files, indexes
from ..kafka.indexes import AbortedTxn, IndexEntry, TimeIndexEntry
from ..kafka.segment import Scanned, Segment, StoredIndex, _WalkFailed
from ..store import ranged
from ..store.fs import StoragePath, storage_path
from ..store.ranged import Get
from ..store.storage import StorageOptions, as_path
from . import checks as tiered_checks
from . import local_storage as local_tiered
from .encryption import IV_SIZE, TAG_SIZE, PrivateKeys, SegmentKey, decrypt, parse_encryption, unwrap

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

    With ``log_size`` (the ``.log`` object's size, as :class:`TieredSegment` passes it) the chunk
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


# -- reading -----------------------------------------------------------------------------------------

#: what a finding calls each index of a ``.indexes`` bundle, by the manifest's name for it
_BUNDLE_NAMES = {
    "offset": "offset index",
    "timestamp": "time index",
    "transaction": "transaction index",
    "producerSnapshot": "producer snapshot",
    "leaderEpoch": "leader-epoch checkpoint",
}


class TieredSegment(Segment):
    """A segment in the tiered-storage layout: the ``.log`` object read chunk by chunk, its indexes from
    the ``.indexes`` object, both as the manifest says. Positions are those of the original segment."""

    layout = "tiered"
    contiguous = True  # tiered storage holds no compacted topic

    def __init__(
        self,
        path: str | StoragePath,
        base_offset: int | None = None,
        manifest: Manifest | None = None,
        *,
        max_decompressed: int = DEFAULT_MAX_DECOMPRESSED,
        keys: PrivateKeys | None = None,
    ):
        p = storage_path(path)
        m = _SEGMENT.match(p.name)
        if m is None:
            raise KafkaFormatError(
                "not a tiered-storage segment name (<20-digit offset>-<segment id>.log)", None, str(p)
            )
        super().__init__(p, int(m["offset"]) if base_offset is None else base_offset)
        self.segment_id = m["segment_id"]
        #: the most bytes one chunk may decompress to, as for a compressed batch (``iter_batches``)
        self.max_decompressed = max_decompressed
        self._manifest = manifest
        self._bundle: bytes | None = None
        self._data_key: bytes | None = None
        #: the private keys by key pair id (None: the environment's, :mod:`.encryption`)
        self.keys = keys
        self._indexes: dict[str, bytes] = {}  # decrypted indexes of an encrypted segment

    @property
    def manifest_path(self) -> StoragePath:
        return self._sibling(MANIFEST_SUFFIX)

    @property
    def indexes_path(self) -> StoragePath:
        return self._sibling(INDEXES_SUFFIX)

    @property
    def manifest(self) -> Manifest:
        """The parsed manifest, checked against the ``.log`` object's size (read once)."""
        if self._manifest is None:
            p = self.manifest_path
            log_size = self._object_size(self.path, "the segment's chunks")
            self._manifest = parse_manifest(
                self._read_object(p, "the manifest", MAX_MANIFEST_SIZE), str(p), log_size
            )
        m = self._manifest
        return m

    def _object_size(self, path: StoragePath, what: str) -> int:
        try:
            return path.stat().st_size
        except FileNotFoundError:
            raise KafkaFormatError(
                f"{path.name}, {what}, is missing: the manifest {self.manifest_path.name} publishes it",
                None,
                str(path),
            ) from None

    def _read_object(self, path: StoragePath, what: str, limit: int | None = None) -> bytes:
        """A whole object of the segment; missing, or larger than ``limit``, is an error naming it."""
        size = self._object_size(path, what)
        if limit is not None and size > limit:
            raise KafkaFormatError(
                f"{what} is {size} bytes, more than a manifest can be ({limit})", None, str(path)
            )
        return files.read_regular(path, 0, size)

    @property
    def size(self) -> int:
        return self.manifest.original_file_size

    @property
    def data(self) -> bytes:
        if self._data is None:
            self._data = self.read_range(0, self.size)
        return self._data

    def read_range(self, start: int, end: int) -> bytes:
        """Bytes [start, end) of the original segment: one ranged read of the chunks covering them."""
        if self._data is not None:
            return self._data[start:end]
        m = self.manifest
        end = min(end, m.original_file_size)
        if start >= end:
            return b""
        first, last = start // m.original_chunk_size, (end - 1) // m.original_chunk_size
        chunks = m.chunks[first : last + 1]
        a, b = chunks[0].stored_position, chunks[-1].stored_position + chunks[-1].stored_size
        stored = files.read_regular(self.path, a, b)
        if len(stored) != b - a:
            raise KafkaFormatError(
                f"{self.path.name} ended at byte {a + len(stored)}, before chunk "
                f"{chunks[-1].index} ends at {b}",
                a + len(stored),
                str(self.path),
            )
        out = [
            self._chunk(c, stored[c.stored_position - a : c.stored_position - a + c.stored_size], m)
            for c in chunks
        ]
        del stored
        whole = out[0] if len(out) == 1 else b"".join(out)
        del out
        base = chunks[0].original_position
        if start == base and end - base == len(whole):
            return whole  # whole chunks: no copy
        return whole[start - base : end - base]

    def _decrypt(self, stored: bytes, where: str) -> bytes:
        """``stored`` decrypted with the segment's data key (unwrapped once, with the private key)."""
        m = self.manifest
        assert m.encryption is not None
        if self._data_key is None:
            self._data_key = unwrap(m.encryption, m.source, self.keys)
        return decrypt(self._data_key, m.encryption.aad, stored, where, m.source)

    def _chunk(self, c: Chunk, stored: bytes, m: Manifest) -> bytes:
        where = f"chunk {c.index} (bytes {c.stored_position}..{c.stored_position + c.stored_size} of {self.path.name})"
        if c.original_size > self.max_decompressed:
            raise LimitExceededError(
                f"{where} holds {c.original_size} bytes of the segment, more than "
                f"max_decompressed={self.max_decompressed} bytes",
                c.stored_position,
                m.source,
            )
        if m.encryption is not None:
            stored = self._decrypt(stored, where)
            if not m.compression and len(stored) != c.original_size:
                raise KafkaFormatError(
                    f"chunk {c.index} decrypts to {len(stored)} bytes, the manifest says {c.original_size}",
                    c.stored_position,
                    m.source,
                )
            if not m.compression:
                return stored
        if not m.compression:
            if c.stored_size != c.original_size:
                raise KafkaFormatError(
                    f"chunk {c.index} is stored in {c.stored_size} bytes but holds "
                    f"{c.original_size} uncompressed bytes",
                    None,
                    m.source,
                )
            return stored
        try:
            declared = zstandard.frame_content_size(stored)
        except zstandard.ZstdError as exc:
            raise KafkaFormatError(
                f"{where} is not a zstd frame of {c.original_size} bytes: {exc}", c.stored_position, m.source
            ) from None
        if declared not in (-1, c.original_size):
            raise KafkaFormatError(
                f"{where} is a zstd frame of {declared} bytes, the manifest says {c.original_size}",
                c.stored_position,
                m.source,
            )
        try:
            if declared == -1:  # no content size: bounded as every decompression is, by the manifest's size
                raw = decompress(ZSTD, stored, max_size=c.original_size, position=c.stored_position)
            else:  # one whole frame of the declared size (at most max_decompressed) and nothing after it
                obj = zstandard.ZstdDecompressor().decompressobj()
                raw = obj.decompress(stored)
                if obj.unused_data or not obj.eof:
                    raise KafkaFormatError(
                        f"{where} holds {len(obj.unused_data)} bytes after its zstd frame"
                        if obj.eof
                        else f"{where} ends inside its zstd frame",
                        c.stored_position,
                        m.source,
                    )
        except LimitExceededError:
            raise KafkaFormatError(
                f"{where} decompresses to more than the {c.original_size} bytes the manifest says",
                c.stored_position,
                m.source,
            ) from None
        except zstandard.ZstdError as exc:
            raise KafkaFormatError(
                f"{where} is not a zstd frame of {c.original_size} bytes: {exc}", c.stored_position, m.source
            ) from None
        except KafkaFormatError as exc:
            if exc.source == m.source:
                raise
            raise KafkaFormatError(
                f"{where} is not a zstd frame of {c.original_size} bytes: {exc.reason}",
                c.stored_position,
                m.source,
            ) from None
        if len(raw) != c.original_size:
            raise KafkaFormatError(
                f"chunk {c.index} decompresses to {len(raw)} bytes, the manifest says {c.original_size}",
                c.stored_position,
                m.source,
            )
        return raw

    # -- the index files, from the .indexes object ----------------------------------
    def _index_bytes(self, kind: str) -> bytes | None:
        where = self.manifest.index_ranges.get(kind)
        if where is None:
            return None
        if self._bundle is None:
            self._bundle = self._read_object(self.indexes_path, "the segment's index bundle")
        pos, size = where
        if pos + size > len(self._bundle):
            raise KafkaFormatError(
                f"the manifest puts the {kind} index at bytes {pos}..{pos + size} of "
                f"{self.indexes_path.name}, which holds {len(self._bundle)}",
                None,
                self.manifest.source,
            )
        if self.manifest.encryption is None:
            return self._bundle[pos : pos + size]
        if kind not in self._indexes:  # each index is one encrypted chunk
            self._indexes[kind] = self._decrypt(
                self._bundle[pos : pos + size],
                f"the {kind} index (bytes {pos}..{pos + size} of {self.indexes_path.name})",
            )
        return self._indexes[kind]

    def index_entries(self) -> list[IndexEntry]:
        if self._index is None:
            data = self._index_bytes("offset") or b""
            self._index = indexes.parse_offset_index(
                data[: indexes.used_length(data, indexes.OFFSET_ENTRY_SIZE)], self.base_offset
            )
        return self._index

    def time_index_entries(self) -> list[TimeIndexEntry]:
        if self._time_index is None:
            data = self._index_bytes("timestamp") or b""
            self._time_index = indexes.parse_time_index(
                data[: indexes.used_length(data, indexes.TIME_ENTRY_SIZE)], self.base_offset
            )
        return self._time_index

    def aborted_transactions(self) -> list[AbortedTxn] | None:
        data = self._index_bytes("transaction")
        return None if data is None else indexes.parse_txn_index(data)

    def index_file(self, kind: str) -> bytes | None:
        """The bytes of one index file as uploaded (``offset``, ``timestamp``, ``producerSnapshot``,
        ``leaderEpoch``, ``transaction``), or None when the manifest has none."""
        return self._index_bytes(kind)

    # -- what a verifier asks of every kind of segment (Segment) -----------------------------
    def unreadable(self) -> KafkaFormatError | None:
        """The manifest's error when it does not parse (or does not fit the objects): nothing else of
        the segment can be read then."""
        try:
            self.manifest  # noqa: B018 - parsed once, kept by the segment
        except KafkaFormatError as exc:
            return exc if exc.source else KafkaFormatError(exc.reason, exc.position, str(self.manifest_path))
        return None

    def stored_index(self, kind: str) -> StoredIndex | None:
        """The range of the ``.indexes`` bundle the manifest gives ``kind``; of an encrypted segment,
        positions and sizes are then those of the decrypted index."""
        where = self.manifest.index_ranges.get(kind)
        if where is None:
            return None
        pos, size = where
        label = f"{_BUNDLE_NAMES[kind]} (bytes {pos}..{pos + size} of the bundle): "
        if self.manifest.encrypted:
            label = (
                f"{_BUNDLE_NAMES[kind]} (bytes {pos}..{pos + size} of the bundle, encrypted; positions "
                "in the decrypted index): "
            )
            pos, size = 0, len(self.index_file(kind) or b"")
        return StoredIndex(
            str(self.indexes_path), pos, label, size, lambda a, b: (self.index_file(kind) or b"")[a:b]
        )

    def missing_index(self, kind: str) -> tuple[str, str]:
        return str(self.indexes_path), f"no {_BUNDLE_NAMES[kind]} in the bundle"

    def source_findings(
        self, scanned: Scanned, topic: str, partition: int, topic_id: str
    ) -> list[tuple[str, str]]:
        """The manifest's statements against each other, the objects and the batches (:mod:`.checks`)."""
        return tiered_checks.checks(self, scanned, topic, partition, topic_id)

    def _windowed(self) -> bool:
        return True  # chunks are decoded a window at a time, local or remote

    def _ranged(self) -> tuple[Get, int, int]:
        """Reads of the original segment's bytes (chunks decoded), in pieces of whole chunks."""
        chunk = self.manifest.original_chunk_size
        return self.read_range, self.size, max(1, ranged.READ_PIECE // chunk) * chunk

    def transactional_batches(self) -> Iterator[LogBatch]:
        """The transactional batches, from the decoded chunks read through a window (the object cannot
        be walked head by head)."""
        it = self.iter_batches(verify=False, check_records=False)
        try:
            for batch in it:
                if batch.is_transactional:
                    yield batch
        except KafkaFormatError as exc:
            raise _WalkFailed(exc.position) from None

    def close(self) -> None:
        super().close()
        self._bundle = None
        self._indexes = {}


def open_segment(
    path: str,
    storage: StorageOptions | None = None,
    keys: PrivateKeys | None = None,
    layout: str | None = None,
) -> Segment:
    """The segment at ``path``: a :class:`TieredSegment` when named ``<offset>-<segment id>.log`` (a
    :class:`~.local_storage.LocalTieredSegment` with ``layout="local-tiered"``, the segment's own)."""
    p = as_path(path, storage)
    if layout == "local-tiered":
        return local_tiered.LocalTieredSegment(p)
    return TieredSegment(p, keys=keys) if _SEGMENT.match(p.name) else Segment(p)


__all__ = [
    "Chunk",
    "Manifest",
    "TieredSegment",
    "decode_chunk_sizes",
    "encode_chunk_sizes",
    "kafka_uuid",
    "open_segment",
    "parse_manifest",
]


#: names that lived here before the partition and the layout choice got modules of their own
_MOVED = {
    "TieredPartition": "tiered_partition",
    "find_tiered": "tiered_partition",
    "is_tiered": "tiered_partition",
    "open_tiered": "tiered_partition",
    "remote_log": "tiered_partition",
    "open_log": "detect",
}


def __getattr__(name: str) -> Any:
    """The moved names (:data:`_MOVED`), still importable from here; imported on first use, since those
    modules import this one. ``open_log`` here was the layout choice, :func:`~kafkaspec.logdir.detect.open_layout`."""
    if name in _MOVED:
        import importlib

        module = importlib.import_module(f"{__package__}.{_MOVED[name]}")
        return getattr(module, "open_layout" if name == "open_log" else name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
