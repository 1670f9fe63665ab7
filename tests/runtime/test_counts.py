"""Hostile counts and Kafka's own rules (issue 12, items 2, 3 and 10).

Every count is checked against the bytes it can occupy inside its enclosing
length (a record's headers inside the record, a batch's records inside the
batch or its decompressed region) before anything is allocated; a negative
records_count is refused when the batch head is checked; and the readers
agree with Kafka's Java code (DefaultRecordBatch, AbstractLegacyRecordBatch,
the log cleaner) on empty control batches, empty legacy wrappers and
LogAppendTime around magic-0 inner messages.

The inputs are made here by generators of hostile bytes. ``KAFKASPEC_ADVERSARIAL_SCALE``
(default 1) multiplies the sizes for long runs.
"""

from __future__ import annotations

import gzip
import os
import struct
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from support.timing import GROWTH, assert_linear

import kafkaspec
from kafkaspec import KafkaFormatError, Record, iter_batches
from kafkaspec.codec.crc import crc32c
from kafkaspec.codec.varint import encode_varint
from kafkaspec.generated import message_v0, message_v1
from kafkaspec.generated import record_batch_v2 as v2
from kafkaspec.generated.record_v2 import RecordColumns

pytestmark = pytest.mark.hostile

SCALE = float(os.environ.get("KAFKASPEC_ADVERSARIAL_SCALE", "1"))
MiB = 1 << 20
#: bytes of zeros after the hostile record: what a header count could reach before the fix
ZEROS = int(8 * MiB * SCALE)
#: the same through the CLI: verify also resyncs byte by byte over the zeros (recovery's cost, not the count's)
CLI_ZEROS = int(2 * MiB * SCALE)
REPO = Path(__file__).resolve().parents[2]

_HEAD = struct.Struct(">hiqqqhii")  # attributes .. records_count: what the CRC covers, before the records


# -- generators of hostile bytes ------------------------------------------------


def raw_v2_batch(
    region: bytes,
    count: int,
    *,
    attributes: int = 0,
    base_offset: int = 0,
    last_offset_delta: int = 0,
    timestamp: int = 1_700_000_000_000,
    producer_id: int = -1,
    producer_epoch: int = -1,
) -> bytes:
    """A CRC-valid RecordBatch v2 whose records region and records_count are whatever the caller says."""
    body = (
        _HEAD.pack(
            attributes, last_offset_delta, timestamp, timestamp, producer_id, producer_epoch, -1, count
        )
        + region
    )
    tail = struct.pack(">ibI", -1, 2, crc32c(body)) + body
    return struct.pack(">qi", base_offset, len(tail)) + tail


def record_claiming_headers(n: int) -> bytes:
    """A record whose length covers its fields up to a header count of ``n``, and no header bytes."""
    body = b"\x00\x00\x00\x01\x01" + encode_varint(
        n
    )  # attributes, ts delta, offset delta, null key, null value
    return encode_varint(len(body)) + body


def header_bomb(zeros: int, *, codec: str) -> bytes:
    """One batch of one record announcing ``zeros // 2`` headers; ``zeros`` zero bytes follow the record
    (after the batch when uncompressed, as in a preallocated segment; inside the gzip region otherwise)."""
    record = record_claiming_headers(zeros // 2)
    if codec == "none":
        return raw_v2_batch(record, 1) + bytes(zeros)
    return raw_v2_batch(gzip.compress(record + bytes(zeros), 9), 1, attributes=1)


def negative_count_batch(count: int = -1) -> bytes:
    """A CRC-valid batch with one good record and a negative records_count."""
    good = kafkaspec.build_batch([Record(key=b"k", value=b"v", timestamp=1)])
    region = good[v2.RECORDS_OFFSET :]
    return raw_v2_batch(region, count)


def empty_control_batch(producer_id: int = 7, base_offset: int = 0) -> bytes:
    """What Kafka's log cleaner leaves when it removes a producer's last transaction marker."""
    attributes = v2.IS_CONTROL_MASK | v2.IS_TRANSACTIONAL_MASK
    return raw_v2_batch(
        b"", 0, attributes=attributes, base_offset=base_offset, producer_id=producer_id, producer_epoch=0
    )


def legacy_wrapper(
    inner: bytes, *, magic: int, codec: int = 1, log_append_time: int | None = None, offset: int = 9
) -> bytes:
    """A compressed Message v0/v1 wrapper around the message set ``inner`` (gzip by default)."""
    value = {1: lambda b: gzip.compress(b), 4: _zstd}[codec](inner)
    module = message_v1 if magic == 1 else message_v0
    attributes = codec | (8 if log_append_time is not None else 0)
    extra = {"timestamp": -1 if log_append_time is None else log_append_time} if magic == 1 else {}
    return module.encode_message(offset=offset, attributes=attributes, key=None, value=value, **extra)


def _zstd(data: bytes) -> bytes:
    from kafkaspec.codec.compression import compress

    return compress(4, data, magic=2)


# -- measuring --------------------------------------------------------------------


def run_limited(script: str, budget: int, timeout: float = 120) -> dict:
    """Run ``script`` in a fresh interpreter whose address space may grow by ``budget`` bytes once
    the script's ``setup()`` has run; return what it reports (outcome, peak RSS in KiB, seconds)."""
    program = textwrap.dedent(script) + textwrap.dedent(f"""
        import resource, time, traceback
        data = setup()
        vm = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmSize:")) * 1024
        resource.setrlimit(resource.RLIMIT_AS, (vm + {budget}, vm + {budget}))
        t = time.perf_counter()
        try:
            outcome = attack(data)
        except MemoryError:
            outcome = "MemoryError"
        except Exception as exc:
            outcome = type(exc).__name__ + ": " + str(exc)[:300]
        print(repr({{"outcome": outcome, "seconds": time.perf_counter() - t,
                     "maxrss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}}))
    """)
    proc = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=timeout, cwd=REPO
    )
    assert proc.returncode == 0, proc.stderr
    return eval(proc.stdout.strip().splitlines()[-1])  # our own repr of a dict


