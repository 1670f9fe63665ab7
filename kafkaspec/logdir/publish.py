"""Publishing a partition directory to an object store, never half-visible to a reader.

An object store has no rename, so a partition cannot appear at once; it appears object by object.
The protocol that makes that safe:

1. a marker object ``<topic>-<partition>/_kafkalog_publishing`` (holding the writer's job id) is
   put first;
2. whatever the prefix held before is deleted (the marker stays);
3. the partition's objects are put (or copied server-side from a staging prefix) in ascending key
   order;
4. the marker is deleted last.

Readers (:class:`kafkaspec.logdir.LogDir`) pass over a partition directory holding the marker
(``LogDir.unpublished`` lists it, and ``verify`` warns about it): they see the partition complete
or not at all. A listing is consistent because S3 lists keys in order and the objects are put in
that order: a listing that misses the marker was made after step 4, when every object was there.
A writer that dies between 1 and 4 leaves the marker, so the partition stays unread (and
``verify`` names it) rather than half-read; writing it again replaces it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from .storage import AnyPath, RemotePath, listdir

#: the marker object a partition directory holds while it is being published
PUBLISHING = "_kafkalog_publishing"

Put = Callable[[RemotePath], None]


def is_publishing(directory: AnyPath) -> bool:
    """Whether ``directory`` holds the marker of a publication not finished (see the module docstring)."""
    return (directory / PUBLISHING).exists()


def publish(dest: RemotePath, objects: dict[str, Put], job: str = "") -> int:
    """Make ``dest`` hold exactly ``objects`` ({name: put(target)}), by the protocol above; return their count."""
    marker = dest / PUBLISHING
    marker.write_bytes(job.encode())
    store = dest.store
    store.forget(dest.key)
    for old in listdir(dest):
        if old.name != PUBLISHING and isinstance(old, RemotePath):
            if old.is_dir():
                store.delete_prefix(old.key)
            else:
                store.delete(old.key)
    for name in sorted(objects):
        objects[name](dest / name)
    store.delete(marker.key)
    return len(objects)


def unpublish(dest: RemotePath, job: str = "") -> None:
    """Delete the partition ``dest`` behind the marker: readers pass over it from the first deletion on."""
    (dest / PUBLISHING).write_bytes(job.encode())
    dest.store.delete_prefix(dest.key)


def publish_partition(local: Path, dest: RemotePath, job: str = "") -> int:
    """Upload a finished local partition directory to ``dest`` (replacing what was there); return the
    objects written."""
    def upload(f: Path) -> Put:
        def put(target: RemotePath) -> None:
            target.write_bytes(f.read_bytes())
        return put

    return publish(dest, {f.name: upload(f) for f in local.iterdir() if f.is_file()}, job)


__all__ = ["PUBLISHING", "is_publishing", "publish", "publish_partition", "unpublish"]
