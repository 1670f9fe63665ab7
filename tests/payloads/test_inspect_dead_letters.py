"""``inspect dead-letters``: the share-group dead-letter records of KIP-1191 (Kafka 4.4), summarised
from the ``__dlq.errors.*`` headers Kafka's ShareGroupDLQStateManager writes on each (topic,
partition, offset, group, and when known delivery.count and message; all UTF-8 text), per
dead-letter topic, source partition and group."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout

from kafkaspec import Record
from kafkaspec.cli import main
from kafkaspec.logdir import PartitionWriter

REJECTED = "Offset rejected by client."
EXCEEDED = "Offset delivery count exceeded the threshold."


def _dead(offset, *, partition="0", group="g1", count="1", message=REJECTED, value=b"v", topic="orders"):
    headers = [
        ("__dlq.errors.topic", topic.encode()),
        ("__dlq.errors.partition", partition.encode()),
        ("__dlq.errors.offset", str(offset).encode()),
        ("__dlq.errors.group", group.encode()),
    ]
    if count is not None:
        headers.append(("__dlq.errors.delivery.count", count.encode()))
    if message is not None:
        headers.append(("__dlq.errors.message", message.encode()))
    return Record(key=None if value is None else b"k", value=value, timestamp=5, headers=headers)


def _data_dir(tmp_path, *extra):
    root = tmp_path / "logs"
    with PartitionWriter(root, "orders", 0) as w:
        w.append([Record(key=b"k", value=b"v", timestamp=5, headers=[("trace", b"1")])])
    with PartitionWriter(root, "dlq.orders", 0) as w:
        w.append(
            [
                _dead(10),
                _dead(42, count="5", message=EXCEEDED),
                _dead(11, value=None, message=None, count=None),  # written with the headers only
                _dead(3, partition="1", group="g2"),
                *extra,
            ]
        )
    (root / "canary").write_text("stays")
    return root


def _inspect(*argv):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = main(["inspect", "dead-letters", *map(str, argv)])
        except SystemExit as exc:
            code = exc.code
    return code, out.getvalue(), err.getvalue()


def test_dead_letters_by_topic_source_and_group(tmp_path):
    root = _data_dir(tmp_path)
    code, out, err = _inspect(root, "--json")
    assert code == 0, err
    body = json.loads(out)
    assert body["records"] == 4
    (topic,) = body["topics"]
    assert topic["topic"] == "dlq.orders"
    assert topic["sources"] == [
        {
            "topic": "orders",
            "partition": 0,
            "group": "g1",
            "records": 3,
            "first_offset": 10,
            "last_offset": 42,
            "max_delivery_count": 5,
            "headers_only": 1,
            "causes": {REJECTED: 1, EXCEEDED: 1, "(none)": 1},
        },
        {
            "topic": "orders",
            "partition": 1,
            "group": "g2",
            "records": 1,
            "first_offset": 3,
            "last_offset": 3,
            "max_delivery_count": 1,
            "headers_only": 0,
            "causes": {REJECTED: 1},
        },
    ]
    code, out, _ = _inspect(root)
    assert code == 0
    assert out.splitlines()[0] == "dead-letter records: 4 in 1 topic"
    assert "dlq.orders:" in out
    assert (
        "  orders-0  group g1  3 records  source offsets 10..42  max delivery count 5  headers only 1" in out
    )
    assert (root / "canary").read_text() == "stays"


def test_a_bad_dead_letter_header_is_reported_with_its_file_and_offset(tmp_path):
    root = _data_dir(tmp_path, _dead(7, partition="seven"))
    code, out, err = _inspect(root, "--json")
    assert code == 1
    (line,) = err.splitlines()
    assert "dlq.orders-0" in line and "offset 4" in line
    assert "__dlq.errors.partition is not an integer: 'seven'" in line
    assert json.loads(out)["records"] == 5  # counted, not summarised by source


def test_no_dead_letters(tmp_path):
    root = tmp_path / "logs"
    with PartitionWriter(root, "orders", 0) as w:
        w.append([Record(key=b"k", value=b"v", timestamp=5)])
    code, out, err = _inspect(root)
    assert code == 0, err
    assert out.splitlines() == ["dead-letter records: 0 in 0 topics"]
