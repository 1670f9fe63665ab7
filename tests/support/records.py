"""Record strategies and an independent check of a v2 batch's framing (shared by the v2 property tests)."""

from __future__ import annotations

import struct

import crc32c
from hypothesis import strategies as st

from kafkaspec import Record

CODECS = ("none", "gzip", "snappy", "lz4", "zstd")
INT64 = (-(1 << 63), (1 << 63) - 1)
XERIAL_MAGIC = b"\x82SNAPPY\x00"

header_keys = st.sampled_from(["", "k", "trace-id", "ключ", "dup"]) | st.text(max_size=8)
header_values = st.none() | st.sampled_from([b"", b"v", b"\x00\xff"]) | st.binary(max_size=12)
#: headers: empty, duplicate keys and null values all legal and kept in order
headers = st.lists(st.tuples(header_keys, header_values), max_size=5)
blobs = st.none() | st.sampled_from([b"", b"x" * 200]) | st.binary(max_size=40)


@st.composite
def record_lists(draw, min_size: int = 0, max_size: int = 8):
    """Records with every optional field exercised.

    Timestamps: -1 (unknown), None (batch default) and deltas from the first record
    far beyond 2^31 ms in both directions. Offsets: all None (base_offset + index)
    or all explicit, increasing with gaps (as compaction leaves them).
    """
    n = draw(st.integers(min_size, max_size))
    first_ts = draw(st.sampled_from([-1, 0, 1_700_000_000_000]) | st.integers(-(1 << 40), 1 << 50))
    deltas = st.sampled_from([0, 1, -1, (1 << 31), (1 << 31) + 1, -(1 << 31) - 1, 1 << 40]) | st.integers(
        -(1 << 42), 1 << 42
    )
    explicit_offsets = draw(st.booleans())
    offset = 0
    out = []
    for i in range(n):
        if i == 0:
            ts = first_ts
        else:
            ts = draw(st.none() | st.just(-1) | deltas.map(lambda d: first_ts + d))
        rec_offset = None
        if explicit_offsets:
            offset += draw(st.integers(1, 1 << 20)) if i else 0
            rec_offset = offset  # relative to base_offset, fixed up by the caller
        out.append(
            Record(key=draw(blobs), value=draw(blobs), timestamp=ts, offset=rec_offset, headers=draw(headers))
        )
    return out


def with_base(records: list[Record], base_offset: int) -> list[Record]:
    """Explicit offsets drawn relative to 0 become absolute offsets of a batch at ``base_offset``."""
    return [r if r.offset is None else r._replace(offset=r.offset + base_offset) for r in records]


HEADER = struct.Struct(">qiibIhiqqqhii")


def check_framing(data: bytes, position: int = 0) -> tuple:
    """Check a v2 batch's framing without kafkaspec: length, magic, CRC-32C. Return the unpacked header."""
    h = HEADER.unpack_from(data, position)
    (base_offset, batch_length, _epoch, magic, crc, *_rest) = h
    end = position + 12 + batch_length
    assert end <= len(data), f"batch_length {batch_length} overruns the {len(data) - position} bytes"
    assert magic == 2
    assert crc == crc32c.crc32c(data[position + 21 : end]), "CRC-32C does not cover attributes..end"
    return h
