"""Kafka tiered storage (KIP-405) as Aiven's RemoteStorageManager lays it out: reading a segment.

A :class:`TieredSegment` reads the ``.log`` object chunk by chunk and its indexes from the ``.indexes``
object, both as the manifest says (the keys and the manifest: :mod:`.manifest`), decrypted when the
manifest names an encryption.

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

:mod:`.writer` writes the layout from a log directory; :class:`~.partition.TieredPartition` turns a
folder of such segments into the live ones.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

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
from .encryption import PrivateKeys, decrypt, unwrap
from .manifest import (
    _SEGMENT,
    DEFAULT_CHUNK_SIZE,
    INDEX_KINDS,
    INDEXES_SUFFIX,
    MANIFEST_SUFFIX,
    MAX_MANIFEST_SIZE,
    MIN_ZSTD_FRAME,
    Chunk,
    Chunks,
    Manifest,
    decode_chunk_sizes,
    encode_chunk_sizes,
    kafka_uuid,
    min_stored_chunk,
    parse_manifest,
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
    "DEFAULT_CHUNK_SIZE",
    "INDEXES_SUFFIX",
    "INDEX_KINDS",
    "MANIFEST_SUFFIX",
    "MAX_MANIFEST_SIZE",
    "MIN_ZSTD_FRAME",
    "Chunk",
    "Chunks",
    "Manifest",
    "TieredSegment",
    "decode_chunk_sizes",
    "encode_chunk_sizes",
    "kafka_uuid",
    "min_stored_chunk",
    "open_segment",
    "parse_manifest",
]


#: names that lived here before the partition and the layout choice got modules of their own
_MOVED = {
    "TieredPartition": "kafkaspec.logdir.tiered.partition",
    "find_tiered": "kafkaspec.logdir.tiered.partition",
    "is_tiered": "kafkaspec.logdir.tiered.partition",
    "open_tiered": "kafkaspec.logdir.tiered.partition",
    "remote_log": "kafkaspec.logdir.tiered.partition",
    "open_log": "kafkaspec.logdir.detect",
}


def __getattr__(name: str) -> Any:
    """The moved names (:data:`_MOVED`), still importable from here; imported on first use, since those
    modules import this one. ``open_log`` here was the layout choice, :func:`~kafkaspec.logdir.detect.open_layout`."""
    if name in _MOVED:
        import importlib

        module = importlib.import_module(_MOVED[name])
        return getattr(module, "open_layout" if name == "open_log" else name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
