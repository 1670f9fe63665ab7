"""Spark filters the ``kafkalog`` source applies itself: on topic, partition and offset.

``df.where("topic = 'orders' and partition = 1 and offset >= 5000")`` then plans
only that partition's segments from the one holding offset 5000, like the
``assign`` and ``startingOffsets`` options would. What is pushed is applied
exactly (topic-partitions are chosen by name and number, offsets row by row),
so Spark does not evaluate those filters again; any other filter stays with
Spark. PySpark calls this only with ``spark.sql.python.filterPushdown.enabled``
set, which :func:`kafkaspec.spark.register` does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from pyspark.sql.datasource import (
    EqualTo,
    Filter,
    GreaterThan,
    GreaterThanOrEqual,
    In,
    LessThan,
    LessThanOrEqual,
)


@dataclass(frozen=True)
class Pushed:
    """The pushed filters, reduced: allowed topics and partitions, and [lo, hi) ranges."""

    topics: frozenset[str] | None = None
    partitions: frozenset[int] | None = None
    partition_lo: int | None = None
    partition_hi: int | None = None
    offset_lo: int | None = None
    offset_hi: int | None = None

    def wants(self, topic: str, partition: int) -> bool:
        if self.topics is not None and topic not in self.topics:
            return False
        if self.partitions is not None and partition not in self.partitions:
            return False
        if self.partition_lo is not None and partition < self.partition_lo:
            return False
        return self.partition_hi is None or partition < self.partition_hi


def _int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


_COMPARISONS = (EqualTo, GreaterThan, GreaterThanOrEqual, LessThan, LessThanOrEqual)


def _range(f: Any) -> tuple[int | None, int | None] | None:
    """[lo, hi) of an integer comparison filter, or None when it is not one."""
    if type(f) not in _COMPARISONS or not _int(f.value):
        return None
    v = f.value
    return {
        EqualTo: (v, v + 1),
        GreaterThan: (v + 1, None),
        GreaterThanOrEqual: (v, None),
        LessThan: (None, v),
        LessThanOrEqual: (None, v + 1),
    }[type(f)]


def _tighter(a: int | None, b: int | None, pick: Callable[[int, int], int]) -> int | None:
    return b if a is None else a if b is None else pick(a, b)


def push(filters: Iterable[Filter]) -> tuple[Pushed, list[Filter]]:
    """Split Spark's filters into what the source applies (reduced to a :class:`Pushed`) and the rest."""
    topics = partitions = None
    bounds: dict[str, list[int | None]] = {"partition": [None, None], "offset": [None, None]}
    rest = []
    for f in filters:
        attribute: tuple[str, ...] = getattr(f, "attribute", ())  # Not(...) has none
        column = attribute[0] if len(attribute) == 1 else None
        if column == "topic" and isinstance(f, (EqualTo, In)):
            values = f.value if isinstance(f, In) else (f.value,)
            if all(isinstance(v, str) for v in values):
                topics = frozenset(values) if topics is None else topics & frozenset(values)
                continue
        elif column == "partition" and isinstance(f, In) and all(_int(v) for v in f.value):
            partitions = frozenset(f.value) if partitions is None else partitions & frozenset(f.value)
            continue
        elif column in bounds and (r := _range(f)) is not None:
            lo, hi = bounds[column]
            bounds[column] = [_tighter(lo, r[0], max), _tighter(hi, r[1], min)]
            continue
        rest.append(f)
    (plo, phi), (olo, ohi) = bounds["partition"], bounds["offset"]
    return Pushed(topics, partitions, plo, phi, olo, ohi), rest
