"""Explain an input: pick the format, run the generated tracing decoders over it entry after entry.

:func:`explain` is the one entry point (``kafkaspec explain`` calls it): bytes in, an
:class:`~.tree.Explanation` out. The formats are the generated ones
(:data:`kafkaspec.generated.trace.FORMATS`, one per structure and dispatch of the spec) plus a few
short names; what a field's content holds beyond the spec (a legacy wrapper's compressed message
set, a request's message set, a control record's key and value) is :mod:`.nested`'s.
"""

from __future__ import annotations

import os
import struct
from collections.abc import Callable
from typing import Any

from kafkaspec.codec.compression import DEFAULT_MAX_DECOMPRESSED
from kafkaspec.generated.trace import FORMATS
from kafkaspec.payloads.decode import FAMILY_OF_TOPIC

from .bounded import HOLD
from .entries import entries
from .nested import annotate, annotate_part, expand
from .tracer import Tracer, TraceStop
from .tree import Explanation, Failure, Node, Sink, Stream

#: short --format names for the common cases
ALIASES = {
    "batch": "log-entry",
    "log": "log-entry",
    "wire-message": "wire-message-any",
    "offset-index": "offset-index-entry-v0",
    "time-index": "time-index-entry-v0",
    "txn-index": "aborted-txn-entry-v0",
    "snapshot": "producer-snapshot-v1",
    "fetch-v0": "fetch-response-payload-v0",
    "fetch-v10": "fetch-response-frame-v10",
}
#: file name endings auto picks a format by (segments and anything else: by the bytes)
SUFFIXES = {
    ".index": "offset-index-entry-v0",
    ".timeindex": "time-index-entry-v0",
    ".txnindex": "aborted-txn-entry-v0",
    ".snapshot": "producer-snapshot-v1",
}


#: first bytes of packet-capture containers (pcapng's section header block; pcap in either byte order,
#: micro- and nanosecond): not Kafka bytes, whatever their later bytes hold
CAPTURES = {
    b"\x0a\x0d\x0d\x0a": "a pcapng packet capture",
    b"\xd4\xc3\xb2\xa1": "a pcap packet capture",
    b"\xa1\xb2\xc3\xd4": "a pcap packet capture",
    b"\x4d\x3c\xb2\xa1": "a pcap packet capture",
    b"\xa1\xb2\x3c\x4d": "a pcap packet capture",
}


class UnknownFormat(ValueError):
    """A --format name that names no format."""


def payload_family(path: str | None) -> str | None:
    """The family of Kafka's own payloads in the file at ``path``, by its partition directory's topic
    (or a KRaft ``.checkpoint`` snapshot); None for an ordinary topic or no path."""
    if not path:
        return None
    if path.endswith(".checkpoint"):
        return "metadata"
    topic = os.path.basename(os.path.dirname(os.path.abspath(path))).rpartition("-")[0]
    return FAMILY_OF_TOPIC.get(topic)


def format_names() -> list[str]:
    """Every name --format accepts."""
    return ["auto", *ALIASES, *FORMATS]


def resolve(name: str, data: bytes, at: int = 0, path: str | None = None) -> str:
    """The format name ``name`` stands for (``auto``: by the file name, else by the bytes)."""
    if name == "auto":
        capture = CAPTURES.get(bytes(data[:4]))
        if capture is not None:
            raise UnknownFormat(
                f"the input is {capture}, a container of network packets, not Kafka bytes: take a "
                "Kafka response's TCP payload out of it (Wireshark: Follow TCP Stream, show data "
                "as raw) and explain that with --format (--format list names them)"
            )
        for suffix, fmt in SUFFIXES.items():
            # a producer snapshot starts with its version, 1; a KRaft snapshot is record batches
            if path and path.endswith(suffix) and (suffix != ".snapshot" or data[at : at + 2] == b"\x00\x01"):
                return fmt
        log = FORMATS["log-entry"]
        wire = FORMATS["wire-message-any"]
        assert log.cases is not None and wire.cases is not None
        around = entry_starts_around(data, at)
        if around is not None:
            before, after = around
            then = (
                f"--at {after}"
                if after is not None
                else f"no entry starts after it (the input ends at byte {len(data)})"
            )
            raise UnknownFormat(
                f"byte {at} is not where a log entry starts: it is inside the entry at byte {before}; "
                f"retry with --at {before} or {then}, or give --format to read byte {at} as that format"
            )
        if len(data) <= at + log.offset:
            return "log-entry"  # too short to tell: read as the usual case, a (partial) log entry
        magic = struct.unpack_from(log.fmt, data, at + log.offset)[0]
        if magic in log.cases:
            return "log-entry"
        fetch = fetch_format(data, at)
        if fetch is not None:
            return fetch
        wire_magic = struct.unpack_from(wire.fmt, data, at + wire.offset)[0]
        if wire_magic in wire.cases:
            return "wire-message-any"
        raise UnknownFormat(
            f"cannot tell the format: byte {at + log.offset} is {magic} (no log entry magic) and byte "
            f"{at + wire.offset} is {wire_magic} (no 0.6/0.7 message magic); give --format (a "
            "broker's fetch response: --format fetch-v0 or fetch-v10; --format list names them all)"
        )
    name = ALIASES.get(name, name)
    if name not in FORMATS:
        raise UnknownFormat(f"unknown format {name!r}; one of: {', '.join(format_names())}")
    return name


