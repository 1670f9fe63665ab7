"""Issue 30 item 18: a compressed batch whose records_count exceeds its records.

``Tracer.abandon`` ended each open node at ``max(node.end, *ends)``; the decompressed region's node
had no children in its own stream yet when the count was refused, so that was ``max(int)``:
``TypeError: 'int' object is not iterable``, exit 2, and the Python ``explain()`` raised although it
promises an explanation of any bytes. Now decoding stops at records_count, named, exit 1. And where the
count still fits, the decompressed region running out inside the missing record was called a partial
entry at the end (exit 0): now a failure, exit 1, as ``verify`` says.
"""

from __future__ import annotations

import struct

import crc32c
import pytest
from support.explain import run

from kafkaspec import Record, build_batch
from kafkaspec.codec.compression import CODEC_IDS, compress
from kafkaspec.explain import explain
from kafkaspec.generated import message_v1

pytestmark = pytest.mark.hostile


def _claiming(records: int, claimed: int, compression: str) -> bytes:
    data = bytearray(
        build_batch([Record(value=b"v%d" % i, timestamp=1) for i in range(records)], compression=compression)
    )
    struct.pack_into(">i", data, 57, claimed)
    struct.pack_into(">I", data, 17, crc32c.crc32c(bytes(data[21:])))  # a consistent batch but for the count
    return bytes(data)


@pytest.mark.parametrize("compression", ["gzip", "snappy", "lz4", "zstd", "none"])
@pytest.mark.parametrize(("records", "claimed"), [(3, 5), (3, 1000), (0, 1), (1, 2**31 - 1)])
def test_a_count_past_the_records_stops_at_the_count(compression, records, claimed):
    data = _claiming(records, claimed, compression)
    expl = explain(data)  # never raises on bytes
    assert expl.failure is not None, expl
    assert expl.failure.path.endswith("records_count") or "records" in expl.failure.path
    assert expl.count == 0 and not expl.ok
    code, out, err = run("explain", "-", stdin=data.hex())
    assert code == 1 and err == "" and "Traceback" not in out
    assert "decoding stopped" in out


def test_the_count_is_named_where_it_cannot_fit():
    expl = explain(_claiming(3, 5, "zstd"))
    assert expl.failure is not None
    assert expl.failure.stream == 0 and expl.failure.position == 57
    assert expl.failure.path == "RecordBatch.records_count"
    assert "5 Records" in expl.failure.message


@pytest.mark.parametrize("compression", ["gzip", "zstd"])
@pytest.mark.parametrize("magic", [1, 2])
def test_records_running_out_inside_a_decompressed_region_are_no_partial_entry(compression, magic):
    """One record more than there are, where the count still fits: the decompressed region ends inside
    the record that is not there. That was reported as a partial entry at the end (exit 0, "every
    byte explained" but for it), while ``verify`` calls the batch corrupt: a decompressed region is
    whole, so running out in it is a failure (exit 1). Magic 1: an inner message set cut inside its
    last message, the same."""
    if magic == 2:
        data = _claiming(3000, 3001, compression)
    else:
        inner = build_batch([Record(value=b"v%d" % i, timestamp=1) for i in range(3)], magic=1)
        codec = CODEC_IDS[compression]
        data = message_v1.encode_message(
            offset=2, attributes=codec, timestamp=1, key=None, value=compress(codec, inner[:-4], magic=1)
        )
    expl = explain(data)
    assert expl.partial is None and expl.failure is not None and expl.failure.stream == 1
    code, out, _ = run("explain", "-", stdin=data.hex())
    assert code == 1 and "decoding stopped" in out and "partial entry" not in out
