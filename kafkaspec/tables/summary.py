"""What the tables of a destination hold, per topic: rows, partitions and the offsets they span, read
back by Polars (``scan_iceberg``, ``scan_delta``) as any reader of the tables would, not from our own
commit metadata. ``kafkaspec table summary`` prints it; ``make demo`` ends with it."""

from __future__ import annotations

import os
from dataclasses import dataclass

from ..codec.extras import missing

try:
    import polars as pl
except ModuleNotFoundError as exc:
    raise missing(exc, "tables", "kafkaspec table summary") from None

from .housekeeping import _tables
from .write import open_sink


@dataclass(frozen=True)
class TopicSummary:
    """One topic of one table."""

    table: str
    topic: str
    rows: int
    partitions: int
    first_offset: int
    last_offset: int


def summarize(format: str, dest: str, *, catalog_uri: str | None = None) -> list[TopicSummary]:
    """Per table and topic: its rows, partitions and the lowest and highest offset, by one Polars query
    over each table."""
    sink = open_sink(format, dest, catalog_uri=catalog_uri)
    # Polars plans an Iceberg scan with pyiceberg unless told of its plugin, warning each time it is not
    # installed
    os.environ.setdefault("POLARS_ICEBERG_PLANNER", "pyiceberg")
    out = []
    for name in _tables(sink):
        if format == "iceberg":
            frame = pl.scan_iceberg(sink.catalog.load_table(sink._identifier(name)))
        else:
            frame = pl.scan_delta(sink.dest.rstrip("/") + "/" + name, storage_options=sink.storage_options)
        per_topic = (
            frame.group_by("topic")
            .agg(
                pl.len().alias("rows"),
                pl.col("partition").n_unique().alias("partitions"),
                pl.col("offset").min().alias("first"),
                pl.col("offset").max().alias("last"),
            )
            .sort("topic")
            .collect()
        )
        for t in per_topic.iter_rows(named=True):
            out.append(TopicSummary(name, t["topic"], t["rows"], t["partitions"], t["first"], t["last"]))
    return out


def format_summary(rows: list[TopicSummary]) -> str:
    """One line per table and topic; the names as they are read (another writer's topic column, a folder
    or catalog entry of any name) escaped for the terminal (:func:`kafkaspec.printable.escape`)."""
    from ..printable import escape

    lines = []
    for s in rows:
        where = escape(str(s.topic) if s.topic == s.table else f"{s.table}/{s.topic}")
        lines.append(
            f"{where}: {s.rows:,} rows in {s.partitions} partition{'s' if s.partitions != 1 else ''}, "
            f"offsets {s.first_offset:,}..{s.last_offset:,}"
        )
    return "\n".join(lines)
