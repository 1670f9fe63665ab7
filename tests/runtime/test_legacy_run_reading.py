"""iter_batches reads plain legacy messages (magic 0/1) a run at a time (message_set.read_legacy_run):
the batches, their records and every refusal must be those of reading one entry at a time."""

from __future__ import annotations

import pytest

import kafkaspec
from kafkaspec.errors import CorruptRecordError, KafkaFormatError
from kafkaspec.message_set import read_legacy
from kafkaspec.records import LEGACY_RUN_BYTES


def _messages(magic: int, n: int, value_size: int = 60) -> bytes:
    records = [
        kafkaspec.Record(key=b"k%d" % i, value=bytes([i % 256]) * value_size, timestamp=1000 + i)
        for i in range(n)
    ]
    return bytes(kafkaspec.build_batch(records, magic=magic, base_offset=10))


def _one_at_a_time(data: bytes) -> list:
    out, pos = [], 0
    while pos < len(data):
        batch = read_legacy(data, pos, data[pos + 16])
        out.append((batch.position, batch.end, batch.head, batch.records))
        pos = batch.end
    return out


def _read(data: bytes, **kw) -> list:
    return [(b.position, b.end, b.head, b.records) for b in kafkaspec.iter_batches(data, **kw)]


@pytest.mark.parametrize("magic", [0, 1])
def test_runs_equal_one_at_a_time_across_windows(magic):
    data = _messages(magic, 3 * LEGACY_RUN_BYTES // 100 + 7, value_size=80)  # several run windows
    assert len(data) > 2 * LEGACY_RUN_BYTES
    assert _read(data) == _one_at_a_time(data)


def test_mixed_magics_and_wrappers_in_order():
    parts = [
        _messages(0, 5),
        _messages(1, 5),
        bytes(
            kafkaspec.build_batch(
                [kafkaspec.Record(key=b"a", value=b"b", timestamp=1)], magic=1, compression="gzip"
            )
        ),
        _messages(1, 3),
        bytes(kafkaspec.build_batch([kafkaspec.Record(key=b"c", value=b"d", timestamp=2)])),
        _messages(0, 2),
    ]
    data = b"".join(parts)
    batches = list(kafkaspec.iter_batches(data))
    assert [b.magic for b in batches] == [0] * 5 + [1] * 5 + [1] + [1] * 3 + [2] + [0] * 2
    assert [r.value for b in batches for r in b.records][-3:] == [b"d", bytes([0]) * 60, bytes([1]) * 60]


@pytest.mark.parametrize("magic", [0, 1])
def test_bad_crc_in_a_run_yields_the_entries_before_it_then_raises(magic):
    data = bytearray(_messages(magic, 50))
    good = _one_at_a_time(bytes(data))
    bad_at = good[30][0]
    data[good[30][1] - 1] ^= 0xFF  # the last value byte of message 30
    seen = []
    with pytest.raises(CorruptRecordError) as info:
        for batch in kafkaspec.iter_batches(bytes(data)):
            seen.append((batch.position, batch.end, batch.head, batch.records))
    assert seen == good[:30]
    assert info.value.position == bad_at
    assert (
        list(kafkaspec.iter_batches(bytes(data), verify=False))[30].records[0].value != good[30][3][0].value
    )


@pytest.mark.parametrize("magic", [0, 1])
def test_partial_tail_after_a_run(magic):
    data = _messages(magic, 20)
    cut = data[:-7]
    it = kafkaspec.iter_batches(cut)
    assert [(b.position, b.end, b.head, b.records) for b in it] == _one_at_a_time(data)[:19]
    assert it.partial is not None and it.partial.position == _one_at_a_time(data)[19][0]


def test_recovery_mode_skips_the_bad_entry_and_reads_on():
    data = bytearray(_messages(1, 40))
    good = _one_at_a_time(bytes(data))
    data[good[10][1] - 1] ^= 0xFF
    it = kafkaspec.iter_batches(bytes(data), on_corrupt="skip")
    read = [(b.position, b.end, b.head, b.records) for b in it]
    assert read == good[:10] + good[11:]
    assert [(s.start, s.end) for s in it.skipped] == [(good[10][0], good[10][1])]


def test_a_short_message_size_is_refused_as_one_at_a_time_does():
    data = bytearray(_messages(1, 10))
    pos = _one_at_a_time(bytes(data))[4][0]
    data[pos + 8 : pos + 12] = (14).to_bytes(4, "big")  # a message_size too short for key and value lengths
    with pytest.raises(KafkaFormatError) as run_error:
        list(kafkaspec.iter_batches(bytes(data)))
    with pytest.raises(KafkaFormatError) as single_error:
        read_legacy(bytes(data), pos, 1)
    assert (type(run_error.value), run_error.value.reason) == (
        type(single_error.value),
        single_error.value.reason,
    )
