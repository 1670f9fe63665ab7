"""The field-type registry (kafkaspec/spec/types.py) is the one place a wire type's facts live: the
runtime's codecs, the tracer, the reference docs and the generator's tables must all agree with it.

The uvarint case is the one that drifted before the registry: the docs said 1-10 bytes while the
runtime (and Kafka's ``ByteUtils.readUnsignedVarint``) read at most 5.
"""

from __future__ import annotations

import re
import struct
from pathlib import Path

import construct
import pytest

from kafkaspec.codec import varint
from kafkaspec.errors import KafkaFormatError
from kafkaspec.explain import tracer

DOCS = Path(__file__).resolve().parents[2] / "docs" / "formats"

ENCODERS = {
    "varint": varint.encode_varint,
    "varlong": varint.encode_varlong,
    "uvarint": varint.encode_uvarint,
}


def _doc_size(page: str, field: str) -> str:
    """The size column of ``field``'s row in a reference page's field table."""
    for line in (DOCS / page).read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells and cells[0] == f"`{field}`":
            return cells[3]
    raise AssertionError(f"{page} has no row for {field}")


def test_uvarint_size_is_the_same_in_docs_runtime_and_tracer():
    most = len(varint.encode_uvarint((1 << 32) - 1))
    assert most == 5
    # the runtime refuses a sixth byte, as Kafka does
    with pytest.raises(KafkaFormatError):
        varint.read_uvarint(b"\x80" * 5 + b"\x01", 0)
    assert varint.read_uvarint(b"\xff\xff\xff\xff\x0f", 0) == ((1 << 32) - 1, 5)
    assert tracer.VARINT_LIMITS["uvarint"][0] == most
    # kip98_message_v2's length and offset_delta are uvarints: the docs say what the runtime reads
    assert _doc_size("kip98_message_v2.md", "length") == f"1-{most}"
    assert _doc_size("kip98_message_v2.md", "offset_delta") == f"1-{most}"
    # a varlong is the one 10-byte varint, a varint 5
    assert _doc_size("record_v2.md", "timestamp_delta") == f"1-{len(varint.encode_varlong(-(1 << 63)))}"


def test_registry_matches_the_runtime_encoders():
    from kafkaspec.spec.types import FIELD_TYPES, Width

    for name, encode in ENCODERS.items():
        t = FIELD_TYPES[name]
        assert t.width is Width.VAR
        assert max(len(encode(t.low)), len(encode(t.high))) == t.max_size, name
        assert t.doc_size == f"1-{t.max_size}"
        if t.zigzag:  # the signed encoders refuse a value out of range
            with pytest.raises(ValueError):
                encode(t.high + 1)
    for name, t in FIELD_TYPES.items():
        if t.fixed:
            assert struct.calcsize(">" + t.struct_code) == t.size == t.min_size == t.max_size, name
            if t.construct:
                assert getattr(construct, t.construct).sizeof() == t.size, name
                assert t.hint == ("float" if t.name == "float64" else "int"), name
        else:
            assert t.struct_code == "", name


def test_every_table_is_read_from_the_registry():
    from kafkaspec.spec import FIXED_TYPES, VAR_TYPES
    from kafkaspec.spec.message_model import MESSAGE_FIXED
    from kafkaspec.spec.types import FIELD_TYPES, Width

    fixed = {n: (t.struct_code, t.size) for n, t in FIELD_TYPES.items() if t.fixed}
    assert FIXED_TYPES.items() <= fixed.items()
    assert MESSAGE_FIXED.items() <= fixed.items()
    assert set(VAR_TYPES) == {n for n, t in FIELD_TYPES.items() if t.width is Width.VAR}
    assert tracer.FIXED == {n: t.tracer for n, t in FIELD_TYPES.items() if t.fixed and n != "uuid"}
    assert tracer.VARINT_LIMITS == {n: t.tracer for n in VAR_TYPES for t in [FIELD_TYPES[n]]}


def test_no_type_table_outside_the_registry():
    """The drift came from copies: no module of the generator or the review tooling spells out a
    type's size or Construct name again."""
    root = Path(__file__).resolve().parents[2]
    copies = re.compile(r'"(?:uvarint|varint|varlong)":\s*"?\(?\d|"int(?:8|16|32|64)":\s*"Int')
    found = [
        f"{p.relative_to(root)}:{i}"
        for folder in ("codegen", "kafkaspec/review", "kafkaspec/explain")
        for p in sorted((root / folder).rglob("*.py"))
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if copies.search(line)
    ]
    assert not found, f"type tables copied outside kafkaspec/spec/types.py: {found}"


def test_the_prefix_types_are_listed_once():
    """Which types may give a length or a count is a fact of the registry (``FieldType.prefix``): the
    loader, the planners and the templates ask it (``PREFIX_TYPES``, ``wire(word)``), none lists the
    words again."""
    from kafkaspec.spec import PREFIX_TYPES
    from kafkaspec.spec.types import FIELD_TYPES

    assert (
        PREFIX_TYPES
        == tuple(n for n, t in FIELD_TYPES.items() if t.prefix)
        == (
            "int16",
            "int32",
            "varint",
            "uvarint",
        )
    )
    root = Path(__file__).resolve().parents[2]
    listed = re.compile(r"""["'](?:int16|varint)["'],\s*["'](?:int32|uvarint)["']""")
    files = [
        *(root / "codegen").rglob("*.py"),
        *(root / "codegen" / "templates").rglob("*.j2"),
        *(p for p in (root / "kafkaspec" / "spec").glob("*.py") if p.name != "types.py"),
    ]
    found = [
        f"{p.relative_to(root)}:{i}"
        for p in sorted(files)
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if listed.search(line)
    ]
    assert not found, f"prefix types listed outside kafkaspec/spec/types.py: {found}"
