"""The one differential helper: Construct reference codec vs generated fast codec, for every schema
(tests/codecs and tests/runtime use it).

In the spirit of Construct's ``tests/declarativeunittest.py::common()``: for a
value of any generated structure, :func:`common` checks

1. Construct build == fast encode, byte for byte;
2. Construct parse == fast decode == the value (checksum fields: the real checksum);
3. the round trip: decoding consumes exactly the bytes encoding produced;
4. a checksum field holds the checksum of its range, computed here with the
   checksum library directly (not through the generated code).

It drives a structure through the generated API only (``<snake>_construct`` and, for
structures with relative fields, ``_<snake>_rebase/_unbase`` from
``kafkaspec.generated.reference.<module>``; ``decode_/encode_<snake>_array`` or, for a headed
structure, ``decode_<snake>/encode_<snake>``), so structures other engineers add
are checked as soon as they are generated.
"""

from __future__ import annotations

import importlib
import zlib

import crc32c

from kafkaspec.errors import KafkaFormatError
from kafkaspec.spec import FIXED_TYPES, Struct, snake
from support.strategies import Shape

_CHECKSUMS = {"crc32": lambda b: zlib.crc32(b) & 0xFFFFFFFF, "crc32c": crc32c.crc32c}


class MissingApi(AssertionError):
    """A generated module lacks a function the differential helper needs."""


def module_of(struct: Struct):
    try:
        return importlib.import_module(f"kafkaspec.generated.{struct.module}")
    except ImportError as exc:
        raise MissingApi(
            f"{struct.ref}: kafkaspec.generated.{struct.module} cannot be imported ({exc}); "
            "run `make generate` after changing schemas/"
        ) from None


def reference_of(struct: Struct):
    try:
        return importlib.import_module(f"kafkaspec.generated.reference.{struct.module}")
    except ImportError as exc:
        raise MissingApi(
            f"{struct.ref}: kafkaspec.generated.reference.{struct.module} cannot be imported ({exc}); "
            "run `python -m codegen` after changing schemas/"
        ) from None


def _identity(item, *args, **bases):
    return item


def reference(struct: Struct, name: str):
    """A name of the Construct reference module; ``_<snake>_rebase/_unbase`` exist only where
    the structure has relative fields (elsewhere they are the identity)."""
    full = name.format(snake=snake(struct.name), cls=struct.name)
    found = getattr(reference_of(struct), full, None)
    if found is not None:
        return found
    if full.endswith(("_rebase", "_unbase")) and not any(f.relative_to for f in struct.fields):
        return _identity
    raise MissingApi(f"{struct.ref}: kafkaspec.generated.reference.{struct.module} has no {full}")


def api(struct: Struct, name: str):
    if name.endswith(("_construct", "_rebase", "_unbase")):
        return reference(struct, name)
    mod = module_of(struct)
    try:
        return getattr(mod, name.format(snake=snake(struct.name), cls=struct.name))
    except AttributeError:
        raise MissingApi(
            f"{struct.ref}: kafkaspec.generated.{struct.module} has no {name.format(snake=snake(struct.name), cls=struct.name)}"
            " (the differential test drives every structure through the generated API)"
        ) from None


def class_of(struct: Struct):
    return api(struct, "{cls}")


def _fixed_offset(struct: Struct, field_name: str) -> int | None:
    """Byte offset of ``field_name`` when every field before it is fixed-width."""
    at = 0
    for f in struct.fields:
        if f.name == field_name:
            return at
        if f.type not in FIXED_TYPES:
            return None
        at += FIXED_TYPES[f.type][1]
    return None


def with_checksums(struct: Struct, value, data: bytes):
    """``value`` with its checksum fields set to the checksum of their range in ``data``.

    Only possible when the checksum field and its range start sit at fixed offsets;
    otherwise the field is left as the codecs report it (both must still agree).
    """
    for f in struct.fields:
        if not f.checksum:
            continue
        algorithm, start_field = f.checksum.algorithm, f.checksum.start
        at, start = _fixed_offset(struct, f.name), _fixed_offset(struct, start_field)
        if at is None or start is None:
            continue
        stored = int.from_bytes(data[at : at + 4], "big")
        actual = _CHECKSUMS[algorithm](data[start:])
        assert stored == actual, (
            f"{struct.ref}.{f.name}: stored {stored:#010x}, {algorithm} of bytes {start}.. is {actual:#010x}"
        )
        value = value._replace(**{f.exposed_name: actual})
    return value


def _plain(value):
    """NamedTuples and lists all the way down (Construct returns ListContainers)."""
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return type(value)(*(_plain(v) for v in value))
    if isinstance(value, tuple):
        return tuple(_plain(v) for v in value)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, memoryview | bytearray):
        return bytes(value)
    return value


def _fill_unknown_checksums(struct: Struct, value, decoded):
    for f in struct.fields:
        if f.checksum and getattr(value, f.exposed_name) is None:
            value = value._replace(**{f.exposed_name: getattr(decoded, f.exposed_name)})
    return value


def encode_headed(s: Struct, value) -> bytes:
    """Encode a headed structure's value with its keyword-only fast encoder."""
    kwargs = {
        f.exposed_name: getattr(value, f.exposed_name)
        for f in s.fields
        if not (f.length_of or f.count_of or f.checksum or f.const is not None)
    }
    return api(s, "encode_{snake}")(**kwargs)


