"""The bounded output of the tracer: the span tree as it is built, and the budget of what is kept.

:class:`~.tracer.Tracer` reads the fields; it hands each span it makes to a :class:`BoundedTree`,
which places it under the open structure, counts it against the caller's ``max_nodes``
(:class:`TooLarge` past it) and decides what is held and what is written and let go.

Without a :class:`~.tree.Sink` every entry is held whole. With one, an entry too large to hold (more
than :data:`HOLD` spans since anything was last written: a batch of a million records) is written as
it is read: the structures open around the item just read get their opening line, every finished
item is written and let go, and each structure's closing line carries what was found after its line
went out. Memory then stays that of the open structures and one item, whatever the record count.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from .tree import Failure, Node, Sink, Stream

#: the spans an entry may hold unwritten before its finished items are written and let go (with a sink)
HOLD = 20_000


class TooLarge(Exception):  # a limit the caller chose, not a format error
    """The explanation holds more spans than the caller's ``max_nodes`` (a page that would not load)."""


@dataclass
class _Written:
    """A structure being written in pieces (see :meth:`BoundedTree.item_done`)."""

    depth: int
    #: its notes when its line went out (later ones are written when it closes)
    notes: int
    #: its leading children already written (and kept: the fields, and the item still open)
    written: int = 0
    #: the fields written, with their notes count and problem then: (node, notes, problem)
    fields: list[tuple[Node, int, str | None]] = field(default_factory=list)


class BoundedTree:
    """The span tree being built: the entries read (:attr:`roots`), the structures open, and, with a
    sink, the parts of an entry too large to hold written as they are finished."""

    def __init__(
        self,
        streams: list[Stream],
        ends: Callable[[Node], int | None],
        *,
        sink: Sink | None = None,
        hold: int = HOLD,
        annotate: Callable[[Node, list[Node]], None] | None = None,
        max_nodes: int | None = None,
    ):
        #: the byte streams spans point into (the tracer's list: it adds the decompressed regions)
        self.streams = streams
        #: where an open node will end, when a length or its stream says so already (the tracer knows)
        self.ends = ends
        self.roots: list[Node] = []
        #: the structures open, outermost first
        self.open: list[Node] = []
        #: where an entry too large to hold is written as it is read (None: every entry is held whole)
        self.sink = sink
        self.hold = hold
        #: notes a finished part needs before it is written: (part, the structures open around it)
        self.annotate = annotate
        #: the most spans to make in all (None: no limit); past it :class:`TooLarge` is raised
        self.max_nodes = max_nodes
        #: while positive, nothing is written: what is being read may yet be rewound
        #: (:meth:`~.tracer.Tracer.mark`), or needs notes only its whole content gives
        self.holding = 0
        self.nodes = 0
        self._held = 0
        self._written: dict[int, _Written] = {}

    def add(self, node: Node) -> Node:
        """Place ``node`` under the open structure (or as a new entry), within the budget."""
        if self.open:
            self.open[-1].children.append(node)
        else:
            self.roots.append(node)
            self._held = 0
        self._held += 1
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise TooLarge(f"more than {self.max_nodes} spans")
        return node

    def push(self, node: Node) -> Node:
        """Add ``node`` and open it: what is added next goes under it."""
        self.add(node)
        self.open.append(node)
        return node

    def abandon(self, failure: Failure) -> None:
        """Decoding stopped for good at ``failure``: the open nodes are marked stopped and end there."""
        while self.open:  # innermost first: an outer node ends where its children do
            node = self.open[-1]
            node.stopped = True
            ends = [c.end for c in node.children if c.stream == node.stream]
            if node.stream == failure.stream:
                ends.append(failure.position)
            node.end = max([node.end, *ends])  # a node may have no children in its own stream
            if node.streamed:  # written in pieces: its last children and closing line go out now
                self.finish(node)
            self.open.pop()

    # -- writing an entry too large to hold ------------------------------------------------------------
    def item_done(self) -> None:
        """An array item, or an entry inside a field, has just been read whole (the innermost open
        node's last child). With a sink, once the entry holds more than :attr:`hold` unwritten spans,
        the structures open around it are written in pieces: from then on each finished item is
        written and let go."""
        if self.sink is None or self.holding:
            return
        container = self.open[-1]
        if container.streamed:
            self._flush(container, len(self.open) - 1)
        elif self._held > self.hold:
            assert self.sink is not None
            # written down to the outermost structure holding finished items (a batch's records, not
            # the headers of the record still open: that record is written whole when it ends)
            last = next(
                depth
                for depth, node in enumerate(self.open)
                if not node.streamed
                and any(
                    child.name.startswith("[") and child is not self._inner(depth) for child in node.children
                )
            )
            for depth, node in enumerate(self.open[: last + 1]):
                if not node.streamed:
                    node.streamed = True
                    self._written[id(node)] = _Written(depth, len(node.notes))
                    if depth:  # its parent's last child, written now as its opening line
                        self._written[id(self.open[depth - 1])].written += 1
                    if depth == 0 and self.annotate is not None:
                        self.annotate(node, [])  # what needs the whole entry, so far (a batch's last offset)
                    self.sink.open(node, depth, self.ends(node), self.streams)
                self._flush(node, depth)

    def _inner(self, depth: int) -> Node | None:
        """The open node inside the one at ``depth``."""
        return self.open[depth + 1] if depth + 1 < len(self.open) else None

    def _flush(self, node: Node, depth: int, *, final: bool = False) -> None:
        """Write ``node``'s finished children not written yet, and let its items go (fields are kept:
        their later notes go out on ``node``'s closing line). Unless ``final``, the open child (the
        next open node) is left to be opened."""
        assert self.sink is not None
        out = self._written[id(node)]
        inner = None if final else self._inner(depth)
        chain = [*self.open[:depth], node]
        kept = []
        for i, child in enumerate(node.children):
            item = child.name.startswith("[")
            if child is inner:
                kept.append(child)
                continue
            if i >= out.written:
                if self.annotate is not None:
                    self.annotate(child, chain)
                self.sink.child(child, depth + 1, self.streams)
                if child.stream == node.stream:
                    node.end = max(node.end, child.end)
                if not item:
                    out.fields.append((child, len(child.notes), child.problem))
            if not item:
                kept.append(child)
        node.children[:] = kept
        out.written = len(kept) - (inner is not None and not inner.streamed)  # not written until it is opened
        self._held = 0

    def finish(self, node: Node) -> None:
        """A node written in pieces ends: its last children, then its closing line."""
        assert self.sink is not None
        out = self._written[id(node)]
        self._flush(node, out.depth, final=True)
        del self._written[id(node)]
        late = list(node.notes[out.notes :])
        for child, notes, problem in out.fields:
            late += [f"{child.name}: {note}" for note in child.notes[notes:]]
            if child.problem and child.problem != problem:
                late.append(f"{child.name}: MISMATCH: {child.problem}")
        self.sink.close(node, out.depth, late, self.streams)


__all__ = ["HOLD", "BoundedTree", "TooLarge"]
