"""Construct reference codec == fast codec, for every legacy schema (status: legacy, plus Message v0/v1).

tests/v2's differential test draws values for every schema generically; this one pins hand-picked
edge values (nulls, empties, extremes) per legacy structure and checks both codecs byte for byte.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kafkaspec.spec import load

SCHEMAS = load(Path(__file__).resolve().parents[2] / "schemas", lint=False)
LEGACY = sorted(ref for ref, s in SCHEMAS.structs.items() if s.status == "legacy")

I64 = st.integers(-(1 << 63), (1 << 63) - 1)
I32 = st.integers(-(1 << 31), (1 << 31) - 1)
BLOB = st.one_of(st.none(), st.binary(max_size=40))


def _mod(ref):
    s = SCHEMAS.structs[ref]
    return s, importlib.import_module(f"kafkaspec.generated.{s.module}")


def _values(ref):
    """A strategy of keyword values for the exposed, non-computed fields of ``ref``."""
    s, mod = _mod(ref)
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
            fields[f.name] = st.lists(_values(item.ref).map(lambda kw, r=item.ref: _cls(r)(**kw)), max_size=3)
        else:
            raise AssertionError(f"{ref}: no strategy for {f.type}")
    return st.fixed_dictionaries(fields)


def _cls(ref):
    s, mod = _mod(ref)
    return getattr(mod, s.name)


def test_every_legacy_structure_is_here():
    assert {"Message@0", "Message@1", "WireMessage@0", "WireMessage@1", "ProduceRequest@0", "FetchRequest@0",
            "MultiFetchRequest@0", "MultiProduceRequest@0", "OffsetsRequest@0", "OffsetsResponse@0",
            "FetchResponse@0", "MultiFetchResponse@0", "RequestHeader@0", "MultiRequestHeader@0",
            "ResponseHeader@0"} <= set(LEGACY)


@pytest.mark.parametrize("ref", LEGACY)
@settings(max_examples=40, deadline=None, derandomize=True)
@given(data=st.data())
def test_construct_equals_fast(ref, data):
    s, mod = _mod(ref)
    kw = data.draw(_values(ref))
    snake = s.module.rsplit("_v", 1)[0]
    construct = getattr(importlib.import_module(f"kafkaspec.generated.reference.{s.module}"), f"{snake}_construct")
    if s.discriminator:
        fast = getattr(mod, f"encode_{snake}")(**kw)
        value, end = getattr(mod, f"decode_{snake}")(fast)
    else:
        fast = getattr(mod, f"encode_{snake}")(_cls(ref)(**kw))
        value, end = getattr(mod, f"decode_{snake}")(fast)
    assert end == len(fast)
    assert construct.build(value) == fast
    assert construct.parse(fast) == value
    for name, v in kw.items():
        assert getattr(value, name) == v
