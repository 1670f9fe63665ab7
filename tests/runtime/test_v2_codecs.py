"""Records regions written the ways other producers write them, inside real v2 batches.

Each region is compressed here with the codec library directly (not kafkaspec.codec.compression),
in a form some writer produces, then framed as a batch and read with iter_batches.
"""

from __future__ import annotations

import gzip
import io
import struct

import crc32c
import lz4.frame
import pytest
import snappy
import zstandard

from kafkaspec import KafkaFormatError, Record, build_batch, iter_batches
from kafkaspec.generated import record_v2

RECORDS = [
    Record(key=b"key-%d" % i, value=b"value %d " % i * 20, timestamp=1_000 + i, headers=[("n", b"%d" % i)])
    for i in range(40)
]
PLAIN = record_v2.encode_record_array(RECORDS, 0, 1_000)
CODEC = {"gzip": 1, "snappy": 2, "lz4": 3, "zstd": 4}


def batch_with_region(codec: str, region: bytes) -> bytes:
    """The batch build_batch writes for RECORDS, with its records region replaced by ``region``."""
    template = bytearray(build_batch(RECORDS))
    head = template[:61]
    head[21:23] = struct.pack(">h", CODEC[codec])
    head[8:12] = struct.pack(">i", 49 + len(region))
    out = bytes(head) + region
    return out[:17] + struct.pack(">I", crc32c.crc32c(out[21:])) + out[21:]


def _xerial(data: bytes, block: int, versions: bytes) -> bytes:
    parts = [b"\x82SNAPPY\x00" + versions]
    for i in range(0, len(data), block):
        chunk = snappy.compress(data[i : i + block])
        parts.append(struct.pack(">i", len(chunk)) + chunk)
    return b"".join(parts)


def _zstd_frames(data: bytes, n: int, content_size: bool) -> bytes:
    c = zstandard.ZstdCompressor(write_content_size=content_size)
    step = -(-len(data) // n)
    return b"".join(c.compress(data[i : i + step]) for i in range(0, len(data), step))


def _zstd_streamed(data: bytes) -> bytes:
    out = zstandard.ZstdCompressor().compressobj()  # a streaming writer never knows the content size
    return out.compress(data) + out.flush()


def _gzip_named(data: bytes) -> bytes:
    out = io.BytesIO()
    with gzip.GzipFile(filename="records.bin", mode="wb", fileobj=out, mtime=1) as f:  # FNAME set
        f.write(data)
    return out.getvalue()


_SKIPPABLE = struct.pack("<II", 0x184D2A5E, 5) + b"hello"  # a zstd skippable frame (metadata some tools add)

REGIONS = {
    "gzip single member": ("gzip", lambda d: gzip.compress(d)),
    "gzip three members": (
        "gzip",
        lambda d: b"".join(gzip.compress(d[i : i + 700]) for i in range(0, len(d), 700)),
    ),
    "gzip member with a file name": ("gzip", _gzip_named),
    "gzip then empty members": ("gzip", lambda d: gzip.compress(d) + gzip.compress(b"") * 3),
    "snappy raw (librdkafka)": ("snappy", snappy.compress),
    "snappy xerial 32 KiB blocks (Java)": (
        "snappy",
        lambda d: _xerial(d, 32 * 1024, struct.pack(">ii", 1, 1)),
    ),
    "snappy xerial 4 KiB blocks": ("snappy", lambda d: _xerial(d, 4096, struct.pack(">ii", 1, 1))),
    "snappy xerial little-endian versions": ("snappy", lambda d: _xerial(d, 1000, struct.pack("<ii", 1, 1))),
    "lz4 frame, linked blocks, checksums": (
        "lz4",
        lambda d: lz4.frame.compress(d, block_linked=True, content_checksum=True, store_size=True),
    ),
    "lz4 frame, 64 KiB independent blocks": (
        "lz4",
        lambda d: lz4.frame.compress(
            d, block_size=lz4.frame.BLOCKSIZE_MAX64KB, block_linked=False, store_size=False
        ),
    ),
    "zstd one frame with content size": ("zstd", lambda d: _zstd_frames(d, 1, True)),
    "zstd three frames without content size": ("zstd", lambda d: _zstd_frames(d, 3, False)),
    "zstd streamed": ("zstd", _zstd_streamed),
    "zstd with content checksum": (
        "zstd",
        lambda d: zstandard.ZstdCompressor(write_checksum=True).compress(d),
    ),
    "zstd after a skippable frame": ("zstd", lambda d: _SKIPPABLE + _zstd_frames(d, 2, False)),
}


@pytest.mark.parametrize("name", REGIONS)
def test_region_written_by_other_producers(name):
    codec, compress = REGIONS[name]
    region = compress(PLAIN)
    data = batch_with_region(codec, region)
    (b,) = iter_batches(data)
    assert b.compression == codec
    assert [(r.offset, r.timestamp, r.key, r.value, [tuple(h) for h in r.headers]) for r in b] == [
        (i, r.timestamp, r.key, r.value, list(r.headers)) for i, r in enumerate(RECORDS)
    ]


@pytest.mark.parametrize("name", REGIONS)
def test_truncated_region_is_an_error(name):
    codec, compress = REGIONS[name]
    region = compress(PLAIN)
    (b,) = iter_batches(batch_with_region(codec, region[: len(region) * 2 // 3]))
    with pytest.raises(KafkaFormatError):
        b.records  # noqa: B018


@pytest.mark.parametrize("codec", [5, 6, 7])
def test_unknown_codec_is_an_error(codec):
    data = bytearray(build_batch(RECORDS))
    data[22] = codec
    data[17:21] = struct.pack(">I", crc32c.crc32c(bytes(data[21:])))
    (b,) = iter_batches(bytes(data))
    with pytest.raises(KafkaFormatError):
        b.records  # noqa: B018
