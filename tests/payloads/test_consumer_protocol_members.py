"""The members of a classic consumer group (GroupMetadataValue, protocol type ``consumer``): their
``subscription`` and ``assignment`` bytes decoded as ConsumerProtocolSubscription and
ConsumerProtocolAssignment (versions 0-3), beside the raw bytes, as Kafka's DumpLogSegments does;
bytes that do not parse keep their raw form with an error naming member and field.

The bytes are written by hand from Kafka's spec files (clients/src/main/resources/common/message/
ConsumerProtocolSubscription.json, ConsumerProtocolAssignment.json, and group-coordinator's
GroupMetadataValue.json), not from our schemas.
"""

from __future__ import annotations

import base64
import io
import json
import struct
from contextlib import redirect_stderr, redirect_stdout

import pytest
from support.kafka_encoder import Encoder, facts, mismatches, normalized

from kafkaspec import Record, payloads
from kafkaspec.cli import main
from kafkaspec.logdir import PartitionWriter


def s16(text: str | None) -> bytes:
    if text is None:
        return struct.pack(">h", -1)
    return struct.pack(">h", len(text.encode())) + text.encode()


def b32(data: bytes | None) -> bytes:
    return struct.pack(">i", -1) if data is None else struct.pack(">i", len(data)) + data


def topic_partitions(items: list[tuple[str, list[int]]]) -> bytes:
    return struct.pack(">i", len(items)) + b"".join(
        s16(t) + struct.pack(">i", len(ps)) + b"".join(struct.pack(">i", p) for p in ps) for t, ps in items
    )


def subscription(
    version: int = 3,
    topics=("orders", "clicks"),
    user_data=None,
    owned=(("orders", [0, 2]),),
    generation: int = 7,
    rack: str | None = "r1",
) -> bytes:
    out = struct.pack(">h", version) + struct.pack(">i", len(topics)) + b"".join(s16(t) for t in topics)
    out += b32(user_data)
    if version >= 1:
        out += topic_partitions(list(owned))
    if version >= 2:
        out += struct.pack(">i", generation)
    if version >= 3:
        out += s16(rack)
    return out


def assignment(
    version: int = 3, assigned=(("orders", [0, 1]), ("clicks", [4])), user_data=b"\x01\x02"
) -> bytes:
    return struct.pack(">h", version) + topic_partitions(list(assigned)) + b32(user_data)


def member(member_id: str, sub: bytes, assign: bytes) -> bytes:
    """A GroupMetadataValue v3 member: id, instance id, client id, host, timeouts, the two byte fields."""
    return (
        s16(member_id)
        + s16(None)
        + s16("client-1")
        + s16("/10.0.0.1")
        + struct.pack(">ii", 300000, 45000)
        + b32(sub)
        + b32(assign)
    )


def group_value(members: list[bytes], protocol_type: str = "consumer") -> bytes:
    return (
        struct.pack(">h", 3)
        + s16(protocol_type)
        + struct.pack(">i", 5)
        + s16("range")
        + s16("m1")
        + struct.pack(">q", 1_700_000_000_000)
        + struct.pack(">i", len(members))
        + b"".join(members)
    )


GROUP_KEY = struct.pack(">h", 2) + s16("g1")
SUB_V3 = {
    "topics": ["orders", "clicks"],
    "user_data": None,
    "owned_partitions": [{"topic": "orders", "partitions": [0, 2]}],
    "generation_id": 7,
    "rack_id": "r1",
}
ASSIGN = {
    "assigned_partitions": [
        {"topic": "orders", "partitions": [0, 1]},
        {"topic": "clicks", "partitions": [4]},
    ],
    "user_data": b"\x01\x02",
}


def test_members_bytes_decoded_beside_the_raw_bytes():
    value = group_value([member("m1", subscription(), assignment())])
    d = payloads.decode("__consumer_offsets", GROUP_KEY, value)
    assert d is not None and d.type == "GroupMetadata"
    (m,) = d.value["members"]
    assert m["subscription"] == subscription() and m["assignment"] == assignment()  # the raw bytes, kept
    assert m["subscription_decoded"] == {"version": 3, **SUB_V3}
    assert m["assignment_decoded"] == {"version": 3, **ASSIGN}
    assert "subscription_error" not in m and "assignment_error" not in m


