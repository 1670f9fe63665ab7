"""Property tests: kafkaspec.build_batch -> kafkaspec.iter_batches over the whole value space (magic 2)."""

from __future__ import annotations

import struct
import time

import crc32c
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from support.records import CODECS, XERIAL_MAGIC, check_framing, record_lists, with_base
from support.settings import FUZZ, scaled

import kafkaspec
from kafkaspec import KafkaFormatError, Record, build_batch, build_control_batch, iter_batches, payloads

NOW_MS = int(time.time() * 1000)
DAY_MS = 86_400_000


def expected_records(records, base_offset, *, log_append_time=None, now_base=None):
    """What a reader must return for ``records`` written by build_batch (as the API documents it)."""
    if not records:
        return []
    base_ts = records[0].timestamp if records[0].timestamp is not None else now_base
    out = []
    for i, r in enumerate(records):
        offset = base_offset + i if r.offset is None else r.offset
        ts = base_ts if r.timestamp is None else r.timestamp
        if log_append_time is not None:
            ts = log_append_time
        out.append((offset, ts, r.key, r.value, [tuple(h) for h in r.headers]))
    return out


def observed(batch):
    return [(r.offset, r.timestamp, r.key, r.value, [tuple(h) for h in r.headers]) for r in batch]


batch_options = st.fixed_dictionaries(
    {
        "compression": st.sampled_from(CODECS),
        "snappy_framing": st.sampled_from(["xerial", "raw"]),
        "base_offset": st.sampled_from([0, 1, (1 << 62)]) | st.integers(0, 1 << 62),
        "producer_id": st.sampled_from([-1, 0]) | st.integers(0, (1 << 63) - 1),
        "producer_epoch": st.sampled_from([-1, 0]) | st.integers(-1, (1 << 15) - 1),
        "base_sequence": st.sampled_from([-1, 0]) | st.integers(-1, (1 << 31) - 1),
        "is_transactional": st.booleans(),
        "timestamp_type": st.sampled_from(["create", "log_append"]),
        "partition_leader_epoch": st.sampled_from([-1, 0]) | st.integers(-(1 << 31), (1 << 31) - 1),
    }
)


@FUZZ
@given(
    records=record_lists(),
    options=batch_options,
    first_ts_now=st.booleans(),
    log_append_time=st.integers(-1, 1 << 50),
)
def test_build_then_iter(records, options, first_ts_now, log_append_time):
    if first_ts_now and records:
        records[0] = records[0]._replace(timestamp=None)
    records = with_base(records, options["base_offset"])
    log_append = options["timestamp_type"] == "log_append"
    data = build_batch(records, log_append_time=log_append_time if log_append else None, **options)

    header = check_framing(data)
    assert len(data) == 12 + header[1], "one batch, nothing after it"
    if options["compression"] == "snappy" and records:
        assert (data[61:69] == XERIAL_MAGIC) == (options["snappy_framing"] == "xerial")

    it = iter_batches(data)
    batches = list(it)
    assert it.partial is None and len(batches) == 1
    b = batches[0]
    assert (b.magic, b.base_offset, b.compression) == (2, options["base_offset"], options["compression"])
    assert b.timestamp_type == options["timestamp_type"]
    assert (b.is_transactional, b.is_control) == (options["is_transactional"], False)
    assert (b.producer_id, b.producer_epoch, b.base_sequence) == (
        options["producer_id"],
        options["producer_epoch"],
        options["base_sequence"],
    )
    assert b.partition_leader_epoch == options["partition_leader_epoch"]
    assert len(b) == b.records_count == len(records)

    now_base = None
    if records and records[0].timestamp is None:
        now_base = b.base_timestamp
        assert abs(now_base - NOW_MS) < DAY_MS, "a missing first timestamp becomes 'now'"
    want = expected_records(
        records,
        options["base_offset"],
        log_append_time=log_append_time if log_append else None,
        now_base=now_base,
    )
    assert observed(b) == want
    if records:
        assert b.last_offset == want[-1][0]
        stored_ts = [t for _, t, *_ in expected_records(records, options["base_offset"], now_base=now_base)]
        assert b.max_timestamp == (log_append_time if log_append else max(stored_ts))
        assert b.base_timestamp == stored_ts[0]
    else:
        assert b.records == [] and b.last_offset == options["base_offset"]
        assert (b.base_timestamp, b.max_timestamp) == (-1, log_append_time if log_append else -1)


