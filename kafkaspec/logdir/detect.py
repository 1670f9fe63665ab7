"""Which layout a path holds, and the one public way to open it: :func:`open_log`.

Three layouts of segments are read: Kafka's own (a data dir, ``<topic>-<partition>`` dirs, or one
``.log`` file: :mod:`.kafka.layout`), Aiven's tiered-storage plugin's (``<topic>-<topic id>/<partition>/``
with segment manifests: :mod:`.tiered.partition`) and Kafka's ``LocalTieredStorage`` (folders
``<topic>-<partition>-<topic id>`` of segments with their own leader-epoch files: :mod:`.local_tiered`).
:func:`detect_layout` tells them apart by their names (and, for a prefix holding only
``__remote_log_metadata``, by looking for manifests); :func:`open_log` opens the layout detected or
given, or (``tiered=``) a local log plus its tiered copy as one history (:mod:`.tiered.history`). One job:
choosing the reader; each reader knows only its own layout.
"""

from __future__ import annotations

from pathlib import Path

from .kafka import layout as layout_module
from .kafka.layout import LogDir
from .store.fs import StoragePath, not_found, storage_path
from .store.storage import RemotePath, StorageOptions
from .tiered import local_storage as local_tiered
from .tiered.encryption import PrivateKeys
from .tiered.history import open_history
from .tiered.manifest import _SEGMENT, _TOPIC_DIR
from .tiered.partition import TieredPartition, open_tiered
from .tiered.remote_log_topic import TOPIC, RemoteLogMetadata
from .tiered.segment import TieredSegment

LAYOUTS = ("kafka", "tiered", "local-tiered")


def detect_layout(root: StoragePath) -> str:
    """``"local-tiered"`` when ``root`` holds ``<topic>-<partition>-<topic id>`` folders of segments (or is
    one such segment), ``"tiered"`` when it is one tiered segment (``<offset>-<segment id>.log``), else
    ``"kafka"``: a prefix holding only tiered storage's manifests opens as Kafka's layout first and is
    told apart by :func:`open_layout` (Kafka's layout finds no partitions there but
    ``__remote_log_metadata``'s)."""
    if local_tiered.is_local_tiered(root):
        return "local-tiered"
    if _one_tiered_segment(root):
        return "tiered"
    return "kafka"


def _one_tiered_segment(root: StoragePath) -> bool:
    m = _SEGMENT.match(root.name)
    return bool(m and m["suffix"] == ".log")


def open_layout(
    path: str | StoragePath,
    *,
    layout: str | None = None,
    storage: StorageOptions | None = None,
    remote_log_metadata: str | Path | RemotePath | RemoteLogMetadata | None = None,
    keys: PrivateKeys | None = None,
) -> LogDir:
    """Open a log directory in Kafka's own layout or the tiered-storage one (``layout="kafka"`` or
    ``"tiered"``, or ``"local-tiered"``: Kafka's ``LocalTieredStorage``, :mod:`.local_tiered`; None: that
    one if it holds ``<topic>-<partition>-<topic id>`` folders of segments, else Kafka's if it holds
    partitions, else tiered storage's if it holds manifests). ``remote_log_metadata``: see
    :func:`~.tiered.partition.open_tiered` (tiered storage's layouts: the plugin's and ``LocalTieredStorage``). ``keys``: the private keys of
    encrypted segments, by key pair id (None: the environment's)."""
    if layout not in (None, *LAYOUTS):
        raise ValueError(f"layout must be 'kafka', 'tiered', 'local-tiered' or None (detect), got {layout!r}")
    root = storage_path(path, storage)
    chosen = layout or detect_layout(root)
    if chosen == "local-tiered":
        if layout == "local-tiered" and not root.exists():
            raise not_found(root)
        return local_tiered.open_local_tiered(root, remote_log_metadata=remote_log_metadata)
    if chosen == "tiered" and _one_tiered_segment(root):
        topic = _TOPIC_DIR.match(root.parent.parent.name)
        part = TieredPartition(
            root.parent,
            topic["topic"] if topic else root.parent.parent.name,
            int(root.parent.name) if root.parent.name.isdigit() else -1,
            topic["topic_id"] if topic else "",
            keys=keys,
            segments=[TieredSegment(root, keys=keys)],
        )
        return LogDir(root.parent, [part])
    if layout == "tiered":
        if not root.exists():
            raise not_found(root)
        return open_tiered(root, remote_log_metadata=remote_log_metadata, keys=keys)
    log = layout_module.open_kafka_log(root)
    # a prefix may hold the __remote_log_metadata partitions beside its topics: still a prefix
    only_metadata = all(p.topic == TOPIC for p in log.partitions())
    if layout is None and only_metadata and root.is_dir():
        tiered = open_tiered(root, remote_log_metadata=remote_log_metadata, keys=keys)
        if tiered.partitions():
            return tiered
    if remote_log_metadata is not None:
        raise ValueError(
            f"{root}: remote_log_metadata chooses the segments of a tiered-storage prefix, and this is "
            "not one (a log directory in Kafka's layout: with tiered=PREFIX, it goes with the prefix)"
        )
    return log


def open_log(
    path: str | StoragePath,
    *,
    layout: str | None = None,
    storage: StorageOptions | None = None,
    tiered: str | Path | RemotePath | None = None,
    remote_log_metadata: str | Path | RemotePath | RemoteLogMetadata | None = None,
    keys: PrivateKeys | None = None,
) -> LogDir:
    """Open a log directory (:func:`open_layout`: Kafka's layout or tiered storage's); with ``tiered``, a
    local log directory plus its tiered copy at ``tiered``, read as each partition's whole history
    (:func:`~.tiered.history.open_history`). ``remote_log_metadata``: the ``__remote_log_metadata`` partitions
    (a data dir holding them, or one partition dir) that choose a tiered partition's live segments, as a
    broker does (else those found beside the data, else the manifests decide). ``keys``: the private
    keys of encrypted tiered segments, by key pair id (:class:`~.tiered.encryption.PrivateKeys`; None: the
    environment's)."""
    if tiered is None:
        return open_layout(
            path, layout=layout, storage=storage, remote_log_metadata=remote_log_metadata, keys=keys
        )
    if layout not in (None, "kafka"):
        raise ValueError(
            f"with tiered=, the local log is in Kafka's layout: layout must be 'kafka' or None, "
            f"got {layout!r}"
        )
    return open_history(path, tiered, storage=storage, remote_log_metadata=remote_log_metadata, keys=keys)


__all__ = ["LAYOUTS", "detect_layout", "open_layout", "open_log"]
