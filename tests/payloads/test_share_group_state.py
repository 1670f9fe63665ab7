"""``__share_group_state`` (KIP-932's share coordinator): ShareSnapshot and ShareUpdate keys and
values, framed like ``__consumer_offsets`` (an int16 record type on the key, an int16 version on the
value), in the layouts Kafka 4.0, 4.1 and 4.2+ write, through ``payloads.decode``, ``dump --decode``
/ ``--decode-as``, ``explain``, the Spark source's decode column and ``inspect share-state``.

The bytes here are written by hand from Kafka's spec files (share-coordinator/src/main/resources/
common/message/), not from our schemas.
"""

from __future__ import annotations

import io
import json
import struct
import uuid
from contextlib import redirect_stderr, redirect_stdout

import pytest
from support.kafka_encoder import Encoder, facts, frame, mismatches, normalized

from kafkaspec import Record, payloads
from kafkaspec.cli import main
from kafkaspec.errors import KafkaFormatError
from kafkaspec.logdir import PartitionWriter

TOPIC_ID = uuid.UUID("00112233-4455-6677-8899-aabbccddeeff")
TOPIC = "__share_group_state"


def _str16(s: str) -> bytes:
    return struct.pack(">h", len(s.encode())) + s.encode()


def share_key(record_type: int = 0, group: str = "sg", partition: int = 3) -> bytes:
    """ShareSnapshotKey (type 0) / ShareUpdateKey (type 1): not flexible, int16-length string."""
    return struct.pack(">h", record_type) + _str16(group) + TOPIC_ID.bytes + struct.pack(">i", partition)


def _batches(items: list[tuple[int, int, int, int]]) -> bytes:
    """Compact array of StateBatch (first, last, delivery state int8, delivery count int16), each
    with an empty tagged-field section."""
    return bytes([len(items) + 1]) + b"".join(struct.pack(">qqbh", *b) + b"\x00" for b in items)


BATCHES = [(100, 109, 2, 1), (110, 119, 0, 3)]


def snapshot_value(release: str = "4.2", complete: int = 7) -> bytes:
    """ShareSnapshotValue v0 as ``release`` writes it."""
    if release == "4.0":  # SnapshotEpoch uint16, no timestamps
        body = struct.pack(">Hiiq", 65535, 4, 5, 100) + _batches(BATCHES) + b"\x00"
    else:
        body = struct.pack(">iiiq", 2, 4, 5, 100) + struct.pack(">qq", 1_700_000_000_000, 1_700_000_000_500)
        body += _batches(BATCHES)
        body += b"\x01\x00\x04" + struct.pack(">i", complete) if release == "4.2" else b"\x00"
    return struct.pack(">h", 0) + body


def update_value(release: str = "4.2", start: int = -1) -> bytes:
    """ShareUpdateValue v0 as ``release`` writes it."""
    if release == "4.0":
        body = struct.pack(">Hiq", 3, 5, start) + _batches(BATCHES[:1]) + b"\x00"
    else:
        body = struct.pack(">iiq", 3, 5, start) + _batches(BATCHES[:1])
        body += b"\x01\x00\x04" + struct.pack(">i", 9) if release == "4.2" else b"\x00"
    return struct.pack(">h", 0) + body


KEY = {"group_id": "sg", "topic_id": TOPIC_ID, "partition": 3}
STATE = [
    {"first_offset": 100, "last_offset": 109, "delivery_state": 2, "delivery_count": 1},
    {"first_offset": 110, "last_offset": 119, "delivery_state": 0, "delivery_count": 3},
]


def test_snapshot_of_kafka_4_2_with_its_tagged_count():
    d = payloads.decode(TOPIC, share_key(0), snapshot_value("4.2"))
    assert d is not None and d.type == "ShareSnapshot" and d.version == 0 and d.key_version == 0
    assert d.key == KEY
    assert d.value == {
        "snapshot_epoch": 2,
        "state_epoch": 4,
        "leader_epoch": 5,
        "start_offset": 100,
        "delivery_complete_count": 7,
        "create_timestamp": 1_700_000_000_000,
        "write_timestamp": 1_700_000_000_500,
        "state_batches": STATE,
    }
    assert d.layout == "Kafka 4.1+"


def test_snapshot_of_kafka_4_1_reads_the_count_as_its_default():
    d = payloads.decode(TOPIC, share_key(0), snapshot_value("4.1"))
    assert d is not None and d.value is not None
    assert d.value["delivery_complete_count"] == -1 and "unknown_tagged_fields" not in d.value


def test_snapshot_of_kafka_4_0_in_its_own_layout():
    d = payloads.decode(TOPIC, share_key(0), snapshot_value("4.0"))
    assert d is not None and d.layout == "Kafka 4.0"
    assert d.value == {
        "snapshot_epoch": 65535,
        "state_epoch": 4,
        "leader_epoch": 5,
        "start_offset": 100,
        "state_batches": STATE,
    }
    named = payloads.decode(TOPIC, share_key(0), snapshot_value("4.0"), kafka_release="4.0")
    assert named == d


