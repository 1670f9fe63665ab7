"""Publishing a partition directory to an object store: never half-visible, never lost to a kill.

An object store has no rename, so a partition cannot appear at once; it appears object by object.
The protocol, for a partition ``<dest>`` = ``<root>/<topic>-<partition>``:

1. the new version's objects are put under new names first, in the staging prefix
   ``<root>/_kafkalog_staging/<job>/`` (readers pass staging prefixes over): the old version is
   untouched and read as before;
2. the switch: the marker object ``<dest>/_kafkalog_publishing`` is put, naming (JSON) the job and
   every object of the new version with its staged key. From here on the new version is complete in
   the store, and the marker says where;
3. the old version's objects the new one does not replace are deleted, and the new ones copied
   server-side from staging to their names under ``<dest>`` (in key order);
4. the marker is deleted, then the staging prefix.

A kill before 2 leaves the old version as it was (and a staging prefix nobody reads; the next
publication of the job's partitions, or anyone, may delete it). A kill between 2 and 4 leaves the
marker: readers (:class:`kafkaspec.logdir.LogDir`) do not read the partition (``LogDir.unpublished``
lists it; ``dump`` and ``verify`` report it, exit 1, naming the marker and where the new version is
complete), and :func:`resume` (or writing the partition again) finishes the publication. At no
moment is neither version readable. Readers that listed the partition before the switch and read
after it fail on the first object that changed (``logdir.storage`` pins what a listing saw).

A listing is consistent because S3 lists keys in order and lists the marker with the partition's
objects: a listing that misses the marker was made before step 2 (the old version, whole) or after
step 4 (the new one, whole).

Deleting a partition (an overwrite that no longer writes it) is the same protocol with no objects:
the marker first, then the deletions, then the marker.
"""

from __future__ import annotations

import errno
import json
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from .fs import StoragePath, read_all
from .storage import RemotePath, StorageError, listdir

#: the marker object a partition directory holds while it is being switched to a new version
PUBLISHING = "_kafkalog_publishing"
#: the prefix (beside the partitions) where new versions are put before the switch; readers skip it
STAGING = "_kafkalog_staging"


@dataclass(frozen=True)
class Marker:
    """What a publishing marker says: the job, and {name: staged key} of the new version (empty: the
    partition is being deleted; None: a marker of an older kafkaspec, which names no objects)."""

    job: str
    objects: dict[str, str] | None

    def encode(self) -> bytes:
        return json.dumps({"job": self.job, "objects": self.objects}, sort_keys=True).encode()

    @classmethod
    def decode(cls, data: bytes) -> Marker:
        try:
            body = json.loads(data)
            if isinstance(body, dict) and isinstance(body.get("objects"), dict):
                objects = {str(k): str(v) for k, v in body["objects"].items()}
                return cls(str(body.get("job", "")), objects)
        except (ValueError, UnicodeDecodeError, RecursionError):
            pass
        return cls(data.decode("utf-8", "replace").strip(), None)


def is_publishing(directory: StoragePath) -> bool:
    """Whether ``directory`` holds the marker of a publication not finished (see the module docstring)."""
    return (directory / PUBLISHING).exists()


def read_marker(directory: StoragePath) -> Marker | None:
    """The marker of ``directory``'s unfinished publication, or None when there is none."""
    marker = directory / PUBLISHING
    if not marker.exists():
        return None
    return Marker.decode(read_all(marker))


def describe(directory: StoragePath) -> str:
    """Why a reader does not read ``directory``: the unfinished publication, and where its new version is."""
    try:
        marker = read_marker(directory)
    except (OSError, ValueError) as exc:
        return f"a writer is publishing this partition, or died before it finished (its marker is unreadable: {exc})"
    if marker is None:
        return "a writer was publishing this partition"
    job = f" (job {marker.job})" if marker.job else ""
    if marker.objects is None:
        return (
            f"a writer{job} is publishing this partition, or died before it finished: it is not read "
            "until written again"
        )
    if not marker.objects:
        return f"a writer{job} is deleting this partition, or died before it finished: it is not read"
    staged = _common_prefix(directory, marker.objects.values())
    return (
        f"a writer{job} is switching this partition to a new version, or died before it finished: it is not "
        f"read; the new version is complete under {staged} (write the partition again, or call "
        "kafkaspec.logdir.store.publish.resume on it, to finish)"
    )


def _common_prefix(directory: StoragePath, keys: object) -> str:
    parts = [k.split("/") for k in keys]  # type: ignore[attr-defined]
    common: list[str] = []
    for column in zip(*parts):
        if len(set(column)) != 1:
            break
        common.append(column[0])
    if parts and len(common) == len(parts[0]):  # one object: its folder
        common = common[:-1]
    key = "/".join(common)
    return str(RemotePath(directory.store, key)) if isinstance(directory, RemotePath) else key


def staging_for(dest: RemotePath, job: str) -> RemotePath:
    """The staging prefix of ``job`` beside the partition ``dest``: ``<root>/_kafkalog_staging/<job>``."""
    return dest.parent / STAGING / job


