"""Where a tiered segment's objects are, from the custom metadata Aiven's plugin records for it.

Aiven's RemoteStorageManager returns custom metadata for each segment it copies, which Kafka keeps in
``__remote_log_metadata`` (``CustomMetadata`` of the COPY_SEGMENT_FINISHED update). Its bytes are a
tagged-field section (``SegmentCustomMetadataSerde``: an unsigned varint count, then per field an
unsigned varint tag, an unsigned varint size and the value), with the fields of
``SegmentCustomMetadataField``:

* tag 0 ``REMOTE_SIZE``: varlong (zigzag), the bytes uploaded for the segment;
* tag 1 ``OBJECT_PREFIX``: compact string, the key prefix the plugin was configured with then;
* tag 2 ``OBJECT_KEY``: compact string, the segment's main path
  (``<topic>-<topic id>/<partition>/<20-digit start offset>-<segment id>``).

The plugin reads a segment from ``OBJECT_PREFIX + OBJECT_KEY + "." + suffix`` (``ObjectKeyFactory.key``;
a field left out is the plugin's current prefix, or the main path the segment's metadata gives), so a
segment copied before the prefix was changed is still found. Keys are relative to the bucket: an
``s3://bucket/...`` prefix resolves them in ``bucket``; a local folder given as the prefix is taken as
the bucket's root.
"""

from __future__ import annotations

from typing import NamedTuple

from ...codec.varint import encode_uvarint, read_uvarint
from ...errors import KafkaFormatError
from ..store.fs import StoragePath, bucket_root

REMOTE_SIZE, OBJECT_PREFIX, OBJECT_KEY = 0, 1, 2


class SegmentLocation(NamedTuple):
    """What the custom metadata says (None where it leaves a field out)."""

    remote_size: int | None
    object_prefix: str | None
    object_key: str | None


def _uvarint(buf: bytes, pos: int, end: int, where: str) -> tuple[int, int]:
    """An unsigned varint of up to 10 bytes before ``end``; errors name ``where``."""
    try:
        return read_uvarint(memoryview(buf)[:end], pos, 10)
    except KafkaFormatError as exc:
        raise KafkaFormatError(f"{where}: {exc.reason}", exc.position) from None


def parse_custom_metadata(data: bytes | None, where: str) -> SegmentLocation:
    """The fields of the plugin's custom metadata bytes; an empty or null one has none. Bytes that are
    not that encoding are an error naming ``where`` (the segment) and the byte."""
    if not data:
        return SegmentLocation(None, None, None)
    fields: dict[int, int | str] = {}
    count, pos = _uvarint(data, 0, len(data), where)
    for _ in range(count):
        tag, pos = _uvarint(data, pos, len(data), where)
        size, pos = _uvarint(data, pos, len(data), where)
        if size > len(data) - pos:
            raise KafkaFormatError(f"{where}: field {tag} claims {size} bytes, {len(data) - pos} left", pos)
        value, stop = data[pos : pos + size], pos + size
        if tag in fields:
            raise KafkaFormatError(f"{where}: field {tag} appears twice", pos)
        if tag == REMOTE_SIZE:
            z, used = _uvarint(value, 0, size, f"{where} remote_size")
            fields[tag] = (z >> 1) ^ -(z & 1)
        elif tag in (OBJECT_PREFIX, OBJECT_KEY):
            n, used = _uvarint(value, 0, size, where)
            if n == 0 or used + n - 1 > size:
                raise KafkaFormatError(f"{where}: field {tag} is not a compact string of {size} bytes", pos)
            try:
                fields[tag] = value[used : used + n - 1].decode("utf-8")
            except UnicodeDecodeError:
                raise KafkaFormatError(f"{where}: field {tag} is not UTF-8", pos) from None
            used += n - 1
        else:
            used = size  # a field of a later plugin: not needed to find the objects
        if used != size:
            raise KafkaFormatError(f"{where}: field {tag} claims {size} bytes, its value takes {used}", pos)
        pos = stop
    if pos != len(data):
        raise KafkaFormatError(f"{where}: {len(data) - pos} bytes after the fields", pos)
    remote, prefix, key = fields.get(REMOTE_SIZE), fields.get(OBJECT_PREFIX), fields.get(OBJECT_KEY)
    return SegmentLocation(
        remote if isinstance(remote, int) else None,
        prefix if isinstance(prefix, str) else None,
        key if isinstance(key, str) else None,
    )


def encode_custom_metadata(location: SegmentLocation) -> bytes:
    """The plugin's encoding of ``location`` (for writing test data and tools)."""
    fields: list[tuple[int, bytes]] = []
    if location.remote_size is not None:
        fields.append(
            (REMOTE_SIZE, encode_uvarint((location.remote_size << 1) ^ (location.remote_size >> 63)))
        )
    for tag, text in ((OBJECT_PREFIX, location.object_prefix), (OBJECT_KEY, location.object_key)):
        if text is not None:
            b = text.encode("utf-8")
            fields.append((tag, encode_uvarint(len(b) + 1) + b))
    if not fields:
        return b""
    return encode_uvarint(len(fields)) + b"".join(
        encode_uvarint(t) + encode_uvarint(len(v)) + v for t, v in fields
    )


def object_path(
    root: StoragePath, location: SegmentLocation, main_path: str, suffix: str, where: str
) -> StoragePath | None:
    """Where the plugin reads the segment's ``suffix`` object (``.log``, ``.rsm-manifest``), or None when
    the custom metadata names no other place (the segment's folder under ``root``, the prefix given).
    A key with an empty, ``.`` or ``..`` component, or an absolute one, is an error naming ``where``:
    it could only lead outside the bucket."""
    if location.object_prefix is None and location.object_key is None:
        return None
    key = (location.object_key or main_path) + suffix
    if location.object_prefix is not None:  # from the bucket's root
        key = location.object_prefix + key
        base = bucket_root(root)
    else:  # the plugin's current prefix: the one given
        base = root
    parts = key.split("/")
    if key.startswith("/") or any(p in ("", ".", "..") for p in parts):
        raise KafkaFormatError(
            f"{where}: the object key {key!r} its custom metadata gives is not a plain key", None
        )
    out = base
    for p in parts:
        out = out / p
    return out


__all__ = ["SegmentLocation", "encode_custom_metadata", "object_path", "parse_custom_metadata"]
