"""Interop with independent implementations: kafka-python and aiokafka (pure Python and Cython) record code.

Both directions, every codec: they read what kafkaspec.build_batch writes, and
kafkaspec.iter_batches reads what their DefaultRecordBatchBuilder writes.
"""

from __future__ import annotations

import aiokafka.record.default_records as aio
import kafka.record.default_records as kp
import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.records import CODECS, check_framing, record_lists
from support.settings import scaled

from kafkaspec import Record, build_batch, build_control_batch, iter_batches

CODEC_ID = {name: i for i, name in enumerate(CODECS)}
LIBRARIES = {
    "kafka-python": (kp.DefaultRecordBatchBuilder, kp.DefaultRecordBatch),
    "aiokafka-py": (aio._DefaultRecordBatchBuilderPy, aio._DefaultRecordBatchPy),
    "aiokafka-cython": (aio.DefaultRecordBatchBuilder, aio.DefaultRecordBatch),
}


def test_aiokafka_cython_extension_is_the_one_tested():
    assert aio.DefaultRecordBatch is not aio._DefaultRecordBatchPy, "aiokafka's C extension is not installed"


def theirs(batch) -> list[tuple]:
    return [(r.offset, r.timestamp, r.key, r.value, [tuple(h) for h in r.headers]) for r in batch]


def ours(batch) -> list[tuple]:
    return [(r.offset, r.timestamp, r.key, r.value, [tuple(h) for h in r.headers]) for r in batch]


def fill_timestamps(records: list[Record], library: str = "") -> list[Record]:
    """The other builders need an int timestamp on every record.

    aiokafka's Cython builder takes a first timestamp of -1 for "not set yet" and
    replaces it with the next record's timestamp (its own reader then disagrees with
    what was appended), so its first record gets a real timestamp.
    """
    base = records[0].timestamp if records and records[0].timestamp is not None else 1_700_000_000_000
    if library == "aiokafka-cython" and base == -1:
        base = 0
    out = [r._replace(timestamp=base if r.timestamp is None else r.timestamp) for r in records]
    return [out[0]._replace(timestamp=base), *out[1:]] if out else out


options = st.fixed_dictionaries(
    {
        "compression": st.sampled_from(CODECS),
        "snappy_framing": st.sampled_from(["xerial", "raw"]),
        "base_offset": st.integers(0, 1 << 62),
        "producer_id": st.integers(-1, (1 << 63) - 1),
        "producer_epoch": st.integers(-1, (1 << 15) - 1),
        "base_sequence": st.integers(-1, (1 << 31) - 1),
        "is_transactional": st.booleans(),
        "timestamp_type": st.sampled_from(["create", "log_append"]),
    }
)


@pytest.mark.parametrize("library", LIBRARIES)
@scaled(3)
@given(records=record_lists(min_size=1), opts=options, log_append_time=st.integers(0, 1 << 50))
def test_they_read_what_we_build(library, records, opts, log_append_time):
    records = fill_timestamps(records)
    records = [r._replace(offset=None) for r in records]
    data = build_batch(records, log_append_time=log_append_time, **opts)
    _, reader = LIBRARIES[library]
    b = reader(bytes(data))
    assert b.validate_crc()
    assert (b.base_offset, b.compression_type, b.is_transactional, b.is_control_batch) == (
        opts["base_offset"],
        CODEC_ID[opts["compression"]],
        opts["is_transactional"],
        False,
    )
    assert (b.producer_id, b.producer_epoch, b.base_sequence) == (
        opts["producer_id"],
        opts["producer_epoch"],
        opts["base_sequence"],
    )
    assert b.timestamp_type == (opts["timestamp_type"] == "log_append")
    (mine,) = iter_batches(data)
    got = theirs(b)  # their batches iterate once
    assert got == ours(mine)
    assert [(k, v) for _, _, k, v, _ in got] == [(r.key, r.value) for r in records]
    assert b.last_offset_delta == len(records) - 1


