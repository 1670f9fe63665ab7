"""What Kafka 4.0 to trunk write, decoded (issue 23, part 1): each case is bytes written by an
encoder driven by the facts of Kafka's own JSON specs at the revision that introduced the change
(``tests/codecs/kafka_specs/facts-*.json``; ``support/kafka_encoder.py``), never by our schemas,
decoded through the public ``kafkaspec.payloads.decode`` as a log record carries them. Every field
must come back with the value written, and no known field may be left in ``unknown_tagged_fields``.
"""

from __future__ import annotations

import struct

import pytest
from support.kafka_encoder import Encoder, facts, frame, mismatches, normalized

from kafkaspec.errors import KafkaFormatError
from kafkaspec.payloads import decode

TRUNK = "trunk-d79bd502ec"

#: (revision, message, version, mode): the cases issue 23 lists as failing
CASES = [
    # missing versions and records (KIP-1066 cordoned log dirs; KIP-853 controller removal)
    ("4.3", "RegisterBrokerRecord", 4, "full"),
    ("4.3", "RegisterBrokerRecord", 4, "minimal"),
    ("4.3", "BrokerRegistrationChangeRecord", 3, "full"),
    (TRUNK, "UnregisterControllerRecord", 0, "full"),
    # wrong layouts
    (TRUNK, "StreamsGroupMetadataValue", 0, "full"),
    ("4.1.0", "StreamsGroupMetadataValue", 0, "full"),
    (TRUNK, "StreamsGroupMetadataValue", 0, "minimal"),
    ("4.1.0", "ShareGroupMetadataValue", 0, "full"),
    ("4.1.0", "ShareGroupStatePartitionMetadataValue", 0, "full"),
    # new tagged fields that landed in unknown_tagged_fields
    (TRUNK, "TransactionLogValue", 1, "full"),
    ("4.1.0", "OffsetCommitValue", 4, "full"),
    ("4.3", "ConsumerGroupCurrentMemberAssignmentValue", 0, "full"),
    ("4.3", "StreamsGroupCurrentMemberAssignmentValue", 0, "full"),
    ("4.3", "ConsumerGroupTargetAssignmentMetadataValue", 0, "full"),
    ("4.3", "ShareGroupTargetAssignmentMetadataValue", 0, "full"),
    ("4.3", "StreamsGroupTargetAssignmentMetadataValue", 0, "full"),
    # a missing tagged ClassicMemberMetadata reads as the empty structure, as Kafka's reader gives it
    (TRUNK, "ConsumerGroupMemberMetadataValue", 0, "minimal"),
]


def _decode(label: str, name: str, version: int, mode: str):
    body, expected = Encoder(facts(label)[name], mode).encode(version)
    topic, key, value = frame(label, name, version, body)
    return decode(topic, key, value), expected


@pytest.mark.parametrize(
    ("label", "name", "version", "mode"), CASES, ids=[f"{n}-v{v}-{lab}-{m}" for lab, n, v, m in CASES]
)
def test_kafka_writes_it_we_read_it(label, name, version, mode):
    dec, expected = _decode(label, name, version, mode)
    assert dec is not None and dec.version == version
    assert mismatches(expected, normalized(dec.value)) == []


def test_creation_time_ms_is_no_field_of_kafka():
    """ConsumerGroupMetadataValue has no tag 1 in any Kafka revision: a tag 1 is an unknown tag, kept
    as bytes, not read as an int64 ``creation_time_ms`` (which would refuse a short one)."""
    body, _ = Encoder(facts(TRUNK)["ConsumerGroupMetadataValue"], "minimal").encode(0)
    # the minimal body ends with an empty tagged section (0): replace it with one unknown tag 1
    assert body[-1:] == b"\x00"
    body = body[:-1] + b"\x01\x01\x02\xab\xcd"
    topic, key, value = frame(TRUNK, "ConsumerGroupMetadataValue", 0, body)
    dec = decode(topic, key, value)
    assert dec is not None and dec.value is not None
    assert "creation_time_ms" not in dec.value
    assert dec.value["unknown_tagged_fields"] == [(1, b"\xab\xcd")]


@pytest.mark.parametrize("name", ["ShareGroupMetadataValue", "ShareGroupStatePartitionMetadataValue"])
def test_kafka_4_0_early_access_layout(name):
    """Kafka 4.0's early-access share records have another version-0 layout than 4.1's: the newest is
    read by default, 4.0's where it alone fits, and ``Decoded.layout`` says which was used."""
    new, _ = _decode("4.1.0", name, 0, "full")
    assert new.layout == "Kafka 4.1+"
    old, expected = _decode("4.0.0", name, 0, "full")
    assert mismatches(expected, normalized(old.value)) == []
    assert old.layout == "Kafka 4.0"