@pytest.mark.parametrize("version", [0, 1, 2, 3])
def test_every_subscription_version(version):
    d = payloads.decode(
        "__consumer_offsets",
        GROUP_KEY,
        group_value([member("m1", subscription(version), assignment(version))]),
    )
    got = d.value["members"][0]["subscription_decoded"]
    expected = {
        "version": version,
        "topics": ["orders", "clicks"],
        "user_data": None,
        "owned_partitions": [{"topic": "orders", "partitions": [0, 2]}] if version >= 1 else [],
        "generation_id": 7 if version >= 2 else -1,
        "rack_id": "r1" if version >= 3 else None,
    }
    assert got == expected
    assert d.value["members"][0]["assignment_decoded"]["version"] == version


@pytest.mark.parametrize(
    ("sub", "assign", "field", "message"),
    [
        (
            subscription()[:-3],
            assignment(),
            "subscription",
            "member 'm2': subscription: ConsumerProtocolSubscription v3",
        ),
        (
            subscription(),
            struct.pack(">h", 4) + assignment()[2:],
            "assignment",
            "member 'm2': assignment: version 4 is newer than ConsumerProtocolAssignment's newest known (3)",
        ),
        (
            subscription(),
            struct.pack(">h", -1) + assignment()[2:],
            "assignment",
            "member 'm2': assignment: version -1 is not a version",
        ),
        (
            subscription() + b"\x00",
            assignment(),
            "subscription",
            "member 'm2': subscription: 1 bytes left after",
        ),
        (
            b"\x00",
            assignment(),
            "subscription",
            "member 'm2': subscription: needs an int16 version, has 1 bytes",
        ),
    ],
    ids=["truncated", "newer-version", "negative-version", "bytes-left", "one-byte"],
)
def test_bytes_that_do_not_parse_keep_their_raw_form_and_say_why(sub, assign, field, message):
    value = group_value([member("m1", subscription(), assignment()), member("m2", sub, assign)])
    d = payloads.decode("__consumer_offsets", GROUP_KEY, value)
    good, bad = d.value["members"]
    assert good["subscription_decoded"]["topics"] == ["orders", "clicks"]  # the other member is unaffected
    assert bad[field] == (sub if field == "subscription" else assign)  # never dropped
    assert f"{field}_decoded" not in bad  # never guessed
    assert bad[f"{field}_error"].startswith(message), bad[f"{field}_error"]
    other = "assignment" if field == "subscription" else "subscription"
    assert f"{other}_decoded" in bad


def test_empty_assignment_of_a_rebalancing_member_is_not_an_error():
    """During a rebalance Kafka stores a member with an empty assignment: nothing to decode."""
    d = payloads.decode("__consumer_offsets", GROUP_KEY, group_value([member("m1", subscription(), b"")]))
    (m,) = d.value["members"]
    assert m["assignment"] == b"" and "assignment_decoded" not in m and "assignment_error" not in m
    assert m["subscription_decoded"]["topics"] == ["orders", "clicks"]


def test_other_protocol_types_stay_bytes():
    """Connect workers and other protocol types have their own formats: left as bytes."""
    d = payloads.decode(
        "__consumer_offsets",
        GROUP_KEY,
        group_value([member("m1", b"\x00\x01xyz", b"")], protocol_type="connect"),
    )
    (m,) = d.value["members"]
    assert m["subscription"] == b"\x00\x01xyz" and not any(k.endswith(("_decoded", "_error")) for k in m)


@pytest.mark.parametrize("label", ["trunk-d79bd502ec", "4.3", "4.1.0", "4.0.0"])
@pytest.mark.parametrize("version", [0, 1, 2, 3])
def test_bytes_of_the_independent_encoder(label, version):
    """Every field set, encoded from Kafka's facts of that revision, inside a member, read back."""
    sub_body, sub_expected = Encoder(facts(label)["ConsumerProtocolSubscription"], "full").encode(version)
    asg_body, asg_expected = Encoder(facts(label)["ConsumerProtocolAssignment"], "full").encode(version)
    v = struct.pack(">h", version)
    d = payloads.decode(
        "__consumer_offsets", GROUP_KEY, group_value([member("m1", v + sub_body, v + asg_body)])
    )
    (m,) = d.value["members"]
    assert mismatches(sub_expected, normalized(m["subscription_decoded"])) == []
    assert mismatches(asg_expected, normalized(m["assignment_decoded"])) == []


