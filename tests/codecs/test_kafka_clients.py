"""Against Kafka's own record code: kafka-clients writes and reads, we read and write.

Both directions go through ``java/KafkaClientsRecords.java`` (compiled against kafka-clients 4.3.0,
see ``support/kafka_clients.py``):

- Kafka writes (``MemoryRecordsBuilder``: every codec at magic 2, 1 and 0, CreateTime and
  LogAppendTime, idempotent and transactional batches with commit and abort markers, null keys and
  values, headers with null values and non-ASCII keys) and reads its own file back with
  ``FileRecords``; we read the same file with ``iter_batches``, the ``kafkalog`` Arrow columns and
  ``verify``, and must see what Kafka's reader sees, field for field.
- We write (``build_batch``, the same kinds of batch) and Kafka's ``FileRecords`` reads our file,
  checking every batch (``ensureValid``: CRC, sizes) and must see what we meant to write.
"""

from __future__ import annotations

import random
from pathlib import Path

import pyarrow as pa
import pytest
from support import kafka_clients

import kafkaspec
from kafkaspec.errors import CorruptRecordError
from kafkaspec.logdir import open_log, verify_path

JAVA = Path(__file__).parent / "java" / "KafkaClientsRecords.java"
CODECS = ("none", "gzip", "snappy", "lz4", "zstd")
TIMESTAMP_TYPE_IDS = {"create": 0, "log_append": 1}


def _hex(b: bytes | None) -> str:
    return "-" if b is None else b.hex()


def _line(b, r) -> str:
    """One record as KafkaClientsRecords.java's ``read`` prints it."""
    tstype = -1 if b.magic == 0 else TIMESTAMP_TYPE_IDS[b.timestamp_type]
    head = [
        b.position,
        b.magic,
        b.compression,
        tstype,
        b.producer_id,
        b.producer_epoch,
        b.base_sequence,
        str(b.is_transactional).lower(),
        str(b.is_control).lower(),
        b.partition_leader_epoch,
    ]
    timestamp = -1 if r.timestamp is None else r.timestamp
    headers = "".join(f"{k.encode().hex()}={_hex(v)}," for k, v in r.headers or ())
    return "\t".join(map(str, [*head, r.offset, timestamp, _hex(r.key), _hex(r.value), headers]))


def _kafka_reads(path: Path) -> list[str]:
    return kafka_clients.run(JAVA, "read", str(path)).splitlines()


def _we_read(path: Path) -> list[str]:
    return [_line(b, r) for b in kafkaspec.iter_batches(path.read_bytes()) for r in b]


@pytest.fixture
def workdir(tmp_path: Path):
    (tmp_path / "canary").write_bytes(b"must survive")
    yield tmp_path
    assert (tmp_path / "canary").read_bytes() == b"must survive"


def test_what_kafka_writes_we_read_as_kafka_does(workdir: Path) -> None:
    part = workdir / "t-0"
    part.mkdir()
    segment = part / "00000000000000000000.log"
    kafka_clients.run(JAVA, "write", str(segment))
    expected = _kafka_reads(segment)
    assert len(expected) > 1000
    kinds = {tuple(line.split("\t")[1:4]) for line in expected}
    assert {(str(m), c) for m, c, _ in kinds} >= {("2", c) for c in CODECS} | {("0", "lz4"), ("1", "snappy")}
    assert _we_read(segment) == expected

    # the kafkalog columns (the columnar engine) agree with the per-record reading, every record as Kafka's reader gives it
    table = pa.Table.from_batches(
        list(open_log(part).to_arrow_batches(isolation_level="read_uncommitted", include_control=True))
    )
    assert table.num_rows == len(expected)
    rows = [line.split("\t") for line in expected]
    assert table.column("offset").to_pylist() == [int(r[10]) for r in rows]
    assert table.column("value").to_pylist() == [None if r[13] == "-" else bytes.fromhex(r[13]) for r in rows]
    assert table.column("isControl").to_pylist() == [r[8] == "true" for r in rows]
    # the segment is sound; Kafka's writer API makes no transaction index, which a broker would have
    errors = [(Path(p.path).name, p.message) for p in verify_path(part) if p.severity == "error"]
    assert [(name, message.split(",")[0]) for name, message in errors] == [
        ("00000000000000000000.txnindex", "missing")
    ]


def _our_batches(rnd: random.Random) -> list[bytes]:
    out: list[bytes] = []
    offset = 0

    def add(n: int, **kw) -> None:
        nonlocal offset
        magic = kw.get("magic", 2)
        records = [
            kafkaspec.Record(
                key=None if rnd.random() < 0.2 else rnd.randbytes(rnd.randrange(21)),
                value=None if rnd.random() < 0.2 else rnd.randbytes(rnd.randrange(301)),
                timestamp=None if magic == 0 else 1_700_000_000_000 + rnd.randrange(100_000),
                headers=[]
                if magic < 2
                else [
                    (f"h{j}-é", None if rnd.random() < 0.2 else rnd.randbytes(rnd.randrange(13)))
                    for j in range(rnd.randrange(4))
                ],
            )
            for _ in range(n)
        ]
        out.append(kafkaspec.build_batch(records, base_offset=offset, **kw))
        offset += n

    for codec in CODECS:
        add(40, compression=codec, partition_leader_epoch=7)
        add(40, compression=codec, timestamp_type="log_append", log_append_time=1_700_000_009_999)
        add(30, compression=codec, producer_id=4242, producer_epoch=3, base_sequence=17)
        add(20, compression=codec, producer_id=9001, producer_epoch=2, base_sequence=0, is_transactional=True)
        if codec != "zstd":
            add(25, magic=1, compression=codec)
            add(
                25, magic=1, compression=codec, timestamp_type="log_append", log_append_time=1_700_000_009_999
            )
            add(25, magic=0, compression=codec)
    return out


def test_what_we_write_kafka_reads_as_we_meant(workdir: Path) -> None:
    segment = workdir / "ours.log"
    segment.write_bytes(b"".join(_our_batches(random.Random(5))))
    ours = _we_read(segment)
    assert len(ours) > 900
    assert _kafka_reads(segment) == ours  # ensureValid passed on every batch: Kafka's CRC and size checks


def test_a_flipped_byte_fails_both_readers_alike(workdir: Path) -> None:
    """The differential can fail: one flipped value byte, and Kafka's ensureValid and our CRC check
    both refuse the batch."""
    data = bytearray(kafkaspec.build_batch(values=[b"payload-%d" % i for i in range(10)]))
    data[-3] ^= 0x40
    segment = workdir / "flipped.log"
    segment.write_bytes(bytes(data))
    with pytest.raises(Exception, match="CorruptRecordException|CRC|crc"):
        try:
            _kafka_reads(segment)
        except Exception as exc:  # CalledProcessError: the Java exception is on stderr
            raise Exception(getattr(exc, "stderr", "") or str(exc)) from None
    with pytest.raises(CorruptRecordError, match="CRC"):
        list(kafkaspec.iter_batches(bytes(data)))
