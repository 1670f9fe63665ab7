"""Kafka records into lakehouse tables: Apache Iceberg (pyiceberg) and Delta Lake (deltalake), exactly
once, with backfill.

:func:`write_table` reads a log directory (or anything :func:`kafkaspec.logdir.open_log` opens) and
appends to one table per topic (or one for all) what the table does not hold yet: each commit stores
the next offset of every topic-partition it covered in the table's own metadata, and the next run
starts there. Spark-free (``kafkaspec[tables]``); :mod:`kafkaspec.commands.pipeline`'s ``--table``
runs it.
"""

from __future__ import annotations

from .errors import TableError
from .layout import LAYOUTS, SINGLE_TABLE, PartitionField, parse_partition_by
from .write import FORMATS, TableCommit, TableRun, format_run, write_table

__all__ = [
    "FORMATS",
    "LAYOUTS",
    "SINGLE_TABLE",
    "PartitionField",
    "TableCommit",
    "TableError",
    "TableRun",
    "format_run",
    "parse_partition_by",
    "write_table",
]
