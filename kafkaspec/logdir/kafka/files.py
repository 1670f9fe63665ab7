"""Names and small text files of a Kafka log directory.

Segment files are named by their base offset in 20 digits: ``00000000000000001234.log``
with ``.index``, ``.timeindex`` and ``.txnindex`` beside it; producer snapshots are
``<offset>.snapshot``. A partition directory is ``<topic>-<partition>``. Files the
broker is about to delete or swap in (``.deleted``, ``.cleaned``, ``.swap``) and
directories being deleted or moved (``-delete``, ``-future``) or found stray at start-up
(``-stray``, KIP-858: a replica the broker no longer hosts) are not part of the log.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

from ...errors import KafkaFormatError
from ..store.fs import RangeReader, StoragePath
from .names import MAX_OFFSET, parse_partition_dir_name

LOG_SUFFIX = ".log"
INDEX_SUFFIX = ".index"
TIME_INDEX_SUFFIX = ".timeindex"
TXN_INDEX_SUFFIX = ".txnindex"
SNAPSHOT_SUFFIX = ".snapshot"
#: the ``bootstrap.checkpoint`` a controller formats its metadata log dir with (KRaft snapshots,
#: ``<end offset>-<epoch>.checkpoint`` in ``__cluster_metadata-0/``, are record batches like a segment)
CHECKPOINT_SUFFIX = ".checkpoint"  # a KRaft snapshot: <end offset>-<epoch>.checkpoint
BOOTSTRAP_CHECKPOINT = "bootstrap.checkpoint"
#: the KRaft snapshot ``kafka-storage format`` writes from Kafka 4.4 on (KIP-1170), which holds the
#: bootstrap records (as data batches between its control records) instead of ``bootstrap.checkpoint``
ZERO_CHECKPOINT = "00000000000000000000-0000000000.checkpoint"
LEADER_EPOCH_CHECKPOINT = "leader-epoch-checkpoint"
PARTITION_METADATA = "partition.metadata"

#: suffixes of files that are not (or no longer) part of the log
SKIPPED_FILE_SUFFIXES = (".deleted", ".cleaned", ".swap")
_SKIPPED_DIR = re.compile(r"^.+-\d+\.[0-9a-f]{32}-(delete|future|stray)$|^.+-(delete|future|stray)$")
#: ``<topic>-<partition>.<32 hex>-<kind>`` (how Kafka renames them) or ``<topic>-<partition>-<kind>``
_TRANSIENT_DIR = re.compile(
    r"^(?P<topic>.+)-(?P<partition>[0-9]+)(?:\.[0-9a-f]{32})?-(?P<kind>delete|future|stray)$"
)
#: what each kind of skipped partition directory is, as ``verify`` says it
TRANSIENT_KINDS = {
    "delete": "a partition directory being deleted (-delete)",
    "future": "a partition directory moving to another log directory (-future)",
    "stray": "a stray (KIP-858) partition directory: the broker found it at start-up for a replica it no "
    "longer hosts, and keeps it until an operator removes it (-stray)",
}
_OFFSET_NAME = re.compile(r"([0-9]{20})")
_SNAPSHOT_ID = re.compile(r"([0-9]{20})-([0-9]{10})\.checkpoint")


#: suffixes of the files that belong to a segment and are named by its offset
SEGMENT_FILE_SUFFIXES = (LOG_SUFFIX, INDEX_SUFFIX, TIME_INDEX_SUFFIX, TXN_INDEX_SUFFIX, SNAPSHOT_SUFFIX)


def read_regular(path: str | StoragePath, start: int = 0, end: int | None = None) -> bytes:
    """Bytes [start, end) of the regular file ``path`` (see :func:`~kafkaspec.logdir.store.fs.open_regular`), read, not mapped:
    a file that shrinks meanwhile gives fewer bytes, never a SIGBUS. An object-store path is read by
    ranged GETs of just those bytes."""
    with RangeReader(path) as reader:
        return reader.read_span(start, end)


def read_index_file(path: str | StoragePath, entry_size: int, limit: int | None = None) -> bytes:
    """The used part of a (possibly preallocated, zero-filled) index file, at most ``limit`` bytes.

    Reading stops soon after the first two all-zero entries, so a huge sparse or
    preallocated file costs what its entries do, not its size. An object-store index is one
    ranged GET of at most ``limit`` bytes.
    """
    zeros = bytes(2 * entry_size)
    data = bytearray()
    with RangeReader(path) as reader:
        while True:
            room = None if limit is None else limit - len(data)
            want = room if reader.chunk is None else reader.chunk if room is None else min(reader.chunk, room)
            if want == 0:
                return bytes(data)
            block = reader.read_span(len(data), None if want is None else len(data) + want)
            searched = max(0, len(data) - len(zeros))
            data += block
            hit = data.find(zeros, searched)
            if hit >= 0:  # two entries of zeros (not necessarily aligned): the entries end by there
                return bytes(data[: hit + len(zeros)])
            if want is None or len(block) < want:  # the end of the file
                return bytes(data)


def read_text_file(path: str | StoragePath, limit: int = 64 << 20, *, encoding: str = "utf-8") -> str:
    """A small text file (checkpoint, metadata) as text: not regular, too large or not ``encoding`` (UTF-8
    unless Kafka reads the file otherwise) is a :class:`KafkaFormatError` naming the file (and the byte of
    the first bad character)."""
    with RangeReader(path) as reader:
        if reader.size > limit:
            raise KafkaFormatError(
                f"{reader.size} bytes is too large for this text file (limit {limit})", None, str(path)
            )
        data = reader.read_span(0, limit + 1)
    return _decode_text(data, path, encoding)


def _decode_text(data: bytes, path: str | StoragePath, encoding: str) -> str:
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise KafkaFormatError(
            f"not UTF-8 text: byte 0x{data[exc.start]:02x} cannot be decoded", exc.start, str(path)
        ) from None


def offset_file_name(offset: int, suffix: str) -> str:
    """``00000000000000001234.log`` for (1234, ".log")."""
    return f"{offset:020d}{suffix}"


def is_metadata_checkpoint(path: str | StoragePath) -> bool:
    """A KRaft snapshot file: ``bootstrap.checkpoint`` or ``<20-digit offset>-<10-digit epoch>.checkpoint``."""
    name = Path(path).name if isinstance(path, str) else path.name
    return name == BOOTSTRAP_CHECKPOINT or _SNAPSHOT_ID.fullmatch(name) is not None


def offset_from_name(path: str | StoragePath) -> int | None:
    """The 20-digit offset a segment/index/snapshot file is named by, or None (also for a name past the
    largest offset, 9223372036854775807: see :func:`.names.offset_name_problem`)."""
    name = Path(path).name if isinstance(path, str) else path.name
    stem = name.split(".", 1)[0]
    m = _OFFSET_NAME.fullmatch(stem)
    return int(m[1]) if m and int(m[1]) <= MAX_OFFSET else None


def is_skipped_file(name: str) -> bool:
    return name.endswith(SKIPPED_FILE_SUFFIXES)


def is_skipped_dir(name: str) -> bool:
    """A partition directory being deleted (``-delete``), moved between disks (``-future``) or left
    stray (``-stray``, KIP-858)."""
    return bool(_SKIPPED_DIR.match(name))


def parse_transient_dir(name: str) -> tuple[str, int, str] | None:
    """(topic, partition, kind) of a skipped partition directory's name (kind: ``delete``,
    ``future``, ``stray``); None for any other name."""
    m = _TRANSIENT_DIR.match(name)
    return (m["topic"], int(m["partition"]), m["kind"]) if m else None


def parse_partition_dir(name: str) -> tuple[str, int] | None:
    """(topic, partition) for a ``<topic>-<partition>`` directory name whose topic Kafka allows and
    whose partition is an int32 (:mod:`.names`); None for anything else."""
    if _SKIPPED_DIR.match(name):
        return None
    parsed = parse_partition_dir_name(name)
    return parsed if isinstance(parsed, tuple) else None


# -- leader-epoch-checkpoint ----------------------------------------------------


class EpochEntry(NamedTuple):
    """A leader epoch and the first offset written in it."""

    epoch: int
    start_offset: int


_INT32_MAX = (1 << 31) - 1
_INT64_MAX = (1 << 63) - 1
#: the most digits a number in these files may have before it is converted: int64's 19, and a sign
_MAX_DIGITS = 19


def _shown(token: str) -> str:
    """A token as a message quotes it: a long one cut, with its length."""
    return repr(token) if len(token) <= 24 else f"{token[:20]!r}... ({len(token)} characters)"


def _is_number(token: str) -> bool:
    digits = token[1:] if token[:1] in "+-" else token
    return digits.isascii() and digits.isdigit()


def _number(token: str, what: str, maximum: int, where: str, position: int, source: str | None) -> int:
    """``token`` as an integer from 0 to ``maximum``; the digits are counted before they are converted,
    so a number of thousands of digits costs nothing (and never meets ``int()``'s digit limit)."""
    if not _is_number(token):
        raise KafkaFormatError(f"{where}: {what} {_shown(token)} is not a number", position, source)
    digits = token.lstrip("+-").lstrip("0") or "0"
    value = None if len(digits) > _MAX_DIGITS else -int(digits) if token[0] == "-" else int(digits)
    if value is None or not 0 <= value <= maximum:
        kind = "int32" if maximum == _INT32_MAX else "int64"
        raise KafkaFormatError(
            f"{where}: {what} {_shown(token)} is out of range: an {kind} from 0 to {maximum}",
            position,
            source,
        )
    return value


def parse_leader_epoch_checkpoint(text: str, source: str | None = None) -> list[EpochEntry]:
    """Parse ``leader-epoch-checkpoint``: a version line (0), a count line, then ``epoch start_offset`` lines.

    As Kafka's ``CheckpointFile`` reads it: the count is an int32, each epoch an int32 and each start
    offset an int64, none negative. Every error names the line (and the file, as ``source``).
    """
    lines = text.splitlines()
    if len(lines) < 2:
        raise KafkaFormatError("leader-epoch-checkpoint needs a version line and a count line", 0, source)
    if lines[0].strip() != "0":
        raise KafkaFormatError(
            f"leader-epoch-checkpoint line 1: version is {_shown(lines[0])}, expected 0", 0, source
        )
    count = _number(
        lines[1].strip(), "count", _INT32_MAX, "leader-epoch-checkpoint line 2", len(lines[0]) + 1, source
    )
    entries = []
    position = len(lines[0]) + len(lines[1]) + 2
    for number, line in enumerate(lines[2:], start=3):
        if not line.strip():
            position += len(line) + 1
            continue
        parts = line.split()
        where = f"leader-epoch-checkpoint line {number}"
        if len(parts) != 2 or not all(_is_number(x) for x in parts):
            raise KafkaFormatError(f"{where}: {_shown(line)} is not 'epoch start_offset'", position, source)
        entries.append(
            EpochEntry(
                _number(parts[0], "epoch", _INT32_MAX, where, position, source),
                _number(parts[1], "start offset", _INT64_MAX, where, position, source),
            )
        )
        position += len(line) + 1
    if len(entries) != count:
        raise KafkaFormatError(
            f"leader-epoch-checkpoint announces {count} entries but holds {len(entries)}", position, source
        )
    return entries


def format_leader_epoch_checkpoint(entries: list[EpochEntry] | list[tuple[int, int]]) -> str:
    return "0\n" + f"{len(entries)}\n" + "".join(f"{e} {o}\n" for e, o in entries)


# -- the data directory's offset checkpoints -------------------------------------


def format_offset_checkpoint(offsets: dict[tuple[str, int], int]) -> str:
    """A broker's ``*-offset-checkpoint`` text: version 0, the count, then ``topic partition offset`` lines."""
    rows = "".join(f"{t} {p} {o}\n" for (t, p), o in sorted(offsets.items()))
    return f"0\n{len(offsets)}\n{rows}"


# -- partition.metadata ---------------------------------------------------------


#: a Kafka ``Uuid`` as text: 16 bytes in URL-safe base64, without padding (``Uuid.toString``) or with it
_UUID_TEXT = re.compile(r"[A-Za-z0-9_-]{22}(==)?")
_ZERO_UUID = "AAAAAAAAAAAAAAAAAAAAAA"
_METADATA_KEYS = ("version", "topic_id")


def parse_partition_metadata(text: str, source: str | None = None) -> dict[str, str]:
    """Parse ``partition.metadata`` (``version: 0`` and ``topic_id: <base64 uuid>`` lines) into a dict.

    One line per key, no other keys (Kafka writes these two and reads them in order), and a topic id
    that Kafka's ``Uuid.fromString`` takes: URL-safe base64 of 16 bytes, not the zero Uuid (which Kafka
    refuses as "Invalid topic ID"). Every error names the line (and the file, as ``source``).
    """
    out: dict[str, str] = {}
    lines: dict[str, int] = {}
    position = 0
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            key, sep, value = line.partition(":")
            key = key.strip()
            where = f"partition.metadata line {number}"
            if not sep:
                raise KafkaFormatError(f"{where}: {_shown(line)} is not 'key: value'", position, source)
            if key not in _METADATA_KEYS:
                raise KafkaFormatError(
                    f"{where}: unknown key {_shown(key)} (Kafka writes version and topic_id)",
                    position,
                    source,
                )
            if key in out:
                raise KafkaFormatError(
                    f"{where}: a second {key} line (the first is line {lines[key]})", position, source
                )
            value = value.strip()
            if key == "version" and value != "0":
                raise KafkaFormatError(
                    f"{where}: partition.metadata version is {_shown(value)}, expected '0'", position, source
                )
            if key == "topic_id" and (not _UUID_TEXT.fullmatch(value) or value == _ZERO_UUID):
                why = (
                    "the zero Uuid, which Kafka refuses"
                    if value == _ZERO_UUID
                    else "not a Kafka Uuid (22 characters of URL-safe base64 encoding 16 bytes)"
                )
                raise KafkaFormatError(f"{where}: topic_id {_shown(value)} is {why}", position, source)
            out[key], lines[key] = value, number
        position += len(line) + 1
    if out.get("version") != "0":
        raise KafkaFormatError(
            f"partition.metadata version is {out.get('version')!r}, expected '0'", 0, source
        )
    if "topic_id" not in out:
        raise KafkaFormatError("partition.metadata has no topic_id", 0, source)
    return out


def format_partition_metadata(topic_id: str) -> str:
    """The text Kafka writes (no trailing newline)."""
    return f"version: 0\ntopic_id: {topic_id}"