@pytest.mark.parametrize("codec", CODECS)
def test_ten_thousand_records(codec):
    records = [
        Record(
            key=None if i % 7 == 0 else f"key-{i % 100}".encode(),
            value=None if i % 11 == 0 else (b"value-%d-" % i) * (i % 5),
            timestamp=1_600_000_000_000 + i * 3 if i % 13 else -1,
            headers=[("h", None), ("h", str(i).encode())] if i % 17 == 0 else [],
        )
        for i in range(10_000)
    ]
    data = build_batch(records, compression=codec, base_offset=5_000_000_000)
    check_framing(data)
    (b,) = iter_batches(data)
    assert b.compression == codec and len(b) == 10_000
    assert b.last_offset == 5_000_000_000 + 9_999
    assert observed(b) == expected_records(records, 5_000_000_000)


@pytest.mark.parametrize("framing", ["xerial", "raw"])
def test_snappy_framings(framing):
    records = [Record(key=b"k", value=b"snappy " * 10_000, timestamp=1)] * 3  # > one 32 KiB xerial block
    data = build_batch(records, compression="snappy", snappy_framing=framing)
    check_framing(data)
    assert (data[61:69] == XERIAL_MAGIC) == (framing == "xerial")
    (b,) = iter_batches(data)
    assert observed(b) == expected_records(records, 0)


CONTROL_TYPES = [
    "abort",
    "commit",
    "leader_change",
    "snapshot_header",
    "snapshot_footer",
    "kraft_version",
    "kraft_voters",
]


@scaled(5)
@given(
    ctype=st.sampled_from(CONTROL_TYPES),
    producer_id=st.integers(0, (1 << 63) - 1),
    producer_epoch=st.integers(0, (1 << 15) - 1),
    coordinator_epoch=st.integers(-(1 << 31), (1 << 31) - 1),
    base_offset=st.integers(0, 1 << 62),
    timestamp=st.integers(-1, 1 << 50),
    value=st.binary(max_size=20),
)
def test_control_batches(
    ctype, producer_id, producer_epoch, coordinator_epoch, base_offset, timestamp, value
):
    marker = ctype in ("abort", "commit")
    data = build_control_batch(
        ctype,
        producer_id=producer_id,
        producer_epoch=producer_epoch,
        base_offset=base_offset,
        coordinator_epoch=coordinator_epoch,
        timestamp=timestamp,
        value=None if marker else value,
    )
    attributes = check_framing(data)[5]
    assert attributes & 0x20, "control bit set"
    assert bool(attributes & 0x10) == marker
    (b,) = iter_batches(data)
    assert b.is_control and b.is_transactional == marker and len(b) == 1
    assert (b.producer_id, b.producer_epoch, b.base_offset, b.last_offset) == (
        producer_id,
        producer_epoch,
        base_offset,
        base_offset,
    )
    (r,) = b.records
    assert r.key == b"\x00\x00" + CONTROL_TYPES.index(ctype).to_bytes(2, "big")
    assert r.timestamp == timestamp
    if not marker:
        # a KRaft control value is decoded by its message schema: bytes that do not hold one are refused
        assert r.value == value
        try:
            decoded = payloads.decode_control(CONTROL_TYPES.index(ctype), value)
        except KafkaFormatError:
            with pytest.raises(KafkaFormatError, match=r"^control record \w+: "):
                b.control  # noqa: B018
            return
    c = b.control
    assert (c.version, c.type, c.type_name) == (0, CONTROL_TYPES.index(ctype), ctype)
    if marker:
        # end-transaction marker value: version int16 0, coordinator_epoch int32
        assert r.value == b"\x00\x00" + coordinator_epoch.to_bytes(4, "big", signed=True)
        assert c.coordinator_epoch == coordinator_epoch and c.decoded is None
    else:
        assert c.value == value and c.decoded == decoded


