"""Golden vectors hand-assembled from seed 002's diagrams (golden/seed002.jsonl): decode to the
expected values, and re-encode to the same bytes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kafkaspec import errors, wire, wire_protocol

VECTORS = [
    json.loads(line) for line in (Path(__file__).parent / "golden" / "seed002.jsonl").read_text().splitlines()
]


@pytest.mark.parametrize("v", VECTORS, ids=[v["id"] for v in VECTORS])
def test_golden(v):
    data = bytes.fromhex(v["hex"])
    e = v["expected"]
    if v["kind"] == "wire_messages":
        it = wire.iter_wire_messages(data, base_offset=v.get("base_offset", 0))
        got = list(it)
        assert it.partial is None
        assert len(got) == len(e["messages"])
        for m, x in zip(got, e["messages"], strict=True):
            assert (m.offset, m.magic, m.compression) == (x["offset"], x["magic"], x["compression"])
            if "payload" in x:
                assert m.payload == x["payload"].encode()
                assert m.next_offset == x["next_offset"]
                assert m.raw() == data[m.position : m.end]
            if "records" in x:
                assert [r.payload for r in m.records] == [p.encode() for p in x["records"]]
                assert {r.offset for r in m.records} == {x["offset"]}
        if all(x["compression"] == "none" for x in e["messages"]):
            rebuilt = b"".join(wire.build_wire_messages([m.payload], magic=m.magic) for m in got)
            assert rebuilt == data
    elif v["kind"] == "fetch_response":
        result = wire_protocol.decode_fetch_response(data, base_offset=v.get("base_offset", 0))
        assert result.error_code == e["error_code"]
        if "error" in e:
            assert result.error.name == e["error"]
        assert [m.payload for m in result.messages] == [p.encode() for p in e["payloads"]]
        if e["partial"] is None:
            assert result.partial is None
        else:
            assert result.partial._asdict() == e["partial"]
    elif v["kind"] == "request":
        request, end = wire_protocol.decode_request(data)
        assert end == len(data)
        assert type(request).__name__ == e["type"]
        for name, value in e.items():
            if name == "type":
                continue
            if name == "messages_hex":
                assert request.messages.hex() == value
            elif name == "fetches":
                assert [tuple(f) for f in request.fetches] == [tuple(f) for f in value]
            elif name == "produces":
                assert [(p.topic, p.partition, p.messages.hex()) for p in request.produces] == [
                    tuple(p) for p in value
                ]
            else:
                assert getattr(request, name) == value
        assert wire_protocol.encode(request) == data
    elif v["kind"] == "offsets_response":
        from kafkaspec.generated import offsets_response_v0

        response, _ = offsets_response_v0.decode_offsets_response(data)
        assert response.error_code == e["error_code"]
        assert [o.offset for o in response.offsets] == e["offsets"]
        assert wire_protocol.encode(response) == data
    elif v["kind"] == "multi_fetch_response":
        error_code, parts = wire_protocol.decode_multi_fetch_response(data)
        assert error_code == e["error_code"]
        assert [(p.error_code, [m.payload.decode() for m in p.messages]) for p in parts] == [
            (x["error_code"], x["payloads"]) for x in e["parts"]
        ]
    else:
        raise AssertionError(v["kind"])


def test_truncated_request_is_an_error_not_a_partial():
    data = bytes.fromhex(VECTORS[5]["hex"])[:-3]
    with pytest.raises(errors.TruncatedError, match="needs"):
        wire_protocol.decode_request(data)


def test_unknown_request_type():
    with pytest.raises(errors.InvalidMagicError, match="REQUEST_TYPE is 9"):
        wire_protocol.decode_request(bytes.fromhex("000000020009"))
