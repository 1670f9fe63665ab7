"""Kafka's own payloads (schemas/messages/): for every message and every version, the Construct
reference codec == the fast codec == the value, over hypothesis values drawn from the schema, and
both codecs refuse what the encoding forbids."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.message_strategies import message_values, module, reference
from support.settings import scaled

from kafkaspec.errors import KafkaFormatError
from kafkaspec.spec import load, snake

SCHEMAS = load(Path(__file__).resolve().parents[2] / "schemas")
CASES = sorted((name, v) for name, m in SCHEMAS.messages.items() for v in m.versions)


def _plain(value):
    """NamedTuples and lists all the way down (Construct returns ListContainers)."""
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return type(value)(*(_plain(v) for v in value))
    if isinstance(value, tuple):
        return tuple(_plain(v) for v in value)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def test_every_message_has_versions():
    assert len(SCHEMAS.messages) >= 62
    assert {
        "LeaderChangeMessage",
        "SnapshotHeaderRecord",
        "SnapshotFooterRecord",
        "KRaftVersionRecord",
        "VotersRecord",
        "TopicRecord",
        "OffsetCommitValue",
        "TransactionLogValue",
    } <= set(SCHEMAS.messages)


@pytest.mark.parametrize(("name", "version"), CASES, ids=[f"{n}-v{v}" for n, v in CASES])
@scaled(6)
@given(data=st.data())
def test_construct_equals_fast(name, version, data):
    m = SCHEMAS.messages[name]
    mod, ref = module(m), reference(m)
    encode, decode = getattr(mod, f"encode_{snake(name)}"), getattr(mod, f"decode_{snake(name)}")
    value = data.draw(message_values(m, version))
    fast = encode(value, version)
    built = ref.CONSTRUCTS[version].build(value)
    assert fast == built, (
        f"{name} v{version}: fast encode != Construct build\n fast {fast.hex()}\n ref  {built.hex()}"
    )
    decoded, end = decode(fast, version)
    assert end == len(fast)
    assert _plain(decoded) == _plain(value)
    assert _plain(ref.CONSTRUCTS[version].parse(fast)) == _plain(value)
    # any proper prefix is refused by the fast codec with a format error, never another exception
    cut = data.draw(st.integers(0, max(len(fast) - 1, 0)))
    if cut < len(fast):
        with pytest.raises(KafkaFormatError):
            decode(fast[:cut], version)


@pytest.mark.parametrize("name", sorted(SCHEMAS.messages))
def test_unknown_version_names_message_and_version(name):
    m = SCHEMAS.messages[name]
    decode = getattr(module(m), f"decode_{snake(name)}")
    with pytest.raises(KafkaFormatError, match=rf"{name}: unknown version 99 "):
        decode(b"\x00" * 8, 99)


@pytest.mark.parametrize(("name", "version"), CASES, ids=[f"{n}-v{v}" for n, v in CASES])
@scaled(10)
@given(data=st.data())
def test_any_bytes_decode_or_raise_a_format_error(name, version, data):
    """On arbitrary bytes the fast decoder returns a value or raises KafkaFormatError; what it reads
    in full, the reference reads to the same value."""
    m = SCHEMAS.messages[name]
    decode = getattr(module(m), f"decode_{snake(name)}")
    blob = data.draw(st.binary(max_size=64))
    try:
        value, end = decode(blob, version)
    except KafkaFormatError:
        return
    if end == len(blob) and not any(isinstance(x, float) and math.isnan(x) for x in _floats(value)):
        assert _plain(reference(m).CONSTRUCTS[version].parse(blob)) == _plain(value)


def _floats(value):
    if isinstance(value, tuple | list):
        for v in value:
            yield from _floats(v)
    else:
        yield value
