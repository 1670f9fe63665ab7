"""Kafka's text files in a partition directory, explained line by line (field by field for quorum-state).

``leader-epoch-checkpoint`` and ``partition.metadata`` are read by the same parsers as ``kafkaspec
verify`` (:mod:`kafkaspec.logdir.files`), so a file explain calls good is one verify takes; each line
is then shown with what it means. ``quorum-state`` (a KRaft voter's election state) is JSON: each
field with what Kafka's ``QuorumStateData`` says of it. None of them has bytes the schemas describe,
so this lives with the log directory's files (for ``kafkaspec explain``), not in the byte tracer.
"""

from __future__ import annotations

import json
import os
from typing import NamedTuple

from ..errors import KafkaFormatError
from .files import (
    LEADER_EPOCH_CHECKPOINT,
    PARTITION_METADATA,
    parse_leader_epoch_checkpoint,
    parse_partition_metadata,
)

QUORUM_STATE = "quorum-state"
#: the file names explained here, by what they hold
NAMES = {LEADER_EPOCH_CHECKPOINT: "lines", PARTITION_METADATA: "lines", QUORUM_STATE: "fields"}

#: quorum-state's fields (data_version 0 and 1) and what each says
_QUORUM_FIELDS = {
    "clusterId": "the cluster id (version 0; Kafka leaves it empty)",
    "leaderId": "the replica id of the leader of the latest epoch this voter knows",
    "leaderEpoch": "the latest leader epoch this voter knows",
    "votedId": "the replica id this voter voted for in that epoch",
    "votedDirectoryId": "the log directory id of the replica voted for (version 1)",
    "appliedOffset": "unused (version 0)",
    "currentVoters": "the voters' replica ids (version 0; from version 1 the voter set is in the log)",
    "data_version": "the version of this file's JSON layout (0 or 1)",
}


class Line(NamedTuple):
    """One line (or JSON field) of a text file: where it is, what it says, and what that means."""

    label: str
    text: str
    meaning: str


def explain_text(name: str, text: str, source: str | None = None) -> list[Line]:
    """Explain ``text``, the content of the Kafka text file called ``name`` (one of :data:`NAMES`).

    Raises :class:`KafkaFormatError` naming the line (or JSON position) and ``source`` when the
    content is not what Kafka writes.
    """
    if name == LEADER_EPOCH_CHECKPOINT:
        entries = parse_leader_epoch_checkpoint(text, source)
        lines = text.splitlines()
        out = [Line("line 1", lines[0], "the file's format version (Kafka writes 0)"),
               Line("line 2", lines[1], f"{len(entries)} entr{'y follows' if len(entries) == 1 else 'ies follow'}, "
                                        "one per leader epoch, oldest first")]
        rows = iter(entries)
        for number, line in enumerate(lines[2:], start=3):
            if line.strip():
                e = next(rows)
                out.append(Line(f"line {number}", line, f"leader epoch {e.epoch} starts at offset {e.start_offset}"))
            else:
                out.append(Line(f"line {number}", line, "an empty line (skipped)"))
        return out
    if name == PARTITION_METADATA:
        parse_partition_metadata(text, source)
        meanings = {"version": "the file's format version (Kafka writes 0)",
                    "topic_id": "the topic id: the topic's Uuid in URL-safe base64, which tells a deleted and "
                                "re-created topic of the same name apart"}
        return [Line(f"line {n}", line, meanings[line.partition(":")[0].strip()] if line.strip() else
                     "an empty line (skipped)") for n, line in enumerate(text.splitlines(), start=1)]
    if name == QUORUM_STATE:
        return _quorum_state(text, source)
    raise ValueError(f"{name!r} is not one of Kafka's text files explained here ({', '.join(NAMES)})")


def _quorum_state(text: str, source: str | None) -> list[Line]:
    try:
        state = json.loads(text)
    except json.JSONDecodeError as exc:
        raise KafkaFormatError(f"quorum-state is not JSON: {exc.msg} (line {exc.lineno} column {exc.colno})",
                               len(text[: exc.pos].encode("utf-8")), source) from None
    if not isinstance(state, dict):
        raise KafkaFormatError(f"quorum-state holds a JSON {type(state).__name__}, not an object", 0, source)
    version = state.get("data_version")
    if version not in (0, 1):
        raise KafkaFormatError(f"quorum-state data_version is {version!r}, expected 0 or 1", 0, source)
    out = []
    for key, value in state.items():
        meaning = _QUORUM_FIELDS.get(key, "a field Kafka's quorum-state versions 0 and 1 do not have")
        if key in ("leaderId", "votedId") and value == -1:
            meaning += ": -1, " + ("no leader known" if key == "leaderId" else "no vote in this epoch")
        out.append(Line(key, json.dumps(value), meaning))
    return out


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
