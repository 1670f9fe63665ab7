"""Valid batches too large to build the ordinary way: one record whose value is ``size`` zero bytes,
zstd-compressed a MiB at a time, so that the test never holds the value whole (for memory tests)."""

from __future__ import annotations

import struct

import crc32c
import zstandard

from kafkaspec import Record, build_batch

MiB = 1 << 20


def zigzag(n: int) -> bytes:
    """A signed varint as Kafka writes it (written here by hand: the test's own encoder)."""
    n = (n << 1) ^ (n >> 63)
    out = bytearray()
    while n >= 0x80:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def big_value_batch(size: int) -> bytes:
    """A valid zstd RecordBatch of one record whose value is ``size`` zero bytes (a multiple of a MiB)."""
    body = b"\x00" + zigzag(0) + zigzag(0) + zigzag(-1) + zigzag(size)
    record_head = zigzag(len(body) + size + 1) + body
    compressor = zstandard.ZstdCompressor().compressobj(size=len(record_head) + size + 1)
    region = b"".join(
        [
            compressor.compress(record_head),
            *(compressor.compress(bytes(MiB)) for _ in range(size // MiB)),
            compressor.compress(b"\x00"),
            compressor.flush(),
        ]
    )
    head = bytearray(build_batch([Record(value=b"v", timestamp=0)])[:61])
    head[21:23] = struct.pack(">h", 4)  # zstd
    head[8:12] = struct.pack(">i", 49 + len(region))
    data = bytes(head) + region
    return data[:17] + struct.pack(">I", crc32c.crc32c(data[21:])) + data[21:]
