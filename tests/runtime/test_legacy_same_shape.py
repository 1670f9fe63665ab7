"""Plain legacy messages of one shape are read whole, one struct each (message_set._same_shape_run).

Differential: the batches, their records and heads, where a run ends and every refusal (type,
reason, byte position) must be those of the generated loop alone (``decode_message_run``), on
valid and on corrupted input, with and without CRC checks.
"""

from __future__ import annotations

import mmap

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.settings import scaled

import kafkaspec
from kafkaspec.errors import CorruptRecordError, KafkaFormatError
from kafkaspec.message_set import MESSAGE_MODULES, read_legacy, read_legacy_run

#: key and value lengths the messages draw from (-1: null); few, so that shapes repeat
LENGTHS = st.sampled_from([-1, 0, 1, 6, 60])


def _message(magic: int, offset: int, key_length: int, value_length: int, compression: str = "none") -> bytes:
    key = None if key_length < 0 else bytes([offset % 251]) * key_length
    value = None if value_length < 0 else bytes([(offset * 7) % 251]) * value_length
    record = kafkaspec.Record(key=key, value=value, timestamp=1_700_000_000_000 + offset, offset=offset)
    if compression != "none" and value is None:
        record = record._replace(value=b"")
    return bytes(kafkaspec.build_batch([record], magic=magic, compression=compression, base_offset=offset))


def _records(batch) -> object:
    """The batch's records, or the error reading them raises."""
    try:
        return batch.records
    except KafkaFormatError as exc:
        return ("error", type(exc), exc.reason, exc.position)


def _general(buf: bytes, pos: int, stop: int, magic: int, verify: bool) -> tuple:
    """What the generated loop alone reads: (entries, end) or the error it raises."""
    module = MESSAGE_MODULES[magic]
    try:
        items, end = module.decode_message_run(buf, pos, stop, verify=verify, whole=True)
    except KafkaFormatError as exc:
        return ("error", type(exc), exc.reason, exc.position)
    fields = len(module.MessageHead._fields)
    entries = []
    for item in items:
        start, pos = pos, pos + 12 + item[1]
        head = module.MessageHead(*item[:fields])
        if item[4] & 7:  # a wrapper: its records as a single read decompresses them
            records = _records(read_legacy(buf, start, magic, verify=verify))
        else:
            records = [kafkaspec.Record(item[4], item[5] if magic else -1, item[0], item[-2], item[-1], [])]
        entries.append((start, pos, head, tuple(item[-2:]), records))
    return ("read", entries, end)


def _run(buf: bytes, pos: int, stop: int, magic: int, verify: bool) -> tuple:
    """What read_legacy_run reads, in the same terms."""
    try:
        batches, end = read_legacy_run(buf, pos, stop, magic, verify=verify)
    except KafkaFormatError as exc:
        return ("error", type(exc), exc.reason, exc.position)
    entries = [(b.position, b.end, b.head, b.key_value(), _records(b)) for b in batches]
    return ("read", entries, end)


@st.composite
def message_sets(draw) -> tuple[bytes, int]:
    """Back-to-back messages of one magic, mostly of one repeated shape, some of others, some wrappers,
    sometimes a message of the other magic; then a few bytes overwritten."""
    magic = draw(st.sampled_from([0, 1]))
    shape = (draw(LENGTHS), draw(LENGTHS))
    parts = []
    for offset in range(draw(st.integers(1, 12))):
        kind = draw(st.sampled_from(["same"] * 6 + ["other", "wrapper", "magic"]))
        if kind == "same":
            parts.append(_message(magic, offset, *shape))
        elif (
            kind == "other"
        ):  # sometimes longer than the generated loop's window (message_set._GENERAL_WINDOW)
            parts.append(_message(magic, offset, draw(LENGTHS), draw(LENGTHS | st.just(5000))))
        elif kind == "wrapper":
            parts.append(_message(magic, offset, *shape, compression="gzip"))
        else:
            parts.append(_message(1 - magic, offset, *shape))
    data = bytearray(b"".join(parts))
    for _ in range(draw(st.integers(0, 3))):
        data[draw(st.integers(0, len(data) - 1))] = draw(st.integers(0, 255))
    return bytes(data), magic


