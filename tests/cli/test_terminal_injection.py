"""Terminal injection through ``dump``, ``inspect`` and ``verify`` text output (issue 30 item 11).

Keys, values, header keys and values, topic names, hosts, racks, group names and paths come from the
data (or from whoever named the directories). Printed raw, an escape sequence in them retitles or
clears the terminal, a bidi override reorders what the reader sees, and a newline forges a line
(``| offset: 999``). Every text line now goes through one helper (``kafkaspec.printable``): a
character that is not printable (C0, DEL, C1, bidi and other format characters, line and paragraph
separators, unassigned code points) is written as a backslash escape, and a backslash itself as
``\\\\``, so the escaped text is unambiguous. JSON output escapes the same characters as ``\\uXXXX``
(still the same strings once parsed).
"""

from __future__ import annotations

import io
import json
import struct
import uuid
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from kafkaspec import Record
from kafkaspec.cli import main
from kafkaspec.generated.messages import (
    offset_commit_key,
    offset_commit_value,
    register_broker_record,
    topic_record,
)
from kafkaspec.logdir import PartitionWriter

pytestmark = pytest.mark.hostile

EVIL = "\x1b]0;pwned\x07\x1b[2J\n| offset: 999\r\u202egnp.exe\x9b31m\x7f\u2028"
#: what EVIL prints as: every character visible, one line
EVIL_SHOWN = r"\x1b]0;pwned\x07\x1b[2J\n| offset: 999\r\u202egnp.exe\u009b31m\x7f\u2028"