def _dump(*argv):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = main(["dump", *map(str, argv)])
        except SystemExit as exc:
            code = exc.code
    return code, out.getvalue(), err.getvalue()


def test_dump_decode_json_and_spark(tmp_path):
    bad_sub = subscription()[:-3]
    with PartitionWriter(tmp_path / "logs", "__consumer_offsets", 0) as w:
        w.append(
            [
                Record(
                    key=GROUP_KEY,
                    value=group_value([member("m1", subscription(), assignment())]),
                    timestamp=5,
                ),
                Record(key=GROUP_KEY, value=group_value([member("m2", bad_sub, assignment())]), timestamp=6),
            ]
        )
    (tmp_path / "canary").write_text("keep")
    code, out, err = _dump(tmp_path / "logs", "--decode", "--json")
    assert "Traceback" not in err
    assert code == 1  # a member's bytes that do not parse are a problem of the data
    records = [json.loads(line) for line in out.splitlines() if '"record"' in line]
    m1 = records[0]["decoded"]["value"]["members"][0]
    assert m1["subscription"] == base64.b64encode(subscription()).decode()  # raw, as before
    assert m1["subscription_decoded"]["owned_partitions"] == [{"topic": "orders", "partitions": [0, 2]}]
    assert m1["assignment_decoded"]["user_data"] == base64.b64encode(b"\x01\x02").decode()
    m2 = records[1]["decoded"]["value"]["members"][0]
    assert m2["subscription"] == base64.b64encode(bad_sub).decode()
    assert m2["subscription_error"].startswith("member 'm2': subscription: ")
    assert (tmp_path / "canary").read_text() == "keep"

    pytest.importorskip("pyarrow")
    from kafkaspec.arrow.ranges import ReadRange, read_records
    from kafkaspec.spark.read.decoding import with_decoded

    segment = next((tmp_path / "logs" / "__consumer_offsets-0").glob("*.log"))
    task = ReadRange(str(segment), "__consumer_offsets", 0, 0, segment.stat().st_size)
    rows = [r for b in with_decoded(read_records(task), task, skip_corrupt=False) for r in b.to_pylist()]
    spark_m1 = json.loads(rows[0]["decoded"])["value"]["members"][0]
    assert spark_m1["subscription_decoded"]["topics"] == ["orders", "clicks"]
    assert "subscription_error" in json.loads(rows[1]["decoded"])["value"]["members"][0]


def test_the_corpus_members_all_decode(corpus):
    """The real __consumer_offsets partitions of the corpus: every consumer member's bytes parse."""
    import kafkaspec

    decoded, errors = 0, []
    for path in sorted((corpus / "files" / "segments").rglob("*.log")):
        if not path.parent.name.startswith("__consumer_offsets-"):
            continue
        for batch in kafkaspec.iter_batches(path.read_bytes()):
            for r in [] if batch.is_control else batch:
                d = payloads.decode_as("offsets", r.key, r.value)
                if d.type == "GroupMetadata" and d.value:
                    for m in d.value["members"]:
                        decoded += ("subscription_decoded" in m) + ("assignment_decoded" in m)
                        errors += [m[k] for k in m if k.endswith("_error")]
    assert errors == [] and decoded == 126


def test_time_linear_in_the_members():
    """A group of many members: decoding their bytes takes time linear in them."""
    from support.timing import GROWTH, assert_linear

    one = member("m", subscription(), assignment())
    small, large = group_value([one] * 500), group_value([one] * (500 * GROWTH))
    assert_linear(
        lambda: payloads.decode("__consumer_offsets", GROUP_KEY, small),
        lambda: payloads.decode("__consumer_offsets", GROUP_KEY, large),
        what="members",
    )
