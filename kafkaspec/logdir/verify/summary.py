"""What a broker data dir's own files say, in one summary (``kafkaspec inspect datadir``).

The node and cluster it belongs to (``meta.properties``), whether its last shutdown was clean
(``.kafka_cleanshutdown``), how many partitions each offset checkpoint covers, a KRaft voter's
election state (``__cluster_metadata-0/quorum-state``) and the bootstrap records a controller was
formatted with (``bootstrap.checkpoint``; from Kafka 4.4 on the zero checkpoint,
``__cluster_metadata-0/00000000000000000000-0000000000.checkpoint``). Each file is read by the same reader as ``verify``; one
that does not read is summarised as its error (and counted in ``errors``), the others still are.
"""

from __future__ import annotations

from typing import Any

from ...errors import KafkaFormatError
from ..kafka import checkpoints, files, node_files
from ..kafka.layout import METADATA_TOPIC, open_kafka_log
from ..kafka.segment import Segment
from ..store.fs import StoragePath


def summarise(root: StoragePath) -> dict[str, Any]:
    """The summary of the data dir ``root`` as a JSON-ready dict; ``errors`` lists what did not read."""
    errors: list[str] = []
    out: dict[str, Any] = {"data_dir": str(root)}

    def read(path: StoragePath, limit: int) -> str | None:
        return (
            files.read_text_file(path, limit, encoding=node_files.encoding_of(path.name))
            if path.exists()
            else None
        )

    try:
        text = read(root / node_files.META_PROPERTIES, node_files.MAX_SIZE)
        meta = (
            None
            if text is None
            else node_files.parse_meta_properties(text, str(root / node_files.META_PROPERTIES))
        )
        out["meta_properties"] = (
            None
            if meta is None
            else {
                "version": meta.version,
                "node_id": meta.node_id,
                "cluster_id": meta.cluster_id,
                "directory_id": meta.directory_id,
            }
        )
    except KafkaFormatError as exc:
        out["meta_properties"] = {"error": str(exc)}
        errors.append(str(exc))
    shutdown = root / node_files.CLEAN_SHUTDOWN
    try:
        text = read(shutdown, node_files.MAX_SIZE)
        out["clean_shutdown"] = {
            "clean": text is not None,
            "broker_epoch": None if text is None else node_files.parse_clean_shutdown(text),
        }
    except KafkaFormatError as exc:
        out["clean_shutdown"] = {"clean": True, "broker_epoch": None, "error": str(exc)}
        errors.append(f"{shutdown}: {exc}")
    counts: dict[str, Any] = {}
    for name in checkpoints.CHECKPOINTS:
        try:
            text = read(root / name, checkpoints.MAX_SIZE)
            counts[name] = (
                None
                if text is None
                else len(checkpoints.parse_offset_checkpoint(text, name, str(root / name)))
            )
        except KafkaFormatError as exc:
            counts[name] = {"error": str(exc)}
            errors.append(str(exc))
    out["offset_checkpoints"] = counts
    quorum = root / f"{METADATA_TOPIC}-0" / node_files.QUORUM_STATE
    try:
        text = read(quorum, node_files.MAX_SIZE)
        out["quorum_state"] = None if text is None else node_files.parse_quorum_state(text, str(quorum))
    except KafkaFormatError as exc:
        out["quorum_state"] = {"error": str(exc)}
        errors.append(str(exc))
    boot = root / files.BOOTSTRAP_CHECKPOINT
    if not boot.exists():  # Kafka 4.4 on (KIP-1170): the bootstrap records are in the zero checkpoint
        boot = root / f"{METADATA_TOPIC}-0" / files.ZERO_CHECKPOINT
    out["bootstrap"] = _bootstrap(
        boot, boot.name if boot.parent == root else f"{METADATA_TOPIC}-0/{boot.name}", errors
    )
    with open_kafka_log(root) as log:
        out["partitions"] = len(log.partitions())
    out["errors"] = errors
    return out


def _bootstrap(path: StoragePath, name: str, errors: list[str]) -> dict[str, Any] | None:
    """The metadata records of ``bootstrap.checkpoint`` (or of the zero checkpoint, which holds them
    from Kafka 4.4 on): their count by type, metadata.version, and ``file``, the ``name`` it was read from."""
    from ...payloads import decode_as

    if not path.exists():
        return None
    types: dict[str, int] = {}
    level = None
    seg = Segment(path)
    try:
        for batch in seg.iter_batches():
            if batch.is_control:
                continue
            for r in batch:
                dec = decode_as("metadata", r.key, r.value)
                types[dec.type] = types.get(dec.type, 0) + 1
                if (
                    dec.type == "FeatureLevelRecord"
                    and dec.value
                    and dec.value.get("name") == "metadata.version"
                ):
                    level = dec.value.get("feature_level")
    except KafkaFormatError as exc:
        errors.append(f"{path}: {exc}")
        return {"file": name, "records": types, "metadata_version_level": level, "error": str(exc)}
    finally:
        seg.close()
    return {"file": name, "records": types, "metadata_version_level": level}
