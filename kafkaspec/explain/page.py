"""Render an explanation as one self-contained HTML page (``kafkaspec explain --html FILE``).

Hex on the left (the input, then each decompressed region), the field tree on the right;
hovering a field highlights its bytes, hovering a byte highlights the field it belongs to.
Everything is inline (no script, style or font is fetched), so the page works offline.

Each byte is ``<span id="b{stream}-{position}">``; each tree line is
``<div class="node" data-s= data-a= data-b= data-path=>`` (stream, start, end, dotted path), which is
what the browser test drives.
"""

from __future__ import annotations

from html import escape

from .text import first_sentence, value_text
from .tree import Explanation, Failure, Node

_STYLE = """
body { font: 13px/1.35 ui-monospace, Menlo, Consolas, monospace; margin: 0; color: #222; }
header { padding: 8px 12px; background: #f3f3f3; border-bottom: 1px solid #ccc; }
main { display: flex; height: calc(100vh - 60px); }
#hex, #tree { overflow: auto; padding: 8px 12px; }
#hex { flex: 0 0 auto; border-right: 1px solid #ccc; }
#tree { flex: 1 1 auto; }
.row { white-space: pre; }
.off { color: #999; margin-right: 8px; }
.byte { padding: 0 2px; border-radius: 2px; }
.byte.hl { background: #ffd54a; }
.byte.bad { outline: 2px solid #d32f2f; }
.node { white-space: nowrap; cursor: default; border-radius: 2px; }
.node.hl { background: #ffd54a; }
.node .name { color: #00739e; font-weight: bold; }
.node .type { color: #888; }
.node .value { color: #2e7d32; }
.node .note { color: #7b1fa2; }
.node .doc { color: #999; }
.node .bad, .failure { color: #d32f2f; font-weight: bold; }
h3 { margin: 12px 0 4px; font-size: 13px; }
"""

_SCRIPT = """
(function () {
  var lit = [];
  function clear() { lit.forEach(function (e) { e.classList.remove('hl'); }); lit = []; }
  function light(e) { e.classList.add('hl'); lit.push(e); }
  function spanOf(node) {
    return [node.getAttribute('data-s'), +node.getAttribute('data-a'), +node.getAttribute('data-b')];
  }
  var nodes = document.querySelectorAll('.node');
  var leafOf = {};
  nodes.forEach(function (node) {
    var sp = spanOf(node);
    node.addEventListener('mouseenter', function () {
      clear(); light(node);
      for (var i = sp[1]; i < sp[2]; i++) {
        var b = document.getElementById('b' + sp[0] + '-' + i);
        if (b) { light(b); if (i === sp[1]) { b.scrollIntoView({block: 'nearest'}); } }
      }
    });
    if (node.getAttribute('data-leaf')) {
      for (var i = sp[1]; i < sp[2]; i++) { leafOf[sp[0] + '-' + i] = node; }
    }
  });
  document.querySelectorAll('.byte').forEach(function (b) {
    b.addEventListener('mouseenter', function () {
      var node = leafOf[b.id.slice(1)];
      clear(); light(b);
      if (node) { light(node); node.scrollIntoView({block: 'nearest'}); }
    });
  });
})();
"""


def span(expl: Explanation) -> tuple[int, int]:
    """The bytes of the input the page shows: those its entries cover (all of them, unless --count
    stopped early), from the start of their first row."""
    if not expl.entries:
        return 0, len(expl.streams[0].data)
    start = min(entry.start for entry in expl.entries if entry.stream == 0) // 16 * 16
    return start, max(entry.end for entry in expl.entries if entry.stream == 0)


def shown_bytes(expl: Explanation) -> int:
    """How many bytes the page's hex shows: the input's that its entries cover, and every decompressed region."""
    start, end = span(expl)
    return end - start + sum(s.size for s in expl.streams[1:])


