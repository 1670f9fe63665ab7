"""Kafka's text files in a data directory, explained line by line (field by field for the JSON ones).

``leader-epoch-checkpoint`` and ``partition.metadata`` are read by the same parsers as ``kafkaspec
verify`` (:mod:`kafkaspec.logdir.kafka.files`), so a file explain calls good is one verify takes; each line
is then shown with what it means; so are the data dir's ``meta.properties`` and four offset checkpoint
files, and ``.kafka_cleanshutdown`` (:mod:`kafkaspec.logdir.kafka.node_files`, :mod:`kafkaspec.logdir.kafka.checkpoints`). ``quorum-state`` (a
KRaft voter's election state) is JSON: each field with what Kafka's ``QuorumStateData`` says of it. None of them has bytes the schemas describe,
so this lives with the log directory's files (for ``kafkaspec explain``), not in the byte tracer.
"""

from __future__ import annotations

import json
import os
from typing import NamedTuple

from ..logdir.kafka.checkpoints import CHECKPOINTS, parse_offset_checkpoint
from ..logdir.kafka.checkpoints import MAX_SIZE as CHECKPOINT_LIMIT
from ..logdir.kafka.files import (
    LEADER_EPOCH_CHECKPOINT,
    PARTITION_METADATA,
    parse_leader_epoch_checkpoint,
    parse_partition_metadata,
)
from ..logdir.kafka.node_files import (
    CLEAN_SHUTDOWN,
    DATA_VERSION,
    META_PROPERTIES,
    QUORUM_STATE,
    QUORUM_STATE_FIELDS,
    parse_clean_shutdown,
    parse_meta_properties,
    parse_quorum_state,
)
from ..logdir.kafka.node_files import MAX_SIZE as NODE_FILE_LIMIT

#: the file names explained here, by what they hold
NAMES = {
    LEADER_EPOCH_CHECKPOINT: "lines",
    PARTITION_METADATA: "lines",
    QUORUM_STATE: "fields",
    META_PROPERTIES: "lines",
    CLEAN_SHUTDOWN: "fields",
    **{name: "lines" for name in CHECKPOINTS},
}


class Line(NamedTuple):
    """One line (or JSON field) of a text file: where it is, what it says, and what that means."""

    label: str
    text: str
    meaning: str


def explain_text(name: str, text: str, source: str | None = None) -> list[Line]:
    """Explain ``text``, the content of the Kafka text file called ``name`` (one of :data:`NAMES`).

    Raises :class:`~kafkaspec.errors.KafkaFormatError` naming the line (or JSON position) and ``source`` when the
    content is not what Kafka writes.
    """
    if name == LEADER_EPOCH_CHECKPOINT:
        entries = parse_leader_epoch_checkpoint(text, source)
        lines = text.splitlines()
        out = [
            Line("line 1", lines[0], "the file's format version (Kafka writes 0)"),
            Line(
                "line 2",
                lines[1],
                f"{len(entries)} entr{'y follows' if len(entries) == 1 else 'ies follow'}, "
                "one per leader epoch, oldest first",
            ),
        ]
        rows = iter(entries)
        for number, line in enumerate(lines[2:], start=3):
            if line.strip():
                e = next(rows)
                out.append(
                    Line(f"line {number}", line, f"leader epoch {e.epoch} starts at offset {e.start_offset}")
                )
            else:
                out.append(Line(f"line {number}", line, "an empty line (skipped)"))
        return out
    if name == PARTITION_METADATA:
        parse_partition_metadata(text, source)
        meanings = {
            "version": "the file's format version (Kafka writes 0)",
            "topic_id": "the topic id: the topic's Uuid in URL-safe base64, which tells a deleted and "
            "re-created topic of the same name apart",
        }
        return [
            Line(
                f"line {n}",
                line,
                meanings[line.partition(":")[0].strip()] if line.strip() else "an empty line (skipped)",
            )
            for n, line in enumerate(text.splitlines(), start=1)
        ]
    if name == QUORUM_STATE:
        return _quorum_state(text, source)
    if name == META_PROPERTIES:
        return _meta_properties(text, source)
    if name in CHECKPOINTS:
        return _offset_checkpoint(name, text, source)
    if name == CLEAN_SHUTDOWN:
        return _clean_shutdown(text, source)
    raise ValueError(f"{name!r} is not one of Kafka's text files explained here ({', '.join(NAMES)})")


