"""The data directory's own files checked against each other and against the partitions' logs.

``verify`` reads the partitions; this module then reads what the broker keeps beside them
(:mod:`kafkaspec.logdir.kafka.node_files`, :mod:`kafkaspec.logdir.kafka.checkpoints`) and compares: each offset checkpoint entry names a
partition that is there, with an offset inside its log by the rule of that file; ``meta.properties``
is Kafka's, and the log dirs given together agree on the node and the cluster (and no two share a
directory id); a missing ``.kafka_cleanshutdown`` is said (a note: the last shutdown was not clean,
or the broker is running) in a dir that holds a ``meta.properties`` (one without is read as a copy of
partitions, and nothing is said of the node's files it lacks). Only the comparing is here; findings go back as
``(path, position, message, severity)``, severity ``error``, ``warning`` or ``note``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import NamedTuple

from ...errors import KafkaFormatError
from ..kafka import checkpoints, files, node_files
from ..store.fs import StoragePath
from ..tiered.remote_log_topic import TOPIC, found_beside, read_remote_log_metadata

#: the files a broker keeps in a data dir itself, beside its partition directories
DATA_DIR_FILES = (
    node_files.META_PROPERTIES,
    node_files.CLEAN_SHUTDOWN,
    *checkpoints.CHECKPOINTS,
    files.BOOTSTRAP_CHECKPOINT,
)


class Finding(NamedTuple):
    path: str
    position: int | None
    message: str
    severity: str = "error"


class CorruptAt(NamedTuple):
    """A partition's first corrupt batch (in segment order), where Kafka's recovery would stop reading."""

    segment: str
    position: int
    #: the offset after the last whole batch before it: where the log ends once recovery truncates there
    next_offset: int
    #: the base offset of the segment after this one (None for the last), and how many segments follow
    next_base: int | None
    later: int


class Extent(NamedTuple):
    """A partition's log as read: its first segment's base offset and its log end offset (the offset
    after its last batch, or the last segment's base offset when that segment is empty); its first
    corrupt batch, if any."""

    first_base: int
    end: int
    corrupt: CorruptAt | None = None


#: what the four checkpoint files cannot say about a partition: offsets beyond the log end
_ABOVE_END = {
    checkpoints.REPLICATION: "the high watermark says records up to there are replicated, but the log ends before",
    checkpoints.RECOVERY_POINT: "the recovery point says records up to there are flushed, but the log ends before",
    checkpoints.LOG_START: "the log would start after its own end",
    checkpoints.CLEANER: "the cleaner says it cleaned records the log does not have",
}

CLEAN_SHUTDOWN_MISSING = (
    "no .kafka_cleanshutdown: the broker's last shutdown was not clean (or it is running, or "
    "this copy was taken from a running broker); at start-up Kafka recovers the segments "
    "after each partition's recovery point"
)
#: how many partitions past their recovery point the note names before it counts the rest
RECOVERY_NAMED = 20


def check_data_dir(
    root: StoragePath,
    extents: dict[tuple[str, int], Extent | None],
    transient: Mapping[tuple[str, int], str] | Iterable[tuple[str, int]] = (),
) -> tuple[list[Finding], node_files.MetaProperties | None]:
    """Check the files of the data dir ``root`` whose partitions were read with ``extents`` (None for a
    partition directory without a segment); the findings, and its ``meta.properties`` (None when absent or unreadable) for :func:`check_node`.

    ``transient``: partitions that are there only as ``-delete``/``-future``/``-stray`` directories, each
    with that kind where known. A checkpoint entry of one is no error: a running broker writes the entry
    of a partition it is deleting or has just moved to another log directory, and rewrites the file as
    that goes on (a note, as the directories are); of a ``-stray`` one, or of an unknown kind, a warning.
    """
    out: list[Finding] = []
    meta = None
    path = root / node_files.META_PROPERTIES
    if path.exists():  # a broker's data dir: without one, a copy of partitions (no notes on the node's files)
        try:
            meta = node_files.parse_meta_properties(
                files.read_text_file(path, node_files.MAX_SIZE, encoding=node_files.META_PROPERTIES_ENCODING),
                str(path),
            )
        except KafkaFormatError as exc:
            out.append(Finding(exc.source or str(path), exc.position, exc.reason))
        else:
            for what in meta.ignored:
                out.append(Finding(str(path), None, f"not read by Kafka: {what}", "warning"))
        out += _check_clean_shutdown(root, extents)
        if not (root / node_files.CLEAN_SHUTDOWN).exists():
            out += _recovery_of_corrupt(root, extents)
    elif (root / node_files.CLEAN_SHUTDOWN).exists():
        out += _check_clean_shutdown(root, extents)
    gone = dict(transient) if isinstance(transient, Mapping) else dict.fromkeys(transient, "")
    for name, rule in checkpoints.CHECKPOINTS.items():
        out += _check_checkpoint(root / name, rule, extents, gone)
    return out, meta


def _check_clean_shutdown(root: StoragePath, extents: dict[tuple[str, int], Extent | None]) -> list[Finding]:
    path = root / node_files.CLEAN_SHUTDOWN
    if not path.exists():
        return [
            Finding(
                str(path), None, f"{CLEAN_SHUTDOWN_MISSING}; {_past_recovery_points(root, extents)}", "note"
            )
        ]
    try:
        node_files.parse_clean_shutdown(files.read_text_file(path, node_files.MAX_SIZE), str(path))
    except KafkaFormatError as exc:
        return [
            Finding(
                str(path),
                exc.position,
                f"{exc.reason}; Kafka still counts the shutdown clean (the file "
                "exists) but learns no broker epoch from it",
                "warning",
            )
        ]
    return []


def _recovery_points(root: StoragePath) -> dict[tuple[str, int], int] | None:
    """The recovery point of each partition the checkpoint names (none when it is absent); None when it
    does not parse (its own check reports it)."""
    path = root / checkpoints.RECOVERY_POINT
    if not path.exists():
        return {}
    try:
        entries = checkpoints.parse_offset_checkpoint(
            files.read_text_file(path, checkpoints.MAX_SIZE), checkpoints.RECOVERY_POINT, str(path)
        )
    except KafkaFormatError:
        return None
    return {(e.topic, e.partition): e.offset for e in entries}


def _recovery_of_corrupt(root: StoragePath, extents: dict[tuple[str, int], Extent | None]) -> list[Finding]:
    """What Kafka's recovery does with each partition's first corrupt batch after an unclean shutdown.
    Its LogLoader re-reads the segment holding the recovery point and every later one, checking each
    batch's CRC: at the first that fails it truncates that segment there, deletes every later segment,
    and rebuilds the indexes; the log then ends before the corrupt batch. A segment wholly before the
    recovery point is not re-read: the broker serves the corrupt batch as it stands."""
    points = _recovery_points(root)
    if points is None:
        return []
    out = []
    for (topic, partition), extent in sorted(extents.items()):
        bad = extent.corrupt if extent is not None else None
        if extent is None or bad is None:
            continue
        point = points.get((topic, partition), 0)
        said = (
            f"recovery point {point}"
            if (topic, partition) in points
            else "recovery point 0 (not checkpointed)"
        )
        if bad.next_base is not None and bad.next_base <= point:
            out.append(
                Finding(
                    bad.segment,
                    bad.position,
                    f"this segment is before {topic}-{partition}'s {said}: Kafka's recovery does not "
                    "re-read it, and the broker serves the corrupt batch as it stands",
                    "note",
                )
            )
            continue
        lost = f"offsets {bad.next_offset}..{extent.end - 1}" if extent.end > bad.next_offset else "no offset"
        after = (
            f" and deletes the {bad.later} segments after it"
            if bad.later > 1
            else (" and deletes the segment after it" if bad.later else "")
        )
        out.append(
            Finding(
                bad.segment,
                bad.position,
                f"the last shutdown was not clean and this segment is past {topic}-{partition}'s {said}: "
                f"at the broker's next start, Kafka's recovery truncates the segment to byte {bad.position} "
                f"(the corrupt batch){after}; the log then ends at offset {bad.next_offset} ({lost} gone)",
                "warning",
            )
        )
    return out


def _past_recovery_points(root: StoragePath, extents: dict[tuple[str, int], Extent | None]) -> str:
    """The partitions whose log ends after their recovery point, most offsets to re-read first, each with
    the offset Kafka's LogLoader re-reads from (the segment holding it, and every later one): the first
    segment for a partition the file does not name (Kafka defaults its recovery point to 0). Said as
    unknown when the file does not parse (its own check reports it)."""
    points = _recovery_points(root)
    if points is None:
        return "which partitions are past their recovery point is unknown (the checkpoint does not parse)"
    found: list[tuple[int, str, int, str]] = []
    for (topic, partition), extent in extents.items():
        if extent is None:
            continue
        point = points.get((topic, partition))
        if point is None:
            found.append(
                (
                    extent.end - extent.first_base,
                    topic,
                    partition,
                    f"{topic}-{partition} from its first segment (not in {checkpoints.RECOVERY_POINT})",
                )
            )
        elif point < extent.end:
            found.append(
                (
                    extent.end - point,
                    topic,
                    partition,
                    f"{topic}-{partition} from offset {point} (log end {extent.end})",
                )
            )
    past = [said for _, _, _, said in sorted(found, key=lambda f: (-f[0], f[1], f[2]))]
    if not past:
        return "past their recovery point: none"
    more = f", and {len(past) - RECOVERY_NAMED} more" if len(past) > RECOVERY_NAMED else ""
    return f"past their recovery point: {', '.join(past[:RECOVERY_NAMED])}{more}"


def _check_checkpoint(
    path: StoragePath,
    rule: checkpoints.Checkpoint,
    extents: dict[tuple[str, int], Extent | None],
    gone: Mapping[tuple[str, int], str],
) -> list[Finding]:
    if not path.exists():
        return []
    try:
        entries = checkpoints.parse_offset_checkpoint(
            files.read_text_file(path, checkpoints.MAX_SIZE), rule.name, str(path)
        )
    except KafkaFormatError as exc:
        return [Finding(str(path), exc.position, exc.reason)]
    log_starts: dict[tuple[str, int], int] = {}
    if rule.name != checkpoints.LOG_START:
        log_starts = _log_starts(path.parent / checkpoints.LOG_START)
    out = []
    uploaded: set[tuple[str, int]] | None = None  # read only when an entry needs it
    for e in entries:
        where = f"line {e.line}: {e.topic}-{e.partition}"
        extent = extents.get((e.topic, e.partition))
        if extent is None and (e.topic, e.partition) in extents:
            continue  # a partition directory with no segment (reported as such): no log to compare with
        if extent is None:
            if (e.topic, e.partition) in gone:
                kind = gone[(e.topic, e.partition)]
                what = f"a -{kind} directory" if kind else "a -delete, -future or -stray directory"
                passing = kind in ("delete", "future")
                why = (
                    "the broker's own passing state: it rewrites the file as the deletion or move goes on"
                    if passing
                    else "the broker drops the entry when it next writes the file"
                )
                out.append(
                    Finding(
                        str(path),
                        e.position,
                        f"{where}: the partition is only {what} here ({why})",
                        "note" if passing else "warning",
                    )
                )
            else:
                out.append(
                    Finding(str(path), e.position, f"{where}: no such partition directory in this data dir")
                )
            continue
        start = log_starts.get((e.topic, e.partition), extent.first_base)
        if not extent.first_base <= start <= extent.end:  # that file's own problem, not the others'
            start = extent.first_base
        if e.offset > extent.end:
            out.append(
                Finding(
                    str(path),
                    e.position,
                    f"{where}: offset {e.offset} is past the log end offset "
                    f"{extent.end}: {_ABOVE_END[rule.name]} (records lost, or the file is another "
                    "log's)",
                )
            )
        elif rule.name == checkpoints.LOG_START and e.offset < extent.first_base:
            if uploaded is None:
                uploaded = _uploaded(path.parent)
            if (e.topic, e.partition) in uploaded:
                out.append(
                    Finding(
                        str(path),
                        e.position,
                        f"{where}: log start offset {e.offset} is below the first segment's base offset "
                        f"{extent.first_base}: the log starts in remote storage ({TOPIC} here records "
                        "uploads of the partition; verify --tiered PREFIX reads both parts)",
                        "note",
                    )
                )
                continue
            out.append(
                Finding(
                    str(path),
                    e.position,
                    f"{where}: log start offset {e.offset} is below the first "
                    f"segment's base offset {extent.first_base}: a stale entry (Kafka starts the log at "
                    "the segment), or a tiered topic whose log starts in remote storage",
                    "warning",
                )
            )
        elif rule.below_start_warns and rule.name != checkpoints.LOG_START and e.offset < start:
            out.append(
                Finding(
                    str(path),
                    e.position,
                    f"{where}: offset {e.offset} is below the log start offset "
                    f"{start} (Kafka moves it up to the log start)",
                    "warning",
                )
            )
    return out


def _uploaded(root: StoragePath) -> set[tuple[str, int]]:
    """The partitions ``__remote_log_metadata`` in the data dir ``root`` records uploads of (none when it
    is not there, or does not decode: verify reports its records as those of any partition)."""
    if not found_beside(root):
        return set()
    try:
        state = read_remote_log_metadata(root).state
    except KafkaFormatError:
        return set()
    return {(p.topic, p.partition) for p in state.partitions.values() if p.segments}


def _log_starts(path: StoragePath) -> dict[tuple[str, int], int]:
    """The log-start-offset-checkpoint's entries, to compare the other files with (empty when it is
    absent or does not parse: that file's own check reports it)."""
    if not path.exists():
        return {}
    try:
        entries = checkpoints.parse_offset_checkpoint(
            files.read_text_file(path, checkpoints.MAX_SIZE), checkpoints.LOG_START, str(path)
        )
    except KafkaFormatError:
        return {}
    return {(e.topic, e.partition): e.offset for e in entries}


def check_node(metas: list[tuple[StoragePath, node_files.MetaProperties]]) -> list[Finding]:
    """The log dirs of one node (given together) as Kafka's ``MetaPropertiesEnsemble.verify`` checks
    them: one cluster id and one node id among those that carry one, and no directory id twice."""
    out: list[Finding] = []
    cluster: tuple[str, StoragePath] | None = None
    node: tuple[int, StoragePath] | None = None
    seen: dict[str, StoragePath] = {}
    for root, meta in metas:
        path = str(root / node_files.META_PROPERTIES)
        if meta.cluster_id is not None:
            if cluster is None:
                cluster = (meta.cluster_id, root)
            elif meta.cluster_id != cluster[0]:
                out.append(
                    Finding(
                        path,
                        None,
                        f"cluster.id {meta.cluster_id} differs from {cluster[0]} in "
                        f"{cluster[1]}: the log dirs of one node belong to one cluster",
                    )
                )
        if meta.node_id is not None:
            if node is None:
                node = (meta.node_id, root)
            elif meta.node_id != node[0]:
                key = "broker.id" if meta.version == 0 else "node.id"
                out.append(
                    Finding(
                        path,
                        None,
                        f"{key} {meta.node_id} differs from {node[0]} in {node[1]}: the log "
                        "dirs of one node carry its one id",
                    )
                )
        if meta.directory_id is not None:
            if meta.directory_id in seen:
                out.append(
                    Finding(
                        path,
                        None,
                        f"directory.id {meta.directory_id} is also the id of "
                        f"{seen[meta.directory_id]}: each log dir has its own (a copied directory?)",
                    )
                )
            else:
                seen[meta.directory_id] = root
    return out