#: the fewest bytes after a log entry's size field, by its magic: a message v0 (crc, magic, attributes, key
#: and value lengths), v1 (and a timestamp), a record batch v2's header
_LEAST_ENTRY = {0: 14, 1: 22, 2: 49}


def entry_starts_around(data: bytes, at: int) -> tuple[int, int | None] | None:
    """When ``at`` falls inside a log entry of an input that reads as log entries from byte 0: the
    start of that entry and of the next one (None: the input ends first); else None.

    Entries are followed by their 12-byte offset and size alone, in time linear in their count: the
    chain counts only while every entry has a log entry's magic and at least its least size, so that a
    fetch response or a request (whose byte 0 starts no log entry) is never taken for one.
    """
    pos = 0
    while 0 < at and pos + 17 <= len(data):
        size = struct.unpack_from(">i", data, pos + 8)[0]
        least = _LEAST_ENTRY.get(data[pos + 16])
        if least is None or size < least:
            return None
        after = pos + 12 + size
        if pos < at < after:
            return pos, after if after < len(data) else None
        if at <= pos or after >= len(data):
            return None
        pos = after
    return None


#: a topic name as Kafka allows it (1 to 249 of these characters)
_TOPIC = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")


def _topic_at(data: bytes, pos: int) -> int | None:
    """The end of a legal topic name as an int16-length string at ``pos``, with a partition count
    (1 or more) after it; None when the bytes there are not one."""
    if pos + 2 > len(data):
        return None
    n = struct.unpack_from(">h", data, pos)[0]
    end = pos + 2 + n
    if not 0 < n < 250 or end + 4 > len(data) or not _TOPIC.issuperset(data[pos + 2 : end]):
        return None
    return end if struct.unpack_from(">i", data, end)[0] > 0 else None


def fetch_format(data: bytes, at: int) -> str | None:
    """``fetch-response-frame-v10`` or ``fetch-response-payload-v0`` when the bytes at ``at`` start as a
    broker's fetch response (a count of topics, then a legal topic name and a count of its
    partitions; for v10 the frame's size, which must cover the rest of the input), else None."""
    if (
        len(data) >= at + 22
        and struct.unpack_from(">i", data, at)[0] == len(data) - at - 4
        and struct.unpack_from(">i", data, at + 18)[0] > 0
        and _topic_at(data, at + 22) is not None
    ):
        return "fetch-response-frame-v10"  # size, correlation id, throttle, error, session id, topics
    if (
        len(data) >= at + 8
        and struct.unpack_from(">i", data, at + 4)[0] > 0
        and _topic_at(data, at + 8) is not None
    ):
        return "fetch-response-payload-v0"  # correlation id, topics
    return None


