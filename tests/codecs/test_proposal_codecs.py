"""The KIP-98 draft's codecs (schemas/proposals/, issue 14 item 5): optional fields (present_if),
an array sized in bytes (size: rest), a trailing per-message CRC.

* golden vectors composed here byte by byte from the draft's documented layout (seed 004,
  "Message Format"), not from our encoder;
* the fast codec (generated/kip98_*.py) and its Construct reference agree, and round trip, over
  hypothesis values (null keys and values, compressed sets);
* bad input raises a KafkaFormatError naming the field.
"""

from __future__ import annotations

import struct
import zlib

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.settings import scaled

from kafkaspec.codec.compression import compress
from kafkaspec.errors import CorruptRecordError, KafkaFormatError
from kafkaspec.generated import kip98_message_set_v2 as fast_set
from kafkaspec.generated import kip98_message_v2 as fast
from kafkaspec.generated.reference import kip98_message_set_v2 as ref_set
from kafkaspec.generated.reference import kip98_message_v2 as ref

Message, MessageSet = fast.Kip98Message, fast_set.Kip98MessageSet


def uvar(n: int) -> bytes:
    out = b""
    while n >= 0x80:
        out += bytes([n & 0x7F | 0x80])
        n >>= 7
    return out + bytes([n])


def draft_message(
    attributes: int, timestamp: int, delta: int, key: bytes | None, value: bytes | None
) -> bytes:
    """Length (uintVar) | Attributes (int8) | Timestamp (int64) | OffsetDelta (uintVar) | KeyLen (uintVar,
    only with a key and a value) | Key | Value | CRC (uint32 over attributes..value)."""
    body = struct.pack(">bq", attributes, timestamp) + uvar(delta)
    if key is not None and value is not None:
        body += uvar(len(key))
    body += (key or b"") + (value or b"")
    body += struct.pack(">I", zlib.crc32(body))
    return uvar(len(body)) + body


def draft_set(
    offset: int,
    attributes: int,
    offset_delta: int,
    max_ts: int,
    pid: int,
    epoch: int,
    seq: int,
    messages: bytes,
) -> bytes:
    """Offset (int64) | Length (int32) | CRC (uint32 over magic..end) | Magic (2) | Attributes (int16) |
    OffsetDelta (int32) | MaxTimestamp (int64) | PID (int64) | Epoch (int16) | Sequence (int32) | messages."""
    covered = struct.pack(">bhiqqhi", 2, attributes, offset_delta, max_ts, pid, epoch, seq) + messages
    rest = struct.pack(">I", zlib.crc32(covered)) + covered
    return struct.pack(">qi", offset, len(rest)) + rest


MESSAGES = [
    # (attributes as the draft sets them, timestamp, delta, key, value)
    (0b000, 1_700_000_000_000, 0, b"key", b"value"),
    (0b001, 1_700_000_000_001, 1, None, b"value only"),  # null key: no KeyLen, no Key
    (
        0b010,
        1_700_000_000_002,
        2,
        b"key runs to the crc",
        None,
    ),  # null value: no KeyLen, the key runs to the CRC
    (0b111, 5, 300, None, None),  # a control message with neither (delta 300: 2-byte uintVar)
]


@pytest.mark.parametrize("message", MESSAGES, ids=["key+value", "null key", "null value", "control, neither"])
@pytest.mark.parametrize("codec", [fast, ref], ids=["fast", "construct"])
def test_golden_message(codec, message):
    attributes, timestamp, delta, key, value = message
    data = draft_message(*message)
    decoded, end = codec.decode_kip98_message(data, 0, base_offset=1000)
    assert end == len(data)
    assert decoded[:5] == (attributes, timestamp, 1000 + delta, key, value)
    assert decoded.crc == struct.unpack(">I", data[-4:])[0]
    assert codec.encode_kip98_message(decoded._replace(crc=None), base_offset=1000) == data


def test_golden_message_bytes_spelled_out():
    """One vector written out in full: key "k", value "vv", timestamp 5, delta 0."""
    data = bytes.fromhex("1200000000000000000500016b7676") + struct.pack(
        ">I", zlib.crc32(bytes.fromhex("00000000000000000500016b7676"))
    )
    assert fast.encode_kip98_message(Message(0, 5, 0, b"k", b"vv")) == data
    assert fast.decode_kip98_message(data)[0][:5] == (0, 5, 0, b"k", b"vv")


