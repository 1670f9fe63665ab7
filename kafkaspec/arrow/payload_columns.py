"""Kafka's own payloads as Arrow columns: ``decodedType`` and ``decoded`` (JSON, as
``dump --decode --json`` writes it) beside the record columns, and ``__consumer_offsets`` as one row
per offset commit (:data:`OFFSETS_SCHEMA`), so "committed offsets per group over time" is one query.

Both decode through :mod:`kafkaspec.payloads`. A payload that does not decode raises a
:class:`KafkaFormatError` naming the file and the offset, or with ``skip_corrupt`` is kept with
``decoded = {"decode_error": ...}`` (payload columns) or left out (offset rows), and logged.
The family of a range's payloads (``offsets``, ``metadata``, ...; None for an ordinary topic) is the
caller's to say: it knows the topic and the file.
"""

from __future__ import annotations

import datetime
import logging
import struct
from collections.abc import Iterator
from typing import Any

import pyarrow as pa

from ..errors import KafkaFormatError
from ..payloads.decode import Decoded, decode_as, decode_control
from ..printable import json_text
from ..render import decoded_fields

__all__ = ["OFFSETS_SCHEMA", "PAYLOAD_FIELDS", "PayloadArrays", "offset_rows"]

log = logging.getLogger(__name__)
#: the JSON of the decoded column, as `dump --decode --json` writes it: valid (NaN and infinities as strings)
_dumps = json_text

_TIMESTAMP = pa.timestamp("us", tz="UTC")

#: the payload columns, after the record columns
PAYLOAD_FIELDS = (
    pa.field(
        "decodedType", pa.string()
    ),  # OffsetCommit, TopicRecord, LeaderChangeMessage, ...; null elsewhere
    pa.field(
        "decoded", pa.string()
    ),  # JSON {"type", "version", "key", "value"} (tombstones: value null, "deletion": true)
)

#: one row per offset commit (or its tombstone) in __consumer_offsets
OFFSETS_SCHEMA = pa.schema(
    [
        pa.field("group", pa.string()),
        pa.field("topic", pa.string()),
        pa.field("partition", pa.int32()),
        pa.field("committedOffset", pa.int64()),
        pa.field("leaderEpoch", pa.int32()),
        pa.field("metadata", pa.string()),
        pa.field("commitTimestamp", _TIMESTAMP),
        pa.field("expireTimestamp", _TIMESTAMP),  # null unless the commit set one (value version 1)
        pa.field("tombstone", pa.bool_()),  # the commit was deleted (the group expired it or was deleted)
        pa.field("offsetsPartition", pa.int32()),
        pa.field("offset", pa.int64()),  # the record's offset in __consumer_offsets
        pa.field("timestamp", _TIMESTAMP),  # the record's timestamp
    ]
)


def _decode(family: str | None, key: bytes | None, value: bytes | None, control: bool) -> Decoded | None:
    if control:
        if key is None or len(key) < 4:
            raise KafkaFormatError("control record key must hold version and type (4 bytes)")
        kind = struct.unpack_from(">h", key, 2)[0]
        return decode_control(kind, value) if kind > 1 else None  # 0/1: abort/commit markers
    return None if family is None else decode_as(family, key, value)  # type: ignore[arg-type]


def _failed(path: str, offset: int, exc: KafkaFormatError) -> KafkaFormatError:
    return KafkaFormatError(f"{path} offset {offset}: {exc.reason}")


class PayloadArrays:
    """``decodedType`` and ``decoded`` of a batch of records of the file ``path``, whose payloads are of
    ``family`` (nulls on an ordinary topic's records, control records aside)."""

    def __init__(self, family: str | None, path: str, skip_corrupt: bool) -> None:
        self.family, self.path, self.skip_corrupt = family, path, skip_corrupt

    def fields(self) -> list[pa.Field]:
        return list(PAYLOAD_FIELDS)

    def __call__(self, rb: pa.RecordBatch) -> list[pa.Array]:
        family = self.family
        n = rb.num_rows
        types: list[str | None] = [None] * n
        texts: list[str | None] = [None] * n
        control = rb.column("isControl").to_pylist()
        if family is not None or any(control):
            keys, values = rb.column("key").to_pylist(), rb.column("value").to_pylist()
            offsets = rb.column("offset").to_pylist()
            for i in range(n):
                try:
                    d = _decode(family, keys[i], values[i], control[i])
                except KafkaFormatError as exc:
                    if not self.skip_corrupt:
                        raise _failed(self.path, offsets[i], exc) from None
                    log.warning("kafkalog: %s", _failed(self.path, offsets[i], exc))
                    texts[i] = _dumps({"decode_error": str(exc)})
                    continue
                if d is not None:
                    types[i], texts[i] = d.type, _dumps(decoded_fields(d))
        return [pa.array(types, pa.string()), pa.array(texts, pa.string())]


def offset_rows(
    batches: Iterator[pa.RecordBatch], path: str, partition: int, skip_corrupt: bool
) -> Iterator[pa.RecordBatch]:
    """One row per OffsetCommit record (or tombstone) of records of ``__consumer_offsets``'s
    ``partition`` read from the file ``path``."""
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
                    raise _failed(path, offset, exc) from None
                log.warning("kafkalog: %s", _failed(path, offset, exc))
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
                    "offsetsPartition": partition,
                    "offset": offset,
                    "timestamp": ts,
                }
            )
        if rows:
            yield pa.RecordBatch.from_pylist(rows, schema=OFFSETS_SCHEMA)


_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)


def _ts(ms: int | None) -> datetime.datetime | None:
    """Milliseconds since the epoch as a UTC datetime (exact: no float on the way)."""
    if ms is None:
        return None
    try:
        return _EPOCH + datetime.timedelta(milliseconds=ms)
    except OverflowError:
        raise KafkaFormatError(f"timestamp {ms} ms is beyond what a Spark timestamp holds") from None