def explain(
    data: bytes,
    fmt: str = "auto",
    *,
    at: int = 0,
    length: int | None = None,
    count: int | None = None,
    path: str | None = None,
    max_decompressed: int = DEFAULT_MAX_DECOMPRESSED,
    on_entry: Callable[[Node, Explanation], None] | None = None,
    keep: bool = True,
    decode: str | None = "auto",
    sink: Sink | None = None,
    max_nodes: int | None = None,
    hold: int = HOLD,
) -> Explanation:
    """Explain ``data[at:at + length]`` as entries of format ``fmt`` back to back (at most ``count``).

    Positions in the result are absolute in ``data``. Decoding stops at the first entry that
    cannot be read (:attr:`Explanation.failure`); an entry cut off by the end of the input is a
    partial entry (:attr:`Explanation.partial`), as at the end of a segment being written. Whatever
    the bytes, it returns; only a resource running out raises (``MemoryError``, or
    :class:`~kafkaspec.errors.OutOfMemoryError` from a decompression), which says nothing of the data.

    ``on_entry(entry, explanation)`` is called as each entry is read whole. With ``keep=False``
    the entry is then let go, with its decompressed regions (unless a problem points into one),
    so that memory stays that of one entry: :attr:`Explanation.entries` ends holding only what
    was not read whole, and :attr:`Explanation.values` nothing.

    ``sink`` (with ``keep=False``; it replaces ``on_entry``): each entry read whole goes to
    ``sink.entry``; an entry too large to hold (a batch of a million records) is written to the sink
    in pieces as it is read, its finished items let go, so that memory stays that of its open
    structures and one item. Such an entry is marked :attr:`~.tree.Node.streamed`: renderers skip it,
    since it has been written (``hold``: the spans an entry may hold before that). ``max_nodes``: raise :class:`~.bounded.TooLarge` past that many spans.

    ``decode`` names the family of Kafka's own payloads the records' keys and values hold
    (``offsets``, ``transactions``, ``share``, ``metadata``, ``remote_log``), read field by field; ``auto``
    (the default) takes it from ``path`` (a ``__consumer_offsets-N``, ``__transaction_state-N``,
    ``__share_group_state-N``, ``__cluster_metadata-N`` or ``__remote_log_metadata-N`` partition directory, or a
    ``.checkpoint`` snapshot); None leaves them bytes.
    KRaft control records' values are read in any case.
    """
    if at < 0 or at > len(data):
        raise ValueError(f"position {at} is outside the input ({len(data)} bytes)")
    end = len(data) if length is None else min(len(data), at + max(0, length))
    name = resolve(fmt, data, at, path)
    family = payload_family(path) if decode == "auto" else decode
    if family not in (None, "offsets", "transactions", "share", "metadata", "remote_log"):
        raise ValueError(
            f"decode must be auto, offsets, transactions, share, metadata, remote_log or None; got {decode!r}"
        )
    if sink is not None:
        on_entry = sink.entry
    tracer = Tracer(
        data,
        at,
        end,
        expand=expand,
        max_decompressed=max_decompressed,
        payloads=family,
        sink=sink if not keep else None,
        annotate=annotate_part,
        values=keep,
        max_nodes=max_nodes,
        hold=hold,
    )
    result = Explanation(name, tracer.streams, tracer.roots, problems=tracer.problems)
    first_stream, last_end = 1, at

    def done(value: Any) -> None:
        nonlocal first_stream, last_end
        result.count += 1
        last_end = tracer.pos
        entry = tracer.roots[-1]
        annotate([entry])
        if keep:
            result.values.append(value)
        if on_entry is not None and not entry.streamed:  # a streamed entry has been written
            on_entry(entry, result)
        if not keep:
            tracer.roots.pop()
            wanted = {p.stream for p in tracer.problems}
            for s in tracer.streams[first_stream:]:
                if s.id not in wanted:
                    tracer.streams[s.id] = Stream(s.id, b"", s.origin, s.base, s.size)
        first_stream = len(tracer.streams)

    try:
        entries(tracer, FORMATS[name], end, count, done=done)
    except TraceStop as stop:
        tracer.abandon(stop.failure)
        if stop.truncated:
            result.partial = stop.failure
        else:
            result.failure = stop.failure
        read = [leaf.end for e in tracer.roots for leaf in e.leaves() if leaf.stream == 0]
        read += [e.end for e in tracer.roots if e.streamed and e.stream == 0]  # its written items are gone
        last = max(read, default=last_end)
        if last < end:  # what decoding did not reach is shown as it is
            tracer.roots.append(
                Node(
                    "unread",
                    "unread",
                    "bytes",
                    last,
                    end,
                    0,
                    data[last:end],
                    doc="bytes after the point where decoding stopped",
                )
            )
        annotate(tracer.roots[result.count if keep else 0 :])  # the entries done() has not seen
    return result


__all__ = [
    "ALIASES",
    "Explanation",
    "Failure",
    "UnknownFormat",
    "entry_starts_around",
    "explain",
    "fetch_format",
    "format_names",
    "resolve",
]
