"""Kafka's ``LocalTieredStorage`` layout written from a log directory our writer produced (test data for
kafkaspec.logdir.tiered.local_storage): ``<dest>/kafka-tiered-storage/<topic>-<partition>-<topic id>/
<20-digit offset>-<segment id>.{log,index,timeindex,txnindex,leader_epoch_checkpoint,snapshot}``, each
file the broker's own, as ``RemoteLogSegmentFileset.copy`` transfers them."""

from __future__ import annotations

import shutil
from pathlib import Path

from kafkaspec.logdir import open_log
from kafkaspec.logdir.kafka import files
from kafkaspec.logdir.tiered.local_storage import EPOCHS_SUFFIX, ROOT_DIR_NAME
from kafkaspec.logdir.tiered.segment import kafka_uuid

SUFFIXES = (
    files.LOG_SUFFIX,
    files.INDEX_SUFFIX,
    files.TIME_INDEX_SUFFIX,
    files.TXN_INDEX_SUFFIX,
    EPOCHS_SUFFIX,
    files.SNAPSHOT_SUFFIX,
)


def write_local_tiered(source, dest) -> dict[tuple[str, int], Path]:
    """Every segment of the data dir ``source`` under ``dest``; returns each partition's folder. The leader
    epochs uploaded with a segment are those that start before the next segment's base offset, and the
    producer snapshot is the one taken there (RemoteLogManager.copyLogSegment)."""
    root = Path(dest) / ROOT_DIR_NAME
    out = {}
    with open_log(source, layout="kafka") as log:
        for part in log.partitions():
            meta = part.metadata()
            topic_id = meta["topic_id"] if meta else kafka_uuid(part.topic.encode())
            folder = root / f"{part.topic}-{part.partition}-{topic_id}"
            folder.mkdir(parents=True, exist_ok=True)
            epochs = part.leader_epochs() or []
            segs = part.segments()
            for i, seg in enumerate(segs):
                after = segs[i + 1].base_offset if i + 1 < len(segs) else 1 << 62
                stem = f"{seg.base_offset:020d}-{kafka_uuid(f'{topic_id}/{part.partition}/{seg.base_offset}'.encode())}"
                shutil.copyfile(seg.path, folder / f"{stem}{files.LOG_SUFFIX}")
                for src, suffix in (
                    (seg.index_path, files.INDEX_SUFFIX),
                    (seg.time_index_path, files.TIME_INDEX_SUFFIX),
                    (seg.txn_index_path, files.TXN_INDEX_SUFFIX),
                ):
                    if src.exists():
                        shutil.copyfile(src, folder / f"{stem}{suffix}")
                    elif suffix != files.TXN_INDEX_SUFFIX:
                        (folder / f"{stem}{suffix}").write_bytes(b"")
                (folder / f"{stem}{EPOCHS_SUFFIX}").write_text(
                    files.format_leader_epoch_checkpoint([e for e in epochs if e.start_offset < after])
                )
                snapshot = part.path / files.offset_file_name(min(after, 1 << 62), files.SNAPSHOT_SUFFIX)
                (folder / f"{stem}{files.SNAPSHOT_SUFFIX}").write_bytes(
                    snapshot.read_bytes() if snapshot.exists() else b""
                )
            out[(part.topic, part.partition)] = folder
    return out


def copy_fileset(folder: Path, base_offset: int, new_id_seed: str, *, skip: tuple[str, ...] = ()) -> str:
    """A second copy of the fileset starting at ``base_offset`` under another segment id (a re-upload),
    leaving out the file types in ``skip`` (an upload that stopped half-way); returns its stem."""
    stems = sorted(
        p.name[: -len(files.LOG_SUFFIX)] for p in folder.glob(f"{base_offset:020d}-*{files.LOG_SUFFIX}")
    )
    stem = next(
        s
        for s in stems
        if all((folder / f"{s}{x}").exists() for x in SUFFIXES if x != files.TXN_INDEX_SUFFIX)
    )
    new = f"{base_offset:020d}-{kafka_uuid(new_id_seed.encode())}"
    for suffix in SUFFIXES:
        src = folder / f"{stem}{suffix}"
        if src.exists() and suffix not in skip:
            shutil.copyfile(src, folder / f"{new}{suffix}")
    return new
