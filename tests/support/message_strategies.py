"""Hypothesis values for the message-spec messages (schemas/messages/), derived from the model.

``message_values(message, version)`` draws a value of the message's generated NamedTuple that the
given version can hold: fields the version lacks keep their defaults, nullable fields are sometimes
None, tagged fields are sometimes their default (and then not written), and flexible versions carry
unknown tagged fields with tags no field of the structure uses.
"""

from __future__ import annotations

import importlib
import uuid

from hypothesis import strategies as st

from kafkaspec.spec.message_model import Message, MessageField, MessageStruct

_INTS = {"int8": 8, "int16": 16, "int32": 32, "int64": 64}
MAX_ITEMS = 3


def module(message: Message):
    return importlib.import_module(f"kafkaspec.generated.messages.{message.module}")


def reference(message: Message):
    return importlib.import_module(f"kafkaspec.generated.reference.messages.{message.module}")


def _primitive(t: str) -> st.SearchStrategy:
    if t in _INTS:
        bits = _INTS[t]
        return st.integers(-(1 << bits - 1), (1 << bits - 1) - 1)
    if t == "uint16":
        return st.integers(0, 0xFFFF)
    if t == "bool":
        return st.booleans()
    if t == "float64":
        return st.floats(allow_nan=False)
    if t == "uuid":
        return st.builds(uuid.UUID, bytes=st.binary(min_size=16, max_size=16))
    if t == "string":
        return st.text(max_size=12)
    if t == "bytes":
        return st.binary(max_size=12)
    raise AssertionError(t)


class MessageValues:
    def __init__(self, message: Message):
        self.m = message
        self.mod = module(message)

    def struct(self, s: MessageStruct, version: int, depth: int = 0) -> st.SearchStrategy:
        cls = getattr(self.mod, s.name)
        fields: dict[str, st.SearchStrategy] = {}
        for f in s.fields:
            if version not in f.versions:
                continue
            value = self.field(f, version, depth)
            if f.tagged_in(version):
                value = st.one_of(st.just(cls._field_defaults[f.name]), value)
            fields[f.name] = value
        if self.m.flexible(version):
            used = {f.tag for f in s.fields if f.tag is not None}
            tags = st.lists(st.integers(0, 300).filter(lambda t: t not in used), max_size=2, unique=True)
            fields["unknown_tagged_fields"] = tags.flatmap(
                lambda ts: st.tuples(*(st.tuples(st.just(t), st.binary(max_size=6)) for t in sorted(ts))).map(
                    list
                )
            )
        return st.fixed_dictionaries(fields).map(lambda kw: cls(**kw))

    def one(self, t: str, version: int, depth: int) -> st.SearchStrategy:
        if t[0].isupper():
            return self.struct(self.m.structs[t], version, depth + 1)
        return _primitive(t)

    def field(self, f: MessageField, version: int, depth: int) -> st.SearchStrategy:
        if f.type == "array":
            value = st.lists(self.one(f.items or "", version, depth), max_size=MAX_ITEMS if depth < 2 else 1)
        else:
            value = self.one(f.type, version, depth)
        if f.nullable_in(version):
            value = st.one_of(st.none(), value)
        return value


def message_values(message: Message, version: int) -> st.SearchStrategy:
    return MessageValues(message).struct(message.root, version)
