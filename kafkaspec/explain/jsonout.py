"""Render an explanation as JSON (``kafkaspec explain --json``): the field tree with offsets, for tools.

One object: ``format``; ``count`` (entries read whole); ``streams`` (``id``, ``origin``, ``size``: stream 0 is the input, the others
decompressed regions); ``entries``, each a node: ``name``, ``kind``, ``type``, ``stream``, ``start``,
``end`` (end exclusive, absolute in its stream), ``hex`` (a leaf's raw bytes), ``value`` (ints and
strings as they are, bytes as ``{"hex": ...}``), ``absolute``, ``bits``, ``notes``, ``problem``,
``stopped``, ``doc`` and ``children``; then ``problems``, ``failure`` and ``partial`` (each ``null``
or ``stream``, ``position``, ``path``, ``message``).
"""

from __future__ import annotations

import json
from typing import Any, TextIO

from .tree import Explanation, Failure, Node


def _value(v: Any) -> Any:
    if isinstance(v, bytes | bytearray | memoryview):
        return {"hex": bytes(v).hex()}
    if v is None or isinstance(v, int | str):
        return v
    return str(v)


def node_dict(node: Node, data: dict[int, bytes]) -> dict[str, Any]:
    out: dict[str, Any] = {"name": node.name, "kind": node.kind, "type": node.type, "stream": node.stream,
                           "start": node.start, "end": node.end}
    if not node.children:
        out["hex"] = bytes(data[node.stream][node.start : node.end]).hex()
    if node.kind not in ("struct", "array", "decompressed"):
        out["value"] = _value(node.value)
    if node.absolute is not None:
        out["absolute"] = node.absolute
    if node.bits:
        out["bits"] = [{"name": n, "bits": b, "value": v, "label": label} for n, b, v, label in node.bits]
    if node.notes:
        out["notes"] = node.notes
    if node.problem:
        out["problem"] = node.problem
    if node.stopped:
        out["stopped"] = True
    if node.doc:
        out["doc"] = node.doc
    if node.children:
        out["children"] = [node_dict(c, data) for c in node.children]
    return out


def _failure(f: Failure | None) -> dict[str, Any] | None:
    return None if f is None else {"stream": f.stream, "position": f.position, "path": f.path, "message": f.message}


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
    """The same JSON written as the entries come (``explain(..., on_entry=writer.entry, keep=False)``),
    so that memory stays that of one entry: ``start``, ``entry`` for each, ``finish``."""

    def __init__(self, out: TextIO):
        self.out = out
        self.first = True

    def start(self, fmt: str) -> None:
        self.out.write(f'{{"format": {json.dumps(fmt)},\n "entries": [\n')

    def entry(self, node: Node, expl: Explanation) -> None:
        if not self.first:
            self.out.write(",\n")
        self.first = False
        self.out.write(json.dumps(node_dict(node, {s.id: s.data for s in expl.streams}), indent=1))

    def finish(self, expl: Explanation) -> None:
        for node in expl.entries:  # what was not read whole
            self.entry(node, expl)
        rest = to_dict(expl)
        del rest["format"], rest["entries"]
        self.out.write("\n ],\n" + json.dumps(rest, indent=1)[1:] + "\n")
