"""Building batches: :func:`build_batch` and :func:`build_control_batch`."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from kafkaspec.generated import control_record_key_v0 as ctl_key
from kafkaspec.generated import end_transaction_marker_v0 as end_txn
from kafkaspec.generated import record_batch_v2 as v2
from kafkaspec.generated.enums import ControlRecordType
from kafkaspec.generated.record_v2 import Record

from .compression import codec_id
from .message_set import build_legacy

_TIMESTAMP_TYPES = {"create": 0, "log_append": 1, 0: 0, 1: 1}


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


#: the arguments only RecordBatch v2 can carry, with the values that mean "not set"
_V2_ONLY_NONE_VALUES = {
    "producer_id": -1,
    "producer_epoch": -1,
    "base_sequence": -1,
    "is_transactional": False,
    "partition_leader_epoch": -1,
    "is_control": False,
    "last_offset_delta": None,
}


def _refuse_v2_only(magic: int, **arguments: object) -> None:
    """Raise ValueError for the first v2-only argument set to a value Message v0/v1 cannot store."""
    for name, value in arguments.items():
        if value != _V2_ONLY_NONE_VALUES[name]:
            raise ValueError(f"{name}={value!r} needs magic 2 (Message v{magic} has no such field)")


def build_batch(
    records: Sequence[Record],
    *,
    magic: int = 2,
    compression: str | int = "none",
    base_offset: int = 0,
    producer_id: int = -1,
    producer_epoch: int = -1,
    base_sequence: int = -1,
    is_transactional: bool = False,
    timestamp_type: str = "create",
    partition_leader_epoch: int = -1,
    is_control: bool = False,
    log_append_time: int | None = None,
    last_offset_delta: int | None = None,
    snappy_framing: str = "xerial",
    compression_level: int | None = None,
) -> bytes:
    """Encode ``records`` as one batch.

    Records without an offset get ``base_offset + index``; records without a
    timestamp get the batch base timestamp (the first record's, or now).
    Under LogAppendTime, ``log_append_time`` (default now) becomes max_timestamp.

    For ``magic`` 0 and 1 the producer fields, ``is_transactional``,
    ``partition_leader_epoch``, ``is_control`` and ``last_offset_delta`` must
    keep their defaults (the formats cannot store them: ValueError otherwise),
    and magic 0 cannot hold LogAppendTime.
    """
    if magic != 2:
        _refuse_v2_only(magic, producer_id=producer_id, producer_epoch=producer_epoch, base_sequence=base_sequence,
                        is_transactional=is_transactional, partition_leader_epoch=partition_leader_epoch,
                        is_control=is_control, last_offset_delta=last_offset_delta)
        if magic == 0 and _TIMESTAMP_TYPES.get(timestamp_type) == 1:
            raise ValueError(f"timestamp_type={timestamp_type!r} needs magic 1 or 2 (Message v0 has no timestamp)")
        return build_legacy(records, magic=magic, compression=compression, base_offset=base_offset,
                            timestamp_type=timestamp_type, log_append_time=log_append_time,
                            snappy_framing=snappy_framing, compression_level=compression_level)
    codec = codec_id(compression)
    ts_type = _TIMESTAMP_TYPES[timestamp_type]
    attributes = codec | (ts_type << 3) | (16 if is_transactional else 0) | (32 if is_control else 0)
    if records:
        timestamps = [r.timestamp for r in records]
        base_timestamp = timestamps[0]
        if base_timestamp is None:
            base_timestamp = _now_ms()
        max_timestamp = max(base_timestamp if t is None else t for t in timestamps)
        last = records[-1].offset
        if last_offset_delta is None:
            last_offset_delta = len(records) - 1 if last is None else last - base_offset
    else:
        base_timestamp = max_timestamp = -1
        if last_offset_delta is None:
            last_offset_delta = 0
    if ts_type == 1:
        max_timestamp = _now_ms() if log_append_time is None else log_append_time
    options: dict[str, Any] = {}
    if codec == 2:
        options["snappy_framing"] = snappy_framing
    if compression_level is not None:
        options["level"] = compression_level
    return v2.encode_record_batch(
        base_offset=base_offset,
        partition_leader_epoch=partition_leader_epoch,
        attributes=attributes,
        last_offset_delta=last_offset_delta,
        base_timestamp=base_timestamp,
        max_timestamp=max_timestamp,
        producer_id=producer_id,
        producer_epoch=producer_epoch,
        base_sequence=base_sequence,
        records=records,
        compress_options=options or None,
    )


def build_control_batch(
    control_type: str | int = "commit",
    *,
    producer_id: int,
    producer_epoch: int,
    base_offset: int = 0,
    coordinator_epoch: int = 0,
    timestamp: int | None = None,
    value: bytes | None = None,
    partition_leader_epoch: int = -1,
) -> bytes:
    """Encode a control batch holding one control record (an abort/commit marker by default).

    For abort and commit, the value is the end-transaction marker built from
    ``coordinator_epoch``; for the KRaft types pass the encoded ``value``.
    """
    if isinstance(control_type, str):
        ctype = ControlRecordType[control_type.upper()]
    else:
        ctype = ControlRecordType(control_type)
    key = ctl_key.encode_control_record_key(ctl_key.ControlRecordKey(version=0, type=int(ctype)))
    if value is None and ctype in (ControlRecordType.ABORT, ControlRecordType.COMMIT):
        value = end_txn.encode_end_transaction_marker(
            end_txn.EndTransactionMarker(version=0, coordinator_epoch=coordinator_epoch)
        )
    ts = _now_ms() if timestamp is None else timestamp
    transactional = ctype in (ControlRecordType.ABORT, ControlRecordType.COMMIT)
    return build_batch(
        [Record(key=key, value=value, timestamp=ts)],
        base_offset=base_offset,
        producer_id=producer_id,
        producer_epoch=producer_epoch,
        is_transactional=transactional,
        is_control=True,
        partition_leader_epoch=partition_leader_epoch,
    )
