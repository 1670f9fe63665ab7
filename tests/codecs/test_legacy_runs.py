"""The generated back-to-back decoders of Message v0/v1 (``decode_message_run``), used for the
inner message sets of compressed wrappers: where a run stops, and what it refuses."""

from __future__ import annotations

import pytest

import kafkaspec
from kafkaspec.errors import CorruptRecordError, TruncatedError
from kafkaspec.generated import message_v0, message_v1

RECORDS = [
    kafkaspec.Record(key=b"k%d" % i, value=b"value-%d" % i, timestamp=1_700_000_000_000 + i) for i in range(3)
]


def test_a_run_stops_where_the_magic_changes_and_the_next_version_carries_on():
    v1 = kafkaspec.build_batch(RECORDS, magic=1)
    v0 = kafkaspec.build_batch(RECORDS[:2], magic=0, base_offset=3)
    data = v1 + v0
    items, pos = message_v1.decode_message_run(data, 0, len(data))
    assert pos == len(v1)
    assert [(o, t, k, v) for o, _, _, _, _, t, k, v in items] == [
        (i, r.timestamp, r.key, r.value) for i, r in enumerate(RECORDS)
    ]
    items, pos = message_v0.decode_message_run(data, pos, len(data))
    assert pos == len(data)
    assert [(o, k, v) for o, _, _, _, _, k, v in items] == [(3, b"k0", b"value-0"), (4, b"k1", b"value-1")]


def test_a_message_running_past_stop_is_truncated_even_inside_a_longer_buffer():
    data = kafkaspec.build_batch(RECORDS, magic=1)
    with pytest.raises(TruncatedError) as info:
        message_v1.decode_message_run(data, 0, len(data) - 1)
    last_start = len(data) - len(kafkaspec.build_batch(RECORDS[-1:], magic=1))
    assert info.value.position == last_start


def test_a_corrupt_message_in_a_run_names_its_position():
    data = bytearray(kafkaspec.build_batch(RECORDS, magic=1))
    second = len(kafkaspec.build_batch(RECORDS[:1], magic=1))
    data[second + 30] ^= 0xFF  # inside the second message's key
    with pytest.raises(CorruptRecordError) as info:
        message_v1.decode_message_run(bytes(data), 0, len(data))
    assert info.value.position == second
    items, _ = message_v1.decode_message_run(bytes(data), 0, len(data), verify=False)
    assert len(items) == 3