def publish(dest: RemotePath, staged: dict[str, RemotePath], job: str = "") -> int:
    """Make ``dest`` hold exactly ``staged`` ({name: object already complete in the same store, not under
    ``dest``}), by the protocol above (steps 2 to 4); return the count. The staged objects stay (the
    caller deletes its staging prefix). An earlier publication the marker shows unfinished is replaced,
    and its staged objects deleted once this one is done."""
    before = read_marker(dest)
    marker = dest / PUBLISHING
    marker.write_bytes(Marker(job, {name: obj.key for name, obj in staged.items()}).encode())  # the switch
    _finish(dest, staged)
    if before is not None and before.objects and before.job != job:
        _drop_staged(dest, before.objects.values())  # the dead writer's staged version, replaced by this one
    return len(staged)


def _finish(dest: RemotePath, staged: dict[str, RemotePath]) -> None:
    """Steps 3 and 4 (but the staging): old objects out, new ones in, the marker last."""
    store = dest.store
    store.forget(dest.key)
    for old in listdir(dest):
        if old.name == PUBLISHING or old.name in staged:
            continue
        if old.is_dir():
            store.delete_prefix(old.key)
        else:
            store.delete(old.key)
    for name in sorted(staged):
        store.copy(staged[name].key, (dest / name).key)
    store.delete((dest / PUBLISHING).key)


def resume(dest: RemotePath) -> int:
    """Finish the publication ``dest``'s marker shows unfinished (a writer killed after the switch);
    return the objects now in place. A :class:`StorageError` when there is nothing to resume or a staged
    object is missing (then nothing is changed)."""
    marker = read_marker(dest)
    if marker is None:
        raise StorageError(2, "no publication to resume here (no publishing marker)", str(dest))
    if marker.objects is None:
        raise StorageError(
            2,
            "the publishing marker names no objects (an older writer's): write the partition again",
            str(dest),
        )
    staged = {name: RemotePath(dest.store, key) for name, key in marker.objects.items()}
    for obj in staged.values():
        if not obj.is_file():
            raise StorageError(2, f"the staged object {obj} is missing: write the partition again", str(dest))
    _finish(dest, staged)
    _drop_staged(dest, marker.objects.values())
    return len(staged)


def _drop_staged(dest: RemotePath, keys: Iterable[str]) -> None:
    """Delete the staged objects ``keys`` of one partition, then the folders they leave empty, up to
    and including the staging prefix (other partitions' staged objects of the same job stay)."""
    store = dest.store
    top = (dest.parent / STAGING).key
    folders = set()
    for key in keys:
        store.delete(key)
        folder = key.rpartition("/")[0]
        while folder.startswith(top + "/") or folder == top:
            folders.add(folder)
            folder = folder.rpartition("/")[0]
    for folder in sorted(folders, key=len, reverse=True):  # deepest first
        store.forget(folder)
        try:
            if not store.list(folder):
                store.delete_prefix(folder)
        except StorageError:  # gone already
            continue


def unpublish(dest: RemotePath, job: str = "") -> None:
    """Delete the partition ``dest`` behind the marker: readers pass over it from the first deletion on."""
    (dest / PUBLISHING).write_bytes(Marker(job, {}).encode())
    _finish(dest, {})
    dest.store.forget(dest.key)
    dest.store.delete_prefix(dest.key)


def stage_partition(local: Path, dest: RemotePath, job: str) -> dict[str, RemotePath]:
    """Put the files of a finished local partition directory under ``job``'s staging prefix (step 1);
    return {name: staged object} for :func:`publish`."""
    staging = staging_for(dest, job) / dest.name
    staged = {}
    for f in sorted(local.iterdir()):
        if f.is_file():
            target = staging / f.name
            target.write_bytes(f.read_bytes())
            staged[f.name] = target
    return staged


def drop_staging(root: RemotePath, job: str) -> None:
    """Delete ``job``'s staging prefix under ``root``, and the staging prefix itself once no job uses it."""
    staging = root / STAGING
    store = root.store
    store.delete_prefix((staging / job).key)
    store.forget(staging.key)
    try:
        left = store.list(staging.key)
    except StorageError as exc:  # GCS and Azure: a prefix with no object left under it is not there at all
        if exc.errno != errno.ENOENT:
            raise
        return
    if not left:
        store.delete_prefix(staging.key)


def publish_partition(
    local: Path, dest: RemotePath, job: str = "", staged_hook: Callable[[], None] | None = None
) -> int:
    """Upload a finished local partition directory to ``dest`` (replacing what was there) by the whole
    protocol; return the objects written. ``staged_hook`` runs once the objects are in the store under
    their staging names, before the switch (a writer deletes its local copy there: from then on the
    store holds a complete one)."""
    job = job or uuid.uuid4().hex
    try:
        staged = stage_partition(local, dest, job)
        if staged_hook is not None:
            staged_hook()
        count = publish(dest, staged, job)
    except BaseException:
        if read_marker_or_none(dest, job) is None:  # not switched: the staged copy is nobody's
            try:
                drop_staging(dest.parent, job)
            except OSError:
                pass  # the store is failing: the first error is the one to report
        raise
    drop_staging(dest.parent, job)
    return count


def read_marker_or_none(dest: RemotePath, job: str) -> Marker | None:
    """``dest``'s marker when it is ``job``'s (a switch made), else None; None too when it cannot be read."""
    try:
        dest.store.forget(dest.key)
        marker = read_marker(dest)
    except (OSError, ValueError):
        return None
    return marker if marker is not None and marker.job == job else None


__all__ = [
    "PUBLISHING",
    "STAGING",
    "Marker",
    "describe",
    "drop_staging",
    "is_publishing",
    "publish",
    "publish_partition",
    "read_marker",
    "resume",
    "stage_partition",
    "staging_for",
    "unpublish",
]
