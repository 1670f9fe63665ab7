"""Kafka's own payloads in the ``kafkalog`` source: ``option("decode", "auto")`` adds ``decodedType``
and ``decoded`` (JSON) to the record columns, and ``option("view", "offsets")`` turns
``__consumer_offsets`` into one row per offset commit, so "committed offsets per group over time" is
one query. Both decode through :mod:`kafkaspec.payloads`; a payload that does not decode fails the
task naming segment and offset, or with ``corruptionPolicy=skip`` is kept with
``decoded = {"decode_error": ...}`` (decode) or left out and logged (offsets view).
"""

from __future__ import annotations

import datetime
import logging
import struct
from collections.abc import Iterator
from typing import Any

import pyarrow as pa

from kafkaspec.errors import KafkaFormatError
from kafkaspec.payloads.decode import FAMILY_OF_TOPIC, Decoded, decode_as, decode_control
from kafkaspec.printable import json_text

from ..arrow.ranges import RangeTask
from ..logdir.kafka import files
from ..render import decoded_fields
from .schema import DECODE_COLUMNS, OFFSETS_COLUMNS, RECORD_COLUMNS, arrow_schema

log = logging.getLogger(__name__)
#: the JSON of the decoded column, as `dump --decode --json` writes it: valid (NaN and infinities as strings)
_dumps = json_text


def _family(task: RangeTask) -> str | None:
    return "metadata" if files.is_metadata_checkpoint(task.path) else FAMILY_OF_TOPIC.get(task.topic)


def _decode(family: str | None, key: bytes | None, value: bytes | None, control: bool) -> Decoded | None:
    if control:
        if key is None or len(key) < 4:
            raise KafkaFormatError("control record key must hold version and type (4 bytes)")
        kind = struct.unpack_from(">h", key, 2)[0]
        return decode_control(kind, value) if kind > 1 else None  # 0/1: abort/commit markers
    return None if family is None else decode_as(family, key, value)  # type: ignore[arg-type]


def _failed(task: RangeTask, offset: int, exc: KafkaFormatError) -> KafkaFormatError:
    return KafkaFormatError(f"{task.path} offset {offset}: {exc.reason}")


def with_decoded(
    batches: Iterator[pa.RecordBatch], task: RangeTask, skip_corrupt: bool
) -> Iterator[pa.RecordBatch]:
    """The record batches with ``decodedType`` and ``decoded`` appended (nulls on ordinary topics)."""
    family = _family(task)
    schema = arrow_schema(RECORD_COLUMNS + DECODE_COLUMNS)
    for batch in batches:
        n = batch.num_rows
        types: list[str | None] = [None] * n
        texts: list[str | None] = [None] * n
        control = batch.column("isControl").to_pylist()
        if family is not None or any(control):
            keys, values = batch.column("key").to_pylist(), batch.column("value").to_pylist()
            offsets = batch.column("offset").to_pylist()
            for i in range(n):
                try:
                    d = _decode(family, keys[i], values[i], control[i])
                except KafkaFormatError as exc:
                    if not skip_corrupt:
                        raise _failed(task, offsets[i], exc) from None
                    log.warning("kafkalog: %s", _failed(task, offsets[i], exc))
                    texts[i] = _dumps({"decode_error": str(exc)})
                    continue
                if d is not None:
                    types[i], texts[i] = d.type, _dumps(decoded_fields(d))
        yield pa.RecordBatch.from_arrays(
            [*batch.columns, pa.array(types, pa.string()), pa.array(texts, pa.string())], schema=schema
        )


def read_offsets(
    batches: Iterator[pa.RecordBatch], task: RangeTask, skip_corrupt: bool
) -> Iterator[pa.RecordBatch]:
    """One row per OffsetCommit record (or tombstone) of a ``__consumer_offsets`` range."""
    schema = arrow_schema(OFFSETS_COLUMNS)
    for batch in batches:
        rows: list[dict[str, Any]] = []
        cols = batch.select(["key", "value", "offset", "timestamp", "isControl"]).to_pydict()
        for key, value, offset, ts, control in zip(
            cols["key"], cols["value"], cols["offset"], cols["timestamp"], cols["isControl"]
        ):
            if control:
                continue
            try:
                d = decode_as("offsets", key, value)
            except KafkaFormatError as exc:
                if not skip_corrupt:
                    raise _failed(task, offset, exc) from None
                log.warning("kafkalog: %s", _failed(task, offset, exc))
                continue
            if d.type != "OffsetCommit" or d.key is None:
                continue
            v = d.value or {}
            expire = v.get("expire_timestamp", -1)
            rows.append(
                {
                    "group": d.key["group"],
                    "topic": d.key["topic"],
                    "partition": d.key["partition"],
                    "committedOffset": v.get("offset"),
                    "leaderEpoch": v.get("leader_epoch"),
                    "metadata": v.get("metadata"),
                    "commitTimestamp": _ts(v.get("commit_timestamp")),
                    "expireTimestamp": _ts(expire if expire != -1 else None),
                    "tombstone": d.tombstone,
                    "offsetsPartition": task.partition,
                    "offset": offset,
                    "timestamp": ts,
                }
            )
        if rows:
            yield pa.RecordBatch.from_pylist(rows, schema=schema)


_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)


def _ts(ms: int | None) -> datetime.datetime | None:
    """Milliseconds since the epoch as a UTC datetime (exact: no float on the way)."""
    if ms is None:
        return None
    try:
        return _EPOCH + datetime.timedelta(milliseconds=ms)
    except OverflowError:
        raise KafkaFormatError(f"timestamp {ms} ms is beyond what a Spark timestamp holds") from None