def common(shape: Shape, items: list, bases: dict[str, int] | None = None) -> bytes:
    """Check both codecs on ``items`` (one item for a headed structure); return the bytes."""
    s = shape.struct
    bases = dict(bases or {})
    construct = api(s, "{snake}_construct")
    if shape.headed:
        assert len(items) == 1 and not bases
        (value,) = items
        encode, decode = api(s, "encode_{snake}"), api(s, "decode_{snake}")
        fast = encode_headed(s, value)
        reference = construct.build(value)
        assert fast == reference, (
            f"{s.ref}: fast encode != Construct build\n fast {fast.hex()}\n ref  {reference.hex()}"
        )
        expected = [with_checksums(s, value, fast)]
        decoded, end = decode(fast)
        assert end == len(fast), f"{s.ref}: decode stopped at {end} of {len(fast)} bytes"
        decoded = [decoded]
        parsed = [construct.parse(fast)]
    else:
        encode, decode = api(s, "encode_{snake}_array"), api(s, "decode_{snake}_array")
        unbase, rebase = api(s, "_{snake}_unbase"), api(s, "_{snake}_rebase")
        fast = encode(items, **bases)
        reference = b"".join(construct.build(unbase(v, i, **bases)) for i, v in enumerate(items))
        assert fast == reference, (
            f"{s.ref}: fast encode != Construct build\n fast {fast.hex()}\n ref  {reference.hex()}"
        )
        decoded, end = decode(fast, 0, len(items), **bases)
        assert end == len(fast), f"{s.ref}: decode stopped at {end} of {len(fast)} bytes"
        parsed, at = [], 0
        for _ in items:
            # parse one item at a time from where the previous ended: Construct has no array-of-rest API
            item_bytes = fast[at:]
            one = construct.parse(item_bytes)
            size = len(construct.build(one))
            parsed.append(rebase(one, **bases))
            at += size
        assert at == len(fast), f"{s.ref}: Construct items cover {at} of {len(fast)} bytes"
        expected = []
        at = 0
        for i, v in enumerate(items):
            size = len(construct.build(unbase(v, i, **bases)))
            expected.append(with_checksums(s, v, fast[at : at + size]))
            at += size
    expected = [_fill_unknown_checksums(s, e, d) for e, d in zip(expected, decoded)]
    expected, decoded, parsed = _plain(expected), _plain(decoded), _plain(parsed)
    assert decoded == expected, f"{s.ref}: fast decode != value\n got      {decoded}\n expected {expected}"
    assert parsed == expected, f"{s.ref}: Construct parse != value\n got      {parsed}\n expected {expected}"
    check_rejects(shape, fast, len(items), bases)
    return fast


def check_rejects(shape: Shape, data: bytes, count: int, bases: dict[str, int]) -> None:
    """Both codecs refuse the bytes once a constant or a checksummed byte is changed."""
    s = shape.struct
    mutations = []
    for f in s.fields:
        at = _fixed_offset(s, f.name)
        if f.const is not None and at is not None:
            end = at + FIXED_TYPES[f.type][1]
            mutations.append((f"constant {f.name}", end - 1))
        if f.checksum and at is not None and not any(g.length_of for g in s.fields):
            mutations.append((f"a byte covered by {f.name}", len(data) - 1))
        if f.checksum and at is not None:
            mutations.append((f"the stored {f.name}", at + 3))
    for what, pos in mutations:
        bad = bytearray(data)
        bad[pos] ^= 0x01
        bad = bytes(bad)
        try:
            if shape.headed:
                api(s, "decode_{snake}")(bad)
            else:
                api(s, "decode_{snake}_array")(bad, 0, count, **bases)
        except KafkaFormatError:
            pass
        else:
            raise AssertionError(f"{s.ref}: fast decode accepted the bytes with {what} changed (byte {pos})")
        try:
            api(s, "{snake}_construct").parse(bad)
        except Exception:  # any Construct error is a refusal
            continue
        raise AssertionError(f"{s.ref}: Construct parsed the bytes with {what} changed (byte {pos})")


def agree_on(shape: Shape, data: bytes, count: int, bases: dict[str, int]) -> None:
    """On any bytes: the fast decoder returns values or raises KafkaFormatError (nothing else), and
    whatever it accepts in full, the Construct reference codec reads to the same values."""
    s = shape.struct
    try:
        if shape.headed:
            value, end = api(s, "decode_{snake}")(data)
            fast = [value]
        else:
            fast, end = api(s, "decode_{snake}_array")(data, 0, count, **bases)
    except KafkaFormatError:
        return
    if end != len(data):
        return  # a prefix was read: the rest is the caller's business
    construct = api(s, "{snake}_construct")
    try:
        if shape.headed:
            parsed = [construct.parse(data)]
        else:
            parsed, at = [], 0
            for _ in range(count):
                one = construct.parse(data[at:])
                at += len(construct.build(one))
                parsed.append(api(s, "_{snake}_rebase")(one, **bases))
    except Exception as exc:  # the reference refusing what the fast codec accepted
        raise AssertionError(
            f"{s.ref}: fast decode accepted {data.hex()} but Construct refuses it: {exc!r}"
        ) from None
    assert _plain(parsed) == _plain(fast), f"{s.ref}: codecs read {data.hex()} differently"