@given(message_sets(), st.booleans(), st.integers(0, 40))
@scaled(1)
def test_same_shape_runs_read_what_the_generated_loop_reads(case, verify, cut):
    data, magic = case
    if data[16] != magic:
        return  # a run starts at an entry of its own magic (iter_batches calls it only there)
    for stop in (len(data), max(17, len(data) - cut)):
        assert _run(data, 0, stop, magic, verify) == _general(data, 0, stop, magic, verify)


@pytest.mark.parametrize("magic", [0, 1])
@pytest.mark.parametrize("shape", [(6, 60), (-1, 60), (6, -1), (-1, -1), (0, 0)])
def test_every_message_of_a_run_is_checked(magic, shape):
    data = b"".join(_message(magic, i, *shape) for i in range(20))
    size = len(data) // 20
    for victim in (0, 7, 19):
        for at in range(victim * size + 8, (victim + 1) * size):  # message_size and every byte after it
            bad = bytearray(data)
            bad[at] ^= 0x01
            run, general = (
                _run(bytes(bad), 0, len(bad), magic, True),
                _general(bytes(bad), 0, len(bad), magic, True),
            )
            assert run == general
            # unchecked CRCs: a changed length, magic or codec bit must still end the shape where the loop says
            assert _run(bytes(bad), 0, len(bad), magic, False) == _general(
                bytes(bad), 0, len(bad), magic, False
            )
            if at == victim * size + 16:  # the magic byte: another version's entry ends the run there
                assert run[0] == "read" and len(run[1]) == victim and run[2] == victim * size
            elif (
                at >= victim * size + 12
            ):  # the CRC or what it covers (message_size: as the loop says, above)
                assert run[0] == "error" and run[3] == victim * size, (at, run)


@pytest.mark.parametrize("magic", [0, 1])
def test_a_corrupt_crc_stops_iteration_where_reading_one_at_a_time_does(magic):
    data = bytearray(b"".join(_message(magic, i, 6, 60) for i in range(30)))
    size = len(data) // 30
    data[12 * size + 12] ^= 0x80  # the stored CRC of message 12
    with pytest.raises(CorruptRecordError) as single:
        read_legacy(bytes(data), 12 * size, magic)
    seen = []
    with pytest.raises(CorruptRecordError) as run:
        for batch in kafkaspec.iter_batches(bytes(data)):
            seen.append(batch.records[0].offset)
    assert seen == list(range(12))
    assert (run.value.reason, run.value.position) == (single.value.reason, single.value.position)


@pytest.mark.parametrize("magic", [0, 1])
def test_head_and_key_value_of_a_shape_run_are_those_of_a_single_read(magic):
    data = b"".join(_message(magic, i, -1 if i % 2 else 6, 60) for i in range(6))  # two shapes, alternating
    data += b"".join(_message(magic, i, 6, 60) for i in range(6, 12))
    batches = list(kafkaspec.iter_batches(data))
    assert len(batches) == 12
    for batch in batches:
        single = read_legacy(data, batch.position, magic)
        assert (batch.head, batch.key_value(), batch.records) == (
            single.head,
            single.key_value(),
            single.records,
        )
        assert (batch.magic, batch.offset, batch.crc, batch.timestamp) == (
            magic,
            single.offset,
            single.crc,
            single.timestamp,
        )
    with pytest.raises(AttributeError, match="no attribute 'nonexistent'"):
        batches[0].nonexistent  # noqa: B018


def test_a_mapped_file_can_be_closed_after_reading(tmp_path):
    path = tmp_path / "00000000000000000000.log"
    path.write_bytes(b"".join(_message(1, i, 6, 60) for i in range(50)))
    with path.open("rb") as f:
        mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        batches = list(kafkaspec.iter_batches(mapped))
        values = [r.value for b in batches for r in b.records]
        mapped.close()  # BufferError if a run kept a view of it
    assert values == [bytes([(i * 7) % 251]) * 60 for i in range(50)]


def test_a_mapped_file_can_be_closed_while_a_refusal_is_held(tmp_path):
    data = bytearray(b"".join(_message(1, i, 6, 60) for i in range(50)))
    data[len(data) // 2 + 40] ^= 0xFF  # inside message 25's value: its CRC fails
    path = tmp_path / "00000000000000000000.log"
    path.write_bytes(bytes(data))
    with path.open("rb") as f:
        mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        with pytest.raises(CorruptRecordError) as info:
            list(kafkaspec.iter_batches(mapped))
        mapped.close()  # BufferError if the raising loop's frame (kept by the traceback) held a view
    assert info.value.position == len(data) // 2