def _hex(expl: Explanation, marks: set[tuple[int, int]]) -> list[str]:
    out = []
    for stream in expl.streams:
        first, last = span(expl) if stream.id == 0 else (0, len(stream.data))
        shown = "" if (first, last) == (0, len(stream.data)) else f", bytes {first}..{last} shown"
        out.append(f"<h3>stream {stream.id}: {escape(stream.origin)} ({len(stream.data)} bytes{shown})</h3>")
        data = stream.data[:last]
        for row in range(first, len(data), 16):
            cells = []
            for i in range(row, min(row + 16, len(data))):
                bad = " bad" if (stream.id, i) in marks else ""
                cells.append(f'<span class="byte{bad}" id="b{stream.id}-{i}">{data[i]:02x}</span>')
            out.append(f'<div class="row"><span class="off">{row:08x}</span>{"".join(cells)}</div>')
    return out


def _path(parent: str, node: Node) -> str:
    if node.kind in ("data", "decompressed"):
        return parent
    if node.name.startswith("[") and parent:
        return parent + node.name
    return f"{parent}.{node.name}" if parent else node.name


def _tree(node: Node, depth: int, parent: str, out: list[str]) -> None:
    path = _path(parent, node)
    parts = [f'<span class="name">{escape(node.name)}</span> <span class="type">{escape(node.type)}</span>']
    value = value_text(node) if not node.children else ""
    if value:
        parts.append(f' = <span class="value">{escape(value)}</span>')
    notes = list(node.notes) + [f"{n} (bits {b}) = {v} {label}" for n, b, v, label in node.bits]
    if notes:
        parts.append(f' <span class="note">{escape("; ".join(notes))}</span>')
    if node.problem:
        parts.append(f' <span class="bad">MISMATCH: {escape(node.problem)}</span>')
    if node.stopped:
        parts.append(' <span class="bad">(incomplete)</span>')
    if node.doc and node.kind not in ("data", "prefix"):
        parts.append(f' <span class="doc"># {escape(first_sentence(node.doc))}</span>')
    where = (f"s{node.stream}:" if node.stream else "") + f"{node.start}..{node.end}"
    leaf = ' data-leaf="1"' if not node.children else ""
    out.append(
        f'<div class="node" style="padding-left:{depth * 16}px" data-s="{node.stream}" data-a="{node.start}" '
        f'data-b="{node.end}" data-path="{escape(path)}"{leaf} title="{where}">{"".join(parts)}</div>'
    )
    for child in node.children:
        _tree(child, depth + 1, path, out)


def _failure(title: str, f: Failure) -> str:
    where = f"byte {f.position}" + (f" of stream {f.stream}" if f.stream else "")
    return f'<p class="failure">{escape(title)} at {where}, in {escape(f.path)}: {escape(f.message)}</p>'


def render(expl: Explanation, title: str = "kafkaspec explain") -> str:
    stops = [f for f in (expl.failure, expl.partial) if f is not None] + list(expl.problems)
    marks = {(f.stream, f.position) for f in stops}
    tree: list[str] = []
    for entry in expl.entries:
        _tree(entry, 0, "", tree)
    messages = (
        [_failure("problem", p) for p in expl.problems]
        + ([_failure("decoding stopped", expl.failure)] if expl.failure else [])
        + ([_failure("partial entry", expl.partial)] if expl.partial else [])
    )
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            f"<title>{escape(title)} - kafkaspec explain</title>",
            f"<style>{_STYLE}</style></head><body>",
            f"<header><b>{escape(title)}</b>: {escape(expl.format)}, {len(expl.entries)} entries, "
            f"{len(expl.streams) - 1} decompressed regions. Hover a field to see its bytes, a byte to see its field.",
            *messages,
            "</header><main>",
            '<div id="hex">',
            *_hex(expl, marks),
            "</div>",
            '<div id="tree">',
            *tree,
            "</div>",
            "</main>",
            f"<script>{_SCRIPT}</script>",
            "</body></html>",
            "",
        ]
    )
