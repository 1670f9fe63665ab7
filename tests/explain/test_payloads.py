"""``kafkaspec explain`` descends into Kafka's own payloads (issue 14): the tracing decoders of
generated/trace/messages/ read every message version field by field, their spans tile the payload
exactly, and explain reads KRaft control values always and the keys and values of
__consumer_offsets / __transaction_state / __cluster_metadata partitions and .checkpoint snapshots
by the path (or --decode)."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.corpus import CORPUS
from support.explain import assert_tiles, run
from support.message_strategies import message_values
from support.settings import scaled

from kafkaspec import Record, build_batch
from kafkaspec.explain import explain
from kafkaspec.explain.tracer import Tracer, TraceStop
from kafkaspec.explain.tree import Explanation
from kafkaspec.spec import load, snake

REPO = Path(__file__).resolve().parents[2]
SCHEMAS = load(REPO / "schemas")
CASES = sorted((m.name, v) for m in SCHEMAS.messages.values() for v in m.versions)
SEGMENTS = CORPUS / "files" / "segments"
PAYLOAD_FILES = sorted(
    p
    for p in SEGMENTS.rglob("*")
    if p.is_file()
    and (
        (
            p.suffix == ".log"
            and p.parent.name.rpartition("-")[0]
            in ("__consumer_offsets", "__cluster_metadata", "__transaction_state")
        )
        or (
            p.suffix == ".checkpoint"
            and p.name != "leader-epoch-checkpoint"
            and "-" not in p.stem.replace("bootstrap", "")
        )
        or p.name == "bootstrap.checkpoint"
    )
)


def trace_message(name: str, version: int, data: bytes) -> Explanation:
    tracer = Tracer(data)
    module = importlib.import_module(f"kafkaspec.generated.trace.messages.{snake(name)}")
    getattr(module, f"trace_{snake(name)}")(tracer, version)
    assert tracer.pos == len(data), f"{name} v{version}: the trace ends at {tracer.pos} of {len(data)}"
    return Explanation(name, tracer.streams, tracer.roots, problems=tracer.problems)


@pytest.mark.parametrize(("name", "version"), CASES, ids=[f"{n}-v{v}" for n, v in CASES])
@scaled(10)
@given(data=st.data())
def test_every_message_version_traces_to_tiling_spans(name, version, data):
    message = next(m for m in SCHEMAS.messages.values() if m.name == name)
    codec = importlib.import_module(f"kafkaspec.generated.messages.{snake(name)}")
    value = data.draw(message_values(message, version))
    raw = getattr(codec, f"encode_{snake(name)}")(value, version)
    expl = trace_message(name, version, raw)
    assert not expl.problems
    assert assert_tiles(expl) > 0 or not raw


def test_a_tagged_field_whose_size_lies_stops_the_trace():
    # ConsumerGroupMetadataValue v0: epoch, then 1 tagged field: tag 0 (metadata_hash, an int64) says 4 bytes
    data = bytes.fromhex("0000000501000400000000")
    with pytest.raises(TraceStop, match="tag 0"):
        trace_message("ConsumerGroupMetadataValue", 0, data)


def test_a_compact_length_beyond_the_payload_stops_the_trace():
    # FeatureLevelRecord v0: name "x" claims 9 bytes (compact 10) in a 5-byte payload
    with pytest.raises(TraceStop, match="name"):
        trace_message("FeatureLevelRecord", 0, bytes.fromhex("0a78000100"))


def test_an_unknown_tag_is_shown_as_bytes():
    # ConsumerGroupMetadataValue v0 with tag 9 (unknown), 2 bytes
    expl = trace_message("ConsumerGroupMetadataValue", 0, bytes.fromhex("00000005010902abcd"))
    assert any(leaf.name == "tag 9" and leaf.value == b"\xab\xcd" for leaf in expl.entries[0].leaves())
    assert assert_tiles(expl) > 0


# -- in explain: control values always, record keys and values by path or --decode ---------------------


def _types(expl) -> set[str]:
    return {node.type for entry in expl.entries for _, node in entry.walk()}


def test_a_metadata_record_value_is_read_field_by_field_with_decode():
    value = bytes([1, 12, 0]) + bytes([2]) + b"x" + bytes([0, 7, 0])  # FeatureLevelRecord v0: "x" level 7
    data = build_batch([Record(key=None, value=value, timestamp=1)])
    assert "FeatureLevelRecord v0" not in _types(explain(data))  # an ordinary topic: opaque bytes
    expl = explain(data, decode="metadata")
    assert "FeatureLevelRecord v0" in _types(expl) and assert_tiles(expl) > 0
    level = next(n for e in expl.entries for _, n in e.walk() if n.name == "feature_level")
    assert level.value == 7


def test_an_offsets_key_and_value_are_read_with_their_record_type():
    key = bytes.fromhex("000100016700017400000000")  # OffsetCommitKey v1: group g, topic t, partition 0
    value = bytes.fromhex("0001000000000000002a000000000000000000010000000000000002")  # OffsetCommitValue v1
    expl = explain(build_batch([Record(key=key, value=value, timestamp=1)]), decode="offsets")
    assert {"OffsetCommitKey v1", "OffsetCommitValue v1"} <= _types(expl)
    assert assert_tiles(expl) > 0


def test_the_decode_option_is_checked():
    with pytest.raises(ValueError, match="decode must be"):
        explain(build_batch([Record(key=None, value=b"v", timestamp=1)]), decode="everything")


@pytest.mark.parametrize("path", PAYLOAD_FILES, ids=[str(p.relative_to(SEGMENTS)) for p in PAYLOAD_FILES])
def test_corpus_payload_files_are_explained_to_the_last_byte(path):
    expl = explain(path.read_bytes(), path=str(path))
    assert expl.failure is None and expl.partial is None and not expl.problems, expl.failure or expl.partial
    types = _types(expl)
    assert any(
        t.endswith(
            (
                "Key v0",
                "Key v1",
                "Key v2",
                "Record v0",
                "Record v1",
                "Record v2",
                "Record v3",
                "Message v0",
                "Message v1",
                "Value v0",
                "Value v3",
            )
        )
        and not t.startswith("Record ")
        for t in types
    ), f"no payload read as a message in {path.name}: {sorted(types)[:8]}"
    assert assert_tiles(expl) > 0


def test_cli_decode_none_leaves_payloads_as_bytes():
    path = next(p for p in PAYLOAD_FILES if p.parent.name.startswith("__consumer_offsets"))
    code, out, _ = run("explain", str(path), "--color", "never", "--count", "2")
    assert code == 0 and ("OffsetCommitKey" in out or "GroupMetadataKey" in out)
    code, out, _ = run("explain", str(path), "--color", "never", "--count", "2", "--decode", "none")
    assert code == 0 and "OffsetCommitKey" not in out and "GroupMetadataKey" not in out