def test_kafka_4_0_layout_named_by_the_user():
    """``kafka_release="4.0"`` reads 4.0's layout first; bytes that fit neither name both."""
    body, expected = Encoder(facts("4.0.0")["ShareGroupMetadataValue"], "minimal").encode(0)
    topic, key, value = frame("4.0.0", "ShareGroupMetadataValue", 0, body)
    dec = decode(topic, key, value, kafka_release="4.0")
    assert dec.layout == "Kafka 4.0" and mismatches(expected, normalized(dec.value)) == []
    with pytest.raises(KafkaFormatError, match=r"ShareGroupMetadataValue.*Kafka 4\.0 layout"):
        decode(topic, key, value[:-1] + b"\x00\x00")


def test_removed_and_unreleased_records_are_marked():
    """ShareGroupPartitionMetadata (written only by Kafka 4.0) and StreamsGroupPartitionMetadata (in no
    release) still decode, and say what they are."""
    from kafkaspec.generated import messages

    assert messages.GROUP[9][1].KAFKA_STATUS == "removed"
    assert messages.GROUP[18][1].KAFKA_STATUS == "unreleased"
    assert messages.GROUP[11][1].KAFKA_STATUS == "current"
    dec, expected = _decode("4.0.0", "ShareGroupPartitionMetadataValue", 0, "full")
    assert mismatches(expected, normalized(dec.value)) == []


def test_key_version_is_the_record_type():
    """A sanity check of the framing the cases rely on: 4.1+ coordinator keys are version 0 in Kafka's
    spec, and their int16 on the wire is the record type (the api key)."""
    _, key, _ = frame(TRUNK, "StreamsGroupMetadataValue", 0, b"")
    assert struct.unpack(">h", key[:2])[0] == 17


def _offsets_partition(root, records):
    from kafkaspec import Record
    from kafkaspec.logdir import PartitionWriter

    with PartitionWriter(root, "__consumer_offsets", 0) as w:
        w.append([Record(key=k, value=v, timestamp=i) for i, (k, v) in enumerate(records)])
    return root / "__consumer_offsets-0"


def _dump(*argv):
    import contextlib
    import io

    from kafkaspec.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["dump", *map(str, argv)])
    return code, out.getvalue(), err.getvalue()


def test_dump_decode_says_which_layout(tmp_path):
    """``dump --decode`` shows ``layout`` for the share records Kafka 4.0 and 4.1+ wrote differently;
    ``--kafka-release`` names the release; a bad release is a usage error (exit 2, one line)."""
    import json

    records = []
    for label in ("4.0.0", "4.1.0"):
        body, _ = Encoder(facts(label)["ShareGroupMetadataValue"], "minimal").encode(0)
        _, key, value = frame(label, "ShareGroupMetadataValue", 0, body)
        records.append((key, value))
    part = _offsets_partition(tmp_path / "data", records)
    (tmp_path / "canary").write_text("keep")
    code, out, err = _dump(part, "--decode", "--json")
    assert code == 0, err
    layouts = [json.loads(line)["decoded"]["layout"] for line in out.splitlines() if '"decoded"' in line]
    assert layouts == ["Kafka 4.0", "Kafka 4.1+"]
    code, out, err = _dump(part, "--decode", "--json", "--kafka-release", "4.0.0")
    assert code == 0 and [
        json.loads(line)["decoded"]["layout"] for line in out.splitlines() if '"decoded"' in line
    ] == ["Kafka 4.0", "Kafka 4.1+"]
    code, out, err = _dump(part, "--decode", "--kafka-release", "four")
    assert code == 2 and "--kafka-release" in err and err.count("\n") == 1 and "Traceback" not in err
    assert (tmp_path / "canary").read_text() == "keep"


def test_explain_reads_the_layout_that_fits():
    """``explain --decode offsets`` traces a Kafka 4.0 share record with the 4.0 layout (named in its
    type) where the newest does not fit, to the last byte; a 4.1 record with the newest."""
    from support.explain import assert_tiles

    from kafkaspec import Record, build_batch
    from kafkaspec.explain import explain

    for label, expected in (
        ("4.0.0", "ShareGroupMetadataValueKafka40 v0"),
        ("4.1.0", "ShareGroupMetadataValue v0"),
    ):
        body, _ = Encoder(facts(label)["ShareGroupMetadataValue"], "full").encode(0)
        _, key, value = frame(label, "ShareGroupMetadataValue", 0, body)
        expl = explain(build_batch([Record(key=key, value=value, timestamp=1)]), decode="offsets")
        types = {n.type for e in expl.entries for _, n in e.walk()}
        assert expected in types and not expl.problems, (label, expl.problems)
        assert assert_tiles(expl) > 0
