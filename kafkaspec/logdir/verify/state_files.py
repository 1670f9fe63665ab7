"""The state files of ``kafkaspec verify``: what a partition keeps beside its segments.

The leader-epoch checkpoint, ``partition.metadata``, a KRaft voter's ``quorum-state``, the producer
snapshots and KRaft snapshots of a partition directory; and in a tiered segment's bundle its producer
snapshot and leader-epoch checkpoint, checked against the batches the scan saw (:class:`~.scan.Seen`).
What a file holds is read by ``files``, ``node_files`` and ``snapshot`` (:mod:`kafkaspec.logdir.kafka`);
only the checking is here.
"""

from __future__ import annotations

import bisect

from kafkaspec.generated.enums import ControlRecordType

from ...errors import KafkaFormatError
from ..kafka import files, node_files
from ..kafka.layout import Partition
from ..kafka.segment import Segment
from ..kafka.snapshot import parse_snapshot
from ..tiered.partition import TieredPartition
from .index_checks import index_error, index_or_report
from .problem import Problem
from .scan import Seen


def check_small_files(part: Partition, problems: list[Problem]) -> None:
    if isinstance(part, TieredPartition):  # no such files: the checkpoint is in each segment's bundle
        return
    epochs_path = part.path / files.LEADER_EPOCH_CHECKPOINT
    try:
        epochs = part.leader_epochs()
    except KafkaFormatError as exc:
        problems.append(Problem(str(epochs_path), exc.position, exc.reason))
    else:
        for a, b in zip(epochs or [], (epochs or [])[1:]):
            if b.epoch <= a.epoch or b.start_offset < a.start_offset:
                problems.append(Problem(str(epochs_path), None, f"epoch entry {b} does not follow {a}"))
    try:
        part.metadata()
    except KafkaFormatError as exc:
        problems.append(Problem(str(part.path / files.PARTITION_METADATA), exc.position, exc.reason))
    quorum = part.path / node_files.QUORUM_STATE  # a KRaft voter's election state, in __cluster_metadata-0
    if quorum.exists():
        try:
            node_files.parse_quorum_state(files.read_text_file(quorum, node_files.MAX_SIZE), str(quorum))
        except KafkaFormatError as exc:
            problems.append(Problem(exc.source or str(quorum), exc.position, exc.reason))
    for path in part.snapshot_paths():
        try:
            parse_snapshot(files.read_regular(path))
        except KafkaFormatError as exc:
            problems.append(Problem(str(path), exc.position, exc.reason))


def check_stored_snapshot(seg: Segment, seen: Seen, problems: list[Problem]) -> None:
    """The producer snapshot stored with the segment (in a tiered segment's bundle; a broker's segment
    has none of its own): its CRC, and no producer state past the segment's last offset (the plugin
    uploads the state the broker had for this segment)."""
    f = index_or_report(seg, "producerSnapshot", problems)
    if f is None or f.size == 0:
        return
    try:
        snapshot = parse_snapshot(f.read(0, f.size))
    except KafkaFormatError as exc:
        problems.append(index_error(f, exc))
        return
    if seen.last_offset is None or not seen.complete:
        return
    for e in snapshot.producer_entries:
        if e.last_offset > seen.last_offset:
            problems.append(
                f.problem(
                    None,
                    f"producer {e.producer_id}'s last offset {e.last_offset} is past "
                    f"{seg.path.name}'s last offset {seen.last_offset}",
                )
            )


def check_stored_epochs(seg: Segment, seen: Seen, problems: list[Problem]) -> None:
    """The leader-epoch checkpoint stored with the segment (in a tiered segment's bundle; a broker's
    segment has none of its own): it parses, its epochs and start offsets increase, and each v2 batch carries the epoch the checkpoint gives its offset (the first batch that
    does not is reported, with the count)."""
    f = index_or_report(seg, "leaderEpoch", problems)
    if f is None:
        return
    try:
        epochs = files.parse_leader_epoch_checkpoint(f.read(0, f.size).decode("utf-8", "replace"), f.src)
    except KafkaFormatError as exc:
        problems.append(f.problem(exc.position, exc.reason))
        return
    for a, b in zip(epochs, epochs[1:]):
        if b.epoch <= a.epoch or b.start_offset < a.start_offset:
            problems.append(f.problem(None, f"epoch entry {tuple(b)} does not follow {tuple(a)}"))
            return
    if seen.first_offset is not None and seen.last_offset is not None and seen.complete and not seen.corrupt:
        bases = set(seen.bases)
        for e in epochs:
            if seen.first_offset <= e.start_offset <= seen.last_offset and e.start_offset not in bases:
                problems.append(
                    f.problem(
                        None,
                        f"epoch {e.epoch} starts at offset {e.start_offset}, but no batch of "
                        f"{seg.path.name} starts there (a leader's first batch does)",
                    )
                )
    starts = [e.start_offset for e in epochs]
    wrong = []
    for base, epoch in zip(seen.bases, seen.epochs):
        k = bisect.bisect_right(starts, base) - 1
        if epoch >= 0 and k >= 0 and epochs[k].epoch != epoch:
            wrong.append((base, epoch, epochs[k]))
    if wrong:
        base, epoch, entry = wrong[0]
        problems.append(
            f.problem(
                None,
                f"the batch at offset {base} has leader epoch {epoch}, but the checkpoint "
                f"gives epoch {entry.epoch} from offset {entry.start_offset}"
                + (f" ({len(wrong)} batches disagree)" if len(wrong) > 1 else ""),
            )
        )


def check_snapshot_framing(seg: Segment, problems: list[Problem]) -> None:
    """A KRaft snapshot (.checkpoint) opens with a SNAPSHOT_HEADER control record and closes with a
    SNAPSHOT_FOOTER one; without the footer it was not written completely."""
    types: list[int | None] = []
    for batch in seg.iter_batches(verify=False, on_corrupt="skip"):
        control = None
        if batch.is_control:
            try:
                control = batch.control
            except KafkaFormatError:  # reported by the record scan
                pass
        types.append(None if control is None else control.type)
    path = str(seg.path)
    if not types or types[0] != ControlRecordType.SNAPSHOT_HEADER:
        problems.append(
            Problem(
                path, 0, "a KRaft snapshot starts with a SNAPSHOT_HEADER control record; this one does not"
            )
        )
    if not types or types[-1] != ControlRecordType.SNAPSHOT_FOOTER:
        problems.append(
            Problem(
                path,
                None,
                "the KRaft snapshot does not end with a SNAPSHOT_FOOTER control record: "
                "it was not written completely",
            )
        )
