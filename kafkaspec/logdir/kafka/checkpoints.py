"""The four offset checkpoint files of a broker's data directory.

A broker keeps, beside its partition directories, four files of one offset per partition, written
by Kafka's ``OffsetCheckpointFile`` (``CheckpointFile`` with version 0): a version line ``0``, a line
with the number of entries, then one ``topic partition offset`` line per partition. Each offset
means something different, so each is checked against the partition's log by its own rule (see
:data:`CHECKPOINTS`): the reading is here, the comparing with the logs in ``datadir_checks``.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import NamedTuple

from ...errors import KafkaFormatError
from . import files
from .files import _INT32_MAX, _INT64_MAX, _number, _shown
from .names import topic_problem

REPLICATION = "replication-offset-checkpoint"
RECOVERY_POINT = "recovery-point-offset-checkpoint"
LOG_START = "log-start-offset-checkpoint"
CLEANER = "cleaner-offset-checkpoint"


class Checkpoint(NamedTuple):
    """What one of the four files records, and the rule its offsets follow."""

    name: str
    #: what each offset is, as ``explain`` and the docs say it
    meaning: str
    #: whether an offset below the partition's log start is worth a warning (a stale entry)
    below_start_warns: bool


#: the four files, by name
CHECKPOINTS = {
    REPLICATION: Checkpoint(
        REPLICATION,
        "the high watermark: the offset below which every record is replicated to "
        "all in-sync replicas (what consumers may read)",
        True,
    ),
    RECOVERY_POINT: Checkpoint(
        RECOVERY_POINT,
        "the recovery point: the offset below which the log is flushed to "
        "disk (after an unclean shutdown the broker re-reads the segments from here)",
        False,
    ),
    LOG_START: Checkpoint(
        LOG_START,
        "the log start offset, where it is above the first segment's base offset "
        "(after DeleteRecords or retention inside a segment, or a tiered topic's)",
        True,
    ),
    CLEANER: Checkpoint(
        CLEANER, "the log cleaner's first dirty offset: compaction has cleaned the log below it", True
    ),
}

#: the largest checkpoint file read (a broker hosting 100,000 partitions writes about 5 MB)
MAX_SIZE = 64 << 20
_SPACES = re.compile(r"\s+")


class Entry(NamedTuple):
    """One ``topic partition offset`` line, with its line number (1-based) and byte position."""

    topic: str
    partition: int
    offset: int
    line: int
    position: int


def parse_offset_checkpoint(text: str, name: str, source: str | None = None) -> list[Entry]:
    """Parse one of the four offset checkpoint files (``name`` is its file name, for the messages).

    As Kafka's ``CheckpointFile`` reads it: an empty file, or one with only the version line, holds no
    entries; the version must be 0; the count must match the entry lines; every entry line is three
    whitespace-separated fields (an empty line is malformed). Beyond what Kafka checks, a topic name
    Kafka would refuse, a negative partition or offset, and a partition listed twice (Kafka keeps the
    last) are errors: no broker writes them. Every error names the line and ``source``.
    """
    lines = text.splitlines()
    if not lines:
        return []
    if lines[0].strip() != "0":
        raise KafkaFormatError(f"{name} line 1: version is {_shown(lines[0])}, expected 0", 0, source)
    if len(lines) == 1:
        return []
    count = _number(lines[1].strip(), "count", _INT32_MAX, f"{name} line 2", len(lines[0]) + 1, source)
    entries: list[Entry] = []
    first_line: dict[tuple[str, int], int] = {}
    position = len(lines[0]) + len(lines[1]) + 2
    for number, line in enumerate(lines[2:], start=3):
        where = f"{name} line {number}"
        parts = _SPACES.split(line.strip())
        if len(parts) != 3:
            raise KafkaFormatError(
                f"{where}: {_shown(line)} is not 'topic partition offset'", position, source
            )
        topic = parts[0]
        why = topic_problem(topic)
        if why is not None:
            raise KafkaFormatError(f"{where}: topic {_shown(topic)}: {why}", position, source)
        partition = _number(parts[1], "partition", _INT32_MAX, where, position, source)
        offset = _number(parts[2], "offset", _INT64_MAX, where, position, source)
        key = (topic, partition)
        if key in first_line:
            raise KafkaFormatError(
                f"{where}: {topic}-{partition} is listed again (first on line {first_line[key]}); "
                "Kafka would keep this line's offset",
                position,
                source,
            )
        first_line[key] = number
        entries.append(Entry(topic, partition, offset, number, position))
        position += len(line) + 1
    if len(entries) != count:
        raise KafkaFormatError(
            f"{name} line 2 announces {count} entries but the file holds {len(entries)}",
            len(lines[0]) + 1,
            source,
        )
    return entries


_CHECKPOINTS = (
    ("recovery-point-offset-checkpoint", 1),
    ("replication-offset-checkpoint", 1),
    ("log-start-offset-checkpoint", 0),
)


def update_offset_checkpoints(root: Path, offsets: dict[tuple[str, int], tuple[int, int]]) -> None:
    """Set the (log start offset, log end offset) of these partitions in ``root``'s offset checkpoints
    (recovery point and high watermark: the log end; log start), keeping the other partitions' lines."""
    for name, column in _CHECKPOINTS:
        path = root / name
        known: dict[tuple[str, int], int] = {}
        if path.is_file():
            lines = files.read_text_file(path).splitlines()[2:]
            for line in lines:
                parts = line.split()
                if len(parts) == 3 and parts[1].isdigit() and parts[2].lstrip("-").isdigit():
                    known[(parts[0], int(parts[1]))] = int(parts[2])
        known.update({tp: o[column] for tp, o in offsets.items()})
        _replace_text(path, files.format_offset_checkpoint(known))


def _replace_text(path: Path, text: str) -> None:
    """Write ``path`` whole by a rename over it: a kill or a full disk midway leaves the old file, never a
    cut one (the temporary file goes when the write fails)."""
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        temp.write_text(text)
        os.replace(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
