"""Runs of same-shape items, decoded with C-level calls: support for the generated array decoders.

Consecutive records of a batch usually have one layout: the same key, value and header lengths,
the same header keys, the same varint widths. Once the general loop has decoded an item,
:func:`decode_run` takes that item's *shape* as a guess for the items after it: its field widths
and its strings (header keys), from its values. The layout bytes of a shape (the item's length,
every byte-string length and array count, the strings' bytes) are constants, and its varints have
fixed widths: items of one shape are fixed-size structures back to back. A run is checked with one
strided slice per layout byte (``buf[p + offset : q : size]``, compared at C level) and one per
varint byte (its continuation bit), then unpacked with ``Struct.iter_unpack`` (layout bytes
skipped); the values are built column by column with ``map``. An item whose bytes do not match
ends the run, and the general loop decodes it (and raises its errors, at the same byte positions):
a run only takes items that the general loop would decode to the same values. The last few shapes
that decoded a run are tried again where the next run may start (the next batch's first record).

The spec of an item structure (emitted by the generator from the schema) lists its encoded fields
in order, each exposed field one value of the typed tuple:

* ``("length",)``: the item's own length, a varint counting the bytes after it (first, not exposed);
* ``("int8",)``: one signed byte;
* ``("var", base, none)``: a zigzag varint or varlong; the value is ``bases[base]`` plus it (``base`` -1:
  the value itself; ``none``, for the encoder: what None means, ``"index"`` or ``"base"``, see
  :mod:`kafkaspec.codec.shape_encode`);
* ``("bytes", nullable, string)``: a varint length (-1 for null), then the bytes (``string``: UTF-8);
* ``("array", cls, spec)``: a varint count, then the items, of ``cls`` laid out by ``spec``.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from itertools import repeat
from operator import add, and_, lshift, or_
from typing import Any

from .varint import ZIGZAG_1, ZIGZAG_2, encode_varint

_new = tuple.__new__
#: byte -> 1 where it has the continuation bit (a varint byte that is not the last), else 0
_CONTINUES = bytes(i >> 7 for i in range(256))
#: byte -> 1 where it has no continuation bit
_ENDS = bytes(1 - (i >> 7) for i in range(256))
_ONE = tuple(bytes((i,)) for i in range(256))
#: items checked at once, at first: a run that goes on doubles it (the bytes checked past a run's end
#: are at most what the run took, plus _FIRST items: linear time)
_FIRST = 64
#: the shortest run decoded (a shorter one costs more than the general loop), unless it ends the array
_SHORTEST = 4
#: shapes kept (a new one costs a Struct); the cache is emptied when full. A shape holds at most
#: _MOST_WIDTHS widths and strings of at most _LONGEST characters: the cache stays small
_KEEP = 256
_MOST_WIDTHS, _LONGEST = 64, 64
#: the shapes that decoded the last runs, per spec, most recent first (tried where a run may start)
_RECENT_SHAPES = 4
_RECENT: dict[int, list[Shape]] = {}
#: the specs seen, by id (the caches' keys): held here, so that no other object can take the id
_SPECS: dict[int, Sequence[tuple]] = {}


class Shape:
    """One layout of an item structure: its unpacking Struct, its checks and how to build the items."""

    __slots__ = ("unpack", "size", "layout", "lead", "ends", "continues", "build")

    def __init__(
        self, fmt: str, layout: list[tuple[int, int]], ends: list[int], continues: list[int], build: list
    ):
        packed = struct.Struct(fmt)
        self.unpack, self.size = packed.iter_unpack, packed.size
        self.layout = [(at, _ONE[b]) for at, b in layout]  # (offset, the byte it holds)
        self.lead = layout[0][1]  # an item's first byte (its length's)
        self.ends = ends  # offsets of varint bytes that end their varint
        self.continues = continues  # offsets of varint bytes that continue it
        self.build = build  # the recipe: per exposed value, how its column is made from the unpacked ones


_SHAPES: dict[tuple, Shape | None] = {}


def _walk(spec: Sequence[tuple], item: Sequence[Any], bases: Sequence[int], key: list) -> bool:
    """Append the widths of ``item``'s encoding to ``key``; False when no shape can hold it (a varint
    wider than two bytes, more than _MOST_WIDTHS widths, a string longer than _LONGEST)."""
    for step, value in zip((s for s in spec if s[0] != "length"), item, strict=True):
        kind = step[0]
        if kind == "int8":
            continue
        if kind == "var":
            z = value - bases[step[1]] if step[1] >= 0 else value
            z = (z << 1) ^ (z >> 63)
            if not 0 <= z < 16384:
                return False
            key.append(1 if z < 128 else 2)
        elif kind == "bytes":
            # a string is part of the shape (header keys repeat: checked as layout bytes, never decoded)
            if step[2] and value is not None and len(value) > _LONGEST:
                return False
            key.append(-1 if value is None else value if step[2] else len(value))
        else:
            if len(value) > _MOST_WIDTHS:
                return False
            key.append(len(value))
            for one in value:
                if not _walk(step[2], one, bases, key):
                    return False
        if len(key) > _MOST_WIDTHS:
            return False
    return True


def _make(spec: Sequence[tuple], key: tuple) -> Shape | None:
    """The Shape of the widths in ``key`` (from :func:`_walk`), or None when its length prefix is not
    the first field."""
    if not spec or spec[0][0] != "length":
        return None
    widths = iter(key)
    fmt: list[str] = []
    layout: list[tuple[int, int]] = []
    ends: list[int] = []
    continues: list[int] = []
    at = 0

    def put_layout(data: bytes) -> None:
        nonlocal at
        layout.extend((at + i, b) for i, b in enumerate(data))
        fmt.append(f"{len(data)}x")
        at += len(data)

    def walk(spec: Sequence[tuple]) -> list:
        nonlocal at
        build: list = []
        for step in spec:
            kind = step[0]
            if kind == "length":
                continue
            if kind == "int8":
                fmt.append("b")
                build.append(("col",))
                at += 1
            elif kind == "var":
                w = next(widths)
                if w == 1:
                    ends.append(at)
                    fmt.append("B")
                else:
                    continues.append(at)
                    ends.append(at + 1)
                    fmt.append("BB")
                build.append(("var", w, step[1]))
                at += w
            elif kind == "bytes":
                n = next(widths)
                if type(n) is str:
                    data = n.encode()
                    put_layout(encode_varint(len(data)) + data)
                    build.append(("const", n))
                elif n < 0:
                    put_layout(encode_varint(n))
                    build.append(("none",))
                else:
                    put_layout(encode_varint(n))
                    fmt.append(f"{n}s")
                    build.append(("col",))
                    at += n
            else:
                n = next(widths)
                put_layout(encode_varint(n))
                build.append(("array", step[1], [walk(step[2]) for _ in range(n)]))
        return build

    build = walk(spec)
    body = at
    prefix = encode_varint(body)
    # the length prefix goes first: every offset so far moves by its width
    w = len(prefix)
    layout = [(i, b) for i, b in enumerate(prefix)] + [(at + w, b) for at, b in layout]
    ends = [at + w for at in ends]
    continues = [at + w for at in continues]
    fmt_s = "<" + f"{w}x" + "".join(fmt)
    if fmt_s == "<" + f"{w}x":
        return None  # nothing to unpack: such items are rare, the general loop takes them
    return Shape(fmt_s, layout, ends, continues, build)


def shape_of(spec: Sequence[tuple], item: Sequence[Any], bases: Sequence[int]) -> Shape | None:
    """The Shape of items encoded like ``item`` (canonical varints), cached; None when there is none."""
    key: list = []
    if not _walk(spec, item, bases, key):
        return None
    if id(spec) not in _SPECS:
        _SPECS[id(spec)] = spec
    k = (id(spec), *key)
    try:
        return _SHAPES[k]
    except KeyError:
        pass
    if len(_SHAPES) >= _KEEP:
        _SHAPES.clear()
    shape = _SHAPES[k] = _make(spec, tuple(key))
    return shape


def _matching(buf: bytes, pos: int, k: int, shape: Shape, least: int) -> int:
    """How many of the ``k`` items of ``shape``'s size from ``pos`` on have its layout bytes and varint
    widths; 0 as soon as that is fewer than ``least``."""
    size = shape.size
    stop = pos + k * size
    m = k
    for at, byte in shape.layout:
        m -= len(buf[pos + at : stop : size].lstrip(byte))
        if m < least:
            return 0
        stop = pos + m * size
    for ats, wrong in ((shape.ends, _CONTINUES), (shape.continues, _ENDS)):  # a varint byte of the other kind
        for at in ats:
            bad = buf[pos + at : stop : size].translate(wrong).find(1)
            if bad >= 0:
                if bad < least:
                    return 0
                m, stop = bad, pos + bad * size
    return m


def _columns(build: list, cols: list, m: int, bases: Sequence[int], at: int, out: list) -> int:
    """Append to ``out`` one column per exposed value of ``build``, reading ``cols`` from ``at`` on;
    return the next unread column."""
    for step in build:
        kind = step[0]
        if kind == "col":
            out.append(cols[at])
            at += 1
        elif kind == "const":
            out.append(repeat(step[1], m))
        elif kind == "none":
            out.append(repeat(None, m))
        elif kind == "var":
            if step[1] == 1:
                col = map(ZIGZAG_1.__getitem__, cols[at])
                at += 1
            else:
                col = map(
                    ZIGZAG_2.__getitem__,
                    map(or_, map(and_, cols[at], repeat(127)), map(lshift, cols[at + 1], repeat(7))),
                )
                at += 2
            out.append(map(add, repeat(bases[step[2]]), col) if step[2] >= 0 else col)
        else:
            cls, items = step[1], step[2]
            per_item = []
            for one in items:
                values: list = []
                at = _columns(one, cols, m, bases, at, values)
                per_item.append(map(_new, repeat(cls), zip(*values)))
            out.append(map(list, zip(*per_item)) if per_item else map(list, repeat((), m)))
    return at


def _run_length(buf: bytes, pos: int, limit: int, shape: Shape) -> int:
    """How many items from ``pos`` on (at most ``limit``) have ``shape``, checked in doubling steps:
    what is checked past the run's end is at most what the run took, plus _FIRST items. 0 for a run
    shorter than _SHORTEST (unless it reaches ``limit``): the general loop takes those for less."""
    size, total, k = shape.size, 0, _FIRST
    while total < limit:
        k = min(k, limit - total)
        m = _matching(buf, pos + total * size, k, shape, 1 if total else min(_SHORTEST, k))
        total += m
        if m < k:
            break
        k *= 2
    return total


def _most_recent(spec: Sequence[tuple], recent: list[Shape], shape: Shape) -> list[Shape]:
    """``shape`` first, then the others; a new list (threads may be reading the old one)."""
    recent = [shape, *(s for s in recent if s is not shape)][:_RECENT_SHAPES]
    _RECENT[id(spec)] = recent
    return recent


def decode_run(
    buf: Any,
    pos: int,
    count: int,
    stop: int,
    spec: Sequence[tuple],
    cls: type,
    item: Sequence[Any] | None,
    bases: Sequence[int],
    at: int = 0,
) -> tuple[list, int]:
    """Decode up to ``count`` items of ``cls`` at ``pos`` (before ``stop``) in runs of one shape.

    The shapes tried: ``item``'s (an item just decoded at ``at``, None for none) and the last few that
    decoded a run for ``spec`` (in an earlier call too: consecutive batches usually have the same
    layouts), each where the next item's first byte is the shape's. Returns the items (an empty
    list when the next item has none of these shapes) and the position after them. Only bytes are
    read this way (a slice of another buffer type is not bytes); the general loop decodes
    everything else.
    """
    if type(buf) is not bytes:
        return [], pos
    if id(spec) not in _SPECS:
        _SPECS[id(spec)] = spec
    recent = _RECENT.get(id(spec), [])
    if item is not None:
        if pos + 1 < stop and buf[pos] > 127 and buf[pos + 1] != buf[at + 1]:
            return [], pos  # a length that differs from the item's in its second byte: not its shape
        if (shape := shape_of(spec, item, bases)) is not None:
            recent = _most_recent(spec, recent, shape)
    out: list = []
    while count and pos < stop:
        lead = buf[pos]
        for shape in recent:
            if shape.lead == lead:
                size = shape.size
                total = _run_length(buf, pos, min(count, (stop - pos) // size), shape)
                if total:
                    break
        else:
            break
        cols = list(zip(*shape.unpack(memoryview(buf)[pos : pos + total * size])))
        values: list = []
        _columns(shape.build, cols, total, bases, 0, values)
        out += map(_new, repeat(cls), zip(*values))
        pos += total * size
        count -= total
        if recent[0] is not shape:
            recent = _most_recent(spec, recent, shape)
    return out, pos
