"""Housekeeping of the tables of a destination: compaction of small data files, expiry of old versions.

Both keep the committed offsets: a Delta compaction is an ``optimize`` commit (the ``txn`` state
carries over), an Iceberg compaction rewrites each table in one overwrite snapshot whose summary
repeats the offsets (pyiceberg has no file-level rewrite: the table is read whole into memory, so it
suits tables of modest size), and the offsets stay in the Iceberg table's properties whatever
snapshots expire.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from ..errors import UsageError
from .errors import TableError
from .layout import OFFSETS_PROPERTY
from .write import MAX_FILE_MB, open_sink


@dataclass
class Housekept:
    """One table after housekeeping: its data files before and after, and the versions expired."""

    name: str
    files_before: int
    files_after: int
    expired: int = 0


#: the longest ``older_than_hours`` (about 114 years): past it a time before the epoch
MAX_HOURS = 1_000_000


def _tables(sink: Any) -> list[str]:
    if sink.format == "iceberg":
        from .iceberg import NAMESPACE

        if not sink.catalog.namespace_exists(NAMESPACE):
            return []
        return sorted(ident[-1] for ident in sink.catalog.list_tables(NAMESPACE))
    if "://" in sink.dest:
        raise TableError("table housekeeping of Delta tables takes a local folder")
    from .delta import refuse_link_out

    names = sorted(
        n for n in os.listdir(sink.dest) if os.path.isdir(os.path.join(sink.dest, n, "_delta_log"))
    )
    for name in names:
        refuse_link_out(sink.dest, name)
    return names


def compact(
    format: str, dest: str, *, catalog_uri: str | None = None, target_file_mb: int = 128
) -> list[Housekept]:
    """Rewrite each table's small data files into files of about ``target_file_mb``."""
    if not 0 < target_file_mb <= MAX_FILE_MB:
        raise UsageError(f"--target-file-mb must be from 1 to {MAX_FILE_MB:,}, got {target_file_mb}")
    sink = open_sink(format, dest, catalog_uri=catalog_uri, target_file_mb=target_file_mb)
    out = []
    for name in _tables(sink):
        if format == "delta":
            from deltalake import DeltaTable

            dt = DeltaTable(os.path.join(sink.dest, name))
            before = len(dt.file_uris())
            dt.optimize.compact(target_size=target_file_mb << 20)
            out.append(Housekept(name, before, len(DeltaTable(os.path.join(sink.dest, name)).file_uris())))
            continue
        table = sink.catalog.load_table(sink._identifier(name))
        before = len(list(table.scan().plan_files()))
        offsets = table.properties.get(OFFSETS_PROPERTY)
        if before > 1 and offsets is not None:
            with table.transaction() as tx:
                tx.overwrite(table.scan().to_arrow(), snapshot_properties={OFFSETS_PROPERTY: offsets})
        out.append(Housekept(name, before, len(list(table.scan().plan_files()))))
    return out


def expire_snapshots(
    format: str, dest: str, *, older_than_hours: float = 168.0, catalog_uri: str | None = None
) -> list[Housekept]:
    """Drop each table's versions older than ``older_than_hours`` (never the current one) and, for
    Delta, the files no remaining version references (Delta counts whole hours: a part of one counts
    as one, so nothing younger than asked goes)."""
    if not 0 <= older_than_hours <= MAX_HOURS:  # NaN too
        raise UsageError(f"--older-than-hours must be from 0 to {MAX_HOURS:,}, got {older_than_hours}")
    sink = open_sink(format, dest, catalog_uri=catalog_uri)
    cutoff = datetime.now(UTC) - timedelta(hours=older_than_hours)
    out = []
    for name in _tables(sink):
        if format == "delta":
            from deltalake import DeltaTable

            dt = DeltaTable(os.path.join(sink.dest, name))
            files = len(dt.file_uris())
            removed = dt.vacuum(
                retention_hours=math.ceil(older_than_hours), enforce_retention_duration=False, dry_run=False
            )
            out.append(Housekept(name, files, files, len(removed)))
            continue
        table = sink.catalog.load_table(sink._identifier(name))
        before = len(table.snapshots())
        table.maintenance.expire_snapshots().older_than(cutoff).commit()
        files = len(list(table.scan().plan_files()))
        out.append(Housekept(name, files, files, before - len(table.snapshots())))
    return out