def test_update_and_tombstone():
    for release in ("4.2", "4.1", "4.0"):
        d = payloads.decode(TOPIC, share_key(1), update_value(release), kafka_release=release)
        assert d is not None and d.type == "ShareUpdate" and d.key == KEY, release
        assert d.value is not None and d.value["start_offset"] == -1 and d.value["state_batches"] == STATE[:1]
        assert d.value.get("delivery_complete_count") == {"4.2": 9, "4.1": -1, "4.0": None}[release]
        assert d.layout == ("Kafka 4.0" if release == "4.0" else "Kafka 4.1+")
    gone = payloads.decode(TOPIC, share_key(1), None)
    assert gone is not None and gone.tombstone and gone.key == KEY and gone.value is None


def test_decode_as_share_whatever_the_topic():
    d = payloads.decode_as("share", share_key(0), snapshot_value())
    assert d.type == "ShareSnapshot"
    assert payloads.FAMILY_OF_TOPIC[TOPIC] == "share"


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        (share_key(7), snapshot_value(), r"__share_group_state key: unknown record type \(key version 7\)"),
        (share_key(0)[:-2], snapshot_value(), r"__share_group_state key ShareSnapshotKey"),
        (share_key(0), snapshot_value()[:-3], r"__share_group_state value: .*ShareSnapshotValue"),
        (share_key(0), struct.pack(">h", 1) + snapshot_value()[2:], r"ShareSnapshotValue has no version 1"),
        (share_key(0), snapshot_value() + b"\x00", r"1 bytes left after ShareSnapshotValue v0"),
        (b"\x00", snapshot_value(), r"__share_group_state key: needs an int16 version, has 1 bytes"),
    ],
    ids=["unknown-type", "short-key", "short-value", "unknown-version", "bytes-left", "one-byte-key"],
)
def test_bad_bytes_name_what_and_where(key, value, message):
    with pytest.raises(KafkaFormatError, match=message):
        payloads.decode(TOPIC, key, value)


@pytest.mark.parametrize("label", ["trunk-d79bd502ec", "4.3", "4.1.0", "4.0.0"])
def test_bytes_of_the_independent_encoder(label):
    """Every field set (and an unknown tag), encoded from Kafka's facts of that revision, framed as
    the share coordinator frames them, read back through ``decode``."""
    for name in ("ShareSnapshotValue", "ShareUpdateValue"):
        body, expected = Encoder(facts(label)[name], "full").encode(0)
        topic, key, value = frame(label, name, 0, body)
        assert topic == TOPIC
        d = payloads.decode(topic, key, value)
        assert d is not None and d.type == name.removesuffix("Value")
        assert mismatches(expected, normalized(d.value)) == [], (label, name)
        assert d.layout == ("Kafka 4.0" if label == "4.0.0" else "Kafka 4.1+")


# ---------------------------------------------------------------- the commands


def _run(*argv):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = main([*map(str, argv)])
        except SystemExit as exc:
            code = exc.code
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def state_dir(tmp_path):
    with PartitionWriter(tmp_path / "logs", TOPIC, 0) as w:
        w.append(
            [
                Record(key=share_key(0), value=snapshot_value("4.1"), timestamp=5),
                Record(key=share_key(1), value=update_value("4.2", start=105), timestamp=6),
                Record(key=share_key(1, partition=8), value=None, timestamp=7),
                Record(key=share_key(0, group="other"), value=snapshot_value("4.2")[:-4], timestamp=8),
            ]
        )
    (tmp_path / "canary").write_text("keep")
    return tmp_path / "logs"


def test_dump_decode_json(state_dir):
    code, out, err = _run("dump", state_dir, "--decode", "--json")
    assert code == 1 and "Traceback" not in err  # the last record's value is cut short
    records = [json.loads(line) for line in out.splitlines() if '"record"' in line]
    first = records[0]["decoded"]
    assert first["type"] == "ShareSnapshot" and first["layout"] == "Kafka 4.1+"
    assert first["key"] == {"group_id": "sg", "topic_id": "ABEiM0RVZneImaq7zN3u_w", "partition": 3}
    assert (
        first["value"]["delivery_complete_count"] == -1
        and first["value"]["state_batches"][1]["delivery_count"] == 3
    )
    assert records[1]["decoded"]["value"]["start_offset"] == 105
    assert records[1]["decoded"]["value"]["delivery_complete_count"] == 9
    assert records[2]["decoded"]["deletion"] is True and records[2]["decoded"]["key"]["partition"] == 8
    bad = records[3]
    assert "decoded" not in bad and "ShareSnapshotValue" in bad["decode_error"] and "value" in bad
    assert (state_dir.parent / "canary").read_text() == "keep"


