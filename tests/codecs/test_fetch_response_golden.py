"""Golden vectors of the 0.8+ Fetch responses (golden/fetch_responses.jsonl), assembled by hand from
the layout of schemas/protocol/: each field's bytes written out, in order. The fast codec decodes
them to the expected values and encodes the values back to the same bytes; the Construct reference
codec parses and builds the same."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kafkaspec.errors import InvalidLengthError
from kafkaspec.generated import fetch_response_frame_v10, fetch_response_payload_v0
from kafkaspec.generated.reference import fetch_response_frame_v10 as ref_v10
from kafkaspec.generated.reference import fetch_response_payload_v0 as ref_v0

VECTORS = [
    json.loads(line)
    for line in (Path(__file__).parent / "golden" / "fetch_responses.jsonl").read_text().splitlines()
]
CODECS = {
    "fetch-response-payload-v0": (
        fetch_response_payload_v0.decode_fetch_response_payload,
        fetch_response_payload_v0.encode_fetch_response_payload,
        ref_v0.fetch_response_payload_construct,
    ),
    "fetch-response-frame-v10": (
        fetch_response_frame_v10.decode_fetch_response_frame,
        fetch_response_frame_v10.encode_fetch_response_frame,
        ref_v10.fetch_response_frame_construct,
    ),
}


def plain(value):
    """NamedTuples as dicts, byte strings as hex (the vectors' JSON form)."""
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return {k: plain(v) for k, v in value._asdict().items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value).hex()
    return value


def test_vectors_cover_nulls_partials_and_both_versions():
    assert {v["format"] for v in VECTORS} == set(CODECS)
    hexes = "".join(v["hex"] for v in VECTORS)
    assert "ffffffff" in hexes and any(v["partial"] for v in VECTORS)


@pytest.mark.parametrize("v", VECTORS, ids=[v["id"] for v in VECTORS])
def test_golden(v):
    data = bytes.fromhex(v["hex"])
    assert "".join(piece for _, piece in v["layout"]) == v["hex"]
    decode, encode, construct = CODECS[v["format"]]
    value, end = decode(data)
    assert end == len(data)
    assert plain(value) == v["expected"]
    assert encode(value) == data
    parsed = construct.parse(data)
    assert plain(parsed) == v["expected"]
    assert construct.build(parsed) == data


def test_a_negative_count_other_than_null_is_refused():
    """Count -1 is null; -2 is no count at all, in both codecs."""
    v = next(v for v in VECTORS if v["id"] == "fetch-v10-null-and-aborted")
    data = bytes.fromhex(v["hex"].replace("ffffffff", "fffffffe", 1))
    decode, _, construct = CODECS[v["format"]]
    with pytest.raises(InvalidLengthError, match="-2 AbortedTransactions cannot fit"):
        decode(data)
    with pytest.raises(ValueError, match="negative count -2 at .*aborted_transactions"):
        construct.parse(data)
