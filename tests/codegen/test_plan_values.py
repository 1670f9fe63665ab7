"""A structure's plan says what, the templates say how: defaults, layout constants, relative fields and
the reference codec's Construct fields are data (Python values, small records), not fragments of
Python source the planner wrote. Rendering them is the templates' job; the generated output is the
same byte for byte (``python -m kafkaspec.codegen --check`` proves that)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from kafkaspec.codegen.plan import Planner
from kafkaspec.codegen.render import environment
from kafkaspec.spec import load

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = load(ROOT / "schemas")
PLANNER = Planner(SCHEMAS)


def _plans():
    return [PLANNER.plan(s) for s in SCHEMAS.structs.values() if s.status != "proposal"]


def _plan(name: str):
    return next(p for p in _plans() if p.module == name)


def test_defaults_are_python_values() -> None:
    record = _plan("record_v2")
    defaults = {tf.name: tf.default for tf in record.tuple_fields}
    assert defaults["attributes"] == 0 and type(defaults["attributes"]) is int
    assert defaults["headers"] == () and type(defaults["headers"]) is tuple
    assert defaults["key"] is None
    hints = {tf.name: (tf.hint, tf.optional) for tf in record.tuple_fields}
    assert hints["key"] == ("bytes", True) and hints["attributes"] == ("int", False)
    params = {p.name: p for p in record.params}
    assert params["headers"].default == () and not params["headers"].required
    assert params["attributes"].default == 0
    for p in _plans():
        for tf in p.tuple_fields:
            # no default is Python source (a string default would be a string field's own value)
            assert not isinstance(tf.default, str), (p.module, tf.name, tf.default)
        for param in p.params:
            assert not isinstance(param.default, str), (p.module, param.name, param.default)
        for c in p.column_fields:
            assert not isinstance(c.default, str), (p.module, c.name, c.default)
        for col in p.columns.columns if p.columns else ():
            assert not isinstance(col.value, str), (p.module, col.col, col.value)


def test_a_field_without_default_is_a_required_parameter() -> None:
    batch = _plan("record_batch_v2")
    params = {p.name: p for p in batch.params}
    assert params["base_offset"].required and params["base_offset"].default is None
    assert not params["producer_id"].required and params["producer_id"].default == -1


def test_layout_constants_are_numbers_and_names() -> None:
    batch = _plan("record_batch_v2")
    values = {c.name: c.value for c in batch.constants}
    assert values["BASE_OFFSET_OFFSET"] == 0 and type(values["BASE_OFFSET_OFFSET"]) is int
    assert values["BASE_OFFSET_LENGTH"] == 8 and values["CRC_LENGTH"] == 4
    for p in _plans():
        for c in p.constants:
            assert not isinstance(c.value, str), (p.module, c.name, c.value)
    # rendered as before: chained on the constant before
    env = environment()
    assert env.filters["constant"](values["BATCH_LENGTH_OFFSET"]) == "BASE_OFFSET_OFFSET + BASE_OFFSET_LENGTH"


def test_relative_fields_say_what_none_means_not_how_to_compute() -> None:
    record = _plan("record_v2")
    rel = {r.name: r for r in record.relatives}
    names = {f.name for f in dataclasses.fields(rel["offset_delta"])}
    assert not names & {"delta", "unbase"}, "the delta expression is the template's, not the plan's"
    assert rel["offset_delta"].default == "index" and rel["timestamp_delta"].default == "base"
    assert rel["offset_delta"].base == "base_offset"


@pytest.mark.parametrize("module", ["record_batch_v2", "record_v2", "message_v1"])
def test_construct_fields_are_records(module: str) -> None:
    plan = _plan(module)
    for g in plan.construct:
        for name, c in g.fields:
            assert not isinstance(c, str), (module, name, c)
        assert not isinstance(g.wrapper_construct, str)


def test_check_positions_are_records() -> None:
    """Where a check reads its field and where a length ends: the leading run's at the structure's start
    plus a layout constant, a later run's so many bytes before ``pos``; the templates write them."""
    batch = _plan("record_batch_v2")
    checks = {c.f.name: c for step in batch.steps for c in step.checks}
    magic, length, crc = checks["magic"], checks["batch_length"], checks["crc"]
    assert (magic.at.const, magic.at.back) == ("MAGIC_OFFSET", 0)
    assert length.end.const == "BATCH_LENGTH_END" and length.min == "MIN_BATCH_LENGTH"
    assert crc.covers_from.const == "ATTRIBUTES_OFFSET"
    env = environment()
    assert env.filters["at"](magic.at) == "start + MAGIC_OFFSET"
    for p in _plans():
        for step in p.steps:
            for c in step.checks:
                for value in (c.at, c.end, c.covers_from):
                    assert not isinstance(value, str), (p.module, c.f.name, value)


def test_encoded_values_are_records() -> None:
    """What an encoder packs for each field: the field's local, its constant, a count, or a length or
    checksum of what it covers, as data; the ``encoded`` filter writes the expression."""
    batch = _plan("record_batch_v2")
    values = {f.name: v for pc in batch.pieces_reversed for f, v in zip(pc.fields, pc.values, strict=True)}
    assert values["magic"].kind == "const" and values["magic"].const == 2
    assert values["crc"].kind == "checksum" and values["crc"].algorithm == "crc32c"
    assert values["batch_length"].kind == "length" and values["batch_length"].cover
    assert values["producer_id"].kind == "field" and values["producer_id"].name == "producer_id"
    env = environment()
    assert env.filters["encoded"](values["magic"]) == "2"
    for p in _plans():
        for pc in p.pieces_reversed:
            assert not any(isinstance(v, str) for v in pc.values), (p.module, pc.values)