def test_data_batches_have_no_control_record():
    (b,) = iter_batches(build_batch([Record(key=b"k", value=b"v", timestamp=0)]))
    assert b.control is None


@scaled(3)
@given(
    batches=st.lists(st.tuples(record_lists(max_size=4), st.sampled_from(CODECS)), min_size=1, max_size=4),
    cut=st.integers(1, 1 << 16),
)
def test_stream_of_batches_with_a_partial_tail(batches, cut):
    """Batches back to back, the last one cut short: the complete ones come out, the tail is reported."""
    parts, offset = [], 0
    for records, codec in batches:
        parts.append(build_batch(with_base(records, offset), compression=codec, base_offset=offset))
        offset += 1 << 21
    stream = b"".join(parts)
    it = iter_batches(stream)
    got = [(b.base_offset, observed(b)) for b in it]
    assert it.partial is None
    assert got == [(i << 21, observed(next(iter(iter_batches(p))))) for i, p in enumerate(parts)]

    keep = len(stream) - 1 - (cut % (len(parts[-1]) - 1))  # cut inside the last batch: 1..size-1 bytes kept
    it = iter_batches(stream[:keep])
    got_cut = [(b.base_offset, observed(b)) for b in it]
    assert got_cut == got[:-1]
    assert it.partial is not None
    assert it.partial.position == len(stream) - len(parts[-1])
    assert it.partial.size == keep - it.partial.position
    assert it.partial.needed in (None, len(parts[-1]))
    if it.partial.size >= 17:  # enough to read the length field
        assert it.partial.needed == len(parts[-1])


@scaled(3)
@given(records=record_lists(min_size=1, max_size=4), codec=st.sampled_from(CODECS), data=st.data())
def test_a_flipped_bit_in_the_crc_range_is_an_error(records, codec, data):
    batch = bytearray(build_batch(records, compression=codec))
    at = data.draw(st.integers(17, len(batch) - 1), label="byte")  # crc..end
    batch[at] ^= 1 << data.draw(st.integers(0, 7), label="bit")
    with pytest.raises(KafkaFormatError):
        for b in iter_batches(bytes(batch)):
            b.records  # noqa: B018 - decoding is the point


@scaled(3)
@given(records=record_lists(min_size=1, max_size=4), codec=st.sampled_from(CODECS), data=st.data())
def test_unverified_garbage_is_an_error_or_data_never_a_crash(records, codec, data):
    """With CRC checks off, any corruption of the records region gives a KafkaFormatError or records."""
    batch = bytearray(build_batch(records, compression=codec))
    for _ in range(data.draw(st.integers(1, 4), label="flips")):
        at = data.draw(st.integers(57, len(batch) - 1), label="byte")  # records_count..end
        batch[at] = data.draw(st.integers(0, 255), label="value")
    assume(bytes(batch) != build_batch(records, compression=codec))
    try:
        batches = list(iter_batches(bytes(batch), verify=False))
        decoded = [(b, list(b)) for b in batches]
    except KafkaFormatError:
        return
    # what is read is well-formed data: the announced count of records, typed fields, and the same
    # records again when the batch is read a second time
    for b, rs in decoded:
        assert len(rs) == b.records_count == len(b)
        for r in rs:
            assert isinstance(r.key, bytes | None) and isinstance(r.value, bytes | None)
            assert type(r.offset) is int and type(r.timestamp) is int
            assert all(type(k) is str and isinstance(v, bytes | None) for k, v in r.headers)
    assert len(decoded) == 1  # the framing (length, magic) was left intact
    (again,) = iter_batches(bytes(batch), verify=False)
    assert list(again) == decoded[0][1]


