"""Entries back to back: the input's, or a field's content read as structures in place.

A dispatch format (a log or wire entry) picks each entry's tracing decoder by its discriminator;
a structure format reads the same structure again and again.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any

from kafkaspec.generated.trace import Format

from .tracer import Tracer, TraceStop
from .tree import Node


def entries(
    t: Tracer,
    fmt: Format,
    end: int,
    count: int | None = None,
    *,
    first: int | None = None,
    done: Callable[[Any], None] | None = None,
) -> int:
    """Read entries of ``fmt`` from ``t.pos`` up to ``end`` (at most ``count``); return how many.

    ``first``: name the entries ``[first]``, ``[first + 1]``... (entries inside a field; the input's
    top-level entries are named by their structure). ``done``: called with each entry's value.
    """
    n = 0
    while t.pos < end and (count is None or n < count):
        trace = fmt.trace
        if trace is None:  # a dispatch: the discriminator at a fixed offset picks the structure
            assert fmt.cases is not None
            size = struct.calcsize(fmt.fmt)
            where = t.pos + fmt.offset
            if where + size > end:
                raise t.stop(
                    f"{end - t.pos} bytes are too few for an entry: its discriminator is at its "
                    f"byte {fmt.offset}",
                    truncated=t.outer(end),
                )
            (value,) = struct.unpack_from(fmt.fmt, t.buf, where)
            trace = fmt.cases.get(value)
            if trace is None:
                raise t.stop(
                    f"the discriminator at byte {where} is {value}: {fmt.name} has a case for "
                    f"{', '.join(map(str, sorted(fmt.cases)))} only",
                    where,
                )
        if first is not None:
            t.label(f"[{first + n}]")
        value = trace(t)
        n += 1
        if done is not None:
            done(value)
        if first is not None:  # an item of the field's content: it may be written and let go now
            t.item_done()
    return n


def entries_in(
    t: Tracer, fmt: Format, data: Node, why: str, *, partial_ok: bool = False, one: bool = False
) -> int:
    """Read a bytes field's content (``data``, already read) as entries of ``fmt``, in place.

    ``partial_ok``: the content may end inside an entry (a fetch response), which is then one
    ``partial`` leaf, not a failure. ``one``: the content is one structure, perhaps with bytes
    after it that the spec does not describe (a leaf ``rest``); when it cannot be read as one,
    the content stays plain bytes and a note on ``data`` says why.
    """
    t.within(data, data.end, why)
    rewinds = one or partial_ok  # an entry may be taken back: hold it until it is whole
    t.tree.holding += rewinds
    n = 0
    try:
        if one:
            mark = t.mark()
            try:
                entries(t, fmt, data.end, 1)
            except TraceStop as stop:
                t.rewind(mark)
                data.notes.append(f"not read as {fmt.name}: {stop.failure.message}")
                t.pos = data.end
                return 0
            if t.pos < data.end:
                t.add(
                    Node(
                        "rest",
                        "data",
                        "bytes",
                        t.pos,
                        data.end,
                        t.stream,
                        bytes(t.buf[t.pos : data.end]),
                        doc=f"bytes after the {fmt.name}, which the spec does not describe",
                    )
                )
                t.pos = data.end
            return 1
        while t.pos < data.end:
            mark = t.mark()
            try:
                n += entries(t, fmt, data.end, 1, first=n)
            except TraceStop as stop:
                if not (partial_ok and stop.truncated):
                    raise
                t.rewind(mark)
                t.add(
                    Node(
                        "partial",
                        "partial",
                        "bytes",
                        t.pos,
                        data.end,
                        t.stream,
                        bytes(t.buf[t.pos : data.end]),
                        doc="an entry cut off by the end of the content: not an error here",
                        notes=[stop.failure.message],
                    )
                )
                t.pos = data.end
    finally:
        t.tree.holding -= rewinds
        t.without()
    return n
