"""Kafka's own payloads in the ``kafkalog`` source: ``option("decode", "auto")`` adds ``decodedType``
and ``decoded`` (JSON) to the record columns, and ``option("view", "offsets")`` turns
``__consumer_offsets`` into one row per offset commit, so "committed offsets per group over time" is
one query. The columns are built by :mod:`kafkaspec.arrow.payload_columns`; this module says what a
range task's payloads are. A payload that does not decode fails the task naming segment and offset,
or with ``corruptionPolicy=skip`` is kept with ``decoded = {"decode_error": ...}`` (decode) or left
out and logged (offsets view).
"""

from __future__ import annotations

from collections.abc import Iterator

import pyarrow as pa

from kafkaspec.payloads.decode import FAMILY_OF_TOPIC

from ...arrow.columns import assembled
from ...arrow.payload_columns import PayloadArrays, offset_rows
from ...arrow.ranges import ReadRange
from ...arrow.schema import SCHEMA
from ...logdir.kafka import files


def payload_arrays(task: ReadRange, skip_corrupt: bool) -> PayloadArrays:
    """The payload columns of ``task``'s records: of its topic's family, or of the cluster metadata for a
    metadata checkpoint (control records decode on any topic)."""
    family = "metadata" if files.is_metadata_checkpoint(task.path) else FAMILY_OF_TOPIC.get(task.topic)
    return PayloadArrays(family, task.path, skip_corrupt)


def with_decoded(
    batches: Iterator[pa.RecordBatch], task: ReadRange, skip_corrupt: bool
) -> Iterator[pa.RecordBatch]:
    """The record batches with ``decodedType`` and ``decoded`` added (nulls on ordinary topics)."""
    return assembled(batches, SCHEMA, [payload_arrays(task, skip_corrupt)])


def read_offsets(
    batches: Iterator[pa.RecordBatch], task: ReadRange, skip_corrupt: bool
) -> Iterator[pa.RecordBatch]:
    """One row per OffsetCommit record (or tombstone) of a ``__consumer_offsets`` range."""
    return offset_rows(batches, task.path, task.partition, skip_corrupt)
