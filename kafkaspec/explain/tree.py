"""What an explanation is: a tree of byte spans over one or more byte streams.

Plain data, no decoding and no rendering: :mod:`.tracer` builds it, :mod:`.walk` drives the
tracer over an input, and :mod:`.text`, :mod:`.jsonout` and :mod:`.page` render it.

Stream 0 is the input (positions are absolute, as in the file); each decompressed region is a
stream of its own, numbered in the order met, whose positions count from 0 in the decompressed
bytes. The leaves of the tree (nodes without children) tile each stream they cover: every byte
belongs to exactly one leaf.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass(eq=False)
class Node:
    """One span: a structure, a field, a length or count prefix, an array item, a region."""

    #: the field name, ``[i]`` for an array item, or the structure name at the top
    name: str
    #: struct | int | bytes | prefix | data | array | compressed | decompressed
    kind: str
    #: the wire type (``int64``, ``varint``, ``bytes``) or the structure (``Record v2``)
    type: str
    start: int
    end: int
    stream: int = 0
    #: the decoded value (int, bytes, str or None); structures and arrays have none
    value: Any = None
    doc: str = ""
    #: what the value means: enum names, what a length or checksum covers and whether it matches
    notes: list[str] = field(default_factory=list)
    #: a relative field's absolute value (base + stored delta)
    absolute: int | None = None
    #: bit fields: (name, bits, value, label)
    bits: list[tuple[str, str, int, str]] = field(default_factory=list)
    #: a mismatch found here (a checksum or length that does not agree); decoding went on
    problem: str | None = None
    #: decoding stopped inside this node (it is incomplete)
    stopped: bool = False
    #: written in pieces as it was read (an entry too large to hold, see :class:`Sink`): its line went out
    #: before its children, and its finished items were let go, so ``children`` holds only the rest
    streamed: bool = False
    children: list[Node] = field(default_factory=list)

    @property
    def size(self) -> int:
        return self.end - self.start

    def leaves(self):
        """The nodes without children under this one, in order."""
        if not self.children:
            yield self
            return
        for child in self.children:
            yield from child.leaves()

    def walk(self, depth: int = 0):
        """(depth, node) for this node and everything under it, depth first."""
        yield depth, self
        for child in self.children:
            yield from child.walk(depth + 1)


@dataclass(frozen=True)
class Stream:
    """A byte stream spans point into: the input, or a decompressed region."""

    id: int
    data: bytes
    #: where it came from, in words ("input", "gzip region of records at bytes 61..130")
    origin: str
    #: the first byte of ``data`` is this position (the input: 0; a --at window: its start)
    base: int = 0
    #: the stream's size when ``data`` was let go (a streamed explanation keeps no finished region)
    length: int | None = None

    @property
    def size(self) -> int:
        return len(self.data) if self.length is None else self.length


class Sink(Protocol):
    """Where a streamed explanation writes an entry too large to hold whole (``kafkaspec explain``
    text and JSON): ``entry`` gets each entry read whole and small; a large one comes in pieces, each
    written once: ``open`` a structure whose children follow (``end``: where it will end, when a
    length says so), ``child`` each finished child (a whole subtree), ``close`` the structure, with
    the facts found after its line or its fields' lines went out (``late``: ``"field: note"``)."""

    def entry(self, node: Node, expl: Explanation) -> None: ...

    def open(self, node: Node, depth: int, end: int | None, streams: list[Stream]) -> None: ...

    def child(self, node: Node, depth: int, streams: list[Stream]) -> None: ...

    def close(self, node: Node, depth: int, late: list[str], streams: list[Stream]) -> None: ...


@dataclass(frozen=True)
class Failure:
    """Where decoding stopped: the field that expected what, at which byte."""

    stream: int
    #: the byte where the failing field starts (absolute in its stream)
    position: int
    #: the field's path (``RecordBatch.records[3].value``)
    path: str
    message: str


@dataclass
class Explanation:
    """The result of explaining an input: top-level entries, streams, problems, where it stopped."""

    format: str
    streams: list[Stream]
    entries: list[Node]
    #: mismatches that did not stop decoding: (stream, position, path, message)
    problems: list[Failure] = field(default_factory=list)
    failure: Failure | None = None
    #: bytes after the last entry that form no entry (a partial entry at the end of a segment)
    partial: Failure | None = None
    #: each complete entry's value, as the fast codec decodes it (its generated NamedTuple)
    values: list[Any] = field(default_factory=list)
    #: how many entries were read whole
    count: int = 0

    @property
    def ok(self) -> bool:
        return self.failure is None and not self.problems
