"""Kip98MessageSet (PROPOSAL), the Construct reference codec: ``decode_kip98_message_set`` and
``encode_kip98_message_set`` read and write the same bytes as the fast codec in
:mod:`kafkaspec.generated.kip98_message_set_v2`, which tests hold it to.

Generated from schemas/proposals/kip98_message_set_v2.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import zlib

from construct import (
    Const,
    Container,
    FixedSized,
    GreedyBytes,
    Int8sb,
    Int16sb,
    Int32sb,
    Int32ub,
    Int64sb,
    RawCopy,
    Struct,
    Tell,
    this,
)

from kafkaspec.codec.compression import compress, decompress
from kafkaspec.errors import CorruptRecordError
from kafkaspec.generated.kip98_message_set_v2 import COMPRESSION_MASK, Kip98MessageSet
from kafkaspec.generated.reference.kip98_message_v2 import decode_kip98_message, encode_kip98_message

kip98_message_set_construct = Struct(
    "offset" / Int64sb,
    "length" / Int32sb,
    "_sized"
    / FixedSized(
        this.length,
        Struct(
            "crc" / Int32ub,
            "_covered"
            / RawCopy(
                Struct(
                    "magic" / Const(2, Int8sb),
                    "attributes" / Int16sb,
                    "offset_delta" / Int32sb,
                    "max_timestamp" / Int64sb,
                    "pid" / Int64sb,
                    "epoch" / Int16sb,
                    "sequence" / Int32sb,
                    "messages" / GreedyBytes,
                )
            ),
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


def decode_kip98_message_set(buf, pos: int = 0) -> tuple[Kip98MessageSet, int]:
    """Parse one Kip98MessageSet at ``pos`` with Construct; return it and the position after it."""
    top = Struct("value" / kip98_message_set_construct, "end" / Tell).parse(bytes(buf[pos:]))
    v = _flat(top.value)
    c = Container(v)
    if zlib.crc32(v["_covered_bytes"]) != v["crc"]:
        raise CorruptRecordError("Kip98MessageSet.crc does not match the bytes it covers")
    region = v["messages"]
    codec = c.attributes & COMPRESSION_MASK
    if codec:
        region = decompress(codec, region)
    items, at = [], 0
    while at < len(region):
        one, used = decode_kip98_message(
            region[at:],
            0,
            base_offset=v["offset"],
        )
        items.append(one)
        at += used
    v["messages"] = items
    return Kip98MessageSet(
        v["offset"],
        v["crc"],
        v["magic"],
        v["attributes"],
        v["offset_delta"],
        v["max_timestamp"],
        v["pid"],
        v["epoch"],
        v["sequence"],
        v["messages"],
    ), pos + top.end


def encode_kip98_message_set(
    item: Kip98MessageSet,
) -> bytes:
    """Build ``item`` with Construct: the covered bytes first, then the checksum and length over them."""
    v = item._asdict()
    c = Container(v)
    region = b"".join(
        encode_kip98_message(one, base_offset=v["offset"], index=at) for at, one in enumerate(v["messages"])
    )
    codec = c.attributes & COMPRESSION_MASK
    v["messages"] = compress(codec, region) if codec else region
    covered = Struct(*_group("_covered")).build(v)
    v["crc"] = zlib.crc32(covered)
    v["length"] = sum(
        len(covered) if sc.name == "_covered" else len(sc.build(v.get(sc.name))) for sc in _group("_sized")
    )
    return kip98_message_set_construct.build(_nest(v))


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
    sc = _find(kip98_message_set_construct.subcons, name).subcon
    while not hasattr(sc, "subcons"):
        sc = sc.subcon
    return list(sc.subcons)


def _nest(v: dict) -> dict:
    """The flat values as the nested containers the construct builds from."""
    return _nest_into(kip98_message_set_construct.subcons, v)


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