@pytest.mark.parametrize("library", LIBRARIES)
@scaled(3)
@given(
    records=record_lists(min_size=1),
    codec=st.sampled_from(CODECS),
    is_transactional=st.booleans(),
    producer_id=st.integers(0, (1 << 63) - 1),
    producer_epoch=st.integers(0, (1 << 15) - 1),
    base_sequence=st.integers(0, (1 << 31) - 1),
)
def test_we_read_what_they_build(
    library, records, codec, is_transactional, producer_id, producer_epoch, base_sequence
):
    builder_cls, _ = LIBRARIES[library]
    records = fill_timestamps(records, library)
    builder = builder_cls(
        2, CODEC_ID[codec], is_transactional, producer_id, producer_epoch, base_sequence, 1 << 30
    )
    for i, r in enumerate(records):
        offset = i if r.offset is None else r.offset  # their builders write base offset 0
        assert builder.append(offset, r.timestamp, r.key, r.value, list(r.headers)) is not None
    data = bytes(builder.build())
    check_framing(data)
    (b,) = iter_batches(data)
    # they fall back to no compression when it does not pay off; the attribute says which they chose
    assert b.compression in (codec, "none")
    assert (b.base_offset, b.is_transactional, b.is_control) == (0, is_transactional, False)
    assert (b.producer_id, b.producer_epoch, b.base_sequence) == (producer_id, producer_epoch, base_sequence)
    want = [
        (i if r.offset is None else r.offset, r.timestamp, r.key, r.value, [tuple(h) for h in r.headers])
        for i, r in enumerate(records)
    ]
    assert ours(b) == want


COMPRESSIBLE = [
    Record(
        key=b"key-%d" % i,
        value=b"the same value, again and again " * 4,
        timestamp=1_600_000_000_000 + i,
        headers=[("trace", b"abc"), ("trace", None)] if i % 2 else [],
    )
    for i in range(50)
]


@pytest.mark.parametrize("library", LIBRARIES)
@pytest.mark.parametrize("codec", CODECS)
def test_every_codec_both_ways(library, codec):
    """Compressible data, so every builder really uses the codec (no silent fallback to none)."""
    builder_cls, reader = LIBRARIES[library]
    builder = builder_cls(2, CODEC_ID[codec], False, -1, -1, -1, 1 << 30)
    for i, r in enumerate(COMPRESSIBLE):
        builder.append(i, r.timestamp, r.key, r.value, list(r.headers))
    data = bytes(builder.build())
    (b,) = iter_batches(data)
    assert b.compression == codec
    want = [(i, r.timestamp, r.key, r.value, list(r.headers)) for i, r in enumerate(COMPRESSIBLE)]
    assert ours(b) == want

    for framing in ["xerial", "raw"] if codec == "snappy" else ["xerial"]:
        mine = build_batch(COMPRESSIBLE, compression=codec, snappy_framing=framing)
        theirs_batch = reader(mine)
        assert theirs_batch.validate_crc() and theirs_batch.compression_type == CODEC_ID[codec]
        assert theirs(theirs_batch) == want


@pytest.mark.parametrize("library", LIBRARIES)
@pytest.mark.parametrize("control_type", ["abort", "commit"])
def test_they_read_our_control_batches(library, control_type):
    data = build_control_batch(
        control_type,
        producer_id=77,
        producer_epoch=3,
        base_offset=1000,
        coordinator_epoch=9,
        timestamp=1_600_000_000_000,
    )
    _, reader = LIBRARIES[library]
    b = reader(data)
    assert b.validate_crc() and b.is_control_batch and b.is_transactional
    assert (b.producer_id, b.producer_epoch, b.base_offset) == (77, 3, 1000)
    (r,) = list(b)
    assert r.key == b"\x00\x00\x00" + (b"\x00" if control_type == "abort" else b"\x01")
    assert r.value == b"\x00\x00\x00\x00\x00\x09"
    if hasattr(r, "abort"):  # kafka-python decodes the control key itself
        assert (r.abort, r.commit) == (control_type == "abort", control_type == "commit")


@pytest.mark.parametrize("library", LIBRARIES)
def test_large_timestamp_deltas_both_ways(library):
    """timestampDelta is a varlong: a batch spanning far more than 2^31 ms must survive both ways."""
    records = [
        Record(key=None, value=b"a", timestamp=1_000),
        Record(key=None, value=None, timestamp=1_000 + (1 << 40)),
        Record(key=b"", value=b"", timestamp=1_000 - (1 << 35), headers=[("", None)]),
    ]
    builder_cls, reader = LIBRARIES[library]
    want = [(i, r.timestamp, r.key, r.value, list(r.headers)) for i, r in enumerate(records)]
    assert theirs(reader(build_batch(records))) == want
    builder = builder_cls(2, 0, False, -1, -1, -1, 1 << 30)
    for i, r in enumerate(records):
        builder.append(i, r.timestamp, r.key, r.value, list(r.headers))
    (b,) = iter_batches(bytes(builder.build()))
    assert ours(b) == want
