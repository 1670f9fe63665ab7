"""The four Kafka codecs, with the quirks real writers produce.

- gzip: one or more gzip members.
- snappy: xerial framing (Java client) or plain raw snappy (librdkafka); both are read.
  Some writers put the xerial version fields in little-endian, so they are not checked.
- lz4: the LZ4 frame format. Magic-0 writers compute the frame header checksum
  over the magic number too (KAFKA-3160); such frames are read for magic 0 and
  written for magic 0.
- zstd: read as a stream: frames may lack a content size and may follow each other.

Every decompression is bounded by ``max_size`` so that a small hostile input
cannot allocate unbounded memory.
"""

from __future__ import annotations

import io
import struct
import zlib

import lz4.frame
import snappy
import xxhash
import zstandard

from .errors import DecompressionError, LimitExceededError, UnsupportedCodecError

NONE, GZIP, SNAPPY, LZ4, ZSTD = range(5)
CODEC_NAMES = ("none", "gzip", "snappy", "lz4", "zstd")
CODEC_IDS = {name: i for i, name in enumerate(CODEC_NAMES)}

#: Default bound on the decompressed size of one batch (256 MiB).
DEFAULT_MAX_DECOMPRESSED = 256 * 1024 * 1024

XERIAL_MAGIC = b"\x82SNAPPY\x00"
_XERIAL_HEADER = XERIAL_MAGIC + struct.pack(">ii", 1, 1)
_XERIAL_BLOCK = 32 * 1024  # the Java client's SnappyOutputStream block size
_LZ4_MAGIC = b"\x04\x22\x4d\x18"
_INT32 = struct.Struct(">i")


def codec_id(codec: str | int) -> int:
    """Map a codec name ('zstd') or number (4) to its attribute value."""
    if isinstance(codec, int) and 0 <= codec < len(CODEC_NAMES):
        return codec
    if isinstance(codec, str) and codec in CODEC_IDS:
        return CODEC_IDS[codec]
    raise UnsupportedCodecError(f"unknown compression {codec!r} (expected one of {', '.join(CODEC_NAMES)})")


def _too_big(codec: str, max_size: int, position: int | None) -> LimitExceededError:
    return LimitExceededError(
        f"{codec} data decompresses to more than max_decompressed={max_size} bytes", position
    )


# -- decompression -----------------------------------------------------------


def _gunzip(data: bytes | bytearray | memoryview, max_size: int, position: int | None) -> bytes:
    out = []
    total = 0
    data = bytes(data)
    while data:
        d = zlib.decompressobj(wbits=47)  # gzip or zlib header, detected
        chunk = d.decompress(data, max_size - total + 1)
        total += len(chunk)
        out.append(chunk)
        if total > max_size or d.unconsumed_tail:
            raise _too_big("gzip", max_size, position)
        if not d.eof:
            raise DecompressionError("gzip stream is truncated", position)
        data = d.unused_data
    return b"".join(out)


def _raw_snappy(block: bytes | bytearray | memoryview, max_size: int, position: int | None) -> bytes:
    # The raw format starts with the uncompressed length as a uvarint: check it first.
    n = shift = 0
    for b in bytes(block[:5]):
        n |= (b & 0x7F) << shift
        shift += 7
        if b < 0x80:
            break
    else:
        raise DecompressionError("snappy block has no valid length header", position)
    if n > max_size:
        raise _too_big("snappy", max_size, position)
    return snappy.decompress(bytes(block))


def _unsnappy(data: bytes | bytearray | memoryview, max_size: int, position: int | None) -> bytes:
    data = memoryview(data)
    if bytes(data[:8]) != XERIAL_MAGIC:
        return _raw_snappy(data, max_size, position)
    pos, end, out, total = 16, len(data), [], 0
    while pos < end:
        if pos + 4 > end:
            raise DecompressionError("xerial snappy block length is truncated", position)
        (n,) = _INT32.unpack_from(data, pos)
        pos += 4
        if n < 0 or pos + n > end:
            raise DecompressionError(f"xerial snappy block of {n} bytes overruns the data", position)
        block = _raw_snappy(data[pos : pos + n], max_size - total, position)
        total += len(block)
        out.append(block)
        pos += n
    return b"".join(out)


