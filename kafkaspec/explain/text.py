"""Render an explanation as an annotated hex dump: one line per span, as a tree, with colour on a terminal.

Each line: the span's byte range, its name and type, its raw bytes (the first 16), its value and
what the value means (enum names, bit fields, what a length or checksum covers and whether it
matches, a relative field's absolute value), then the schema's doc line. Where decoding stopped,
a block names the field, what it expected and the byte, with the bytes around it.

:class:`Writer` writes the lines as the entries come (``explain(..., sink=writer, keep=False)``). An
entry too large to hold (a batch of a million records) comes in pieces: its structures' lines go out
before their children, so its columns have fixed widths and each such structure ends with a line of
its own, ``end of ...``, with its end and what was found after its line went out (the length and
count that matched, the number of items).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import TextIO

from .tree import Explanation, Failure, Node, Stream

#: raw bytes shown on a field's line; longer fields show these and their size
SHOWN_BYTES = 16
#: bytes of context shown on each side of the byte where decoding stopped
CONTEXT = 32

_STYLES = {
    "pos": "2",
    "name": "36",
    "struct": "1;36",
    "type": "2",
    "hex": "33",
    "value": "32",
    "note": "35",
    "doc": "2",
    "bad": "1;31",
    "mark": "1;37;41",
    "ok": "32",
}


class Style:
    """ANSI colour, or none."""

    def __init__(self, colour: bool):
        self.colour = colour

    def __call__(self, kind: str, text: str) -> str:
        return f"\x1b[{_STYLES[kind]}m{text}\x1b[0m" if self.colour and text else text


def value_text(node: Node) -> str:
    """A field's value as it reads on the line."""
    v = node.value
    if node.kind in ("struct", "array", "decompressed", "compressed"):
        return ""
    if v is None:
        return "null" if node.kind == "bytes" else ""
    if isinstance(v, bool) or not isinstance(v, int | bytes | str):
        return str(v)
    if isinstance(v, int):
        return f"{v:#010x} ({v})" if node.name in ("crc", "checksum") else str(v)
    if len(v) > _PREFIX and _quote(v) == _quote(v[:_PREFIX]):
        v = v[:_PREFIX]  # the shown part is the same: the repr of a 192 MiB value would take up to 4x that
    text = repr(v)
    return text if len(text) <= 48 else text[:45] + "..." + text[-1]


#: a value longer than this shows the repr of its first this many bytes or characters (always cut to 48)
_PREFIX = 64


def _quote(v: bytes | str) -> bool:
    """Whether repr() quotes ``v`` with double quotes (it holds ' and no ")."""
    single, double = (b"'", b'"') if isinstance(v, bytes) else ("'", '"')
    return single in v and double not in v  # type: ignore[operator]


def first_sentence(doc: str) -> str:
    doc = " ".join(doc.split())
    cut = doc.find(". ")
    return doc if cut < 0 else doc[: cut + 1]


def lines(expl: Explanation, style: Style) -> Iterator[str]:
    """The rendered lines of the whole explanation: each entry (:func:`entry_lines`), then where
    decoding stopped and the problems found, then a summary line."""
    for entry in expl.entries:
        if not entry.streamed:  # a streamed entry has been written as it was read
            yield from entry_lines(entry, expl, style)
    for problem in expl.problems:
        yield from _failure_block("problem", problem, expl, style)
    if expl.failure is not None:
        yield from _failure_block("decoding stopped", expl.failure, expl, style)
    if expl.partial is not None:
        yield from _failure_block("partial entry at the end", expl.partial, expl, style)
    yield summary(expl, style)


def entry_lines(entry: Node, expl: Explanation, style: Style) -> Iterator[str]:
    """One entry's lines, in aligned columns: byte range, field, raw bytes, then value, notes and doc."""
    data = {s.id: s.data for s in expl.streams}
    walked = list(entry.walk())
    where_width = max(len(_where(node)) for _, node in walked)
    label_width = min(LABEL_WIDTH, max(len(_label(node, depth)) for depth, node in walked))
    raw_width = max(len(_raw(node, data[node.stream])) for _, node in walked)
    for depth, node in walked:
        yield _line(node, depth, data[node.stream], style, (where_width, label_width, raw_width))


