"""``.txnindex`` entries carry a version, described from Kafka 4.4 on by ``AbortedTxn.json``
(``validVersions: "0"``), which Kafka's TransactionIndex checks on every entry it reads ("Unexpected
aborted transaction version ... supported version range is 0 to 0"). Any other version, negative
ones too, is an error naming the file, the entry and its byte, in verify, dump and the segment API."""

from __future__ import annotations

import io
from contextlib import redirect_stderr, redirect_stdout

import pytest

from kafkaspec import Record
from kafkaspec.cli import main
from kafkaspec.errors import KafkaFormatError
from kafkaspec.logdir import AbortedTxn, PartitionWriter, open_log, verify
from kafkaspec.logdir.kafka import indexes

pytestmark = pytest.mark.hostile


def _partition(tmp_path, version: int):
    root = tmp_path / "logs"
    with PartitionWriter(root, "orders", 0) as w:
        w.append([Record(key=b"k", value=b"v", timestamp=5)])
    part = root / "orders-0"
    data = bytearray(indexes.encode_txn_index([AbortedTxn(7, 0, 0, 0), AbortedTxn(8, 0, 0, 0)]))
    data[indexes.TXN_ENTRY_SIZE : indexes.TXN_ENTRY_SIZE + 2] = version.to_bytes(2, "big", signed=True)
    txn = part / "00000000000000000000.txnindex"
    txn.write_bytes(bytes(data))
    (root / "canary").write_text("stays")
    return root, txn


@pytest.mark.parametrize("version", [1, -1])
def test_a_txnindex_entry_of_another_version_is_named(tmp_path, version):
    root, txn = _partition(tmp_path, version)
    problems = [p for p in verify(root) if p.path == str(txn)]
    assert len(problems) == 1
    (p,) = problems
    assert p.position == indexes.TXN_ENTRY_SIZE  # the byte of the entry
    assert f"entry 1: aborted transaction version {version}" in p.message
    assert "Kafka's TransactionIndex reads version 0 only" in p.message

    (seg,) = open_log(root).partition("orders", 0).segments()
    with pytest.raises(KafkaFormatError) as info:
        seg.aborted_transactions()
    assert info.value.source == str(txn) and info.value.position == indexes.TXN_ENTRY_SIZE

    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = main(["dump", str(txn)])
        except SystemExit as exc:
            code = exc.code
    assert code == 1
    (line,) = err.getvalue().splitlines()
    assert str(txn) in line and f"entry 1: aborted transaction version {version}" in line
    assert "Traceback" not in err.getvalue()
    assert (root / "canary").read_text() == "stays"


def test_version_zero_entries_read(tmp_path):
    root, txn = _partition(tmp_path, 0)
    (seg,) = open_log(root).partition("orders", 0).segments()
    assert [t.producer_id for t in seg.aborted_transactions()] == [7, 8]