def fix_kafka3160_header(data: bytes) -> bytes:
    """Rewrite a KAFKA-3160 frame header checksum (magic 0 writers) into the standard one."""
    if data[:4] != _LZ4_MAGIC or len(data) < 7:
        return data
    flg = data[4]
    desc_end = 6 + (8 if flg & 0x08 else 0) + (4 if flg & 0x01 else 0)
    if len(data) <= desc_end:
        return data
    standard = (xxhash.xxh32_intdigest(data[4:desc_end]) >> 8) & 0xFF
    broken = (xxhash.xxh32_intdigest(data[0:desc_end]) >> 8) & 0xFF
    if data[desc_end] == broken and broken != standard:
        return data[:desc_end] + bytes([standard]) + data[desc_end + 1 :]
    return data


def _unlz4(data: bytes | bytearray | memoryview, max_size: int, position: int | None, magic: int) -> bytes:
    data = bytes(data)
    if magic == 0:
        data = fix_kafka3160_header(data)
    d = lz4.frame.LZ4FrameDecompressor()
    out = d.decompress(data, max_length=max_size + 1)
    if len(out) > max_size or d.needs_input is False and not d.eof:
        raise _too_big("lz4", max_size, position)
    if not d.eof:
        raise DecompressionError("lz4 frame is truncated", position)
    return out


def _unzstd(data: bytes | bytearray | memoryview, max_size: int, position: int | None) -> bytes:
    reader = zstandard.ZstdDecompressor().stream_reader(io.BytesIO(bytes(data)), read_across_frames=True)
    out = reader.read(max_size + 1)
    rest = reader.read(max_size + 1 - len(out)) if len(out) <= max_size else b""
    out += rest
    if len(out) > max_size:
        raise _too_big("zstd", max_size, position)
    return out


def decompress(codec: int, data: bytes | bytearray | memoryview, *, max_size: int = DEFAULT_MAX_DECOMPRESSED,
               position: int | None = None, magic: int = 2) -> bytes:
    """Decompress ``data`` with the codec numbered ``codec``; errors name ``position``."""
    try:
        if codec == GZIP:
            return _gunzip(data, max_size, position)
        if codec == SNAPPY:
            return _unsnappy(data, max_size, position)
        if codec == LZ4:
            return _unlz4(data, max_size, position, magic)
        if codec == ZSTD:
            return _unzstd(data, max_size, position)
        if codec == NONE:
            return bytes(data)
    except (LimitExceededError, DecompressionError):
        raise
    except Exception as exc:  # each codec library has its own exception types
        name = CODEC_NAMES[codec]
        raise DecompressionError(f"{name} data is invalid: {exc}", position) from None
    raise UnsupportedCodecError(f"compression attribute {codec} names no known codec (0-4)", position)


# -- compression -------------------------------------------------------------


def _xerial(data: bytes) -> bytes:
    parts = [_XERIAL_HEADER]
    for i in range(0, len(data), _XERIAL_BLOCK) or [0]:
        block = snappy.compress(data[i : i + _XERIAL_BLOCK])
        parts.append(_INT32.pack(len(block)))
        parts.append(block)
    return b"".join(parts)


def to_kafka3160_header(frame: bytes) -> bytes:
    """Rewrite a standard LZ4 frame header checksum into the one magic-0 Kafka writers produce."""
    flg = frame[4]
    desc_end = 6 + (8 if flg & 0x08 else 0) + (4 if flg & 0x01 else 0)
    broken = (xxhash.xxh32_intdigest(frame[0:desc_end]) >> 8) & 0xFF
    return frame[:desc_end] + bytes([broken]) + frame[desc_end + 1 :]


def compress(codec: int, data: bytes, *, magic: int = 2, snappy_framing: str = "xerial",
             level: int | None = None) -> bytes:
    """Compress ``data`` the way the Java client does for ``magic``."""
    if codec == NONE:
        return data
    if codec == GZIP:
        return zlib.compress(data, 6 if level is None else level, wbits=31)
    if codec == SNAPPY:
        if snappy_framing == "raw":
            return snappy.compress(data)
        if snappy_framing != "xerial":
            raise ValueError(f"snappy_framing must be 'xerial' or 'raw', got {snappy_framing!r}")
        return _xerial(data)
    if codec == LZ4:
        # Independent 64 KiB blocks, no content size or checksum: what KafkaLZ4BlockOutputStream writes.
        frame = lz4.frame.compress(
            data, block_size=lz4.frame.BLOCKSIZE_MAX64KB, block_linked=False,
            content_checksum=False, store_size=False, compression_level=level or 0,
        )
        return to_kafka3160_header(frame) if magic == 0 else frame
    if codec == ZSTD:
        return zstandard.ZstdCompressor(level=3 if level is None else level).compress(data)
    raise UnsupportedCodecError(f"compression attribute {codec} names no known codec (0-4)")