@pytest.mark.parametrize("codec_id", [0, 1, 3, 4], ids=["none", "gzip", "lz4", "zstd"])
@pytest.mark.parametrize("codecs", [(fast_set, fast), (ref_set, ref)], ids=["fast", "construct"])
def test_golden_message_set(codecs, codec_id):
    set_codec, _ = codecs
    region = b"".join(draft_message(*m) for m in MESSAGES)
    stored = compress(codec_id, region) if codec_id else region
    data = draft_set(500, codec_id | 0b10000, 3, 1_700_000_000_002, 42, 1, 7, stored)
    decoded, end = set_codec.decode_kip98_message_set(data)
    assert end == len(data)
    assert decoded[:9] == (
        500,
        struct.unpack(">I", data[12:16])[0],
        2,
        codec_id | 0b10000,
        3,
        1_700_000_000_002,
        42,
        1,
        7,
    )
    assert [(m.attributes, m.timestamp, m.offset, m.key, m.value) for m in decoded.messages] == [
        (a, t, 500 + d, k, v) for a, t, d, k, v in MESSAGES
    ]
    if codec_id == 0:  # compressed bytes depend on the compressor's version; uncompressed ones are exact
        assert set_codec.encode_kip98_message_set(decoded) == data


# -- fast == reference over hypothesis values ------------------------------------------------------

_bytes = st.one_of(st.none(), st.binary(max_size=40))
messages = st.builds(
    lambda control, ts, key, value: Message(0b100 if control else 0, ts, None, key, value),
    st.booleans(),
    st.integers(-(1 << 63), (1 << 63) - 1),
    _bytes,
    _bytes,
)


@scaled(3)
@given(
    items=st.lists(messages, max_size=6),
    base=st.integers(0, 1 << 40),
    codec=st.sampled_from([0, 1, 2, 3, 4]),
    head=st.tuples(
        st.integers(-(1 << 31), (1 << 31) - 1),
        st.integers(-(1 << 63), (1 << 63) - 1),
        st.integers(-(1 << 63), (1 << 63) - 1),
        st.integers(-(1 << 15), (1 << 15) - 1),
        st.integers(-(1 << 31), (1 << 31) - 1),
    ),
)
def test_fast_and_reference_agree(items, base, codec, head):
    value = MessageSet(base, None, 2, codec, *head, items)
    data = fast_set.encode_kip98_message_set(value)
    assert ref_set.encode_kip98_message_set(value) == data
    decoded, end = fast_set.decode_kip98_message_set(data)
    assert end == len(data)
    assert ref_set.decode_kip98_message_set(data) == (decoded, end)
    assert [(m.offset, m.key, m.value) for m in decoded.messages] == [
        (base + i, m.key, m.value) for i, m in enumerate(items)
    ]
    assert fast_set.encode_kip98_message_set(decoded) == data


# -- bad input -------------------------------------------------------------------------------------

GOOD = draft_message(0, 5, 0, b"key", b"value")


@pytest.mark.parametrize(
    ("data", "error", "names"),
    [
        (GOOD[:-1], KafkaFormatError, "Kip98Message.length"),  # length beyond the buffer
        (GOOD[:-1] + bytes([GOOD[-1] ^ 1]), CorruptRecordError, "Kip98Message.crc"),  # CRC does not match
        (
            bytes([GOOD[0]]) + GOOD[1:11] + b"\x7f" + GOOD[12:],
            KafkaFormatError,
            "Kip98Message.key",
        ),  # KeyLen lies
        (
            uvar(3) + b"\x00\x00\x00",
            KafkaFormatError,
            "Kip98Message.timestamp",
        ),  # too short for the timestamp
    ],
    ids=["length beyond buffer", "crc mismatch", "key length beyond the message", "truncated timestamp"],
)
def test_bad_message(data, error, names):
    with pytest.raises(error, match=names.replace(".", r"\.")):
        fast.decode_kip98_message(data)


def test_bad_message_set():
    good = draft_set(0, 0, 0, 0, -1, -1, -1, GOOD)
    with pytest.raises(CorruptRecordError, match=r"Kip98MessageSet\.crc"):
        fast_set.decode_kip98_message_set(good[:-1] + bytes([good[-1] ^ 1]))
    with pytest.raises(KafkaFormatError, match=r"Kip98MessageSet\.length"):
        fast_set.decode_kip98_message_set(good[:-1])
    bad_magic = good[:16] + b"\x03" + good[17:]
    with pytest.raises(KafkaFormatError):  # the CRC covers the magic byte, so the CRC check fires first
        fast_set.decode_kip98_message_set(bad_magic)