_BOMB = f"""
    import sys
    sys.path[:0] = [{str(Path(__file__).parent)!r}, {str(Path(__file__).parents[1])!r}]  # test_counts, support
    from test_counts import header_bomb
"""


# -- item 2: a count is bounded by its enclosing length -----------------------------


@pytest.mark.parametrize("codec", ["none", "gzip"])
def test_header_count_bounded_by_the_record(codec):
    data = header_bomb(1 << 16, codec=codec)
    batch = next(iter_batches(data))
    with pytest.raises(KafkaFormatError, match="Headers cannot fit") as info:
        batch.records  # noqa: B018
    assert info.value.position is not None


@pytest.mark.parametrize("codec", ["none", "gzip"])
def test_header_count_bounded_in_columns_too(codec):
    data = header_bomb(1 << 16, codec=codec)
    head = v2.decode_record_batch_head(data, 0)
    end = v2.check_record_batch(data, 0, head)
    columns = RecordColumns()
    with pytest.raises(KafkaFormatError, match="Headers cannot fit"):
        v2.decode_record_batch_columns(data, 0, head, end, columns)


@pytest.mark.parametrize("codec", ["none", "gzip"])
def test_header_bomb_memory(codec):
    """Before: 8 MiB of zeros (gzip: 8 KiB of input) made ~4M Header tuples, ~320 MB; now refused at once."""
    script = (
        _BOMB
        + f"""
    def setup():
        return header_bomb({ZEROS}, codec={codec!r})
    def attack(data):
        from kafkaspec import iter_batches
        batch = next(iter_batches(data))
        batch.records
        return "read"
    """
    )
    report = run_limited(script, budget=64 * MiB + 2 * ZEROS)
    assert report["outcome"].startswith("InvalidLengthError") and "Headers cannot fit" in report["outcome"], (
        report
    )


