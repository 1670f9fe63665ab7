"""Checksums: CRC-32C for v2 batches (and producer snapshots), CRC-32 (IEEE) for v0/v1.

Both take any buffer (bytes, bytearray, memoryview) without copying.
"""

from __future__ import annotations

import zlib

from crc32c import crc32c as _crc32c


def crc32c(data) -> int:
    """CRC-32C (Castagnoli), as in RecordBatch v2."""
    return _crc32c(data)


def crc32(data) -> int:
    """CRC-32 (IEEE 802.3, zlib), as in Message v0/v1 and the 0.6/0.7 CHECKSUM."""
    return zlib.crc32(data) & 0xFFFFFFFF


ALGORITHMS = {"crc32": crc32, "crc32c": crc32c}