#: the widest field column (deeper lines run over it)
LABEL_WIDTH = 48


def _raw(node: Node, data: bytes) -> str:
    """The raw-bytes column: a leaf's first bytes in hex (… when there are more), a structure's size."""
    if node.kind == "struct":
        return f"({node.size} bytes)"
    if node.children or node.kind == "array" or not node.size:
        return ""
    return data[node.start : min(node.end, node.start + SHOWN_BYTES)].hex(" ") + (
        "…" if node.size > SHOWN_BYTES else ""
    )


def _where(node: Node) -> str:
    return (f"s{node.stream}:" if node.stream else "") + f"{node.start}..{node.end}"


def _label(node: Node, depth: int) -> str:
    if node.kind == "struct" and node.type.startswith(node.name + " v"):
        return "  " * depth + node.type  # a top-level entry: its structure names it
    return "  " * depth + f"{node.name} {node.type}"


def _pad(styled: str, plain: str, width: int) -> str:
    return styled + " " * max(0, width - len(plain))


def _line(
    node: Node,
    depth: int,
    data: bytes,
    style: Style,
    widths: tuple[int, int, int],
    where: str | None = None,
    raw: str | None = None,
) -> str:
    where_width, label_width, raw_width = widths
    where = _where(node) if where is None else where
    parts = [" " * (where_width - len(where)) + style("pos", where), "  "]
    is_struct = node.kind in ("struct", "array", "decompressed") or (node.children and node.kind != "bytes")
    label = _label(node, depth)
    if node.kind == "struct" and node.type.startswith(node.name + " v"):
        styled = "  " * depth + style("struct", node.type)
    else:
        styled = (
            "  " * depth
            + style("struct" if is_struct else "name", node.name)
            + " "
            + style("type", node.type)
        )
    parts.append(_pad(styled, label, label_width))
    rest = []
    leaf = not node.children and node.kind != "array"
    raw = _raw(node, data) if raw is None else raw
    parts.append("  " + _pad(style("type" if node.kind == "struct" else "hex", raw), raw, raw_width))
    value = value_text(node) if leaf else ""
    if value:
        rest.append("= " + style("value", value))
    notes = list(node.notes)
    if node.absolute is not None and not any(str(node.absolute) in n for n in notes):
        notes.append(f"absolute {node.absolute}")
    notes += [
        f"{name} (bit{'s' * ('-' in bits)} {bits}) = {value} {label}"
        for name, bits, value, label in node.bits
    ]
    if notes:
        rest.append(style("note", "; ".join(notes)))
    if node.problem:
        rest.append(style("bad", f"MISMATCH: {node.problem}"))
    if node.stopped:
        rest.append(style("bad", "(incomplete: decoding stopped inside)"))
    if node.doc and node.kind not in ("data", "prefix"):
        rest.append(style("doc", "# " + first_sentence(node.doc)))
    return ("".join(parts) + "  " + "  ".join(rest)).rstrip()


def _failure_block(title: str, failure: Failure, expl: Explanation, style: Style) -> Iterator[str]:
    stream = expl.streams[failure.stream]
    where = f"byte {failure.position}" + (
        f" of stream {failure.stream} ({stream.origin})" if failure.stream else ""
    )
    yield ""
    yield style("bad", f"{title} at {where}, in {failure.path or 'the input'}:")
    yield "  " + failure.message
    yield from context(stream.data, failure.position, style)