def test_public_api_names():
    """The README's names are the objects doing the work: the generated Record, one error base,
    builders that return bytes, and readers that check what they read."""
    from kafkaspec.generated import record_v2

    assert kafkaspec.Record is record_v2.Record
    assert all(
        issubclass(e, kafkaspec.KafkaFormatError)
        for e in (
            kafkaspec.CorruptRecordError,
            kafkaspec.InvalidLengthError,
            kafkaspec.InvalidMagicError,
            kafkaspec.TruncatedError,
            kafkaspec.LimitExceededError,
            kafkaspec.DecompressionError,
        )
    )
    data = kafkaspec.build_batch([Record(key=b"k", value=b"v", timestamp=7)], base_offset=3)
    assert type(data) is bytes
    (b,) = kafkaspec.iter_batches(data)
    assert [(r.offset, r.timestamp, r.key, r.value) for r in b] == [(3, 7, b"k", b"v")]
    (c,) = kafkaspec.iter_batches(kafkaspec.build_control_batch("abort", producer_id=9, producer_epoch=1))
    assert c.is_control and c.control.type_name == "abort" and c.producer_id == 9
    damaged = bytearray(data)
    damaged[-1] ^= 1
    with pytest.raises(kafkaspec.CorruptRecordError):
        list(kafkaspec.iter_batches(bytes(damaged)))


@pytest.mark.parametrize("codec", CODECS)
@pytest.mark.parametrize("timestamp_type", ["create", "log_append"])
def test_head_bits_read_as_enum_members(codec, timestamp_type):
    """The generated head's enum-typed bits are the IntEnum members (equal to their numbers too)."""
    from kafkaspec.generated.enums import CompressionType, TimestampType

    data = build_batch([Record(value=b"v", timestamp=1)], compression=codec, timestamp_type=timestamp_type)
    (b,) = iter_batches(data)
    assert b.head.compression is CompressionType[codec.upper()]
    assert b.head.timestamp_type is TimestampType[timestamp_type.upper()]
    assert b.head.compression == CompressionType[codec.upper()].value and b.compression == codec
    assert (b.head.is_control, b.head.has_delete_horizon) == (False, False)


@pytest.mark.parametrize("kind", [bytes, bytearray, memoryview])
def test_any_bytes_like_input(kind):
    records = [Record(key=b"k", value=b"v" * 100, timestamp=5, headers=[("h", None)])]
    data = build_batch(records, compression="gzip") + build_batch(records, base_offset=1)
    got = [(b.base_offset, observed(b)) for b in iter_batches(kind(data))]
    assert got == [(0, expected_records(records, 0)), (1, expected_records(records, 1))]
    assert all(type(r.value) is bytes for b in iter_batches(kind(data)) for r in b)


def _recrc(batch: bytearray) -> bytes:
    batch[17:21] = crc32c.crc32c(bytes(batch[21:])).to_bytes(4, "big")
    return bytes(batch)


@pytest.mark.parametrize("codec", [c for c in CODECS if c != "none"])
def test_decompression_bomb_is_bounded(codec):
    data = build_batch([Record(key=None, value=bytes(4 << 20), timestamp=0)], compression=codec)
    assert len(data) < 1 << 20
    (b,) = iter_batches(data, max_decompressed=1 << 20)
    with pytest.raises(KafkaFormatError):
        b.records  # noqa: B018


@pytest.mark.parametrize("count", [2, 1000, (1 << 31) - 1, -1])
@pytest.mark.parametrize("codec", CODECS)
def test_hostile_records_count(count, codec):
    """A records_count that disagrees with the bytes (CRC made valid again) is an error, fast."""
    batch = bytearray(build_batch([Record(key=b"k", value=b"v", timestamp=0)], compression=codec))
    batch[57:61] = count.to_bytes(4, "big", signed=True)
    if count < 0:  # refused with the head (as Kafka's DefaultRecordBatch does), so len(batch) never sees it
        with pytest.raises(KafkaFormatError, match="records_count -1 is negative"):
            list(iter_batches(_recrc(batch)))
        return
    (b,) = iter_batches(_recrc(batch))
    with pytest.raises(KafkaFormatError):
        b.records  # noqa: B018