def _cli(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main([*map(str, argv)])
    return code, out.getvalue(), err.getvalue()


def _safe(text: str) -> None:
    """Every line of ``text`` is printable: no control, format or separator character at all."""
    for line in text.splitlines():
        assert line.isprintable(), repr(line)


def test_the_helper_is_unambiguous():
    from kafkaspec.printable import escape, escape_bytes

    assert escape(EVIL) == EVIL_SHOWN
    assert escape("plain text, é, 日本") == "plain text, é, 日本"
    assert escape("a\\x1b") == "a\\\\x1b" != escape("a\x1b")  # a backslash in the data is doubled
    assert escape_bytes(b"\xff\xfe") == r"\xff\xfe" != escape_bytes(b"\\xff\\xfe")
    assert escape_bytes("\x80".encode()) == r"\u0080" != escape_bytes(b"\x80")  # C1 character vs raw byte
    assert escape_bytes(EVIL.encode()) == EVIL_SHOWN


def test_dump_escapes_keys_values_headers_and_paths(tmp_path):
    root = tmp_path / "x\x1b[2Jy" / "logs"
    with PartitionWriter(root, "t", 0) as w:
        w.append(
            [
                Record(
                    key=EVIL.encode(),
                    value=EVIL.encode() + b"\xff",
                    timestamp=1,
                    headers=[(EVIL, EVIL.encode())],
                )
            ]
        )
    (tmp_path / "canary").write_text("stays")
    code, out, err = _cli("dump", root, "--print-data")
    assert code == 0, err
    _safe(out)
    lines = out.splitlines()
    assert len(lines) == 4 and not any(line.startswith("| offset: 999") for line in lines)
    assert lines[0] == f"Dumping {tmp_path}/x\\x1b[2Jy/logs/t-0/00000000000000000000.log"
    assert f"headerKeys: [{EVIL_SHOWN}] key: {EVIL_SHOWN} payload: {EVIL_SHOWN}\\xff" in lines[3]
    assert lines[3].endswith(f"headers: [{EVIL_SHOWN}: {EVIL_SHOWN}]")
    code, out, err = _cli("dump", root, "--print-data", "--json")
    assert code == 0
    _safe(out)
    record = json.loads(out.splitlines()[1])
    assert record["key"] == EVIL and record["header_keys"] == [EVIL]  # JSON escapes lose nothing
    assert (tmp_path / "canary").read_text() == "stays"


def test_dump_and_verify_errors_escape_the_path(tmp_path):
    root = tmp_path / "d\x1b]0;t\x07" / "logs"
    with PartitionWriter(root, "t", 0) as w:
        w.append([Record(value=b"v", timestamp=1)])
    seg = root / "t-0" / "00000000000000000000.log"
    data = bytearray(seg.read_bytes())
    data[-1] ^= 1  # a CRC mismatch
    seg.write_bytes(bytes(data))
    code, out, err = _cli("dump", root)
    assert code == 1 and r"\x1b]0;t\x07" in err
    _safe(out)
    _safe(err)
    code, out, err = _cli("verify", root)
    assert code == 1 and r"\x1b]0;t\x07" in out
    _safe(out)
    code, out, err = _cli("verify", root, "--json")
    _safe(out)
    assert json.loads(out.splitlines()[0])["path"].startswith(f"{tmp_path}/d\x1b]0;t\x07")


def _frame(module, value, version: int = 0) -> bytes:
    encode = getattr(module, f"encode_{module.__name__.rsplit('.', 1)[1]}")
    return bytes([1, module.TYPE_IDS[0], version]) + encode(value, version)


def test_inspect_metadata_escapes_topic_host_and_rack(tmp_path):
    broker = register_broker_record.RegisterBrokerRecord(
        broker_id=1,
        broker_epoch=5,
        rack=EVIL,
        fenced=False,
        end_points=[register_broker_record.BrokerEndpoint(name="PLAIN\nTEXT", host=EVIL, port=9092)],
    )
    with PartitionWriter(tmp_path / "logs", "__cluster_metadata", 0) as w:
        w.append([Record(value=_frame(register_broker_record, broker, 1), timestamp=1)])
        w.append(
            [
                Record(
                    value=_frame(topic_record, topic_record.TopicRecord(EVIL, uuid.UUID(int=1))), timestamp=2
                )
            ]
        )
    code, out, err = _cli("inspect", "metadata", tmp_path / "logs")
    assert code == 0, err
    _safe(out)
    assert f"PLAIN\\nTEXT://{EVIL_SHOWN}:9092  rack {EVIL_SHOWN}  active" in out
    assert f"\n  {EVIL_SHOWN}  id AAAAAAAAAAAAAAAAAAAAAQ  partitions 0" in out
    code, out, err = _cli("inspect", "metadata", tmp_path / "logs", "--json")
    _safe(out)
    assert json.loads(out)["topics"][0]["name"] == EVIL


def test_inspect_offsets_escapes_group_topic_and_metadata(tmp_path):
    key = struct.pack(">h", 1) + offset_commit_key.encode_offset_commit_key(
        offset_commit_key.OffsetCommitKey(EVIL, EVIL, 0), 1
    )
    value = struct.pack(">h", 3) + offset_commit_value.encode_offset_commit_value(
        offset_commit_value.OffsetCommitValue(offset=7, leader_epoch=1, metadata=EVIL, commit_timestamp=1), 3
    )
    with PartitionWriter(tmp_path / "logs", "__consumer_offsets", 0) as w:
        w.append([Record(key=key, value=value, timestamp=1)])
    code, out, err = _cli("inspect", "offsets", tmp_path / "logs")
    assert code == 0, err
    _safe(out)
    assert out.startswith(f"group {EVIL_SHOWN}\n  {EVIL_SHOWN} 0  offset 7")
    code, out, err = _cli("inspect", "offsets", tmp_path / "logs", "--json")
    _safe(out)
    assert json.loads(out)["groups"][0]["offsets"][0]["metadata"] == EVIL


def test_a_forged_line_cannot_be_told_from_a_real_one_no_more(tmp_path: Path):
    """The attack of the issue: a value holding a newline and a fake record line."""
    with PartitionWriter(tmp_path / "logs", "t", 0) as w:
        w.append([Record(value=b"x\n| offset: 999 CreateTime: 1 keySize: -1", timestamp=1)])
    _, out, _ = _cli("dump", tmp_path / "logs", "--print-data")
    assert [line.split()[2] for line in out.splitlines() if line.startswith("| offset:")] == ["0"]
