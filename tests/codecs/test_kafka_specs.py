"""In step with Kafka (issue 23, part 5): the facts of Kafka's JSON specs at named releases
(``kafka_specs/facts-*.json``, written by ``kafka_specs/extract.py``) against ``schemas/messages/``.

* The drift check (``kafkaspec.review.kafka_specs.compare``, what ``kafkaspec review kafka-specs``
  runs) finds nothing between the newest facts and our schemas, and every older revision's
  differences are only tagged fields that revision lacks (which its writers never write).
* An encoder driven by the facts alone (``support/kafka_encoder.py``) writes every message at every
  version of every revision, with minimal values and with every field set plus an unknown tag; our
  generated decoder gives the values back, leaving no known field among the unknown tags.

When Kafka releases again: add its facts with extract.py, add the label to REVISIONS (newest
first), and these tests say exactly what our schemas lack.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.kafka_encoder import FACTS_DIR, Encoder, facts, frame, mismatches, normalized, versions

from kafkaspec.review.kafka_specs import ALIASES, JSON_FILES, PENDING, compare, our_version
from kafkaspec.spec.loader import load

ROOT = Path(__file__).resolve().parents[2]
#: the facts kept, newest first: Apache Kafka trunk d79bd502ec (2026-08-23, = branch 4.4), branch 4.3
#: (0157ac7cf2, 2026-08-21), tags 4.1.0 (13f70256db) and 4.0.0 (985bc99521)
REVISIONS = ["trunk-d79bd502ec", "4.3", "4.1.0", "4.0.0"]
#: layouts Kafka changed between releases at the same version: (message, revision) -> our message
#: holding that revision's layout
EARLIER_LAYOUTS = {
    ("ShareGroupMetadataValue", "4.0.0"): "ShareGroupMetadataValueKafka40",
    ("ShareGroupStatePartitionMetadataValue", "4.0.0"): "ShareGroupStatePartitionMetadataValueKafka40",
    ("ShareSnapshotValue", "4.0.0"): "ShareSnapshotValueKafka40",
    ("ShareUpdateValue", "4.0.0"): "ShareUpdateValueKafka40",
}


@pytest.fixture(scope="module")
def messages():
    return load(ROOT / "schemas", lint=False).messages


def test_every_revision_is_kept():
    kept = sorted(p.name for p in FACTS_DIR.glob("facts-*.json"))
    assert kept == sorted(f"facts-{r}.json" for r in REVISIONS)
    for label in REVISIONS:
        head = json.loads((FACTS_DIR / f"facts-{label}.json").read_text())
        assert head["label"] == label and len(head["commit"]) == 40


def test_no_drift_from_the_newest(messages):
    drift, pending, notes = compare(facts(REVISIONS[0]), messages)
    assert [str(d) for d in drift] == [] and notes == []
    assert sorted(p.split(":")[0] for p in pending) == sorted(n for n in PENDING if n in facts(REVISIONS[0]))


@pytest.mark.parametrize("label", REVISIONS[1:])
def test_older_revisions_differ_only_by_what_their_writers_never_write(label, messages):
    """An older release never writes the tagged fields it lacks, so ours read its bytes; where it
    wrote another layout of a version, one of our earlier layouts (``layout_of``) is that layout."""
    drift, _, notes = compare(facts(label), messages)
    assert [str(d) for d in drift] == []
    layouts = sorted(n.split(":")[0] for n in notes if "the layout of our" in n)
    assert layouts == sorted(name for name, lab in EARLIER_LAYOUTS if lab == label)
    assert all("(tagged: this revision never writes it)" in n for n in notes if "the layout of our" not in n)


def test_the_drift_check_sees_a_change(messages):
    """It can fail: a field Kafka adds, a version, a type or a tag that differ are each drift."""
    import copy

    newest = copy.deepcopy(facts(REVISIONS[0]))
    newest["TopicRecord"]["fields"].append({"name": "Owner", "type": "string", "versions": "0+"})
    newest["RegisterBrokerRecord"]["validVersions"] = "0-5"
    newest["FenceBrokerRecord"]["fields"][0]["type"] = "int64"
    newest["TransactionLogValue"]["fields"][1]["tag"] = 7
    newest["PartitionRecord"]["fields"].append(
        {"name": "Extra", "type": "int32", "versions": "2+", "taggedVersions": "2+", "tag": 9}
    )
    drift = [str(d) for d in compare(newest, messages).drift]
    assert "TopicRecord v0: missing field owner (string)" in drift
    assert "RegisterBrokerRecord v5: missing version" in drift
    assert any(
        d.startswith("FenceBrokerRecord v0: field id: type int64 in Kafka, int32 in ours") for d in drift
    )
    assert "TransactionLogValue v1: field previous_producer_id: tag 7 in Kafka, tag 0 in ours" in drift
    assert "PartitionRecord v2: missing field extra (int32, tag 9)" in drift


def _cases():
    for label in REVISIONS:
        for name, f in facts(label).items():
            if name in PENDING or name in JSON_FILES:  # (a JSON file's reader is compared by the drift check)
                continue
            for v in versions(f["validVersions"]):
                yield label, name, v


CASES = list(_cases())


def _module(name: str, label: str, messages):
    import importlib

    ours = EARLIER_LAYOUTS.get((name, label), ALIASES.get(name, name))
    return importlib.import_module(f"kafkaspec.generated.messages.{messages[ours].module}")


def test_case_count():
    """The count the issue's closing note reports: (message, version, revision) combinations."""
    assert len(CASES) == 442


def run_case(label: str, name: str, v: int, mode: str, messages) -> list[str]:
    """Encode one (revision, message, version) from the facts, decode it with our codec: the problems."""
    from kafkaspec.payloads.decode import fields_of

    f = facts(label)[name]
    body, expected = Encoder(f, mode).encode(v)
    ours = EARLIER_LAYOUTS.get((name, label), ALIASES.get(name, name))
    if ours not in messages:
        return ["no schema"]
    module = _module(name, label, messages)
    decoder = getattr(module, f"decode_{module.__name__.rsplit('.', 1)[1]}")
    try:
        value, end = decoder(body, our_version(f, v), 0)
    except Exception as exc:  # collected: every failing case is listed
        return [str(exc)]
    problems = mismatches(expected, normalized(fields_of(value)))
    if end != len(body):
        problems.append(f"{len(body) - end} bytes left")
    return problems


@pytest.mark.parametrize("mode", ["full", "minimal"])
def test_every_message_every_version_every_revision(mode, messages):
    failures = [
        f"{name} v{v} ({label}): {p}"
        for label, name, v in CASES
        for p in run_case(label, name, v, mode, messages)
    ]
    assert failures == []


@pytest.mark.parametrize("label", REVISIONS)
def test_framed_records_decode_through_the_public_api(label):
    """The metadata and coordinator records of each revision, framed as in a log, through ``decode``."""
    from kafkaspec.payloads import decode

    done = 0
    for lab, name, v in CASES:
        f = facts(lab)[name]
        if (
            lab != label
            or f.get("type") not in ("metadata", "coordinator-value", "data")
            or not (f.get("type") == "metadata" or name.endswith("Value"))
        ):
            continue
        body, expected = Encoder(f, "full").encode(v)
        topic, key, value = frame(label, name, v, body)
        dec = decode(topic, key, value, kafka_release=label.split("-")[0] if label[0].isdigit() else None)
        assert dec is not None and dec.version == v, name
        assert mismatches(expected, normalized(dec.value)) == [], name
        done += 1
    assert done > 40
