"""A stream's offsets as its checkpoint holds them: the Kafka source's JSON, with batch marks beside it.

Per topic-partition the next offset to read (``{"orders": {"0": 23}}``, so a checkpoint's ``offsets/``
files read like the Kafka source's), and under the reserved key ``"kafkalog/marks"`` the
:class:`~kafkaspec.logdir.kafka.tail.BatchMark` of the batch holding each partition's last read offset
(:mod:`.reader` says what they are for); and how a read limit is shared among the partitions.
"""

from __future__ import annotations

from typing import Any

from ...entry import ENTRY_HEAD
from ...logdir.kafka.tail import MARK_HEAD, BatchMark
from ...printable import escape
from ..read.options import MARKS_KEY

TopicPartition = tuple[str, int]
Offsets = dict[TopicPartition, int]
Marks = dict[TopicPartition, BatchMark]


def to_json(offsets: Offsets, marks: Marks | None = None) -> dict[str, dict[str, Any]]:
    """``{(topic, partition): offset}`` as the Kafka source writes it: ``{"topic": {"0": 23}}``; with
    ``marks``, the batch marks of the partitions that have one under :data:`MARKS_KEY` beside the topics:
    ``{"kafkalog/marks": {"topic": {"0": {"segment": 0, "position": 4096, "head": "<hex>"}}}}``."""
    out: dict[str, dict[str, Any]] = {}
    for (topic, partition), offset in sorted(offsets.items()):
        out.setdefault(topic, {})[str(partition)] = offset
    held: dict[str, dict[str, Any]] = {}
    for (topic, partition), mark in sorted((marks or {}).items()):
        if (topic, partition) in offsets:
            held.setdefault(topic, {})[str(partition)] = {
                "segment": mark.segment,
                "position": mark.position,
                "head": mark.head.hex(),
            }
    if held:
        out[MARKS_KEY] = held
    return out


def from_json(offsets: dict) -> Offsets:
    """The inverse of :func:`to_json` (a checkpointed offset): the offsets (its marks: :func:`marks_from_json`)."""
    try:
        return {
            (str(t), int(p)): int(o)
            for t, parts in offsets.items()
            if t != MARKS_KEY
            for p, o in parts.items()
        }
    except (AttributeError, TypeError, ValueError) as exc:
        raise ValueError(
            f'kafkalog: not an offset of this source (JSON like {{"orders": {{"0": 23}}}}): {offsets!r}'
        ) from exc


def marks_from_json(offsets: dict) -> Marks:
    """The batch marks of a checkpointed offset (none in one written before marks were, or given by a user)."""
    out: Marks = {}
    held = offsets.get(MARKS_KEY) if isinstance(offsets, dict) else None
    if held is None:
        return out
    where, bad = MARKS_KEY, held
    try:
        for topic, parts in held.items():
            where, bad = f"{MARKS_KEY}.{escape(str(topic))}", parts
            for partition, m in parts.items():
                where, bad = f"{MARKS_KEY}.{escape(str(topic))}.{escape(str(partition))}", m
                segment, position, head = int(m["segment"]), int(m["position"]), bytes.fromhex(m["head"])
                if not (
                    0 <= segment < 1 << 63
                    and 0 <= position < 1 << 63
                    and ENTRY_HEAD.size <= len(head) <= MARK_HEAD
                ):
                    raise ValueError("out of range")
                out[(str(topic), int(partition))] = BatchMark(segment, position, head)
    except (AttributeError, KeyError, TypeError, ValueError) as exc:
        shown = repr(bad) if len(repr(bad)) <= 200 else repr(bad)[:200] + "..."
        raise ValueError(
            f'kafkalog: not an offset of this source: its "{MARKS_KEY}" must be '
            f'{{"topic": {{"0": {{"segment": 0, "position": 4096, "head": "<hex>"}}}}}}; '
            f"{where} is {shown}"
        ) from exc
    return out


def prorate(starts: Offsets, ends: Offsets, limit: int) -> Offsets:
    """At most ``limit`` offsets in all, shared among the partitions in proportion to what each has new
    (Kafka's rule: a share below one offset is rounded up, others down)."""
    sizes = {tp: max(ends[tp] - starts.get(tp, ends[tp]), 0) for tp in ends}
    total = sum(sizes.values())
    if total <= limit:
        return dict(ends)
    out = {}
    for tp, end in ends.items():
        share = limit * sizes[tp] / total
        step = -(-share // 1) if share < 1 else share // 1
        out[tp] = min(starts.get(tp, end) + int(step), end) if sizes[tp] else end
    return out
