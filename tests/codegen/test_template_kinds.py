"""The templates dispatch on what a plan says, not on type words: each kind of step, Construct
definition and shape entry has its macro in ``macros.j2``'s tables, and each type word of the registry
has its family's template in ``templates/wire/`` (``codegen/wire.py``), so a new kind or type fails here,
by name, rather than in the middle of a render."""

from __future__ import annotations

import pytest

from kafkaspec.codegen.plan_message_model import TraceKind
from kafkaspec.codegen.plan_model import (
    CheckKind,
    ColumnKind,
    ConstructKind,
    ExposedKind,
    PieceKind,
    ShapeKind,
    StepKind,
)
from kafkaspec.codegen.render import environment
from kafkaspec.codegen.wire import family
from kafkaspec.spec.types import FIELD_TYPES, PREFIX_TYPES

MACROS = environment().get_template("macros.j2").module


@pytest.mark.parametrize(
    ("table", "kinds"),
    [
        ("decoders", StepKind),
        ("constructs", ConstructKind),
        ("shape_entries", ShapeKind),
        ("checks", CheckKind),
        ("pieces", PieceKind),
    ],
)
def test_every_kind_has_its_macro(table: str, kinds: type) -> None:
    assert set(getattr(MACROS, table)) == {k.value for k in kinds}


def test_every_word_of_a_plan_has_its_entry() -> None:
    """The words a plan carries from the schema (a relative field's default, what wraps the rest of a
    Construct structure) each have their entry in a table."""
    assert set(MACROS.none_deltas) == {"index", "base"}
    assert set(MACROS.wrappers) == {"length", "checksum"}
    env = environment()
    assert set(env.get_template("column_encoders.j2").module.none_columns) == {"index", "base"}


def test_every_trace_kind_has_its_macro() -> None:
    tracers = environment().get_template("message_trace.j2").module.tracers
    assert set(tracers) == {k.value for k in TraceKind}


def test_every_column_kind_has_its_macros() -> None:
    env = environment()
    encoders = env.get_template("column_encoders.j2").module.column_encoders
    assert set(encoders) == {k.value for k in ColumnKind}
    kinds = env.get_template("column_kinds.j2").module.column_kinds
    assert set(kinds) == {k.value for k in ExposedKind}
    assert all(set(places) == {"setup", "item", "fill"} for places in kinds.values())


def test_every_type_word_has_its_family() -> None:
    wire = environment().globals["wire"]
    for word in FIELD_TYPES:
        assert wire(word)._macros is not None, word
    # every type of the record formats is traced by its own family
    for word in (*(n for n, t in FIELD_TYPES.items() if t.family.value != "message"), "Record"):
        assert callable(wire(word).trace), word
    # every prefix reads its length, and writes it when it is a type of its own
    for word in (*PREFIX_TYPES, "rest", "some_field"):
        assert callable(wire(word).read_length), word
    for word in PREFIX_TYPES:
        assert callable(wire(word).write) and callable(wire(word).null_length), word
    assert [family(w) for w in ("int32", "uvarint", "string", "array", "Record", "rest", "key_length")] == [
        "fixed",
        "var",
        "bytes",
        "array",
        "struct",
        "rest",
        "ref",
    ]


def test_a_wire_type_reads_and_writes_by_its_facts() -> None:
    wire = environment().globals["wire"]
    assert wire("int16").write("len(d1)") == "_I16.pack(len(d1))"
    assert wire("int32").null_length() == "_NULL32"
    assert wire("uvarint").write("n") == "UVARINT_BYTES.get(n) or encode_uvarint(n)"
    assert wire("varint").write("n") == "VARINT_BYTES.get(n) or encode_varint(n)"
    assert "zigzag_1" in wire("varint").read("x") and "zigzag_1" not in wire("uvarint").read("x")


def test_message_plans_are_data_not_source() -> None:
    """The message planners decide and the templates write: the readers, writers, Construct
    definitions and tracing functions are plans (records), none a string of Python source."""
    from kafkaspec.codegen.plan_message import plan_message
    from kafkaspec.codegen.plan_message_model import (
        ConstructPlan,
        ReaderPlan,
        TraceArray,
        TracerPlan,
        TraceValue,
        WriterPlan,
    )
    from kafkaspec.codegen.plan_message_trace import plan_message_trace
    from kafkaspec.spec import bundled_schemas, load

    schemas = load(bundled_schemas())
    assert schemas.messages
    for m in schemas.messages.values():
        plan = plan_message(m)
        assert all(isinstance(f, ReaderPlan | WriterPlan) for f in plan.functions), m.name
        assert all(isinstance(c, ConstructPlan) for c in plan.constructs), m.name
        trace = plan_message_trace(m)
        assert trace.functions and all(isinstance(f, TracerPlan) for f in trace.functions), m.name
        steps = [st for f in trace.functions for st in (*f.steps, *(t[2] for t in f.tagged))]
        assert all(isinstance(st, TraceValue | TraceArray) for st in steps), m.name
