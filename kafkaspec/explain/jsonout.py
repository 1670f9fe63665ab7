"""Render an explanation as JSON (``kafkaspec explain --json``): the field tree with offsets, for tools.

One object: ``format``; ``count`` (entries read whole); ``streams`` (``id``, ``origin``, ``size``: stream 0 is the input, the others
decompressed regions); ``entries``, each a node: ``name``, ``kind``, ``type``, ``stream``, ``start``,
``end`` (end exclusive, absolute in its stream), ``hex`` (a leaf's raw bytes), ``value`` (ints and
strings as they are, bytes as ``{"hex": ...}``), ``absolute``, ``bits``, ``notes``, ``problem``,
``stopped``, ``doc`` and ``children``; then ``problems``, ``failure`` and ``partial`` (each ``null``
or ``stream``, ``position``, ``path``, ``message``).

An entry too large to hold (a batch of a million records) is written as it is read
(:class:`Writer`): its structures' ``children`` come before their ``end``, ``value``, ``notes``,
``problem`` and ``stopped``, and their ``notes`` also carry, as ``"field: note"``, what was found
about their fields after those were written (the length and count that matched).
"""

from __future__ import annotations

import json
import re
import secrets
from typing import Any, TextIO

from .tree import Explanation, Failure, Node, Stream

#: bytes longer than this are written as hex in pieces by :class:`Writer` (the hex of a 192 MiB value,
#: held as text, then as JSON, would take several times its size)
LARGE = 1 << 16


class _Pieces:
    """Large byte strings left out of a dict to be encoded, each a token in its place, written as hex
    a piece at a time where the encoded text holds its token."""

    def __init__(self) -> None:
        self.nonce = f"kafkaspec-hex-{secrets.token_hex(8)}-"
        self.parts: list[memoryview] = []

    def add(self, data: Any) -> str:
        self.parts.append(memoryview(data).cast("B"))
        return f"{self.nonce}{len(self.parts) - 1}"

    def write(self, out: TextIO, text: str) -> None:
        if not self.parts:
            out.write(text)
            return
        pieces = re.split(f'"{re.escape(self.nonce)}(\\d+)"', text)
        for i, piece in enumerate(pieces):
            if i % 2 == 0:
                out.write(piece)
                continue
            part = self.parts[int(piece)]
            out.write('"')
            for at in range(0, len(part), LARGE):
                out.write(part[at : at + LARGE].hex())
            out.write('"')
        self.parts.clear()


def _value(v: Any, large: _Pieces | None = None) -> Any:
    if isinstance(v, bytes | bytearray | memoryview):
        return {"hex": large.add(v) if large is not None and len(v) > LARGE else bytes(v).hex()}
    if v is None or isinstance(v, int | str):
        return v
    return str(v)


def node_dict(node: Node, data: dict[int, bytes], large: _Pieces | None = None) -> dict[str, Any]:
    """The node and everything under it as JSON values; with ``large``, long byte strings as its tokens."""
    out: dict[str, Any] = {
        "name": node.name,
        "kind": node.kind,
        "type": node.type,
        "stream": node.stream,
        "start": node.start,
        "end": node.end,
    }
    if not node.children:
        raw = memoryview(data[node.stream])[node.start : node.end]
        out["hex"] = large.add(raw) if large is not None and len(raw) > LARGE else raw.hex()
    if node.kind not in ("struct", "array", "decompressed"):
        out["value"] = _value(node.value, large)
    if node.absolute is not None:
        out["absolute"] = node.absolute
    if node.bits:
        out["bits"] = [{"name": n, "bits": b, "value": v, "label": label} for n, b, v, label in node.bits]
    out.update(_known_last(node, node.notes))
    if node.doc:
        out["doc"] = node.doc
    if node.children:
        out["children"] = [node_dict(c, data, large) for c in node.children]
    return out