def _quorum_state(text: str, source: str | None) -> list[Line]:
    state = parse_quorum_state(text, source)
    version = state[DATA_VERSION]
    fields = {f.key: f for f in QUORUM_STATE_FIELDS}
    out = []
    for key, value in state.items():
        field = fields.get(key)
        if key == DATA_VERSION:
            meaning = "the version of this file's JSON layout (0 or 1)"
        elif field is None:
            meaning = "a field Kafka's quorum-state versions 0 and 1 do not have (Kafka ignores it)"
        else:
            meaning = field.meaning
            if version not in field.versions:
                meaning += f"; not a field of data_version {version} (Kafka ignores it)"
        if key in ("leaderId", "votedId") and value == -1:
            meaning += ": -1, " + ("no leader known" if key == "leaderId" else "no vote in this epoch")
        out.append(Line(key, json.dumps(value), meaning))
    return out


_META_MEANINGS = {
    "version": "the file's version: 0 (ZooKeeper-era brokers, broker.id) or 1 (KRaft, node.id and cluster.id)",
    "broker.id": "the broker's id (version 0)",
    "node.id": "the node's id (version 1): the same in every log dir of the node",
    "cluster.id": "the cluster this log dir belongs to: the same in every log dir of the node",
    "directory.id": "this log dir's own Uuid (KIP-858): the controller tracks which replica is on which dir",
}


def _meta_properties(text: str, source: str | None) -> list[Line]:
    meta = parse_meta_properties(text, source)
    by_line = {line: (key, value) for key, value, line in meta.properties}
    id_key = "broker.id" if meta.version == 0 else "node.id"
    last = {key: line for key, _, line in meta.properties}
    out = []
    for number, line in enumerate(text.splitlines(), start=1):
        if number in by_line:
            key, _ = by_line[number]
            meaning = _META_MEANINGS.get(key, "a key Kafka does not read")
            if key in ("broker.id", "node.id") and key != id_key:
                meaning = f"not read: version {meta.version} reads {id_key}"
            elif last[key] != number:
                meaning += f"; not read: line {last[key]} gives it again, and Kafka keeps the last"
        elif line.lstrip()[:1] in ("#", "!"):
            meaning = "a comment (Kafka writes an empty one and the date it wrote the file)"
        elif not line.strip():
            meaning = "an empty line (skipped)"
        else:
            meaning = "the rest of the line above (continued by a trailing backslash)"
        out.append(Line(f"line {number}", line, meaning))
    if "version" not in last:
        out.append(Line("(version)", "", "no version line: version 0"))
    return out


def _offset_checkpoint(name: str, text: str, source: str | None) -> list[Line]:
    entries = parse_offset_checkpoint(text, name, source)
    rule = CHECKPOINTS[name]
    lines = text.splitlines()
    out = []
    if lines:
        out.append(Line("line 1", lines[0], "the file's format version (Kafka writes 0)"))
    if len(lines) > 1:
        out.append(
            Line(
                "line 2",
                lines[1],
                f"{len(entries)} entr{'y follows' if len(entries) == 1 else 'ies follow'}, one per partition",
            )
        )
    for e in entries:
        out.append(
            Line(
                f"line {e.line}", lines[e.line - 1], f"{e.topic}-{e.partition}: {e.offset} is {rule.meaning}"
            )
        )
    return out


def _clean_shutdown(text: str, source: str | None) -> list[Line]:
    epoch = parse_clean_shutdown(text, source)
    if epoch is None:
        return [
            Line(
                "(empty)",
                "",
                "the broker stopped cleanly (an empty file: a broker before Kafka 3.x wrote it)",
            )
        ]
    return [
        Line("version", "0", "the file's version (Kafka writes 0)"),
        Line(
            "brokerEpoch",
            str(epoch),
            "the broker epoch of the registration that stopped cleanly: the broker "
            "sends it with its next registration, so the controller knows the "
            "shutdown was clean",
        ),
    ]


def size_limit(name: str) -> int:
    """The most bytes of the file called ``name`` read (as verify reads it)."""
    if name in (META_PROPERTIES, QUORUM_STATE, CLEAN_SHUTDOWN):
        return NODE_FILE_LIMIT
    return CHECKPOINT_LIMIT


def is_text_file(path: str | None) -> bool:
    """Whether ``path`` is named as one of Kafka's text files explained here."""
    return path is not None and os.path.basename(path) in NAMES


def _safe(text: str) -> str:
    """A line as it may go to a terminal: one with control characters is shown quoted and escaped."""
    return text if text.isprintable() else repr(text)


def render(name: str, lines: list[Line]) -> str:
    """The text output: one line each (label, text, ``# meaning``), then a summary line."""
    lines = [Line(_safe(x.label), _safe(x.text), x.meaning) for x in lines]
    width = max((len(x.label) for x in lines), default=0)
    shown = max((len(x.text) for x in lines), default=0)
    body = "".join(f"{x.label:<{width}}  {x.text:<{shown}}  # {x.meaning}\n" for x in lines)
    what = NAMES[name]
    return f"{body}{name}: {len(lines)} {what}; every {what[:-1]} explained\n"