def test_dump_decode_as_share(tmp_path):
    with PartitionWriter(tmp_path / "logs", "share-copy", 0) as w:
        w.append([Record(key=share_key(1), value=update_value("4.0"), timestamp=5)])
    code, out, _ = _run("dump", tmp_path / "logs", "--decode-as", "share", "--kafka-release", "4.0", "--json")
    assert code == 0
    (rec,) = [json.loads(line) for line in out.splitlines() if '"record"' in line]
    assert rec["decoded"]["type"] == "ShareUpdate" and rec["decoded"]["layout"] == "Kafka 4.0"


def test_explain_reads_share_records_field_by_field(state_dir):
    segment = next((state_dir / f"{TOPIC}-0").glob("*.log"))
    code, out, err = _run("explain", segment, "--json", "--count", "1")
    assert code == 0, err
    text = out
    for name in (
        "key_version",
        "group_id",
        "topic_id",
        "value_version",
        "snapshot_epoch",
        "create_timestamp",
        "state_batches",
        "delivery_count",
    ):
        assert f'"{name}"' in text, name
    code, out, err = _run("explain", segment, "--decode", "share", "--count", "1")
    assert code == 0 and "write_timestamp" in out


def test_spark_decode_column_without_a_session(state_dir):
    """The kafkalog source's decode=auto path (kafkaspec.spark.read.decoding), fed by its columnar reader."""
    pytest.importorskip("pyarrow")
    from kafkaspec.arrow.ranges import ReadRange, read_records
    from kafkaspec.spark.read.decoding import with_decoded

    segment = next((state_dir / f"{TOPIC}-0").glob("*.log"))
    task = ReadRange(str(segment), TOPIC, 0, 0, segment.stat().st_size, skip_corrupt=True)
    rows = [r for b in with_decoded(read_records(task), task, skip_corrupt=True) for r in b.to_pylist()]
    assert [r["decodedType"] for r in rows] == ["ShareSnapshot", "ShareUpdate", "ShareUpdate", None]
    assert json.loads(rows[0]["decoded"])["value"]["state_batches"][0]["first_offset"] == 100
    assert "decode_error" in json.loads(rows[3]["decoded"])
    task = ReadRange(str(segment), TOPIC, 0, 0, segment.stat().st_size)
    with pytest.raises(KafkaFormatError, match=r"offset 3: .*ShareSnapshotValue"):
        list(with_decoded(read_records(task), task, skip_corrupt=False))


def test_inspect_share_state(state_dir):
    code, out, err = _run("inspect", "share-state", state_dir, "--json")
    assert code == 1 and "Traceback" not in err  # one record does not decode: data with a problem
    summary = json.loads(out)
    (part,) = [p for p in summary["share_partitions"] if p["group"] == "sg" and p["partition"] == 3]
    assert part["topic_id"] == "ABEiM0RVZneImaq7zN3u_w"
    assert (
        part["snapshot"]["snapshot_epoch"] == 2
        and part["snapshot"]["state_batches"][0]["first_offset"] == 100
    )
    assert part["start_offset"] == 105 and part["leader_epoch"] == 5 and part["state_epoch"] == 4
    assert [u["delivery_complete_count"] for u in part["updates"]] == [9]
    assert summary["record_counts"]["ShareUpdate tombstone"] == 1
    assert "ShareSnapshotValue" in err


def test_inspect_share_state_text_and_no_partition(state_dir, tmp_path):
    code, out, err = _run("inspect", "share-state", state_dir)
    assert code == 1 and "Traceback" not in err
    lines = out.splitlines()
    assert lines[0].startswith(
        "group sg  topic ABEiM0RVZneImaq7zN3u_w  partition 3  start offset 105  leader epoch 5"
    )
    assert lines[1] == "  snapshot epoch 2: 100-109 acknowledged x1, 110-119 available x3"
    assert lines[2] == "  update (start offset 105): 100-109 acknowledged x1"
    empty = tmp_path / "empty"
    empty.mkdir()
    code, out, err = _run("inspect", "share-state", empty)
    assert code == 2 and out == "" and "no __share_group_state partition here" in err


def test_replay_time_linear_in_the_records():
    """inspect share-state's replay (many share-partitions, many updates each) is linear."""
    from support.timing import GROWTH, assert_linear

    from kafkaspec.payloads import ShareState

    def records(n):
        out = []
        for i in range(n):
            out.append(payloads.decode(TOPIC, share_key(0, partition=i), snapshot_value("4.2")))
            out += [
                payloads.decode(TOPIC, share_key(1, partition=i), update_value("4.2", start=100 + j))
                for j in range(5)
            ]
        return out

    def replay(recs):
        state = ShareState()
        for offset, r in enumerate(recs):
            state.apply(r, offset)
        return state.to_json()

    small, large = records(300), records(300 * GROWTH)
    assert_linear(lambda: replay(small), lambda: replay(large), what="share-state replay")