def _known_last(node: Node, notes: list[str]) -> dict[str, Any]:
    """The keys a structure written in pieces can give only when it ends."""
    out: dict[str, Any] = {}
    if notes:
        out["notes"] = notes
    if node.problem:
        out["problem"] = node.problem
    if node.stopped:
        out["stopped"] = True
    return out


def _failure(f: Failure | None) -> dict[str, Any] | None:
    return (
        None
        if f is None
        else {"stream": f.stream, "position": f.position, "path": f.path, "message": f.message}
    )


def to_dict(expl: Explanation) -> dict[str, Any]:
    data = {s.id: s.data for s in expl.streams}
    return {
        "format": expl.format,
        "count": expl.count,
        "streams": [{"id": s.id, "origin": s.origin, "size": s.size} for s in expl.streams],
        "entries": [node_dict(n, data) for n in expl.entries],
        "problems": [_failure(p) for p in expl.problems],
        "failure": _failure(expl.failure),
        "partial": _failure(expl.partial),
    }


def render(expl: Explanation) -> str:
    return json.dumps(to_dict(expl), indent=1) + "\n"


class Writer:
    """The same JSON written as the entries come (``explain(..., sink=writer, keep=False)``, a
    :class:`~.tree.Sink`), so that memory stays that of one entry, or of one record of an entry too
    large to hold: ``start``, ``entry`` for each (or ``open``, ``child``, ``close``), ``finish``."""

    def __init__(self, out: TextIO):
        self.out = out
        self.first = True
        #: per structure being written in pieces: whether no child has been written in it yet
        self._firsts: list[bool] = []
        #: per structure being written in pieces: its notes when it opened (``late`` holds the later ones)
        self._notes: list[int] = []
        self._large = _Pieces()

    def start(self, fmt: str) -> None:
        self.out.write(f'{{"format": {json.dumps(fmt)},\n "entries": [\n')

    def _separate(self) -> None:
        if self._firsts:
            if not self._firsts[-1]:
                self.out.write(",\n")
            self._firsts[-1] = False
        else:
            if not self.first:
                self.out.write(",\n")
            self.first = False

    def entry(self, node: Node, expl: Explanation) -> None:
        self.child(node, 0, expl.streams)

    def open(self, node: Node, depth: int, end: int | None, streams: list[Stream]) -> None:
        self._separate()
        head = {
            "name": node.name,
            "kind": node.kind,
            "type": node.type,
            "stream": node.stream,
            "start": node.start,
        }
        if node.absolute is not None:
            head["absolute"] = node.absolute
        if node.bits:
            head["bits"] = [
                {"name": n, "bits": b, "value": v, "label": label} for n, b, v, label in node.bits
            ]
        if node.doc:
            head["doc"] = node.doc
        self.out.write(json.dumps(head, indent=1)[:-2] + ',\n "children": [\n')
        self._firsts.append(True)
        self._notes.append(len(node.notes))

    def child(self, node: Node, depth: int, streams: list[Stream]) -> None:
        self._separate()
        large = self._large
        large.write(self.out, json.dumps(node_dict(node, {s.id: s.data for s in streams}, large), indent=1))

    def close(self, node: Node, depth: int, late: list[str], streams: list[Stream]) -> None:
        self._firsts.pop()
        tail: dict[str, Any] = {"end": node.end}
        large = self._large
        if node.kind not in ("struct", "array", "decompressed"):
            tail["value"] = _value(node.value, large)
        tail.update(_known_last(node, node.notes[: self._notes.pop()] + late))
        large.write(self.out, "\n ],\n" + json.dumps(tail, indent=1)[2:])

    def finish(self, expl: Explanation) -> None:
        for node in expl.entries:  # what was not read whole
            if not node.streamed:  # a streamed entry has been written as it was read
                self.entry(node, expl)
        rest = to_dict(expl)
        del rest["format"], rest["entries"]
        self.out.write("\n ],\n" + json.dumps(rest, indent=1)[1:] + "\n")