def test_header_bomb_time_is_flat():
    """4x the zeros must not take 8x the time (before: linear in the zeros, with ~40x their size in objects)."""

    def attack(zeros):
        data = header_bomb(zeros, codec="none")

        def run() -> None:
            with pytest.raises(KafkaFormatError):
                next(iter_batches(data)).records  # noqa: B018

        return run

    assert_linear(attack(ZEROS // 8), attack(ZEROS // 2), slack=0.002, what="a header bomb")


def test_record_length_bounded_by_the_batch():
    """A record whose length runs past the batch end is refused there, not read from the next bytes."""
    record = record_claiming_headers(0)
    long_record = encode_varint(len(record) + 10) + record[1:]
    data = raw_v2_batch(long_record, 1) + bytes(64)
    with pytest.raises(KafkaFormatError, match="runs past"):
        next(iter_batches(data)).records  # noqa: B018


def test_records_count_bounded_by_the_region():
    """records_count above what the batch's bytes can hold is refused before decoding (uncompressed: the batch
    end, not the buffer end; compressed: the decompressed region)."""
    region = kafkaspec.build_batch([Record(value=b"v", timestamp=1)])[v2.RECORDS_OFFSET :]
    data = raw_v2_batch(region, 1000) + bytes(1 << 16)
    with pytest.raises(KafkaFormatError, match="Records cannot fit"):
        next(iter_batches(data)).records  # noqa: B018
    data = raw_v2_batch(gzip.compress(region), 1000, attributes=1)
    with pytest.raises(KafkaFormatError, match="Records cannot fit"):
        next(iter_batches(data)).records  # noqa: B018


def test_cli_dump_and_verify_on_a_preallocated_segment(tmp_path):
    """A batch with a header bomb followed by zeros (a preallocated segment): before, ~1.25 GB for 32 MiB of
    zeros; now dump and verify report it within a small budget, exit 1, no traceback."""
    zeros = CLI_ZEROS
    log = tmp_path / "t-0" / "00000000000000000000.log"
    log.parent.mkdir()
    log.write_bytes(header_bomb(zeros, codec="none"))
    for command in (["dump", str(log.parent)], ["verify", str(tmp_path)]):
        script = f"""
        def setup():
            import kafkaspec.cli, kafkaspec.commands.dump, kafkaspec.commands.verify  # imported before the limit
            return {command!r}
        def attack(argv):
            import io, contextlib
            from kafkaspec.cli import main
            err = io.StringIO()
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
                code = main(argv)
            return (code, err.getvalue())
        """
        report = run_limited(script, budget=16 * MiB + 2 * zeros)
        assert isinstance(report["outcome"], tuple), report
        code, err = report["outcome"]
        assert code == 1 and "Traceback" not in err, report


# -- item 3: a negative records_count ------------------------------------------------------


def test_negative_records_count_refused_at_the_head():
    data = negative_count_batch(-1)
    with pytest.raises(KafkaFormatError, match="records_count") as info:
        next(iter_batches(data))
    assert info.value.position == v2.RECORDS_COUNT_OFFSET
    head = v2.decode_record_batch_head(data)
    with pytest.raises(KafkaFormatError, match="records_count -1 is negative"):
        v2.check_record_batch(data, 0, head, verify=False)


def test_negative_records_count_skipped_in_recovery():
    data = negative_count_batch(-5) + kafkaspec.build_batch([Record(value=b"ok", timestamp=1)], base_offset=3)
    it = iter_batches(data, on_corrupt="skip")
    batches = list(it)
    assert [len(b) for b in batches] == [1] and batches[0].base_offset == 3
    assert "records_count" in it.skipped[0].reason


def test_negative_records_count_cli(tmp_path):
    from kafkaspec.cli import main

    log = tmp_path / "t-0" / "00000000000000000000.log"
    log.parent.mkdir()
    log.write_bytes(negative_count_batch(-1))
    for argv in (["dump", str(log.parent)], ["verify", str(tmp_path)]):
        proc = subprocess.run(
            [sys.executable, "-m", "kafkaspec.cli", *argv],
            capture_output=True,
            text=True,
            cwd=REPO,
            timeout=60,
        )
        assert proc.returncode == 1 and "Traceback" not in proc.stderr, (argv, proc.stderr)
        assert "records_count" in proc.stdout + proc.stderr
    assert main  # imported: the CLI entry point exists


# -- item 10: agreement with Kafka's Java code -----------------------------------------------


def test_empty_control_batch_is_legal():
    """Kafka's log cleaner leaves a control batch with no records; Kafka reads it as a batch of none."""
    data = empty_control_batch()
    (batch,) = list(iter_batches(data))
    assert batch.is_control and len(batch) == 0 and batch.records == [] and batch.control is None
    it = iter_batches(data, on_corrupt="skip")
    assert len(list(it)) == 1 and not it.skipped


def test_cleaned_log_reads_committed_and_verifies(tmp_path):
    """A cleaned log: a committed transaction whose marker the cleaner removed, leaving an empty control
    batch, then more data; read_committed, transactions() and verify all work."""
    from kafkaspec.logdir import PartitionWriter, open_log, verify

    with PartitionWriter(tmp_path, "t", 0) as w:
        w.append([Record(value=b"a", timestamp=1)])
        w.append_batch(empty_control_batch(producer_id=7, base_offset=1))
        w.append(
            [Record(value=b"t", timestamp=2)],
            producer_id=8,
            producer_epoch=0,
            base_sequence=0,
            is_transactional=True,
        )
        w.append_control("abort", producer_id=8, producer_epoch=0, timestamp=3)
        w.append([Record(value=b"b", timestamp=4)])
    part = open_log(tmp_path).partitions()[0]
    assert [r.value for _, r in part.records(read_committed=True)] == [b"a", b"b"]
    aborted, _ = part.transactions()
    assert [(t.producer_id, t.first_offset, t.last_offset) for t in aborted] == [(8, 2, 3)]
    assert [p for p in verify(tmp_path) if p.severity == "error"] == []


@pytest.mark.parametrize("magic", [0, 1])
def test_empty_compressed_legacy_wrapper_is_invalid(magic):
    """Kafka: "Found invalid compressed record set with no inner records"."""
    data = legacy_wrapper(b"", magic=magic)
    batch = next(iter_batches(data))
    with pytest.raises(KafkaFormatError, match="no inner messages"):
        batch.records  # noqa: B018
    it = iter_batches(
        data + kafkaspec.build_batch([Record(value=b"ok", timestamp=1)], magic=magic), on_corrupt="skip"
    )
    assert [r.value for b in it for r in b] == [b"ok"] and "no inner messages" in it.skipped[0].reason


def test_log_append_time_wrapper_around_magic_0_inner():
    """Only magic-1 inner messages take a LogAppendTime wrapper's timestamp; magic-0 ones have none (-1)."""
    inner0 = b"".join(
        message_v0.encode_message(offset=i, attributes=0, key=None, value=b"v%d" % i) for i in range(2)
    )
    inner1 = message_v1.encode_message(offset=2, attributes=0, key=None, value=b"w", timestamp=5)
    data = legacy_wrapper(inner0 + inner1, magic=1, log_append_time=1_700_000_000_000, offset=2)
    records = next(iter_batches(data)).records
    assert [r.timestamp for r in records] == [-1, -1, 1_700_000_000_000]
    assert [r.value for r in records] == [b"v0", b"v1", b"w"]


def test_zstd_legacy_wrapper_still_reads():
    """Kafka refuses zstd in a Message v0/v1 wrapper; a Go client (sarama) writes it, so we read it (beyond the spec)."""
    inner = b"".join(
        message_v1.encode_message(offset=i, attributes=0, key=None, value=b"z", timestamp=i) for i in range(3)
    )
    records = next(iter_batches(legacy_wrapper(inner, magic=1, codec=4, offset=12))).records
    assert [(r.offset, r.timestamp) for r in records] == [(10, 0), (11, 1), (12, 2)]


def test_log_append_time_v2_records():
    """Under LogAppendTime every record reads the batch's max_timestamp (the broker's append time)."""
    data = kafkaspec.build_batch(
        [Record(value=b"%d" % i, timestamp=i) for i in range(20)],
        timestamp_type="log_append",
        log_append_time=123,
    )
    records = next(iter_batches(data)).records
    assert {r.timestamp for r in records} == {123} and [r.offset for r in records] == list(range(20))
    assert all(type(r) is Record for r in records)


# -- a byte string's length inside its enclosing length -----------------------------------------


def key_bomb() -> bytes:
    """A CRC-valid batch whose one record announces a 1 GiB key inside a 9-byte record."""
    body = b"\x00\x00\x00" + encode_varint(1 << 30) + b"\x01\x00"
    return raw_v2_batch(encode_varint(len(body)) + body, 1)


def test_huge_key_length_refused_before_slicing():
    data = key_bomb() + kafkaspec.build_batch([Record(value=bytes(1 << 16), timestamp=1)], base_offset=5)
    with pytest.raises(KafkaFormatError, match="key length 1073741824 runs past byte"):
        next(iter_batches(data)).records  # noqa: B018
    head = v2.decode_record_batch_head(data, 0)
    with pytest.raises(KafkaFormatError, match="key length 1073741824 runs past byte"):
        v2.decode_record_batch_columns(data, 0, head, v2.check_record_batch(data, 0, head), RecordColumns())


def test_huge_key_lengths_in_recovery_are_linear():
    """k such batches before an s-byte batch: each used to copy the rest of the buffer (k * s bytes); 4x both
    must take under 8x the time (before: ~16x)."""

    def attack(k, s):
        buf = key_bomb() * k + kafkaspec.build_batch([Record(value=bytes(s), timestamp=1)], base_offset=5)

        def run() -> None:
            it = iter_batches(buf, on_corrupt="skip")
            assert len(list(it)) == 1 and len(it.skipped) == k

        return run

    k, s = int(100 * SCALE), int(4 * MiB * SCALE)
    assert_linear(attack(k, s), attack(GROWTH * k, GROWTH * s), slack=0.005, what="huge key lengths")


@pytest.mark.parametrize("magic", [0, 1])
def test_legacy_value_length_bounded_by_the_message(magic):
    """A Message v0/v1 whose value length runs past its message_size is refused before slicing."""
    good = kafkaspec.build_batch([Record(value=b"v", timestamp=1)], magic=magic)
    module = message_v1 if magic == 1 else message_v0
    bad = bytearray(good)
    value_len_at = len(good) - 1 - 4
    bad[value_len_at : value_len_at + 4] = struct.pack(">i", 1 << 30)
    bad[module.CRC_OFFSET : module.CRC_OFFSET + 4] = struct.pack(
        ">I", __import__("zlib").crc32(bytes(bad[module.CRC_OFFSET + 4 :]))
    )
    with pytest.raises(KafkaFormatError, match="value length 1073741824 runs past byte"):
        list(iter_batches(bytes(bad) + bytes(1 << 16)))