def context(data: bytes, position: int, style: Style) -> Iterator[str]:
    """The bytes around ``position``, 16 a line, the byte at ``position`` marked."""
    first = max(0, (position - CONTEXT) // 16 * 16)
    last = min(len(data), position + CONTEXT + 1)
    for row in range(first, max(last, first + 1), 16):
        cells = []
        marks = []
        for i in range(row, min(row + 16, len(data))):
            cell = f"{data[i]:02x}"
            cells.append(style("mark", cell) if i == position else cell)
            marks.append("^^" if i == position else "  ")
        if position == len(data) and row + 16 > position >= row:
            cells.append(style("mark", "<end>"))
            marks.append("^^")
        yield f"  {row:>10}  " + " ".join(cells)
        if "^^" in marks:
            yield " " * 14 + " ".join(marks).rstrip() + f"  byte {position}"


def summary(expl: Explanation, style: Style) -> str:
    n = expl.count
    text = f"{n} {expl.format} entr{'ies' if n != 1 else 'y'}"
    if expl.failure is not None or expl.partial is not None:
        text += " read whole"
    if len(expl.streams) > 1:
        text += f", {len(expl.streams) - 1} decompressed region{'s' * (len(expl.streams) > 2)}"
    bad = []
    if expl.problems:
        bad.append(f"{len(expl.problems)} problem{'s' * (len(expl.problems) > 1)}")
    if expl.failure is not None:
        f = expl.failure
        bad.append(f"decoding stopped at byte {f.position}" + (f" of stream {f.stream}" if f.stream else ""))
    if bad:
        return style("bad", "; ".join([text, *bad]))
    if expl.partial is not None:
        return text + f"; a partial entry at byte {expl.partial.position}"
    return style("ok", text + "; every byte explained")


class Writer:
    """The lines written as the entries come (a :class:`~.tree.Sink`): a whole entry as
    :func:`entry_lines` aligns it; an entry too large to hold in pieces, in columns as wide as its
    positions and :data:`LABEL_WIDTH` and :data:`SHOWN_BYTES` can need."""

    def __init__(self, out: TextIO, style: Style):
        self.out = out
        self.style = style
        self.widths = (0, LABEL_WIDTH, 3 * SHOWN_BYTES)

    def entry(self, node: Node, expl: Explanation) -> None:
        self.out.write("\n".join(entry_lines(node, expl, self.style)) + "\n")

    def open(self, node: Node, depth: int, end: int | None, streams: list[Stream]) -> None:
        # the widest position column any span of the streams so far can need
        where = max(len(f"s{s.id}:{s.size}..{s.size}" if s.id else f"{s.size}..{s.size}") for s in streams)
        self.widths = (max(where, self.widths[0] if depth else 0), *self.widths[1:])
        shown = replace(node, end=node.start if end is None else end)
        if end is None:  # not known until it ends: its closing line says
            span, raw = _where(shown).rpartition("..")[0] + "..?", ""
        else:
            span, raw = _where(shown), None
        self.out.write(
            _line(shown, depth, streams[node.stream].data, self.style, self.widths, span, raw) + "\n"
        )

    def child(self, node: Node, depth: int, streams: list[Stream]) -> None:
        data = {s.id: s.data for s in streams}
        self.out.write(
            "\n".join(_line(n, d, data[n.stream], self.style, self.widths) for d, n in node.walk(depth))
            + "\n"
        )

    def close(self, node: Node, depth: int, late: list[str], streams: list[Stream]) -> None:
        style = self.style
        where_width, label_width, raw_width = self.widths
        where = _where(node)
        label = (
            "  " * depth
            + "end of "
            + (node.type if node.type.startswith(node.name + " v") else f"{node.name} {node.type}")
        )
        raw = f"({node.size} bytes)" if node.kind == "struct" else ""
        line = (
            " " * (where_width - len(where))
            + style("pos", where)
            + "  "
            + _pad(style("struct", label), label, label_width)
            + "  "
            + _pad(style("type", raw), raw, raw_width)
        )
        rest = [style("note", "; ".join(late))] if late else []
        if node.stopped:
            rest.append(style("bad", "(incomplete: decoding stopped inside)"))
        self.out.write((line + "  " + "  ".join(rest)).rstrip() + "\n")


def render(expl: Explanation, colour: bool = False) -> str:
    return "\n".join(lines(expl, Style(colour))) + "\n"
