"""Share-group dead-letter records (KIP-1191, Kafka 4.4), summarised from their ``__dlq.errors.*`` headers.

When a share group gives up on a record (a member rejected it, or its delivery count reached the
group's limit), Kafka's ShareGroupDLQStateManager copies it to the group's dead-letter topic with
these headers, each UTF-8 text: ``__dlq.errors.topic``, ``.partition``, ``.offset`` and ``.group``
(always), ``.delivery.count`` (when known) and ``.message`` (the cause, such as "Offset rejected by
client." or "Offset delivery count exceeded the threshold."). A record whose original could not be
fetched is written with the headers alone: no key, no value.

Sans-IO: feed :meth:`DeadLetters.apply` each record's headers, in any order; the summary is per
dead-letter topic, source topic partition and group. Memory is bounded by those, not by the records.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

#: every header Kafka writes on a dead-letter record starts with this
HEADER_PREFIX = "__dlq.errors."
TOPIC = HEADER_PREFIX + "topic"
PARTITION = HEADER_PREFIX + "partition"
OFFSET = HEADER_PREFIX + "offset"
GROUP = HEADER_PREFIX + "group"
DELIVERY_COUNT = HEADER_PREFIX + "delivery.count"
MESSAGE = HEADER_PREFIX + "message"
_REQUIRED = (TOPIC, PARTITION, OFFSET, GROUP)
#: the cause shown for a record without a message header
NO_MESSAGE = "(none)"


def is_dead_letter(headers: Sequence[tuple[str, bytes | None]] | None) -> bool:
    """Whether a record's headers are those of a dead-letter record (any ``__dlq.errors.*`` key)."""
    return any(k.startswith(HEADER_PREFIX) for k, _ in headers or ())


@dataclass
class DeadLetters:
    """What the dead-letter records seen say: per (dead-letter topic, source topic, source partition,
    group), how many, the source offsets they span, their causes and the highest delivery count."""

    #: (dead-letter topic, source topic, source partition, group) -> summary fields
    sources: dict[tuple[str, str, int, str], dict[str, Any]] = field(default_factory=dict)
    #: dead-letter records seen, the ones whose headers do not read among them
    records: int = 0

    def apply(self, topic: str, headers: Sequence[tuple[str, bytes | None]], has_data: bool) -> str | None:
        """Count one record of the dead-letter topic ``topic``; ``has_data``: it has a key or a value.
        Returns why its headers do not read (the record is then counted but not summarised), or None."""
        self.records += 1
        values: dict[str, str] = {}
        for k, v in headers:
            if not k.startswith(HEADER_PREFIX):
                continue
            try:
                values[k] = "" if v is None else bytes(v).decode("utf-8")
            except UnicodeDecodeError:
                return f"{k} is not UTF-8 text"
        missing = [k for k in _REQUIRED if k not in values]
        if missing:
            return f"no {', '.join(missing)} header (Kafka writes {', '.join(_REQUIRED)} on every dead-letter record)"
        numbers: dict[str, int] = {}
        for k in (PARTITION, OFFSET, DELIVERY_COUNT):
            if k in values:
                try:
                    numbers[k] = int(values[k])
                except ValueError:
                    return f"{k} is not an integer: {values[k]!r}"
        key = (topic, values[TOPIC], numbers[PARTITION], values[GROUP])
        s = self.sources.get(key)
        if s is None:
            s = self.sources[key] = {
                "records": 0,
                "first_offset": numbers[OFFSET],
                "last_offset": numbers[OFFSET],
                "max_delivery_count": None,
                "headers_only": 0,
                "causes": {},
            }
        s["records"] += 1
        s["first_offset"] = min(s["first_offset"], numbers[OFFSET])
        s["last_offset"] = max(s["last_offset"], numbers[OFFSET])
        if DELIVERY_COUNT in numbers:
            s["max_delivery_count"] = max(s["max_delivery_count"] or 0, numbers[DELIVERY_COUNT])
        if not has_data:
            s["headers_only"] += 1
        cause = values.get(MESSAGE, NO_MESSAGE)
        s["causes"][cause] = s["causes"].get(cause, 0) + 1
        return None

    def to_json(self) -> dict[str, Any]:
        topics: dict[str, list[dict[str, Any]]] = {}
        for (dlq, source, partition, group), s in sorted(self.sources.items()):
            topics.setdefault(dlq, []).append({"topic": source, "partition": partition, "group": group, **s})
        return {"records": self.records, "topics": [{"topic": t, "sources": v} for t, v in topics.items()]}
