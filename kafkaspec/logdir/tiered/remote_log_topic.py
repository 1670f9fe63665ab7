"""Reading ``__remote_log_metadata`` from a log directory, for choosing a tiered partition's live segments.

``__remote_log_metadata`` is a topic like any other: its partitions (``__remote_log_metadata-N``) sit
in a broker's data dir, or wherever they were copied. :func:`read_remote_log_metadata` reads them
(a data dir holding some, or one partition dir) and replays them
(:class:`~kafkaspec.payloads.remote_log_state.RemoteLogState`) in each partition's order; a record
that does not decode is an error naming its segment and offset, since choosing segments from a
metadata topic with a hole in it would be a guess. :func:`found_beside` says whether a directory
holds such partitions (the data dir of ``open_log(local, tiered=...)``, or a tiered prefix the topic
was copied into).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import KafkaFormatError
from ...payloads.remote_log_state import RemoteLogState
from ..kafka import layout as layout_module
from ..store.fs import StoragePath, storage_path
from ..store.storage import StorageOptions, listdir

TOPIC = "__remote_log_metadata"


@dataclass
class RemoteLogMetadata:
    """The replayed topic and where it was read from (``source``, for saying which source decided)."""

    state: RemoteLogState
    source: str


def read_remote_log_metadata(
    path: str | StoragePath, *, storage: StorageOptions | None = None
) -> RemoteLogMetadata:
    """Replay the ``__remote_log_metadata`` partitions at ``path`` (a data dir or one partition dir)."""
    from ...payloads import decode_as

    root = storage_path(path, storage)
    parts = [p for p in layout_module.open_kafka_log(root).partitions() if p.topic == TOPIC]
    if not parts:
        raise KafkaFormatError(f"no {TOPIC} partition here", None, str(root))
    state = RemoteLogState()
    for part in sorted(parts, key=lambda p: p.partition):
        for seg in part.segments():
            try:
                for batch in seg.iter_batches():
                    if batch.is_control:
                        continue
                    for r in batch:
                        try:
                            state.apply(decode_as("remote_log", r.key, r.value), r.offset)
                        except KafkaFormatError as exc:
                            raise KafkaFormatError(
                                f"offset {r.offset}: {exc.reason}", None, str(seg.path)
                            ) from None
            finally:
                seg.close()
    return RemoteLogMetadata(state, str(root))


def found_beside(path: StoragePath) -> bool:
    """Whether the directory ``path`` holds ``__remote_log_metadata-N`` partition directories."""
    try:
        return path.is_dir() and any(
            p.name.startswith(TOPIC + "-") and p.name[len(TOPIC) + 1 :].isdigit() for p in listdir(path)
        )
    except OSError:
        return False


def remote_log(
    given: str | StoragePath | RemoteLogMetadata | None,
    beside: StoragePath | None,
    storage: StorageOptions | None = None,
) -> RemoteLogMetadata | None:
    """``__remote_log_metadata`` replayed from ``given``, else from ``beside`` when it holds the topic's
    partitions, else None (the manifests decide)."""
    if isinstance(given, RemoteLogMetadata):
        return given
    if given is not None:
        return read_remote_log_metadata(given, storage=storage)
    if beside is not None and found_beside(beside):
        return read_remote_log_metadata(beside, storage=storage)
    return None


__all__ = ["TOPIC", "RemoteLogMetadata", "found_beside", "read_remote_log_metadata", "remote_log"]
