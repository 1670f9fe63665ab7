"""Construct reference codec == fast codec, for every structure in schemas/ (found by loading the schemas)."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.differential import agree_on, api, class_of, common, encode_headed, module_of
from support.settings import scaled
from support.strategies import MAX_ITEMS, StrategyBuilder, Unsupported, shape_of

from kafkaspec.spec import load

SCHEMAS = load(Path(__file__).resolve().parents[2] / "schemas")
#: proposals (schemas/proposals/, never on the wire) have straight-line codecs of their own
#: (codegen/plan_proposal.py), tested against their Construct references in test_proposal_codecs.py
PROPOSALS = sorted(ref for ref, s in SCHEMAS.structs.items() if s.status == "proposal")
REFS = sorted(ref for ref in SCHEMAS.structs if ref not in PROPOSALS)
BUILDER = StrategyBuilder(SCHEMAS, class_of)

#: structure kinds the strategy builder does not draw yet: ref -> reason (xfail, strict)
KNOWN_UNSUPPORTED: dict[str, str] = {}


def test_every_structure_is_covered():
    """The parametrisation below is the schema set itself; it must hold the v2 formats at least."""
    assert {"RecordBatch@2", "Record@2", "Header@2", "ControlRecordKey@0", "EndTransactionMarker@0"} <= set(
        REFS
    )


@pytest.mark.parametrize("ref", PROPOSALS)
def test_proposals_have_their_own_codec(ref):
    s = SCHEMAS.structs[ref]
    mod = importlib.import_module(f"kafkaspec.generated.{s.module}")
    assert (mod.NAME, mod.VERSION, mod.STATUS) == (s.name, s.version, "proposal")


@pytest.mark.parametrize("ref", REFS)
def test_generated_module_matches_schema(ref):
    """Every structure has a generated module whose typed value has the schema's exposed fields, in order."""
    s = SCHEMAS.structs[ref]
    mod = module_of(s)
    assert mod.NAME == s.name and mod.VERSION == s.version
    exposed = tuple(f.exposed_name for f in s.fields if not (f.length_of or f.count_of))
    assert class_of(s)._fields == exposed


@pytest.mark.parametrize("ref", REFS)
@scaled(3)
@given(data=st.data())
def test_construct_equals_fast(ref, data):
    s = SCHEMAS.structs[ref]
    shape = shape_of(s)
    try:
        BUILDER.check(s)
    except Unsupported as exc:
        if ref in KNOWN_UNSUPPORTED:
            pytest.xfail(KNOWN_UNSUPPORTED[ref])
        pytest.fail(f"no value strategy for {ref}: {exc}")
    bases = {b: data.draw(st.integers(-(1 << 62), 1 << 62), label=b) for b in shape.bases}
    if shape.headed or shape.single:
        items = [data.draw(BUILDER.value(s, bases), label=ref)]
    else:
        items = data.draw(st.lists(BUILDER.value(s, bases), min_size=1, max_size=MAX_ITEMS), label=ref)
    common(shape, items, bases)


@pytest.mark.parametrize("ref", REFS)
@scaled(3)
@given(data=st.data())
def test_codecs_agree_on_damaged_bytes(ref, data):
    s = SCHEMAS.structs[ref]
    shape = shape_of(s)
    try:
        BUILDER.check(s)
    except Unsupported as exc:
        pytest.fail(f"no value strategy for {ref}: {exc}")
    bases = {b: data.draw(st.integers(-(1 << 62), 1 << 62), label=b) for b in shape.bases}
    value = data.draw(BUILDER.value(s, bases), label=ref)
    if shape.headed:
        encoded = encode_headed(s, value)
    else:
        encoded = api(s, "encode_{snake}_array")([value], **bases)
    damaged = bytearray(encoded)
    for _ in range(data.draw(st.integers(1, 3), label="changes")):
        if not damaged:
            break
        at = data.draw(st.integers(0, len(damaged) - 1), label="at")
        damaged[at] = data.draw(st.integers(0, 255), label="byte")
    cut = data.draw(st.integers(0, len(damaged)), label="keep")
    agree_on(shape, bytes(damaged[:cut] if data.draw(st.booleans(), label="truncate") else damaged), 1, bases)


DISPATCH_CASES = [(d, value, ref) for d in SCHEMAS.dispatches for value, ref in sorted(d.cases.items())]


@pytest.mark.parametrize(
    "d, value, ref", DISPATCH_CASES, ids=[f"{d.name}[{value}]={ref}" for d, value, ref in DISPATCH_CASES]
)
@scaled(10)
@given(data=st.data())
def test_dispatch_finds_the_structure(d, value, ref, data):
    """A dispatch module reads the discriminator each case's encoder writes, and maps it to that case's module."""
    s = SCHEMAS.resolve(ref)
    shape = shape_of(s)
    mod = importlib.import_module(f"kafkaspec.generated.{d.module}")
    assert mod.CASES[value] is module_of(s)
    assert mod.DISCRIMINATOR_OFFSET == d.offset
    item = data.draw(BUILDER.value(s), label=ref)
    encoded = encode_headed(s, item) if shape.headed else api(s, "encode_{snake}_array")([item])
    assert mod.discriminator(encoded) == value


def test_fast_codecs_do_not_load_construct():
    """The Construct reference codecs live in kafkaspec.generated.reference, loaded only by those who use them."""
    import subprocess
    import sys

    modules = [f"kafkaspec.generated.{SCHEMAS.structs[ref].module}" for ref in REFS]
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        "print(sorted(m for m in sys.modules if m == 'construct' or m.startswith(('construct.', "
        "'kafkaspec.codec._construct', 'kafkaspec.generated.reference'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize("ref", REFS)
def test_every_structure_has_a_reference_codec(ref):
    s = SCHEMAS.structs[ref]
    assert api(s, "{snake}_construct") is getattr(
        importlib.import_module(f"kafkaspec.generated.reference.{s.module}"),
        f"{s.module.rsplit('_v', 1)[0]}_construct",
    )
