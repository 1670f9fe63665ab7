"""The transaction scan's reading of end-transaction markers at fixed positions
(:func:`kafkaspec.logdir.kafka.transactions.marker_at`) against the full decode of the same batch: every
marker a broker writes is taken, and any byte changed either leaves the answer the full decode gives or
sends the batch to the full decode; a partition's transactions are the same either way."""

from __future__ import annotations

import pytest

from kafkaspec import build_batch, build_control_batch
from kafkaspec.errors import KafkaFormatError
from kafkaspec.generated.enums import ControlRecordType
from kafkaspec.logdir import open_log
from kafkaspec.logdir.kafka import layout, segment
from kafkaspec.logdir.kafka.transactions import TransactionMarker, TransactionScan, marker_at
from kafkaspec.records import BatchIterator

MARKERS = [
    dict(control_type="abort", producer_id=7, producer_epoch=0, base_offset=12),
    dict(
        control_type="commit", producer_id=2**40 + 3, producer_epoch=5, base_offset=2**33, coordinator_epoch=9
    ),
    dict(control_type="abort", producer_id=-1, producer_epoch=-1, base_offset=0, coordinator_epoch=2**31 - 1),
]


def _full(raw: bytes) -> TransactionMarker | None:
    """What the scan made of the batch before: the batch decoded whole, its control record parsed."""
    try:
        batch = next(BatchIterator(raw, verify=False))
        control = batch.control
    except (KafkaFormatError, StopIteration):
        return None
    if not (batch.is_transactional and batch.is_control) or control is None:
        return None
    if control.type not in (ControlRecordType.ABORT, ControlRecordType.COMMIT):
        return None
    return TransactionMarker(batch.producer_id, batch.base_offset, batch.last_offset, control.type)


@pytest.mark.parametrize("how", MARKERS, ids=lambda m: f"{m['control_type']}-{m['producer_id']}")
def test_a_broker_marker_is_read_at_fixed_positions(how):
    raw = build_control_batch(**how)
    got = marker_at(b"xx" + raw + b"yy", 2)
    assert got is not None
    assert got == _full(raw)
    assert got.type == ControlRecordType[how["control_type"].upper()]


@pytest.mark.hostile
@pytest.mark.parametrize("how", MARKERS, ids=lambda m: f"{m['control_type']}-{m['producer_id']}")
def test_a_changed_byte_gives_the_full_decode_or_nothing(how):
    """Each byte of a marker batch set to other values: where :func:`marker_at` answers, the full decode
    answers the same (a check left out of it shows here as a marker the full decode refuses or reads
    otherwise)."""
    raw = build_control_batch(**how)
    taken = 0
    for at in range(len(raw)):
        for value in {0x00, 0x01, 0x02, 0x07, 0x0A, 0x0C, 0x10, 0x30, 0x7F, 0x80, 0xFF, raw[at] ^ 0x01}:
            if value == raw[at]:
                continue
            changed = raw[:at] + bytes([value]) + raw[at + 1 :]
            got = marker_at(changed, 0)
            if got is not None:
                taken += 1
                assert got == _full(changed), (at, value)
    assert taken > 0  # the fields the scan does not use (epochs, timestamps, CRC) may be anything


def test_too_short_a_buffer_is_not_a_marker():
    raw = build_control_batch("commit", producer_id=1, producer_epoch=0)
    assert all(marker_at(raw[:n], 0) is None for n in range(len(raw)))
    data = build_batch(values=[b"v"], producer_id=1, producer_epoch=0, is_transactional=True)
    assert marker_at(data, 0) is None


def test_other_control_batches_take_the_full_decode(tmp_path, monkeypatch):
    """A partition of transactions, some markers as brokers write them and some not (a header on the
    record, a longer value): the transactions the scan finds are the ones a scan decoding every batch
    finds, and the markers read at fixed positions are only the brokers' ones; of a producer's transactions
    one after another, each begins at its own first data batch."""
    part = tmp_path / "t-0"
    part.mkdir()
    (tmp_path / "canary").write_text("stays")
    log = b""
    offset = 0

    def data(pid: int, n: int = 2) -> None:
        nonlocal log, offset
        log += build_batch(
            values=[b"x"] * n, base_offset=offset, producer_id=pid, producer_epoch=0, is_transactional=True
        )
        offset += n

    def end(kind: str, pid: int, value: bytes | None = None) -> None:
        nonlocal log, offset
        log += build_control_batch(kind, producer_id=pid, producer_epoch=0, base_offset=offset, value=value)
        offset += 1

    data(1), data(2), end("abort", 1), end("commit", 2)
    data(3), end("abort", 3, value=b"\x00\x00\x00\x00\x00\x04\xff")  # a 7-byte value: decoded whole
    data(4), data(5), end("commit", 4), data(6), end("abort", 5)  # 6 stays open
    # one producer's transactions one after another, several data batches each, ended both ways
    data(7), data(7), end("commit", 7), data(7), data(8), data(7), end("abort", 7)  # 8 stays open
    data(7), end("abort", 7, value=b"\x00\x00\x00\x00\x00\x04\xff"), data(7), end("abort", 7)
    (part / "00000000000000000000.log").write_bytes(log)

    taken: list[TransactionMarker] = []
    real = segment.marker_at

    def counting(buf, pos):
        got = real(buf, pos)
        if got is not None:
            taken.append(got)
        return got

    monkeypatch.setattr(segment, "marker_at", counting)
    with open_log(tmp_path) as logs:
        (p,) = logs.partitions()
        aborted, ongoing = p.transactions()
        seg = p.segments()[0]
        expected = TransactionScan()
        layout._scan(expected, seg.iter_batches(verify=False))
    assert [m.producer_id for m in taken] == [1, 2, 4, 5, 7, 7, 7]
    assert aborted == expected.aborted and ongoing == expected.ongoing
    assert [(t.producer_id, t.first_offset, t.last_offset) for t in aborted] == [
        (1, 0, 4),
        (3, 6, 8),
        (5, 11, 16),
        (7, 22, 28),
        (7, 29, 31),
        (7, 32, 34),
    ]
    assert ongoing == {6: 14, 8: 24}
    assert (tmp_path / "canary").read_text() == "stays"
