"""The unknown tagged fields of Kafka's message payloads must not be a shared mutable default: a
NamedTuple's default is one object for every instance, so a list default that one instance appends to
changes every later default instance (and encoding a version without tagged fields then raises)."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.message_strategies import module

from kafkaspec.spec import load

SCHEMAS = load(Path(__file__).resolve().parents[2] / "schemas")


def _classes():
    for m in sorted(SCHEMAS.messages.values(), key=lambda m: m.module):
        for s in m.structs.values():
            yield getattr(module(m), s.name)


@pytest.mark.parametrize(
    "cls", list(_classes()), ids=lambda c: f"{c.__module__.rsplit('.', 1)[-1]}.{c.__name__}"
)
def test_unknown_tagged_fields_default_is_immutable(cls):
    if "unknown_tagged_fields" not in cls._fields:
        return  # a message with no flexible version keeps no unknown tags
    default = cls._field_defaults["unknown_tagged_fields"]
    assert isinstance(default, tuple) and default == (), f"{cls.__name__}: shared mutable default {default!r}"


def test_changing_one_default_instance_leaves_the_next_alone():
    from kafkaspec.generated.messages.offset_commit_value import (
        OffsetCommitValue,
        decode_offset_commit_value,
        encode_offset_commit_value,
    )

    first = OffsetCommitValue(offset=5)
    try:
        first.unknown_tagged_fields.append((7, b"x"))
    except AttributeError:
        pass  # an immutable default cannot be changed in place: that is the point
    later = OffsetCommitValue(offset=6)
    assert len(later.unknown_tagged_fields) == 0
    # version 3 has no tagged fields: a default value must encode there, and come back the same
    data = encode_offset_commit_value(later, 3)
    assert decode_offset_commit_value(data, 3)[0] == later
