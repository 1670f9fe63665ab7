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
``remoteLogSegmentMetadata`` and the partition's leader epochs (:mod:`.tiered_lineage`); the others
are listed in :attr:`TieredPartition.unused` (``LogDir.unused_segments``) with the reason. Every size the manifest states is checked
against the object and the decompressed chunk before it is used; a lie is a
:class:`~kafkaspec.KafkaFormatError` naming the manifest and the chunk. The chunk count is checked
against the ``.log`` object's size before anything per chunk is built (no stored chunk is shorter than
a zstd frame, or than its own bytes uncompressed, plus IV and tag when encrypted; the chunks are made
on demand, so a fixed index claiming 2^31 chunks costs nothing), and no chunk decompresses to more
than ``max_decompressed`` bytes (256 MiB by default, as for a compressed batch). What a reader does
not need (``remoteLogSegmentMetadata``, the index ranges against the bundle's size) ``verify``
compares in :mod:`.tiered_checks`.

This module reads the layout; :mod:`.tiered_writer` writes it from a log directory. Both share the
definitions here (key names, chunk arithmetic, the manifest and its chunk-size codec), which change
together when the plugin's format does. Why one module of this size: the manifest codec and the
segment reader are one job, reading the plugin's format; the reader's chunk arithmetic (which chunk
holds a byte, how big it decompresses) is checked against the manifest the same module parses.
:class:`TieredPartition` turns a folder of such segments into the live ones (the rule itself is
``tiered_lineage``'s, the metadata topic ``remote_log_topic``'s, custom object keys
``tiered_custom``'s); it is the next part to move out when this module grows again.
"""

from __future__ import annotations

import base64
import errno
import hashlib
import json
import re
import struct
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, overload

import zstandard

from ..codec.compression import ZSTD, decompress
from ..entry import LogBatch
from ..errors import KafkaFormatError, LimitExceededError, SkippedDirWarning
from ..records import DEFAULT_MAX_DECOMPRESSED
from . import files, indexes, local_tiered, names, ranged
from . import layout as layout_module
from .encryption import IV_SIZE, TAG_SIZE, PrivateKeys, SegmentKey, decrypt, parse_encryption, unwrap
from .indexes import AbortedTxn, IndexEntry, TimeIndexEntry
from .layout import LogDir, Partition, UnusedSegment
from .ranged import Get
from .remote_log_topic import TOPIC, RemoteLogMetadata, found_beside, read_remote_log_metadata
from .segment import Segment, _WalkFailed
from .storage import AnyPath, RemotePath, StorageOptions, as_path, listdir
from .tiered_custom import object_path, parse_custom_metadata
from .tiered_lineage import (
    Lineage,
    SegmentInfo,
    choose,
    events_from_manifests,
    events_from_metadata_topic,
    filtered_epochs,
    parse_segment_metadata,
    twins,
    within_leader_epochs,
)

MANIFEST_SUFFIX = ".rsm-manifest"
INDEXES_SUFFIX = ".indexes"
#: index kinds in the order the plugin concatenates them into the ``.indexes`` object
INDEX_KINDS = ("offset", "timestamp", "producerSnapshot", "leaderEpoch", "transaction")
DEFAULT_CHUNK_SIZE = 4 << 20
_UUID = r"[A-Za-z0-9_-]{22}"
_TOPIC_DIR = re.compile(rf"^(?P<topic>.+)-(?P<topic_id>{_UUID})$")
_SEGMENT = re.compile(rf"^(?P<offset>[0-9]{{20}})-(?P<segment_id>{_UUID})(?P<suffix>\.log|\.indexes|\.rsm-manifest)$")
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

    def __init__(self, original_chunk_size: int, original_file_size: int, stored: Sequence[int] | None = None,
                 fixed: tuple[int, int] = (0, 0)):
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
        return Chunk(i, start, min(self._ocs, self._size - start), self._stored_position(i), self.stored_size_of(i))

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
        raise KafkaFormatError(f"manifest {where}.{name} must be an integer from {minimum} to 2^31-1, got "
                               f"{value!r}", None, source)
    return value


def decode_chunk_sizes(text: str, source: str, expected: int | None = None, why: str = "") -> list[int]:
    """The stored chunk sizes of a variable chunk index (``transformedChunks``). With ``expected``, a
    count other than that is refused before any size is read (the count is checked, then the sizes
    are built); ``why`` says where the expected count comes from."""
    try:
        compressed = base64.b64decode(text, validate=True)
        raw = zstandard.ZstdDecompressor().decompress(compressed, max_output_size=_MAX_CHUNK_LIST)
    except (ValueError, TypeError, zstandard.ZstdError) as exc:
        raise KafkaFormatError(f"manifest chunkIndex.transformedChunks is not base64 of a zstd frame: {exc}",
                               None, source) from None
    if len(raw) < 4:
        raise KafkaFormatError("manifest chunkIndex.transformedChunks holds no count", None, source)
    (count,) = _I32.unpack_from(raw)
    if count < 0:
        raise KafkaFormatError(f"manifest chunkIndex.transformedChunks count {count} is negative", None, source)
    if expected is not None and count != expected:
        raise KafkaFormatError(f"manifest lists {count} stored chunk sizes but {why or f'{expected} are expected'}",
                               None, source)
    if count == 0:
        values: list[int] = []
        need = 4
    elif count == 1:
        need = 8
        values = [_I32.unpack_from(raw, 4)[0]] if len(raw) >= need else []
    else:
        if len(raw) < 9:
            raise KafkaFormatError("manifest chunkIndex.transformedChunks ends inside its header", None, source)
        base, width = _I32.unpack_from(raw, 4)[0], raw[8]
        if not 1 <= width <= 4:
            raise KafkaFormatError(f"manifest chunkIndex.transformedChunks has {width} bytes per value "
                                   "(1 to 4)", None, source)
        need = 9 + (count - 1) * width + 4
        values = []
        if len(raw) >= need:
            values = [int.from_bytes(raw[9 + i * width: 9 + (i + 1) * width], "big") + base
                      for i in range(count - 1)]
            values.append(_I32.unpack_from(raw, need - 4)[0])
    if len(raw) != need:
        raise KafkaFormatError(f"manifest chunkIndex.transformedChunks announces {count} sizes in {need} bytes "
                               f"but holds {len(raw)}", None, source)
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
        raw = _I32.pack(len(values)) + _I32.pack(base) + bytes([width]) + \
            b"".join((v - base).to_bytes(width, "big") for v in values[:-1]) + _I32.pack(values[-1])
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
        raise KafkaFormatError("manifest is not JSON a reader can take: its arrays and objects nest deeper than "
                               "the interpreter's recursion limit", None, source) from None
    if not isinstance(doc, dict) or str(doc.get("version")) != "1":
        version = doc.get("version") if isinstance(doc, dict) else None
        raise KafkaFormatError(f"manifest version {version!r} is not supported (SegmentManifestV1: '1')", None, source)
    ci = doc.get("chunkIndex")
    if not isinstance(ci, dict):
        raise KafkaFormatError("manifest has no chunkIndex object", None, source)
    compression = doc.get("compression")
    if not isinstance(compression, bool):
        raise KafkaFormatError(f"manifest compression must be true or false, got {compression!r}", None, source)
    encryption = parse_encryption(doc.get("encryption"), source)
    ocs = _int(ci, "originalChunkSize", "chunkIndex", source, 1)
    size = _int(ci, "originalFileSize", "chunkIndex", source)
    count = -(-size // ocs)
    least = min_stored_chunk(compression, encryption is not None)
    overhead = IV_SIZE + TAG_SIZE if encryption is not None else 0
    name = f"the .log object ({log_size} bytes)"
    if log_size is not None and count * least > log_size:
        raise KafkaFormatError(f"the manifest's chunk index describes {count} chunks ({size} bytes in {ocs}-byte "
                               f"chunks), but {name} can hold at most {log_size // least}: a stored chunk takes "
                               f"at least {least} byte{'s' if least > 1 else ''}", None, source)
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
                + (f", with {overhead} bytes of IV and tag" if overhead else ""), None, source)
    elif kind == "variable":
        text = ci.get("transformedChunks")
        if not isinstance(text, str):
            raise KafkaFormatError("manifest chunkIndex.transformedChunks must be a string", None, source)
        stored = decode_chunk_sizes(text, source, count, f"a {size}-byte segment in {ocs}-byte chunks has {count} "
                                    "chunks")
        chunks = Chunks(ocs, size, stored)
        for i, s in enumerate(stored):
            original = min(ocs, size - i * ocs)
            if (s < least) if compression else (s != original + overhead):
                raise KafkaFormatError(
                    f"manifest chunkIndex.transformedChunks gives chunk {i} ({original} bytes) a stored size of {s} "
                    + (f"bytes, less than the {least} of the smallest stored chunk" if compression else
                       f"bytes, but an uncompressed chunk is stored in {original + overhead}"), None, source)
    else:
        raise KafkaFormatError(f"manifest chunkIndex.type {kind!r} is neither 'fixed' nor 'variable'", None, source)
    if kind == "fixed" and count and min(chunks.stored_size_of(0), final) < least:
        raise KafkaFormatError(f"manifest chunkIndex gives stored chunks of {min(chunks.stored_size_of(0), final)} "
                               f"bytes, less than the {least} of the smallest stored chunk", None, source)
    if log_size is not None and chunks.stored_total != log_size:
        raise KafkaFormatError(f"the manifest's chunk sizes add up to {chunks.stored_total} bytes but {name} "
                               f"holds {log_size}", None, source)
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
        ranges[index_name] = (_int(entry, "position", f"segmentIndexes.{index_name}", source),
                              _int(entry, "size", f"segmentIndexes.{index_name}", source))
    return Manifest(source, ocs, size, chunks, compression, encryption, ranges, ci,
                    doc.get("remoteLogSegmentMetadata"))


# -- reading -----------------------------------------------------------------------------------------

class TieredSegment(Segment):
    """A segment in the tiered-storage layout: the ``.log`` object read chunk by chunk, its indexes from
    the ``.indexes`` object, both as the manifest says. Positions are those of the original segment."""

    layout = "tiered"

    def __init__(self, path: str | Path | RemotePath, base_offset: int | None = None,
                 manifest: Manifest | None = None, *, max_decompressed: int = DEFAULT_MAX_DECOMPRESSED,
                 keys: PrivateKeys | None = None):
        p = as_path(path)
        m = _SEGMENT.match(p.name)
        if m is None:
            raise KafkaFormatError("not a tiered-storage segment name (<20-digit offset>-<segment id>.log)",
                                   None, str(p))
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
    def manifest_path(self) -> AnyPath:
        return self._sibling(MANIFEST_SUFFIX)

    @property
    def indexes_path(self) -> AnyPath:
        return self._sibling(INDEXES_SUFFIX)

    @property
    def manifest(self) -> Manifest:
        """The parsed manifest, checked against the ``.log`` object's size (read once)."""
        if self._manifest is None:
            p = self.manifest_path
            log_size = self._object_size(self.path, "the segment's chunks")
            self._manifest = parse_manifest(self._read_object(p, "the manifest", MAX_MANIFEST_SIZE), str(p), log_size)
        m = self._manifest
        return m

    def _object_size(self, path: AnyPath, what: str) -> int:
        try:
            return path.stat().st_size
        except FileNotFoundError:
            raise KafkaFormatError(f"{path.name}, {what}, is missing: the manifest {self.manifest_path.name} "
                                   "publishes it", None, str(path)) from None

    def _read_object(self, path: AnyPath, what: str, limit: int | None = None) -> bytes:
        """A whole object of the segment; missing, or larger than ``limit``, is an error naming it."""
        size = self._object_size(path, what)
        if limit is not None and size > limit:
            raise KafkaFormatError(f"{what} is {size} bytes, more than a manifest can be ({limit})", None, str(path))
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
        chunks = m.chunks[first:last + 1]
        a, b = chunks[0].stored_position, chunks[-1].stored_position + chunks[-1].stored_size
        stored = files.read_regular(self.path, a, b)
        if len(stored) != b - a:
            raise KafkaFormatError(f"{self.path.name} ended at byte {a + len(stored)}, before chunk "
                                   f"{chunks[-1].index} ends at {b}", a + len(stored), str(self.path))
        out = [self._chunk(c, stored[c.stored_position - a: c.stored_position - a + c.stored_size], m)
               for c in chunks]
        del stored
        whole = out[0] if len(out) == 1 else b"".join(out)
        del out
        base = chunks[0].original_position
        if start == base and end - base == len(whole):
            return whole  # whole chunks: no copy
        return whole[start - base: end - base]

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
            raise LimitExceededError(f"{where} holds {c.original_size} bytes of the segment, more than "
                                     f"max_decompressed={self.max_decompressed} bytes", c.stored_position, m.source)
        if m.encryption is not None:
            stored = self._decrypt(stored, where)
            if not m.compression and len(stored) != c.original_size:
                raise KafkaFormatError(f"chunk {c.index} decrypts to {len(stored)} bytes, the manifest says "
                                       f"{c.original_size}", c.stored_position, m.source)
            if not m.compression:
                return stored
        if not m.compression:
            if c.stored_size != c.original_size:
                raise KafkaFormatError(f"chunk {c.index} is stored in {c.stored_size} bytes but holds "
                                       f"{c.original_size} uncompressed bytes", None, m.source)
            return stored
        try:
            declared = zstandard.frame_content_size(stored)
        except zstandard.ZstdError as exc:
            raise KafkaFormatError(f"{where} is not a zstd frame of {c.original_size} bytes: {exc}",
                                   c.stored_position, m.source) from None
        if declared not in (-1, c.original_size):
            raise KafkaFormatError(f"{where} is a zstd frame of {declared} bytes, the manifest says "
                                   f"{c.original_size}", c.stored_position, m.source)
        try:
            if declared == -1:  # no content size: bounded as every decompression is, by the manifest's size
                raw = decompress(ZSTD, stored, max_size=c.original_size, position=c.stored_position)
            else:  # one whole frame of the declared size (at most max_decompressed) and nothing after it
                obj = zstandard.ZstdDecompressor().decompressobj()
                raw = obj.decompress(stored)
                if obj.unused_data or not obj.eof:
                    raise KafkaFormatError(f"{where} holds {len(obj.unused_data)} bytes after its zstd frame"
                                           if obj.eof else f"{where} ends inside its zstd frame",
                                           c.stored_position, m.source)
        except LimitExceededError:
            raise KafkaFormatError(f"{where} decompresses to more than the {c.original_size} bytes the manifest "
                                   "says", c.stored_position, m.source) from None
        except zstandard.ZstdError as exc:
            raise KafkaFormatError(f"{where} is not a zstd frame of {c.original_size} bytes: {exc}",
                                   c.stored_position, m.source) from None
        except KafkaFormatError as exc:
            if exc.source == m.source:
                raise
            raise KafkaFormatError(f"{where} is not a zstd frame of {c.original_size} bytes: {exc.reason}",
                                   c.stored_position, m.source) from None
        if len(raw) != c.original_size:
            raise KafkaFormatError(f"chunk {c.index} decompresses to {len(raw)} bytes, the manifest says "
                                   f"{c.original_size}", c.stored_position, m.source)
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
            raise KafkaFormatError(f"the manifest puts the {kind} index at bytes {pos}..{pos + size} of "
                                   f"{self.indexes_path.name}, which holds {len(self._bundle)}", None,
                                   self.manifest.source)
        if self.manifest.encryption is None:
            return self._bundle[pos:pos + size]
        if kind not in self._indexes:  # each index is one encrypted chunk
            self._indexes[kind] = self._decrypt(self._bundle[pos:pos + size], f"the {kind} index (bytes {pos}.."
                                                f"{pos + size} of {self.indexes_path.name})")
        return self._indexes[kind]

    def index_entries(self) -> list[IndexEntry]:
        if self._index is None:
            data = self._index_bytes("offset") or b""
            self._index = indexes.parse_offset_index(data[:indexes.used_length(data, indexes.OFFSET_ENTRY_SIZE)],
                                                     self.base_offset)
        return self._index

    def time_index_entries(self) -> list[TimeIndexEntry]:
        if self._time_index is None:
            data = self._index_bytes("timestamp") or b""
            self._time_index = indexes.parse_time_index(data[:indexes.used_length(data, indexes.TIME_ENTRY_SIZE)],
                                                        self.base_offset)
        return self._time_index

    def aborted_transactions(self) -> list[AbortedTxn] | None:
        data = self._index_bytes("transaction")
        return None if data is None else indexes.parse_txn_index(data)

    def index_file(self, kind: str) -> bytes | None:
        """The bytes of one index file as uploaded (``offset``, ``timestamp``, ``producerSnapshot``,
        ``leaderEpoch``, ``transaction``), or None when the manifest has none."""
        return self._index_bytes(kind)

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


class TieredPartition(Partition):
    """``<topic>-<topic id>/<partition>/`` of the tiered-storage layout: the segments a broker serves.

    The folder may hold more than one segment for the same offsets (a re-upload after a leader change,
    an unclean election, an upload that failed half-way). :meth:`segments` is the live lineage, chosen
    by Kafka's rule (:mod:`.tiered_lineage`) from every manifest's ``remoteLogSegmentMetadata`` and the
    partition's leader-epoch lineage; :attr:`unused` lists the others, each with the reason. Listing
    the folder once and reading each manifest once is all choosing costs (plus one ``.indexes`` object
    for the leader-epoch checkpoint when none is given as ``epochs``).
    """

    layout = "tiered"

    def __init__(self, path: AnyPath, topic: str, partition: int, topic_id: str,
                 epochs: list[files.EpochEntry] | None = None, remote_log: RemoteLogMetadata | None = None,
                 keys: PrivateKeys | None = None):
        super().__init__(path, topic, partition)
        self.topic_id = topic_id
        self.keys = keys  # for encrypted segments (None: the environment's)
        #: the partition's leader-epoch lineage to choose by (e.g. a broker's leader-epoch-checkpoint);
        #: None: the checkpoint uploaded with the newest segment
        self.epochs = epochs
        #: ``__remote_log_metadata``, replayed: when it has events of this partition, they decide
        self.remote_log = remote_log
        #: the local log's end offset when read as a partition's history: a remote segment ending at or
        #: past it is not served (``RemoteLogManager.isRemoteSegmentWithinLeaderEpochs``)
        self.log_end_offset: int | None = None
        self._lineage_source = "manifests"
        self.unused: list[UnusedSegment] = []

    def segments(self) -> list[Segment]:
        if self._segments is None:
            self._segments = self._choose()
        return self._segments

    def unused_segments(self) -> list[UnusedSegment]:
        self.segments()
        return self.unused

    @property
    def lineage_source(self) -> str:
        """What decided the live segments: ``"manifests"`` or ``"__remote_log_metadata (<where>)"``."""
        self.segments()
        return self._lineage_source

    def _choose(self) -> list[Segment]:
        stems: dict[str, dict[str, AnyPath]] = {}
        for p in listdir(self.path):
            m = _SEGMENT.match(p.name)
            if m:
                stems.setdefault(p.name[: -len(m["suffix"])], {})[m["suffix"]] = p
        kept: list[Segment] = []
        chosen: dict[str, TieredSegment] = {}
        published: list[SegmentInfo] = []
        started: list[SegmentInfo] = []
        orphans: dict[str, AnyPath] = {}
        for stem, objects in sorted(stems.items()):
            if MANIFEST_SUFFIX not in objects:  # not published: the upload did not finish
                where = objects.get(files.LOG_SUFFIX) or objects[INDEXES_SUFFIX]
                orphans[stem] = where
                started.append(SegmentInfo(stem, int(stem[:20]), int(stem[:20]), (), -1, str(where)))
                continue
            seg = TieredSegment(objects[MANIFEST_SUFFIX].with_name(stem + files.LOG_SUFFIX), keys=self.keys)
            try:
                info = parse_segment_metadata(seg.manifest.segment_metadata, str(seg.manifest_path), stem,
                                              seg.base_offset)
            except KafkaFormatError:
                info = None  # a manifest that does not parse: reading the segment reports it, where its name puts it
            if info is None:
                kept.append(seg)
            else:
                chosen[stem] = seg
                published.append(info)
        epochs = self.epochs if self.epochs is not None else self._newest_checkpoint(published, chosen)
        if self.remote_log is not None:
            events = events_from_metadata_topic(self.remote_log.state, self.topic, self.partition, self.topic_id)
            if events:
                return self._choose_from_topic(choose(events, epochs, self.log_end_offset, from_topic=True), stems,
                                                chosen)
        self._lineage_source = "manifests"
        lineage = choose(events_from_manifests(published, started), epochs, self.log_end_offset)
        for info, first in lineage.live:
            seg = chosen[info.segment_id]
            seg.served_from, seg.end_offset = first, info.end
            kept.append(seg)
        for live, other in twins(lineage):
            if not _same_bytes(chosen[live.segment_id], chosen[other.segment_id]):
                raise KafkaFormatError(
                    f"{chosen[live.segment_id].path.name} and {chosen[other.segment_id].path.name} are both finished "
                    f"uploads of offsets {live.start}..{live.end} with the same leader epochs, but their bytes "
                    "differ: which one a broker serves depends on the order of their events in "
                    "__remote_log_metadata, which the manifests do not give", None, str(self.path))
        self.unused = [UnusedSegment(orphans.get(u.segment_id) or chosen[u.segment_id].path, u.start, why)
                       for u, why in lineage.unused]
        return sorted(kept, key=lambda s: s.base_offset)

    def _choose_from_topic(self, lineage: Lineage, stems: dict[str, dict[str, AnyPath]],
                           chosen: dict[str, TieredSegment]) -> list[Segment]:
        """The live segments ``__remote_log_metadata`` gives (``lineage``), read from their objects: a
        finished segment whose objects are missing is an error naming it; an object the topic says is
        deleted or unfinished, or does not name at all, is listed unused and never read."""
        assert self.remote_log is not None
        source = f"__remote_log_metadata ({self.remote_log.source})"
        self._lineage_source = source
        custom = {f"{s.start_offset:020d}-{s.segment_id}": s.custom_metadata
                  for p in self.remote_log.state.partition(self.topic, self.partition, self.topic_id)
                  for s in p.segments.values()}
        kept: list[Segment] = []
        for info, first in lineage.live:
            what = f"segment {info.segment_id[21:]} (offsets {info.start}..{info.end})"
            elsewhere = self._elsewhere(info.segment_id, custom.get(info.segment_id), what)
            if elsewhere is not None:
                log_path, manifest_path = elsewhere
                missing = [str(p) for p in (log_path, manifest_path) if not p.exists()]
                seg = TieredSegment(log_path, keys=self.keys)
            else:
                objects = stems.get(info.segment_id, {})
                missing = [info.segment_id + x for x in (files.LOG_SUFFIX, MANIFEST_SUFFIX) if x not in objects]
                seg = chosen.get(info.segment_id) or TieredSegment(self.path / (info.segment_id + files.LOG_SUFFIX), keys=self.keys)
            if missing:
                raise KafkaFormatError(f"{what} is COPY_SEGMENT_FINISHED in {source}, but its objects are missing: "
                                       f"no {' or '.join(missing)}", None, str(self.path))
            seg.served_from, seg.end_offset = first, info.end
            kept.append(seg)
        named = {s.segment_id for s, _ in lineage.live} | {u.segment_id for u, _ in lineage.unused}
        self.unused = [UnusedSegment(_object_of(stems[u.segment_id]), u.start, f"{why} (decided by {source})")
                       for u, why in lineage.unused if u.segment_id in stems]
        self.unused += [UnusedSegment(_object_of(objects), int(stem[:20]),
                                      f"{source} has no record of this segment: no broker serves it")
                        for stem, objects in sorted(stems.items()) if stem not in named]
        self.unused.sort(key=lambda u: (u.base_offset, str(u.path)))
        return sorted(kept, key=lambda s: s.base_offset)

    def _elsewhere(self, stem: str, custom: bytes | None, what: str) -> tuple[AnyPath, AnyPath] | None:
        """The segment's ``.log`` and manifest where Aiven's custom metadata puts them (``OBJECT_PREFIX``,
        ``OBJECT_KEY``: :mod:`.tiered_custom`), or None when it names no other place than this folder."""
        location = parse_custom_metadata(custom, f"the custom metadata of {what}")
        main = f"{self.topic}-{self.topic_id}/{self.partition}/{stem}"
        root = self.path.parent.parent
        log_path = object_path(root, location, main, files.LOG_SUFFIX, what)
        manifest_path = object_path(root, location, main, MANIFEST_SUFFIX, what)
        if log_path is None or manifest_path is None:
            return None
        if str(log_path) == str(self.path / (stem + files.LOG_SUFFIX)):
            return None  # this folder after all
        if _SEGMENT.match(log_path.name) is None:
            raise KafkaFormatError(f"{what}: its custom metadata puts it at {log_path}, which is not named like a "
                                   "segment (<20-digit offset>-<segment id>.log)", None, str(self.path))
        return log_path, manifest_path

    def _newest_checkpoint(self, published: list[SegmentInfo],
                           chosen: dict[str, TieredSegment]) -> list[files.EpochEntry] | None:
        """The leader-epoch checkpoint uploaded with the newest segment (highest leader epoch, then end
        offset, then event time): the whole lineage as the latest leader knew it (``RemoteLogManager``
        uploads the entries below the next segment's base offset with each segment)."""
        if not published:
            return None
        newest = max(published, key=lambda s: (s.epochs[-1][0], s.end, s.event_time, s.segment_id))
        seg = chosen[newest.segment_id]
        try:
            text = seg.index_file("leaderEpoch")
            if not text:
                return None
            epochs = files.parse_leader_epoch_checkpoint(text.decode("utf-8", "replace"), str(seg.indexes_path))
        except KafkaFormatError:
            return None  # unreadable: choose by the epochs the manifests state (verify reports the bundle)
        if within_leader_epochs(newest, filtered_epochs(epochs)) is not None:
            return None  # it disagrees with its own segment's manifest: no lineage to trust (verify reports it)
        return epochs

    def leader_epochs(self) -> list[files.EpochEntry] | None:
        segs = self.segments()
        if not segs:
            return None
        last = segs[-1]
        assert isinstance(last, TieredSegment)
        text = last.index_file("leaderEpoch")
        if not text:
            return None  # the checkpoint in the last segment's bundle: a bad byte is a bad number, named by line
        return files.parse_leader_epoch_checkpoint(text.decode("utf-8", "replace"), str(last.indexes_path))

    def metadata(self) -> dict[str, str] | None:
        return {"version": "0", "topic_id": self.topic_id}

    def snapshot_paths(self) -> list[AnyPath]:
        return []


def _object_of(objects: dict[str, AnyPath]) -> AnyPath:
    """The object that names a segment in messages: its ``.log``, else its manifest, else its indexes."""
    return objects.get(files.LOG_SUFFIX) or objects.get(MANIFEST_SUFFIX) or objects[INDEXES_SUFFIX]


def _same_bytes(a: TieredSegment, b: TieredSegment) -> bool:
    """Whether two published segments hold the same segment: the same stored ``.log`` object, or (stored
    differently: other chunking, compression or data key) the same bytes once decoded."""
    if a.size != b.size:
        return False
    size = a.path.stat().st_size
    if size == b.path.stat().st_size and files.read_regular(a.path, 0, size) == files.read_regular(b.path, 0, size):
        return True
    try:
        return a.data == b.data
    finally:
        a.close()
        b.close()


def find_tiered(root: AnyPath, depth: int = 2, keys: PrivateKeys | None = None) -> list[TieredPartition]:
    """The tiered-storage partitions under ``root`` (a prefix holding ``<topic>-<topic id>/`` folders, one
    such folder, or one ``<partition>`` folder in it). As in Kafka's layout (:meth:`LogDir.partitions`),
    symbolic links to directories are not followed and a topic Kafka would refuse is passed over, each
    announced as a :class:`~kafkaspec.errors.SkippedDirWarning`."""
    found: list[TieredPartition] = []
    m = _TOPIC_DIR.match(root.name)
    if root.name.isdigit() and (t := _TOPIC_DIR.match(root.parent.name)):
        if _has_manifests(root):
            found.append(TieredPartition(root, t["topic"], int(root.name), t["topic_id"], keys=keys))
        return found
    if m:
        if (problem := names.topic_problem(m["topic"])) is not None:
            _skip(root, f"topic {names.show_topic(m['topic'])} is illegal: {problem}")
            return found
        for p in listdir(root):
            if not p.name.isdigit() or _linked_dir(p):
                continue
            if len(p.name) > 10 or int(p.name) > names.MAX_PARTITION:
                _skip(p, f"partition {p.name[:20]} is beyond {names.MAX_PARTITION}")
            elif _has_manifests(p):
                found.append(TieredPartition(p, m["topic"], int(p.name), m["topic_id"], keys=keys))
        return found
    if depth > 0:
        for p in listdir(root):
            if p.is_dir() and not _linked_dir(p):
                found.extend(find_tiered(p, depth - 1, keys))
    return found


def _linked_dir(p: AnyPath) -> bool:
    """A symbolic link to a directory (announced, never followed: it could lead back into the tree)."""
    if isinstance(p, Path) and p.is_symlink():
        if p.is_dir():
            _skip(p, layout_module.link_reason(p))
        return True
    return False


def _skip(path: AnyPath, reason: str) -> None:
    warnings.warn(SkippedDirWarning(layout_module.show_path(path), reason),
                  stacklevel=3)


def _has_manifests(path: AnyPath) -> bool:
    return any(p.name.endswith(MANIFEST_SUFFIX) and _SEGMENT.match(p.name) for p in listdir(path))


def open_tiered(path: str | Path | RemotePath, *, storage: StorageOptions | None = None,
                remote_log_metadata: str | Path | RemotePath | RemoteLogMetadata | None = None,
                keys: PrivateKeys | None = None) -> LogDir:
    """A :class:`LogDir` over the tiered-storage layout at ``path`` (see :func:`kafkaspec.logdir.open_log`).
    ``remote_log_metadata``: the ``__remote_log_metadata`` partitions (a data dir holding them, or one
    partition dir) whose events choose each partition's live segments; None: those found in ``path``
    itself (``__remote_log_metadata-N`` folders beside the topics), else the manifests alone. ``keys``:
    the private keys of encrypted segments, by key pair id (None: the environment's)."""
    root = as_path(path, storage)
    parts = find_tiered(root, keys=keys)
    meta = remote_log(remote_log_metadata, root, storage) if parts else None
    for p in parts:
        p.remote_log = meta
    return LogDir(root, sorted(parts, key=lambda p: (p.topic, p.partition)))


def remote_log(given: str | Path | RemotePath | RemoteLogMetadata | None, beside: AnyPath | None,
               storage: StorageOptions | None = None) -> RemoteLogMetadata | None:
    """``__remote_log_metadata`` replayed from ``given``, else from ``beside`` when it holds the topic's
    partitions, else None (the manifests decide)."""
    if isinstance(given, RemoteLogMetadata):
        return given
    if given is not None:
        return read_remote_log_metadata(given, storage=storage)
    if beside is not None and found_beside(beside):
        return read_remote_log_metadata(beside, storage=storage)
    return None


def is_tiered(path: AnyPath) -> bool:
    """Whether ``path`` holds the tiered-storage layout (a topic-id folder with segment manifests)."""
    try:
        return bool(find_tiered(path))
    except (OSError, KafkaFormatError):
        return False


def open_log(path: str | Path | RemotePath, *, layout: str | None = None,
             storage: StorageOptions | None = None,
             remote_log_metadata: str | Path | RemotePath | RemoteLogMetadata | None = None,
             keys: PrivateKeys | None = None) -> LogDir:
    """Open a log directory in Kafka's own layout or the tiered-storage one (``layout="kafka"`` or
    ``"tiered"``, or ``"local-tiered"``: Kafka's ``LocalTieredStorage``, :mod:`.local_tiered`; None: that
    one if it holds ``<topic>-<partition>-<topic id>`` folders of segments, else Kafka's if it holds
    partitions, else tiered storage's if it holds manifests). ``remote_log_metadata``: see
    :func:`open_tiered` (tiered storage's layout only). ``keys``: the private keys of encrypted
    segments, by key pair id (None: the environment's)."""
    if layout not in (None, "kafka", "tiered", "local-tiered"):
        raise ValueError(f"layout must be 'kafka', 'tiered', 'local-tiered' or None (detect), got {layout!r}")
    root = as_path(path, storage)
    if layout == "local-tiered" or (layout is None and local_tiered.is_local_tiered(root)):
        if layout == "local-tiered" and not root.exists():
            raise root.not_found() if isinstance(root, RemotePath) else \
                FileNotFoundError(errno.ENOENT, "no such file or directory", str(root))
        return local_tiered.open_local_tiered(root)
    m = _SEGMENT.match(root.name)
    if layout != "kafka" and m and m["suffix"] == files.LOG_SUFFIX:  # one tiered segment
        topic = _TOPIC_DIR.match(root.parent.parent.name)
        part = TieredPartition(root.parent, topic["topic"] if topic else root.parent.parent.name,
                               int(root.parent.name) if root.parent.name.isdigit() else -1,
                               topic["topic_id"] if topic else "", keys=keys)
        part._segments = [TieredSegment(root, keys=keys)]
        return LogDir(root.parent, [part])
    if layout == "tiered":
        if not root.exists():
            raise root.not_found() if isinstance(root, RemotePath) else \
                FileNotFoundError(errno.ENOENT, "no such file or directory", str(root))
        return open_tiered(root, remote_log_metadata=remote_log_metadata, keys=keys)
    log = layout_module.open_log(root)
    # a prefix may hold the __remote_log_metadata partitions beside its topics: still a prefix
    only_metadata = all(p.topic == TOPIC for p in log.partitions())
    if layout != "kafka" and only_metadata and root.is_dir():
        tiered = open_tiered(root, remote_log_metadata=remote_log_metadata, keys=keys)
        if tiered.partitions():
            return tiered
    if remote_log_metadata is not None:
        raise ValueError(f"{root}: remote_log_metadata chooses the segments of a tiered-storage prefix, and this is "
                         "not one (a log directory in Kafka's layout: with tiered=PREFIX, it goes with the prefix)")
    return log


def open_segment(path: str, storage: StorageOptions | None = None, keys: PrivateKeys | None = None,
                 layout: str | None = None) -> Segment:
    """The segment at ``path``: a :class:`TieredSegment` when named ``<offset>-<segment id>.log`` (a
    :class:`~.local_tiered.LocalTieredSegment` with ``layout="local-tiered"``, the segment's own)."""
    p = as_path(path, storage)
    if layout == "local-tiered":
        return local_tiered.LocalTieredSegment(p)
    return TieredSegment(p, keys=keys) if _SEGMENT.match(p.name) else Segment(p)


__all__ = ["Chunk", "Manifest", "TieredPartition", "TieredSegment", "decode_chunk_sizes", "encode_chunk_sizes",
           "find_tiered", "is_tiered", "kafka_uuid", "open_log", "open_segment", "open_tiered", "parse_manifest"]
