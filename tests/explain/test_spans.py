"""The generated tracing decoders (kafkaspec.generated.trace): over every golden vector, every valid
corpus vector and values of every schema, the recorded spans tile the input exactly (no gap, no
overlap, in the input and in every decompressed region) and the values equal the fast codec's."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.corpus import load_vectors
from support.differential import _plain, api, class_of, encode_headed
from support.explain import assert_tiles
from support.settings import scaled
from support.strategies import StrategyBuilder, shape_of

from kafkaspec.explain import explain
from kafkaspec.explain.tracer import Tracer
from kafkaspec.generated import trace
from kafkaspec.spec import load, snake

REPO = Path(__file__).resolve().parents[2]
SCHEMAS = load(REPO / "schemas")
REFS = sorted(ref for ref, s in SCHEMAS.structs.items() if s.status != "proposal")
BUILDER = StrategyBuilder(SCHEMAS, class_of)
GOLDEN = sorted((REPO / "tests" / "codecs" / "vectors").glob("*.json"))
SEED002 = [json.loads(line) for line in (REPO / "tests" / "codecs" / "golden" / "seed002.jsonl").open()]
#: seed 002's vectors by the format they hold
SEED002_FORMATS = {
    "wire_messages": "wire-message",
    "fetch_response": "fetch-response-v0",
    "offsets_response": "offsets-response-v0",
    "multi_fetch_response": "multi-fetch-response-v0",
}
REQUESTS = {
    0: "produce-request-v0",
    1: "fetch-request-v0",
    2: "multi-fetch-request-v0",
    3: "multi-produce-request-v0",
    4: "offsets-request-v0",
}


def fast_values(expl, data: bytes) -> list:
    """Decode each top-level entry again with the fast codec, at the position the trace found it."""
    out = []
    for node in expl.entries:
        name, version = node.type.split(" v")
        module = importlib.import_module(f"kafkaspec.generated.{snake(name)}_v{version}")
        value, end = getattr(module, f"decode_{snake(name)}")(data, node.start)
        assert end == node.end, f"{node.type} at {node.start}: fast codec ends at {end}, trace at {node.end}"
        out.append(value)
    return out


def check(data: bytes, fmt: str = "auto"):
    expl = explain(data, fmt)
    assert expl.failure is None and expl.partial is None, expl.failure or expl.partial
    assert not expl.problems, expl.problems
    assert expl.entries, "nothing decoded"
    assert assert_tiles(expl) > 0
    assert expl.entries[0].start == 0 and expl.entries[-1].end == len(data)
    assert _plain(expl.values) == _plain(fast_values(expl, data))
    return expl


# -- the checker itself can fail ------------------------------------------------------------------------


def test_tiling_check_sees_a_gap_and_an_overlap():
    v = json.loads(GOLDEN[0].read_text())
    expl = explain(bytes.fromhex(v["hex"]))
    leaf = next(iter(expl.entries[0].leaves()))
    leaf.end -= 1
    with pytest.raises(AssertionError, match="gap"):
        assert_tiles(expl)
    leaf.end += 2
    with pytest.raises(AssertionError, match="overlap"):
        assert_tiles(expl)


# -- golden vectors ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_v2_vector(path):
    v = json.loads(path.read_text(encoding="utf-8"))
    data = bytes.fromhex(v["hex"])
    expl = check(data, "batch")
    # every field boundary of the hand-made layout is a leaf boundary of the trace
    edges = {leaf.end for leaf in expl.entries[0].leaves() if leaf.stream == 0}
    at = 0
    for name, piece in v["layout"]:
        at += len(piece) // 2
        assert at in edges, f"the layout's {name!r} ends at byte {at}, inside a traced span"


@pytest.mark.parametrize("v", SEED002, ids=[v["id"] for v in SEED002])
def test_golden_seed002_vector(v):
    data = bytes.fromhex(v["hex"])
    fmt = SEED002_FORMATS.get(v["kind"]) or REQUESTS[int.from_bytes(data[4:6], "big")]
    expl = explain(data, fmt)
    assert expl.failure is None and expl.partial is None and not expl.problems
    assert assert_tiles(expl) > 0
    assert _plain(expl.values) == _plain(fast_values(expl, data))
    if v["id"] == "0.7-fetch-response-cut-mid-message":  # the cut message is a partial leaf, not an error
        partial = [n for _, n in expl.entries[0].walk() if n.kind == "partial"]
        assert [(p.start, p.end) for p in partial] == [(37, 44)]
    if v["id"] == "0.7-message-gzip":
        assert len(expl.streams) == 2
        inner = [n for _, n in expl.entries[0].walk() if n.stream == 1 and n.kind == "struct"]
        assert [n.type for n in inner] == ["WireMessage v0"] * 3 or len(inner) == 3


FETCH_GOLDEN = [
    json.loads(line) for line in (REPO / "tests" / "codecs" / "golden" / "fetch_responses.jsonl").open()
]


@pytest.mark.parametrize("v", FETCH_GOLDEN, ids=[v["id"] for v in FETCH_GOLDEN])
def test_golden_fetch_response_vector(v):
    data = bytes.fromhex(v["hex"])
    expl = check(data, v["format"])
    leaves = [leaf for leaf in expl.entries[0].leaves() if leaf.stream == 0]
    edges = {leaf.end for leaf in leaves}
    at = 0
    for name, piece in v["layout"]:  # every field of the hand-made layout ends where a traced span does
        at += len(piece) // 2
        assert at in edges, f"the layout's {name!r} ends at byte {at}, inside a traced span"
    partial = [(n.start, n.end) for _, n in expl.entries[0].walk() if n.kind == "partial"]
    assert partial == [tuple(p) for p in v["partial"]]
    nulls = [
        n.name
        for _, n in expl.entries[0].walk()
        if "null" in n.notes and n.name in ("aborted_transactions", "records", "message_set")
    ]
    assert nulls == (["aborted_transactions", "records"] if "null" in v["id"] else [])


def test_a_negative_count_other_than_null_is_pointed_at():
    v = next(v for v in FETCH_GOLDEN if v["id"] == "fetch-v10-null-and-aborted")
    data = bytes.fromhex(v["hex"].replace("ffffffff", "fffffffe", 1))
    expl = explain(data, v["format"])
    assert expl.failure is not None and expl.failure.position == 59
    assert expl.failure.path.endswith("partitions[0].aborted_transactions")
    assert "count is -2: only -1 (null) may be negative" in expl.failure.message


# -- the real-world corpus ---------------------------------------------------------------------------------

CORPUS = load_vectors()
BROKEN_KINDS = {
    "message_set_truncated",
    "message_set_with_trailing_garbage",
    "record_batch_crc_zeroed",
    "message_set_with_trailing_overflow",
    "record_batch_truncated",
    "record_batches_with_trailing_garbage",
    "message_set_corrupt",
    "record_batch_mislabelled_codec",
    "codec_payload",
    "record_body",
}


def _corpus_bytes(v: dict) -> bytes:
    return bytes.fromhex(v["expected"].get("log_entry_hex_derived") or v["hex"])


def _is_broken(v: dict) -> bool:
    a = v["expected"].get("asserted", {})
    bad_crc = any(
        not b.get("crc_valid", True)
        for b in v["expected"].get("decoded_kafka_python") or []
        if isinstance(b, dict)
    )
    return (
        bad_crc
        or v["kind"] in BROKEN_KINDS
        or "error" in a
        or "invalid_crc" in v["id"]
        or (
            v["kind"] == "legacy_message_no_log_header"
            and ("value_after_decode" in a or str(a.get("value", "")).startswith("empty"))
        )
    )


VALID = [v for v in CORPUS if not _is_broken(v)]


def test_corpus_has_valid_vectors(corpus):
    assert len(VALID) >= 100


@pytest.mark.parametrize("v", VALID, ids=[v["id"] for v in VALID])
def test_corpus_vector(v, corpus):
    check(_corpus_bytes(v), "batch")


# -- every schema, over values drawn from it -------------------------------------------------------------------


@pytest.mark.parametrize("ref", REFS)
@scaled(6)
@given(data=st.data())
def test_every_schema_tiles(ref, data):
    s = SCHEMAS.structs[ref]
    shape = shape_of(s)
    bases = {b: data.draw(st.integers(-(1 << 62), 1 << 62), label=b) for b in shape.bases}
    value = data.draw(BUILDER.value(s, bases), label=ref)
    encoded = encode_headed(s, value) if shape.headed else api(s, "encode_{snake}_array")([value], **bases)
    t = Tracer(encoded)
    module = importlib.import_module(f"kafkaspec.generated.trace.{s.module}")
    traced = getattr(module, f"trace_{snake(s.name)}")(t, **bases)
    assert t.pos == len(encoded) and not t.problems
    if shape.headed:
        fast, _ = api(s, "decode_{snake}")(encoded)
    else:
        (fast,), _ = api(s, "decode_{snake}_array")(encoded, 0, 1, **bases)
    assert _plain(traced) == _plain(fast)

    class Result:  # the tracer's tree, as assert_tiles reads an explanation
        streams, entries = t.streams, t.roots

    assert assert_tiles(Result) > 0


def test_every_schema_has_a_format():
    names = {f"{SCHEMAS.structs[ref].module.replace('_', '-')}" for ref in REFS}
    assert names <= set(trace.FORMATS)
    assert {"log-entry", "wire-message-any"} <= set(trace.FORMATS)


def test_a_type_without_a_tracing_decoder_is_named():
    from dataclasses import replace

    from kafkaspec.codegen.plan import Planner
    from kafkaspec.codegen.plan_trace import TracePlanner

    s = SCHEMAS.structs["Header@2"]
    odd = replace(s, fields=[replace(s.fields[0], type="compact_string")])
    with pytest.raises(
        ValueError, match="Header@2 field 'key': type 'compact_string' has no tracing decoder"
    ):
        TracePlanner(SCHEMAS, Planner(SCHEMAS).min_size).plan(odd)