@pytest.mark.parametrize("batch_length", [0, 9, 30, 48])
def test_batch_length_shorter_than_the_header_is_an_error(batch_length):
    """A batch_length below the 49 header bytes it covers, even with a CRC valid for that short range,
    must not make the reader take the next batch's bytes as this batch's header (Java: minimum overhead)."""
    body = bytes(max(0, batch_length - 9))
    short = struct.pack(">qiibI", 0, batch_length, -1, 2, crc32c.crc32c(body)) + body
    data = short[: 12 + batch_length] + build_batch(
        [Record(key=b"k", value=b"v", timestamp=1)], base_offset=5
    )
    with pytest.raises(KafkaFormatError):
        list(iter_batches(data))


@scaled(3)
@given(
    first=record_lists(min_size=1, max_size=3),
    second=record_lists(min_size=1, max_size=3),
    codec=st.sampled_from(CODECS),
    verify=st.booleans(),
    data=st.data(),
)
def test_errors_name_a_byte_position_inside_the_damaged_batch(first, second, codec, verify, data):
    """Errors say where: an absolute position in the input, inside the batch that is broken."""
    one = build_batch(first, compression=codec)
    two = bytearray(build_batch(second, compression=codec, base_offset=100))
    for _ in range(data.draw(st.integers(1, 3), label="changes")):
        at = data.draw(st.integers(17, len(two) - 1), label="at")
        two[at] = data.draw(st.integers(0, 255), label="byte")
    stream = one + bytes(two)
    try:
        for b in iter_batches(stream, verify=verify):
            b.records  # noqa: B018
    except KafkaFormatError as exc:
        assert exc.position is not None, f"no position in {exc}"
        assert len(one) <= exc.position < len(stream), (
            f"position {exc.position} is outside the broken batch: {exc}"
        )
        assert f"byte {exc.position}" in str(exc)


def test_a_bad_length_in_the_last_bytes_is_named_inside_the_input():
    """Found by the property above: a record's value length, the byte before the batch's last, made a
    two-byte varint of -2; the error named the byte after it (the end of the input), not one in it."""
    batch = bytearray(build_batch([Record(key=b"k" * 8, value=None, timestamp=1)]))
    assert batch[-2:] == b"\x01\x00"  # value length -1 (null), then no headers
    batch[-2] = 0x83  # 0x83 0x00: a two-byte varint, zigzag 3 = -2
    with pytest.raises(KafkaFormatError, match="value length -2 is negative") as info:
        next(iter(iter_batches(bytes(batch), verify=False))).records  # noqa: B018
    assert info.value.position == len(batch) - 1  # the last byte of the two that hold the length


@pytest.mark.parametrize(
    "tail, partial",
    [
        (b"\x00" * 4, True),  # shorter than offset + length: a cut-off tail
        (bytes(8) + struct.pack(">i", 70) + b"\x00\x00", True),  # a plausible length, the rest not there yet
        (bytes(8) + struct.pack(">i", -1), False),  # no entry has a negative length
        (bytes(8) + struct.pack(">i", -1) + b"\x00\x00\x00", False),
        (bytes(8) + struct.pack(">i", 3) + b"\x00\x00\x00", False),  # complete, yet shorter than any format
        (bytes(8) + struct.pack(">i", 10) + b"\x00\x00", False),  # below the 14-byte minimum, complete or not
    ],
)
def test_short_tail_is_partial_only_when_its_length_is_plausible(tail, partial):
    good = build_batch([Record(key=b"k", value=b"v", timestamp=1)])
    it = iter_batches(good + tail)
    if partial:
        assert [b.base_offset for b in it] == [0]
        assert it.partial is not None and (it.partial.position, it.partial.size) == (len(good), len(tail))
    else:
        with pytest.raises(KafkaFormatError):
            list(it)
