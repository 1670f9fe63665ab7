"""Kip98Message (PROPOSAL), the Construct reference codec: ``decode_kip98_message`` and
``encode_kip98_message`` read and write the same bytes as the fast codec in
:mod:`kafkaspec.generated.kip98_message_v2`, which tests hold it to.

Generated from schemas/proposals/kip98_message_v2.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import zlib

from construct import (
    Bytes,
    Container,
    FixedSized,
    GreedyBytes,
    If,
    IfThenElse,
    Int8sb,
    Int32ub,
    Int64sb,
    RawCopy,
    Struct,
    Tell,
    VarInt,
    this,
)

from kafkaspec.errors import CorruptRecordError
from kafkaspec.generated.kip98_message_v2 import NULL_KEY_MASK, NULL_VALUE_MASK, Kip98Message

kip98_message_construct = Struct(
    "length" / VarInt,
    "_sized"
    / FixedSized(
        this.length,
        Struct(
            "_covered"
            / FixedSized(
                lambda this: this._.length - 4,
                RawCopy(
                    Struct(
                        "attributes" / Int8sb,
                        "timestamp" / Int64sb,
                        "offset_delta" / VarInt,
                        "key_length"
                        / If(
                            lambda this: (
                                this.attributes & NULL_KEY_MASK == 0
                                and this.attributes & NULL_VALUE_MASK == 0
                            ),
                            VarInt,
                        ),
                        "key"
                        / If(
                            lambda this: this.attributes & NULL_KEY_MASK == 0,
                            IfThenElse(
                                lambda this: this.key_length is None,
                                GreedyBytes,
                                Bytes(lambda this: this.key_length),
                            ),
                        ),
                        "value" / If(lambda this: this.attributes & NULL_VALUE_MASK == 0, GreedyBytes),
                    )
                ),
            ),
            "crc" / Int32ub,
        ),
    ),
)


def _flat(container) -> dict:
    """The parsed fields by name, out of the FixedSized/RawCopy groups."""
    out = {}
    for k, v in container.items():
        if k == "_io":
            continue
        if k == "_covered":
            out["_covered_bytes"] = v.data
            out.update(_flat(v.value))
        elif k == "_sized":
            out.update(_flat(v))
        else:
            out[k] = v
    return out


def decode_kip98_message(buf, pos: int = 0, base_offset: int = 0) -> tuple[Kip98Message, int]:
    """Parse one Kip98Message at ``pos`` with Construct; return it and the position after it."""
    top = Struct("value" / kip98_message_construct, "end" / Tell).parse(bytes(buf[pos:]))
    v = _flat(top.value)
    if zlib.crc32(v["_covered_bytes"]) != v["crc"]:
        raise CorruptRecordError("Kip98Message.crc does not match the bytes it covers")
    return Kip98Message(
        v["attributes"], v["timestamp"], base_offset + v["offset_delta"], v["key"], v["value"], v["crc"]
    ), pos + top.end


def encode_kip98_message(item: Kip98Message, base_offset: int = 0, index: int = 0) -> bytes:
    """Build ``item`` with Construct: the covered bytes first, then the checksum and length over them."""
    v = item._asdict()
    v["offset_delta"] = index if v["offset"] is None else v["offset"] - base_offset
    v["attributes"] = (
        v["attributes"] & ~(NULL_KEY_MASK | NULL_VALUE_MASK)
        | (NULL_KEY_MASK if v["key"] is None else 0)
        | (NULL_VALUE_MASK if v["value"] is None else 0)
    )
    c = Container(v)
    v["key_length"] = (
        None
        if v["key"] is None or not (c.attributes & NULL_KEY_MASK == 0 and c.attributes & NULL_VALUE_MASK == 0)
        else len(v["key"])
    )
    covered = Struct(*_group("_covered")).build(v)
    v["crc"] = zlib.crc32(covered)
    v["length"] = sum(
        len(covered) if sc.name == "_covered" else len(sc.build(v.get(sc.name))) for sc in _group("_sized")
    )
    return kip98_message_construct.build(_nest(v))


def _find(subcons, name):
    for sc in subcons:
        if sc.name == name:
            return sc
        inner = getattr(sc, "subcon", None)
        while inner is not None and not hasattr(inner, "subcons"):
            inner = getattr(inner, "subcon", None)
        if inner is not None:
            found = _find(inner.subcons, name)
            if found is not None:
                return found
    return None


def _group(name: str) -> list:
    """The fields of the FixedSized (``_sized``) or RawCopy (``_covered``) group, as Construct subcons."""
    sc = _find(kip98_message_construct.subcons, name).subcon
    while not hasattr(sc, "subcons"):
        sc = sc.subcon
    return list(sc.subcons)


def _nest(v: dict) -> dict:
    """The flat values as the nested containers the construct builds from."""
    return _nest_into(kip98_message_construct.subcons, v)


def _nest_into(subcons, v: dict) -> dict:
    out = {}
    for sc in subcons:
        if sc.name == "_covered":
            out["_covered"] = {"value": _nest_into(_group("_covered"), v)}
        elif sc.name == "_sized":
            out["_sized"] = _nest_into(_group("_sized"), v)
        elif sc.name is not None:
            out[sc.name] = v.get(sc.name)
    return out
