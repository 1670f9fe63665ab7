"""``kafkaspec rewrite``: the copy a broker would load, filters, conversion, and one-line errors with exit codes."""

from __future__ import annotations

import json

import pytest
from test_cli_logdir import run

from kafkaspec import Record
from kafkaspec.logdir import PartitionWriter, synth


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    path = tmp_path_factory.mktemp("rw") / "logs"
    synth(path, size_mb=0.6, seed=5)
    return path


def _dump(path, *flags):
    code, out, err = run("dump", path, "--json", *flags)
    assert code == 0, err
    rows = [json.loads(line) for line in out.splitlines()]
    for r in rows:
        r.pop("file", None)
    return rows


def test_rewrite_then_verify_and_dump_agree(logs, tmp_path):
    code, out, err = run("rewrite", logs, tmp_path / "copy")
    assert code == 0 and err == ""
    assert out.startswith("wrote 13 partitions, ")  # synth: 9 + its 4 typed-value partitions
    code, out, _ = run("verify", tmp_path / "copy")
    assert code == 0 and " 0 errors, 0 warnings" in out
    assert _dump(tmp_path / "copy", "--batches-only") == _dump(logs, "--batches-only")
    assert _dump(tmp_path / "copy", "--read-committed", "--print-data") == _dump(
        logs, "--read-committed", "--print-data"
    )


def test_drop_key_where_and_topics(logs, tmp_path):
    before = [r for r in _dump(logs, "--read-committed", "--print-data") if r["type"] == "record"]
    key = next(r["key"] for r in before if r["key"] and r["key"].startswith("acc-"))
    code, out, err = run(
        "rewrite",
        logs,
        tmp_path / "out",
        "--drop-key",
        key,
        "--topics",
        "payments,clicks",
        "--where",
        "topic != 'clicks' or offset % 2 == 0",
    )
    assert code == 0, err
    assert "dropped " in out and "not selected: 9 partitions" in out and out.startswith("wrote 4 partitions")
    after = [r for r in _dump(tmp_path / "out", "--read-committed", "--print-data") if r["type"] == "record"]
    payments = [r for r in before if r["key"] != key and r["key"] and r["key"].startswith("acc-")]
    clicks = [r for r in before if r["key"] is None and r["offset"] % 2 == 0]
    assert sorted(map(json.dumps, after)) == sorted(map(json.dumps, payments + clicks))


def test_to_magic_reports_what_it_drops(logs, tmp_path):
    code, out, err = run(
        "rewrite", logs, tmp_path / "m1", "--to-magic", "1", "--compression", "lz4", "--topics", "payments"
    )
    assert code == 0, err
    assert "conversion to magic 1 dropped: " in out and " control batches" in out
    assert "batches of aborted or open transactions are plain records in magic 1" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--where", "key =="], "kafkaspec rewrite: --where: invalid syntax at column"),
        (["--where", "nope"], "kafkaspec rewrite: --where failed on _schemas-0 offset 0: NameError"),
        (["--to-magic", "1"], "the batch is zstd-compressed, which magic 1 cannot hold"),
    ],
)
def test_usage_errors_exit_2_in_one_line(logs, tmp_path, args, message):
    code, out, err = run("rewrite", logs, tmp_path / "bad", *args)
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "bad").exists()


def test_destination_not_empty(logs, tmp_path):
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "f").write_text("")
    code, _, err = run("rewrite", logs, tmp_path / "x")
    assert code == 2 and "exists and is not an empty directory" in err


def test_broken_invariant_exits_1_naming_the_batch(tmp_path):
    src = tmp_path / "src"
    with PartitionWriter(src, "t", 0) as w:  # a commit marker the writer would refuse, forged in place
        w.append(
            [Record(key=b"k", value=b"v", timestamp=1)], producer_id=3, producer_epoch=0, base_sequence=0
        )
        w.append(
            [Record(key=b"k", value=b"v", timestamp=1)], producer_id=3, producer_epoch=0, base_sequence=5
        )
    log = src / "t-0" / "00000000000000000000.log"
    data = bytearray(log.read_bytes())
    second = len(data) // 2
    import struct

    from kafkaspec.codec.crc import crc32c

    struct.pack_into(">i", data, second + 53, 0)  # base sequence 0 again: overlaps the first batch's range
    struct.pack_into(">I", data, second + 17, crc32c(bytes(data[second + 21 :])))
    log.write_bytes(bytes(data))
    code, out, err = run("rewrite", src, tmp_path / "dst")
    assert code == 1 and out == ""
    assert f"{log} at byte {second}: producer 3 (epoch 0) base sequence 0 does not follow" in err
    assert not (tmp_path / "dst").exists()


def test_missing_source_exits_2_and_leaves_nothing(tmp_path):
    code, out, err = run("rewrite", tmp_path / "nope", tmp_path / "dst")
    assert (
        code == 2
        and out == ""
        and err.strip() == f"kafkaspec rewrite: {tmp_path / 'nope'}: no such file or directory"
    )
    assert not (tmp_path / "dst").exists()
