"""``kafkaspec dump | verify | synth`` through kafkaspec.cli.main: output and exit codes."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout

import pytest
from support.logdir import write_partition

from kafkaspec.cli import main


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = main([str(a) for a in argv])
        except SystemExit as exc:  # argparse usage errors and --help
            code = exc.code
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def logs(tmp_path):
    write_partition(tmp_path / "logs", batches=30)
    return tmp_path / "logs"


def test_dump_text(logs):
    code, out, _ = run("dump", logs / "t-0")
    assert code == 0
    assert (
        out.startswith("Dumping ") and "baseOffset: 0 lastOffset:" in out and "| offset: 0 CreateTime:" in out
    )
    assert "compresscodec: zstd" in out and "payload" not in out
    code, out, _ = run("dump", logs / "t-0", "--print-data", "--start-offset", 5, "--end-offset", 7)
    offsets = [line.split()[2] for line in out.splitlines() if line.startswith("| offset")]
    assert offsets == ["5", "6"] and "payload:" in out


def test_dump_json(logs):
    code, out, _ = run("dump", logs, "--json", "--print-data")
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    records = [r for r in rows if r["type"] == "record"]
    assert [r["offset"] for r in records] == list(range(len(records)))
    assert all(r["file"].endswith(".log") for r in rows if r["type"] == "batch")
    assert any(r.get("value_base64") for r in records)


def test_dump_timestamp_selection(logs):
    _, out, _ = run("dump", logs, "--json")
    records = [json.loads(line) for line in out.splitlines() if '"record"' in line]
    t = records[40]["timestamp"]
    want = next(r["offset"] for r in records if r["timestamp"] >= t)
    _, out, _ = run("dump", logs, "--json", "--start-timestamp", t)
    got = [json.loads(line) for line in out.splitlines() if '"record"' in line]
    assert got[0]["offset"] == want


def test_dump_read_committed(tmp_path):
    from kafkaspec import Record
    from kafkaspec.logdir import PartitionWriter

    with PartitionWriter(tmp_path, "p", 0) as w:
        w.append(
            [Record(value=b"a", timestamp=1)],
            producer_id=1,
            producer_epoch=0,
            base_sequence=0,
            is_transactional=True,
        )
        w.append_control("abort", producer_id=1, producer_epoch=0)
        w.append([Record(value=b"b", timestamp=2)])
    _, out, _ = run("dump", tmp_path, "--json")
    assert [json.loads(x).get("control_type") for x in out.splitlines() if '"record"' in x] == [
        None,
        "abort",
        None,
    ]
    _, out, _ = run("dump", tmp_path, "--json", "--read-committed")
    assert [json.loads(x)["offset"] for x in out.splitlines() if '"record"' in x] == [2]
    _, out, _ = run("dump", tmp_path)
    assert "endTxnMarker: ABORT coordinatorEpoch: 0" in out


def test_dump_read_committed_stops_at_the_last_stable_offset_and_says_so(tmp_path):
    """An open transaction holds back every offset from its first, whoever wrote them (Kafka's last
    stable offset): dump --read-committed prints none of them and says on stderr how many and why."""
    from kafkaspec import Record
    from kafkaspec.logdir import PartitionWriter

    with PartitionWriter(tmp_path / "logs", "p", 0) as w:
        w.append([Record(value=b"before", timestamp=1)])
        w.append(
            [Record(value=b"open", timestamp=2)],
            producer_id=1,
            producer_epoch=0,
            base_sequence=0,
            is_transactional=True,
        )
        w.append([Record(value=b"after", timestamp=3)])
    (tmp_path / "canary").write_text("keep")
    code, out, err = run("dump", tmp_path / "logs", "--json", "--read-committed")
    assert code == 0
    assert [json.loads(x)["offset"] for x in out.splitlines() if '"record"' in x] == [0]
    assert "p-0" in err and "offsets 1 to 2 held back" in err and "producer 1" in err
    _, out, err = run("dump", tmp_path / "logs", "--json")
    assert [json.loads(x)["offset"] for x in out.splitlines() if '"record"' in x] == [0, 1, 2]
    assert "held back" not in err
    assert (tmp_path / "canary").read_text() == "keep"


def test_dump_index_files(logs):
    code, out, _ = run("dump", logs / "t-0" / "00000000000000000000.index", "--json")
    assert code == 0 and json.loads(out.splitlines()[0])["position"] >= 0


def test_verify_exit_codes(logs):
    code, out, _ = run("verify", logs)
    assert code == 0 and "0 errors" in out
    index = logs / "t-0" / "00000000000000000000.index"
    index.write_bytes(index.read_bytes()[:-3])
    code, out, _ = run("verify", logs)
    assert code == 1 and f"{index} at byte" in out
    code, out, _ = run("verify", logs, "--json")
    assert code == 1 and json.loads(out.splitlines()[0])["path"] == str(index)


def test_dump_corrupt_names_file_and_position(logs):
    seg = logs / "t-0" / "00000000000000000000.log"
    data = bytearray(seg.read_bytes())
    data[100] ^= 0xFF
    seg.write_bytes(bytes(data))
    code, _, err = run("dump", logs)
    assert code == 1 and str(seg) in err and "at byte" in err


def test_usage_and_input_errors(tmp_path, logs):
    assert run("dump", tmp_path / "missing")[0] == 2
    assert run("verify", tmp_path / "missing")[0] == 2
    assert run("dump", logs, "--start-offset", "x")[0] == 2
    assert run("synth", logs, "--size-mb", "1")[0] == 2  # exists, no --force
    (tmp_path / "notes.txt").write_text("x")
    assert run("dump", tmp_path / "notes.txt")[0] == 2


def test_synth_command(tmp_path):
    code, out, err = run("synth", tmp_path / "s", "--size-mb", "1", "--seed", "3")
    assert code == 0 and "wrote" in out and err == ""  # no progress bar when stderr is not a terminal
    code, out, _ = run("synth", tmp_path / "s", "--size-mb", "1", "--seed", "3", "--force")
    assert code == 0
    assert run("verify", tmp_path / "s")[0] == 0


def test_help_shows_examples():
    for cmd in ("dump", "verify", "synth"):
        code, out, _ = run(cmd, "--help")
        assert code == 0 and "examples:" in out and "exit codes" in out


def test_dump_skip_corrupt(logs):
    seg = logs / "t-0" / "00000000000000000000.log"
    _, before, _ = run("dump", logs, "--json")
    data = bytearray(seg.read_bytes())
    data[100] ^= 0xFF
    seg.write_bytes(bytes(data))
    code, out, err = run("dump", logs, "--json", "--skip-corrupt")
    assert code == 1 and "skipped" in err and str(seg) in err
    assert 0 < len(out.splitlines()) < len(before.splitlines())
