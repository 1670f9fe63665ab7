"""Construct reference codec == fast codec == round trip for every legacy schema, on hand-picked edge values.

tests/codecs/test_v2_differential.py draws values for every schema generically; this one draws the edge
values of the legacy formats (nulls, empties, extremes, every codec number in the attribute bits) and
checks them with the same helper, :func:`support.differential.common`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.differential import class_of, common
from support.strategies import shape_of

from kafkaspec.spec import load

SCHEMAS = load(Path(__file__).resolve().parents[2] / "schemas", lint=False)
LEGACY = sorted(ref for ref, s in SCHEMAS.structs.items() if s.status == "legacy")

I64 = st.integers(-(1 << 63), (1 << 63) - 1)
I32 = st.integers(-(1 << 31), (1 << 31) - 1)
BLOB = st.one_of(st.none(), st.binary(max_size=40))


def _values(ref):
    """A strategy of keyword values for the exposed, non-computed fields of ``ref``."""
    s = SCHEMAS.structs[ref]
    fields = {}
    for f in s.fields:
        if f.length_of or f.count_of or f.checksum or f.const is not None:
            continue
        if f.type == "int64":
            fields[f.name] = I64
        elif f.type == "int32":
            fields[f.name] = I32
        elif f.type == "int16":
            fields[f.name] = st.integers(-(1 << 15), (1 << 15) - 1)
        elif f.type == "int8":
            fields[f.name] = st.integers(0, 7) if f.bits else st.integers(-128, 127)
        elif f.type == "bytes":
            fields[f.name] = BLOB if f.nullable else st.binary(max_size=40)
        elif f.type == "string":
            fields[f.name] = st.text(max_size=12)
        elif f.type == "array":
            item = SCHEMAS.resolve(f.items)
            fields[f.name] = st.lists(_values(item.ref).map(lambda kw, s=item: class_of(s)(**kw)), max_size=3)
        else:
            raise AssertionError(f"{ref}: no strategy for {f.type}")
    return st.fixed_dictionaries(fields)


def test_every_legacy_structure_is_here():
    assert {
        "Message@0",
        "Message@1",
        "WireMessage@0",
        "WireMessage@1",
        "ProduceRequest@0",
        "FetchRequest@0",
        "MultiFetchRequest@0",
        "MultiProduceRequest@0",
        "OffsetsRequest@0",
        "OffsetsResponse@0",
        "FetchResponse@0",
        "MultiFetchResponse@0",
        "RequestHeader@0",
        "MultiRequestHeader@0",
        "ResponseHeader@0",
    } <= set(LEGACY)


@pytest.mark.parametrize("ref", LEGACY)
@settings(max_examples=40, deadline=None, derandomize=True)
@given(data=st.data())
def test_construct_equals_fast(ref, data):
    s = SCHEMAS.structs[ref]
    kw = data.draw(_values(ref))
    # common() checks: fast encode == Construct build, fast decode == Construct parse == the value
    # (checksum fields: the real checksum), both codecs refuse a changed constant or checksummed byte
    common(shape_of(s), [class_of(s)(**kw)])
