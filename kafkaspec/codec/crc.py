"""Checksums: CRC-32C for v2 batches (and producer snapshots), CRC-32 (IEEE) for v0/v1.

Both take any buffer (bytes, bytearray, memoryview) without copying.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterable
from typing import Any

from crc32c import crc32c as _crc32c

#: CRC-32C (Castagnoli), as in RecordBatch v2 (the C function itself: no wrapper call per batch)
crc32c = _crc32c

#: CRC-32 (IEEE 802.3), as in Message v0/v1 and the 0.6/0.7 CHECKSUM; unsigned, like the stored field
crc32 = zlib.crc32


ALGORITHMS = {"crc32": crc32, "crc32c": crc32c}


def chained(algorithm: Callable[[Any, int], int], parts: Iterable[Any], value: int = 0) -> int:
    """``algorithm`` (either checksum above) of ``parts`` joined, without joining them: each part's
    checksum continues from the one before, starting at ``value`` (the checksum of what precedes)."""
    for part in parts:
        value = algorithm(part, value)
    return value
