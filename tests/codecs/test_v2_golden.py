"""Golden byte vectors (tests/codecs/vectors/*.json), hand-assembled from the layouts of seeds 000/001.

Each file holds the bytes as a field-by-field ``layout`` (what a reviewer checks
against the seed's field table), their concatenation ``hex``, the ``expected``
decoded values, and optionally ``build``: the kafkaspec.build_batch (or
build_control_batch) arguments that must produce exactly these bytes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kafkaspec import Record, build_batch, build_control_batch, iter_batches
from kafkaspec.generated import record_batch_v2 as v2
from kafkaspec.generated.reference import record_batch_v2 as record_batch_v2_reference

VECTORS = sorted((Path(__file__).parent / "vectors").glob("*.json"))
BATCH_FIELDS = (
    "base_offset",
    "last_offset",
    "partition_leader_epoch",
    "compression",
    "timestamp_type",
    "is_transactional",
    "is_control",
    "producer_id",
    "producer_epoch",
    "base_sequence",
    "base_timestamp",
    "max_timestamp",
)


def _bytes(h):
    return None if h is None else bytes.fromhex(h)


def test_vectors_exist():
    assert len(VECTORS) >= 5


@pytest.mark.parametrize("path", VECTORS, ids=[p.stem for p in VECTORS])
def test_golden_vector(path):
    v = json.loads(path.read_text(encoding="utf-8"))
    data = bytes.fromhex(v["hex"])
    assert "".join(h for _, h in v["layout"]) == v["hex"], "layout and hex disagree"
    exp = v["expected"]

    it = iter_batches(data)
    batches = list(it)
    assert it.partial is None and len(batches) == 1
    (b,) = batches
    assert {k: getattr(b, k) for k in BATCH_FIELDS} == {k: exp[k] for k in BATCH_FIELDS}
    got = [
        {
            "offset": r.offset,
            "timestamp": r.timestamp,
            "key": None if r.key is None else r.key.hex(),
            "value": None if r.value is None else r.value.hex(),
            "headers": [[k, None if hv is None else hv.hex()] for k, hv in r.headers],
        }
        for r in b
    ]
    assert got == exp["records"]
    if "control" in exp:
        c = b.control
        assert {k: getattr(c, k) for k in exp["control"]} == exp["control"]

    # the generated fast codec and the Construct reference codec read the same batch
    fast, end = v2.decode_record_batch(data)
    assert end == len(data)
    assert record_batch_v2_reference.record_batch_construct.parse(data) == fast
    if exp["compression"] == "none":
        fields = {k: getattr(fast, k) for k in fast._fields if k not in ("magic", "crc")}
        assert v2.encode_record_batch(**fields) == data, "re-encoding the decoded batch changes its bytes"

    if "build" in v:
        args = dict(v["build"])
        if "control" in args:
            rebuilt = build_control_batch(args.pop("control"), **args)
        else:
            records = [
                Record(
                    key=_bytes(r["key"]),
                    value=_bytes(r["value"]),
                    timestamp=r["timestamp"],
                    headers=[(k, _bytes(h)) for k, h in r.get("headers", [])],
                )
                for r in args.pop("records")
            ]
            rebuilt = build_batch(records, **args)
        assert rebuilt.hex() == v["hex"]
