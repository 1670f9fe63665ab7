"""The readers: the tracer the generated tracing decoders (``kafkaspec.generated.trace``) call, one
call per field. One module because it is one class, a reader per kind of field the schema language
has (ints, varints, strings, bytes, arrays, bits, checksums, compressed regions, tagged fields): a new
field kind in the generator adds one method here.

Each call reads one field at :attr:`Tracer.pos`, records a :class:`~.tree.Node` with its byte span,
raw bytes, value and doc line, and returns the value. The structure itself (which fields, in which
order, with which lengths, counts, checksums, bits, bases and codecs) comes from the generated code;
this module knows only how each kind of field is read and what can be wrong with it.

Problems that leave the layout readable (a checksum that does not match) are recorded on the node
and decoding goes on; anything else (bytes missing, a length or count that cannot fit, a wrong
constant, a bad varint, a compressed region that does not decompress) stops decoding with
:class:`TraceStop`, naming the field, what it expected and the byte where it starts.

What becomes of the spans read (held, or written to a sink and let go, within the caller's budget)
is :mod:`.bounded`'s job.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from kafkaspec.codec.compression import DEFAULT_MAX_DECOMPRESSED, codec_name, decompress
from kafkaspec.codec.crc import crc32c
from kafkaspec.errors import KafkaFormatError

# how each wire type is read (struct format and size; a varint's most bytes and value range): generated
# from the spec layer's field-type registry, which the runtime may not import
from kafkaspec.generated.trace.types import FIXED, VARINT_LIMITS

from .bounded import HOLD, BoundedTree
from .tree import Failure, Node, Sink, Stream

#: length and count prefixes: "compact" is Kafka's unsigned varint of n + 1 (0 = null)
COMPACT = "compact"

_CHECKSUMS: dict[str, Callable[[bytes], int]] = {
    "crc32": lambda b: zlib.crc32(b) & 0xFFFFFFFF,
    "crc32c": crc32c,
}


class TraceStop(Exception):  # a control-flow signal, not an error class of the API
    """Decoding cannot go on: :attr:`failure` says where and why."""

    def __init__(self, failure: Failure, truncated: bool = False):
        super().__init__(failure.message)
        self.failure = failure
        #: the bytes ran out (a partial entry at the end of a segment or fetch response)
        self.truncated = truncated


@dataclass
class _Frame:
    """A structure being read."""

    node: Node
    stream: int
    #: where its length field says it ends (None: no length field)
    end: int | None = None
    #: the length field's name and node, checked when the structure ends
    length: tuple[str, Node] | None = None
    values: dict[str, Any] = field(default_factory=dict)
    starts: dict[str, int] = field(default_factory=dict)
    #: checksums not yet computed: (node, stored, algorithm, first field covered)
    checksums: list[tuple[Node, int, str, str]] = field(default_factory=list)
    #: a region's end in words (a field's content read as structures), instead of the length field's
    why: str = ""
    #: count fields by the array they count
    counts: dict[str, Node] = field(default_factory=dict)


#: an expansion of a bytes field's content: (tracer, structure name, version, field, data node, field values)
Expand = Callable[["Tracer", str, int, str, Node, dict[str, Any]], None]


class Tracer:
    """Reads fields from a buffer as the generated tracing decoders ask, building the span tree.

    ``sink``, ``hold``, ``annotate`` and ``max_nodes`` are the bounded output's
    (:class:`~.bounded.BoundedTree`): what becomes of the spans read."""

    def __init__(
        self,
        data: bytes,
        pos: int = 0,
        limit: int | None = None,
        *,
        expand: Expand | None = None,
        max_decompressed: int = DEFAULT_MAX_DECOMPRESSED,
        payloads: str | None = None,
        sink: Sink | None = None,
        hold: int = HOLD,
        annotate: Callable[[Node, list[Node]], None] | None = None,
        values: bool = True,
        max_nodes: int | None = None,
    ):
        self.streams = [Stream(0, data, "input")]
        #: the family of Kafka's own payloads the records' keys and values hold (``metadata``,
        #: ``offsets``, ``transactions``, ``share``), read field by field; None: opaque bytes
        self.payloads = payloads
        self.buf = data
        self.pos = pos
        self.limit = len(data) if limit is None else limit
        self.stream = 0
        self.expand = expand
        self.max_decompressed = max_decompressed
        self.problems: list[Failure] = []
        self._frames: list[_Frame] = []
        self._label: str | None = None
        #: tag -> (name, reader raising ValueError, layout, doc): tags outside the message specs that a
        #: known writer puts in the tagged section of the message being read (Inkless's, see
        #: :mod:`kafkaspec.payloads.inkless`), set by the caller for that message alone
        self.extension_tags: dict[int, tuple[str, Callable[[bytes], Any], str, str]] = {}
        #: keep each array's item values (the fast codec's value of each entry); False: arrays return []
        self.values = values
        #: the span tree, and what of it is kept: the caller's budget
        self.tree = BoundedTree(
            self.streams, self._declared_end, sink=sink, hold=hold, annotate=annotate, max_nodes=max_nodes
        )
        #: the entries read (the tree's, with their spans)
        self.roots = self.tree.roots
        # the tree's own list and methods, bound once: every field read opens, adds and closes spans
        self._open = self.tree.open
        self._add = self.tree.add
        self._push = self.tree.push
        #: an array item, or an entry inside a field, has just been read whole (see
        #: :meth:`.BoundedTree.item_done`: with a sink, finished items may now be written and let go)
        self.item_done = self.tree.item_done

    def _pop(self) -> Node:
        node = self._open.pop()
        node.end = self.pos if node.stream == self.stream else node.end
        if node.streamed:
            self.tree.finish(node)
        return node

    def _declared_end(self, node: Node) -> int | None:
        """Where an open node will end, when a length or its stream says so already."""
        if node.kind == "decompressed":
            return len(self.streams[node.stream].data)
        for frame in self._frames:
            if frame.node is node and frame.length is not None:
                return frame.end
        return None

    def path(self, upto: Node | None = None) -> str:
        """The dotted path of the open nodes (up to and including ``upto``)."""
        parts: list[str] = []
        opened = self._open[: self._open.index(upto) + 1] if upto is not None else self._open
        for node in opened:
            if node.kind in ("decompressed", "data"):
                continue
            if node.name.startswith("[") and parts:
                parts[-1] += node.name
            else:
                parts.append(node.name)
        return ".".join(parts)

    def stop(
        self, message: str, position: int | None = None, name: str | None = None, *, truncated: bool = False
    ) -> TraceStop:
        """The signal to stop decoding (raise it): the field ``name`` of the open structure, at ``position``."""
        at = self.pos if position is None else position
        path = self.path()
        if name and not (self._open and self._open[-1].name == name):
            path += f".{name}"
        return TraceStop(Failure(self.stream, at, path, message), truncated)

    def abandon(self, failure: Failure) -> None:
        """Decoding stopped for good at ``failure``: the open nodes are marked stopped and end there."""
        self.tree.abandon(failure)
        self._frames.clear()

    def bound(self) -> tuple[int, str]:
        """Where the innermost structure that declares its end ends in this stream, and why."""
        for frame in reversed(self._frames):
            if frame.stream != self.stream:
                break
            if frame.end is not None and frame.length is not None:
                return (
                    frame.end,
                    frame.why or f"the end of {frame.node.type.split()[0]} set by {frame.length[0]}",
                )
        if self.stream == 0:
            return self.limit, "the end of the input"
        return self.limit, f"the end of decompressed stream {self.stream}"

    def outer(self, end: int) -> bool:
        """Whether ``end`` is where the whole input (or a field's content read in place) ends: bytes
        running out there make a partial entry, not a structure that contradicts itself."""
        for frame in reversed(self._frames):
            if frame.stream != self.stream:
                break
            if frame.end is not None and frame.length is not None:
                # bounded by a region read in place: truncated; by a structure's own length: a contradiction
                return bool(frame.why) and end == frame.end
        # a decompressed region is whole (its codec checked its end): running out in it is no partial
        # entry at the end of a segment, but a structure that claims more than its region holds
        return self.stream == 0 and end == self.limit

    def _need(self, name: str, what: str, size: int) -> None:
        end, why = self.bound()
        if self.pos + size > end:
            left = max(0, end - self.pos)
            raise self.stop(
                f"{name} ({what}) needs {size} byte{'s' * (size != 1)} at byte {self.pos}, "
                f"only {left} remain before byte {end} ({why})",
                name=name,
                truncated=self.outer(end),
            )

    def _field_start(self, name: str) -> None:
        frame = self._frames[-1]
        frame.starts[name] = self.pos
        if frame.end is not None:
            for pending in [c for c in frame.checksums if c[3] == name]:
                frame.checksums.remove(pending)
                self._check_sum(frame, *pending)

    # -- structures ------------------------------------------------------------------------------
    def begin(self, name: str, version: int, doc: str) -> None:
        label, self._label = self._label, None
        node = self._push(
            Node(label or name, "struct", f"{name} v{version}", self.pos, self.pos, self.stream, doc=doc)
        )
        self._frames.append(_Frame(node, self.stream))

    def end(self, value: Any) -> Any:
        frame = self._frames[-1]
        if frame.end is not None and self.pos != frame.end:
            assert frame.length is not None
            name, length_node = frame.length
            raise self.stop(
                f"{name} says {frame.node.type.split()[0]} ends at byte {frame.end}, but its fields "
                f"end at byte {self.pos} ({frame.end - self.pos} byte{'s' * (frame.end - self.pos != 1)}"
                " not read)",
                length_node.start,
                name,
            )
        if frame.length is not None:
            frame.length[1].notes.append("matches")
        for pending in frame.checksums:
            self._check_sum(frame, *pending)
        self._frames.pop()
        self._pop()
        return value

    def nested(self, name: str, item: str, doc: str, trace: Callable[..., Any]) -> Any:
        self._field_start(name)
        self._label = name
        value = trace(self)
        self._frames[-1].values[name] = value
        return value

    # -- integers ----------------------------------------------------------------------------------
    def integer(
        self,
        name: str,
        type_: str,
        doc: str,
        *,
        const: int | None = None,
        bits: tuple | None = None,
        enum: Any = None,
        base: tuple[str, int, str] | None = None,
    ) -> int:
        self._field_start(name)
        start = self.pos
        if type_ in FIXED:
            fmt, size = FIXED[type_]
            self._need(name, type_, size)
            (value,) = struct.unpack_from(fmt, self.buf, start)
            self.pos = start + size
        else:
            value = self._varint(name, type_)
        node = self._add(Node(name, "int", type_, start, self.pos, self.stream, value, doc))
        if const is not None and value != const:
            raise self.stop(f"{name} is {value}, expected {const}", start, name)
        if bits:
            for bit_name, lo, hi, bit_enum, _doc in bits:
                bit_value = (value >> lo) & ((1 << (hi - lo + 1)) - 1)
                label = _enum_label(bit_enum, bit_value) if bit_enum else ("set" if bit_value else "clear")
                node.bits.append((bit_name, f"{lo}" if lo == hi else f"{lo}-{hi}", bit_value, label))
        if enum is not None:
            node.notes.append(_enum_label(enum, value))
        if base is not None:
            base_name, base_value, exposed = base
            node.absolute = base_value + value
            node.notes.append(f"{exposed} {base_value + value} = {base_name} {base_value} + {value}")
        self._frames[-1].values[name] = value
        return value

    def _varint(self, name: str, type_: str) -> int:
        start = self.pos
        width, low, high = VARINT_LIMITS[type_]
        end, why = self.bound()
        result = shift = 0
        pos = start
        while True:
            if pos >= end:
                raise self.stop(
                    f"{name} ({type_}) is cut off at byte {pos} by {why} (byte {end}): "
                    f"its last byte has the continuation bit set",
                    start,
                    name,
                    truncated=self.outer(end),
                )
            b = self.buf[pos]
            pos += 1
            result |= (b & 0x7F) << shift
            if b < 0x80:
                break
            shift += 7
            if pos - start >= width:
                raise self.stop(f"{name} ({type_}) is longer than {width} bytes", start, name)
        value = result if type_ == "uvarint" else (result >> 1) ^ -(result & 1)
        if not low <= value <= high:
            raise self.stop(f"{name} ({type_}) {value} is out of its range", start, name)
        self.pos = pos
        return value

    # -- lengths, counts, checksums -----------------------------------------------------------------
    def length_of(self, name: str, length: int, first: str) -> None:
        frame = self._frames[-1]
        node = self._open[-1].children[-1]
        end, why = self.bound()
        if length < 0:
            raise self.stop(f"{name} is {length}: a length cannot be negative", node.start, name)
        if self.pos + length > end:
            raise self.stop(
                f"{name} {length} says {frame.node.type.split()[0]} ends at byte {self.pos + length}, "
                f"past {why} (byte {end}); {end - self.pos} bytes are there",
                node.start,
                name,
                truncated=self.outer(end),
            )
        frame.end = self.pos + length
        frame.length = (name, node)
        node.notes.append(f"covers bytes {self.pos}..{frame.end} ({first} to the end)")

    def count_of(self, name: str, count: int, array: str) -> None:
        node = self._open[-1].children[-1]
        if count < 0:
            raise self.stop(f"{name} is {count}: a count cannot be negative", node.start, name)
        node.notes.append(f"counts the items of {array}")
        self._frames[-1].counts[array] = node

    def checksum(self, name: str, stored: int, algorithm: str, first: str) -> None:
        node = self._open[-1].children[-1]
        self._frames[-1].checksums.append((node, stored, algorithm, first))

    def _check_sum(self, frame: _Frame, node: Node, stored: int, algorithm: str, first: str) -> None:
        start = frame.starts.get(first, self.pos)
        end = frame.end if frame.end is not None else self.pos
        actual = _CHECKSUMS[algorithm](bytes(self.buf[start:end]))
        if actual == stored:
            node.notes.append(f"{algorithm} of bytes {start}..{end}: matches")
            return
        node.problem = f"stored {stored:#010x}, but the {algorithm} of bytes {start}..{end} is {actual:#010x}"
        self.problems.append(
            Failure(
                self.stream,
                node.start,
                self.path() + f".{node.name}",
                f"{node.name} does not match: {node.problem}",
            )
        )

    # -- byte strings -----------------------------------------------------------------------------------
    def blob(
        self, name: str, type_: str, doc: str, prefix: str, *, size: int | None = None, nullable: bool = False
    ) -> bytes | str | None:
        self._field_start(name)
        node = self._push(Node(name, "bytes", type_, self.pos, self.pos, self.stream, doc=doc))
        if prefix in FIXED or prefix in VARINT_LIMITS or prefix == COMPACT:
            length = self._prefix(name, "length", prefix)
            if length == -1 and nullable:
                node.notes.append("null")
                self._pop()
                self._frames[-1].values[name] = None
                return None
            if length < 0:
                raise self.stop(
                    f"{name}'s length is {length}"
                    + (": only -1 (null) may be negative" if nullable else ": it cannot be null or negative"),
                    node.start,
                    name,
                )
        elif prefix == "rest":
            length = self.bound()[0] - self.pos
        else:
            assert size is not None
            length = size
        self._need(name, f"{type_}, {length} byte{'s' * (length != 1)}", length)
        raw = bytes(self.buf[self.pos : self.pos + length])
        value: bytes | str = raw
        if type_ == "string":
            try:
                value = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise self.stop(
                    f"{name} is not UTF-8: {exc.reason} at its byte {exc.start}", self.pos + exc.start, name
                ) from None
        if length:
            data = self._push(Node("data", "data", type_, self.pos, self.pos + length, self.stream, value))
            self.pos += length
            frame = self._frames[-1]
            name_, _, version = frame.node.type.rpartition(" v")
            if self.expand is not None and version.isdigit():  # not in a tagged field's bounds
                self.pos = data.start
                self.expand(self, name_, int(version), name, data, frame.values)
                self.pos = data.end
            self._pop()
        node.value = value
        self._pop()
        self._frames[-1].values[name] = value
        return value

    def _prefix(self, name: str, what: str, type_: str) -> int:
        start = self.pos
        if type_ == COMPACT:
            value = self._varint(f"{name} {what}", "uvarint") - 1
            node = self._add(Node(what, "prefix", "compact uvarint", start, self.pos, self.stream, value))
            node.notes.append(f"stored as {value + 1} ({what} + 1; 0 = null)")
            return value
        if type_ in FIXED:
            fmt, size = FIXED[type_]
            self._need(f"{name} {what}", type_, size)
            (value,) = struct.unpack_from(fmt, self.buf, start)
            self.pos += size
        else:
            value = self._varint(f"{name} {what}", type_)
        self._add(Node(what, "prefix", type_, start, self.pos, self.stream, value))
        return value

    # -- arrays -------------------------------------------------------------------------------------------
    def array(
        self,
        name: str,
        item: str,
        doc: str,
        prefix: str,
        trace: Callable[..., Any],
        *,
        min_size: int,
        count: int | None = None,
        bases: dict[str, int] | None = None,
        codec: int = 0,
        magic: int = 2,
        nullable: bool = False,
    ) -> list | None:
        self._field_start(name)
        node = self._push(Node(name, "array", f"array of {item}", self.pos, self.pos, self.stream, doc=doc))
        if prefix in FIXED or prefix in VARINT_LIMITS or prefix == COMPACT:
            count = self._prefix(name, "count", prefix)
            if count == -1 and nullable:
                node.notes.append("null")
                self._pop()
                self._frames[-1].values[name] = None
                return None
            if count < 0:
                raise self.stop(
                    f"{name}'s count is {count}"
                    + (": only -1 (null) may be negative" if nullable else ": a count cannot be negative"),
                    node.start,
                    name,
                )
        saved = None
        if codec:
            saved = self._enter_compressed(name, node, codec, magic)
        items: list = []
        end, why = self.bound()
        if count is not None and count > (end - self.pos) // max(min_size, 1):
            message = (
                f"{count} {item}s (at least {min_size} bytes each) cannot fit in the {end - self.pos} "
                f"bytes before byte {end} ({why})"
            )
            frame = self._frames[-1]
            counter = frame.counts.get(name)
            if counter is not None:  # the field the count came from is what is wrong: point there
                raise TraceStop(
                    Failure(counter.stream, counter.start, f"{self.path(frame.node)}.{counter.name}", message)
                )
            raise self.stop(message, node.start, name)
        index = 0
        while (index < count) if count is not None else (self.pos < end):
            self._label = f"[{index}]"
            value = trace(self, **(bases or {}))
            if self.values:
                items.append(value)
            index += 1
            self.item_done()
        node.notes.append(f"{index} item{'s' * (index != 1)}")
        counter = self._frames[-1].counts.get(name)
        if counter is not None:
            counter.notes.append(f"matches: {index} {item}{'s' * (index != 1)} read")
        if saved is not None:
            self._leave_compressed(name, item, index, saved)
        self._pop()
        self._frames[-1].values[name] = items
        return items

    def _enter_compressed(self, name: str, node: Node, codec: int, magic: int) -> tuple:
        start = self.pos
        end, _why = self.bound()
        region = self._add(
            Node(
                "compressed",
                "compressed",
                codec_name(codec),
                start,
                end,
                self.stream,
                doc=f"{codec_name(codec)}-compressed {name}, as stored",
            )
        )
        try:
            data = decompress(
                codec, self.buf[start:end], max_size=self.max_decompressed, position=start, magic=magic
            )
        except KafkaFormatError as exc:
            raise self.stop(f"{name}: {exc.reason}", start, name) from None
        stream = len(self.streams)
        self.streams.append(
            Stream(
                stream,
                data,
                f"{codec_name(codec)} region of {name} at bytes {start}..{end}"
                + (f" of stream {self.stream}" if self.stream else ""),
            )
        )
        region.notes.append(f"{end - start} bytes; {len(data)} bytes decompressed (stream {stream})")
        saved = (self.buf, self.pos, self.limit, self.stream, end)
        self.pos = end
        self.buf, self.pos, self.limit, self.stream = data, 0, len(data), stream
        self._push(
            Node(
                "decompressed",
                "decompressed",
                codec_name(codec),
                0,
                0,
                stream,
                doc=f"{name}, decompressed: positions count from 0 in stream {stream}",
            )
        )
        return saved

    def _leave_compressed(self, name: str, item: str, count: int, saved: tuple) -> None:
        if self.pos != self.limit:
            raise self.stop(
                f"{self.limit - self.pos} bytes are left in the decompressed {name} after "
                f"its {count} {item}s",
                self.pos,
            )
        self._pop()
        self.buf, _, self.limit, self.stream, end = saved
        self.pos = end

    # -- nested content ----------------------------------------------------------------------------------
    def enter(self, data: bytes, origin: str) -> tuple:
        """Read ``data`` as a stream of its own (a decompressed field); :meth:`leave` returns."""
        stream = len(self.streams)
        self.streams.append(Stream(stream, data, origin))
        saved = (self.buf, self.pos, self.limit, self.stream, self._label)
        self.buf, self.pos, self.limit, self.stream = data, 0, len(data), stream
        return saved

    def leave(self, saved: tuple) -> None:
        self.buf, self.pos, self.limit, self.stream, self._label = saved

    def within(self, node: Node, end: int, why: str) -> None:
        """Bound what is read next by ``end`` (a field's content read as structures, in place)."""
        self._frames.append(_Frame(node, self.stream, end, ("content", node), why=why))

    def without(self) -> None:
        self._frames.pop()

    def mark(self) -> tuple:
        """The state to :meth:`rewind` to: drop what one entry added (a partial entry at a region's end).
        The caller holds (:attr:`.BoundedTree.holding`) while it may rewind: nothing is written meanwhile."""
        parent = self._open[-1].children if self._open else self.roots
        return (
            len(self._open),
            len(self._frames),
            parent,
            len(parent),
            len(self.streams),
            len(self.problems),
            self.buf,
            self.pos,
            self.limit,
            self.stream,
        )

    def rewind(self, mark: tuple) -> None:
        n_open, n_frames, parent, n_children, n_streams, n_problems, buf, pos, limit, stream = mark
        del self._open[n_open:], self._frames[n_frames:], parent[n_children:], self.streams[n_streams:]
        del self.problems[n_problems:]
        self.buf, self.pos, self.limit, self.stream = buf, pos, limit, stream

    def values_of(self, name: str) -> dict[str, Any] | None:
        """The field values of the innermost enclosing structure called ``name`` being read."""
        for frame in reversed(self._frames):
            if frame.node.type.split()[0] == name:
                return frame.values
        return None

    def add(self, node: Node) -> Node:
        """Add a leaf of the caller's (a partial entry) under the current node."""
        return self._add(node)

    def open(self, node: Node) -> Node:
        """Open a node of the caller's (an expansion's container) under the current one."""
        return self._push(node)

    def close(self) -> Node:
        return self._pop()

    def label(self, name: str) -> None:
        """Name the next structure's node (an item's ``[i]``)."""
        self._label = name

    def take_label(self) -> str:
        """The name :meth:`array` gave the next item (``[i]``), for an item that is not a structure."""
        label, self._label = self._label, None
        return label or "item"

    # -- Kafka's message-spec payloads ----------------------------------------------------------------
    def nullable(self, name: str, item: str, doc: str, mark: str, trace: Callable[..., Any]) -> Any:
        """A nullable structure: its presence mark (int8 -1 or 1; a tagged one: uvarint 0 or 1), then
        the structure when present."""
        self._field_start(name)
        start = self.pos
        present = (
            self._varint(name, "uvarint")
            if mark == "uvarint"
            else self.integer(f"{name} present", "int8", doc)
        )
        null = 0 if mark == "uvarint" else -1
        if mark == "uvarint":
            self._add(Node(f"{name} present", "int", "uvarint", start, self.pos, self.stream, present, doc))
        if present not in (null, 1):
            raise self.stop(
                f"{name}'s presence mark is {present}: only {null} (null) and 1 are valid", start, name
            )
        if present == null:
            self._open[-1].children[-1].notes.append("null")
            self._frames[-1].values[name] = None
            return None
        return self.nested(name, item, doc, trace)

    def tagged(self, known: dict[int, tuple[str, Callable[..., Any]]]) -> None:
        """The tagged-field section of a flexible version: a count, then per field its tag, its size
        and its bytes; a known tag is read as its field within that size, an unknown one kept as bytes."""
        section = self._push(
            Node(
                "tagged_fields",
                "array",
                "tagged fields",
                self.pos,
                self.pos,
                self.stream,
                doc="Tagged fields (flexible versions): count, then tag, size and data of each",
            )
        )
        count = self._prefix("tagged_fields", "count", "uvarint")
        end, why = self.bound()
        if count > end - self.pos:
            raise self.stop(
                f"{count} tagged fields cannot fit in the {end - self.pos} bytes before byte {end} ({why})",
                section.start,
                "tagged_fields",
            )
        seen: set[int] = set()
        for _ in range(count):
            tag_start = self.pos
            tag = self._prefix("tagged_fields", "tag", "uvarint")
            size = self._prefix("tagged_fields", "size", "uvarint")
            if tag in seen:
                raise self.stop(f"tag {tag} appears twice", tag_start, "tagged_fields")
            seen.add(tag)
            self._need(f"tag {tag}", f"{size} bytes", size)
            stop = self.pos + size
            if tag in known:
                name, trace = known[tag]
                self.within(section, stop, f"tag {tag}'s size")
                trace(self)
                self.without()
                if self.pos != stop:
                    raise self.stop(
                        f"tag {tag} ({name}) says {size} bytes, but its field takes {self.pos - (stop - size)}",
                        tag_start,
                        "tagged_fields",
                    )
            else:
                self._add(self._extension_tag(tag, bytes(self.buf[self.pos : stop]), stop))
                self.pos = stop
        section.notes.append(f"{count} tagged field{'s' * (count != 1)}")
        self._pop()

    def _extension_tag(self, tag: int, data: bytes, stop: int) -> Node:
        """A tag the schema does not know: by name where :attr:`extension_tags` reads it, else as bytes."""
        extension = self.extension_tags.get(tag)
        if extension is not None:
            name, read, layout, doc = extension
            try:
                value = read(data)
            except ValueError:
                pass
            else:
                if isinstance(value, int):
                    return Node(name, "int", layout, self.pos, stop, self.stream, value, doc)
                node = Node(name, "bytes", layout, self.pos, stop, self.stream, data, doc)
                node.notes.append(f"{len(value)} {name.replace('_', ' ')}")
                return node
        return Node(
            f"tag {tag}",
            "bytes",
            "unknown tagged field",
            self.pos,
            stop,
            self.stream,
            data,
            "A tag this schema does not know, kept as bytes",
        )


def _enum_label(enum: Any, value: int) -> str:
    try:
        return f"{enum.__name__}.{enum(value).name}"
    except ValueError:
        return f"{enum.__name__}: {value} is no known value"
