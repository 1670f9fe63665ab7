"""Text and JSON lines for batches and records, in the shape of Kafka's DumpLogSegments.

Used by ``kafkaspec dump``; kept apart from the command so that benchmarks and
other tools can format the same way.
"""

from __future__ import annotations

import base64
import json
from typing import Any

from kafkaspec.generated.enums import ControlRecordType
from kafkaspec.generated.record_v2 import Record

from ..entry import LogBatch
from ..payloads.decode import Decoded, jsonable
from .segment import batch_max_timestamp

_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
_TS_NAME = {"create": "CreateTime", "log_append": "LogAppendTime", None: "NoTimestampType"}


def _b(value: object) -> str:
    return "true" if value else "false"


def batch_fields(batch: LogBatch, source: str | None = None) -> dict[str, Any]:
    """The batch's header fields as a dict (magic 0/1 entries get -1/None where v2 fields do not exist)."""
    magic = batch.magic
    count = len(batch)
    base_seq = batch.base_sequence
    d = {
        "type": "batch",
        "base_offset": batch.base_offset,
        "last_offset": batch.last_offset,
        "count": count,
        "base_sequence": base_seq,
        "last_sequence": base_seq + batch.last_offset_delta if base_seq >= 0 else -1,
        "producer_id": batch.producer_id,
        "producer_epoch": batch.producer_epoch,
        "partition_leader_epoch": batch.partition_leader_epoch,
        "is_transactional": batch.is_transactional,
        "is_control": batch.is_control,
        "delete_horizon_ms": batch.base_timestamp if batch.has_delete_horizon else None,
        "position": batch.position,
        "timestamp_type": None if magic == 0 else batch.timestamp_type,  # magic 0 has no timestamps
        "max_timestamp": batch_max_timestamp(batch),
        "size": batch.size,
        "magic": magic,
        "compression": batch.compression,
        "crc": batch.crc,
    }
    if source is not None:
        d["file"] = source
    return d


def batch_text(d: dict) -> str:
    horizon = "OptionalLong.empty" if d["delete_horizon_ms"] is None else f"OptionalLong[{d['delete_horizon_ms']}]"
    return (f"baseOffset: {d['base_offset']} lastOffset: {d['last_offset']} count: {d['count']} "
            f"baseSequence: {d['base_sequence']} lastSequence: {d['last_sequence']} producerId: {d['producer_id']} "
            f"producerEpoch: {d['producer_epoch']} partitionLeaderEpoch: {d['partition_leader_epoch']} "
            f"isTransactional: {_b(d['is_transactional'])} isControl: {_b(d['is_control'])} "
            f"deleteHorizonMs: {horizon} position: {d['position']} "
            f"{_TS_NAME.get(d['timestamp_type'], d['timestamp_type'])}: {d['max_timestamp']} size: {d['size']} "
            f"magic: {d['magic']} compresscodec: {d['compression']} crc: {d['crc']} isvalid: true")


def _data(value: bytes | None) -> tuple[str | None, bool]:
    """(text, is_base64): UTF-8 text when the bytes are UTF-8, else base64."""
    if value is None:
        return None, False
    try:
        return value.decode(), False
    except UnicodeDecodeError:
        return base64.b64encode(value).decode(), True


def control_fields(batch: LogBatch) -> dict[str, Any]:
    try:
        c = batch.control
    except Exception as exc:  # noqa: BLE001 - a broken control record is shown, not raised
        return {"control_error": str(exc)}
    if c is None:
        return {}
    d: dict[str, Any] = {"control_type": c.type_name, "control_version": c.version}
    if c.type in (ControlRecordType.ABORT, ControlRecordType.COMMIT):
        d["coordinator_epoch"] = c.coordinator_epoch
    elif c.value is not None:
        d["control_value_size"] = len(c.value)
    if c.decoded is not None:
        d["decoded"] = decoded_fields(c.decoded)
    return d


def decoded_fields(dec: Decoded) -> dict[str, Any]:
    """A decoded payload as the ``"decoded"`` object of a record line (tombstones: value null, deletion)."""
    d: dict[str, Any] = {"type": dec.type, "version": dec.version, "key": jsonable(dec.key),
                         "value": jsonable(dec.value)}
    if dec.tombstone:
        d["deletion"] = True
    if dec.layout is not None:  # a message Kafka wrote in more than one layout: which one was read
        d["layout"] = dec.layout
    return d


def record_fields(batch: LogBatch, r: Record, print_data: bool,
                  control: dict[str, Any] | None = None) -> dict[str, Any]:
    base_seq = batch.base_sequence
    d = {
        "type": "record",
        "offset": r.offset,
        "timestamp": r.timestamp,
        "key_size": -1 if r.key is None else len(r.key),
        "value_size": -1 if r.value is None else len(r.value),
        "sequence": base_seq + (r.offset - batch.base_offset) if base_seq >= 0 else -1,
        "header_keys": [k for k, _ in (r.headers or ())],
    }
    if control:
        d.update(control)
    if print_data:
        d.update(data_fields(r))
    return d


def data_fields(r: Record) -> dict[str, Any]:
    """A record's key, value and header values (UTF-8 text, or base64 flagged ``*_base64``)."""
    key, kb = _data(r.key)
    value, vb = _data(r.value)
    d: dict[str, Any] = {"key": key, "value": value}
    if kb:
        d["key_base64"] = True
    if vb:
        d["value_base64"] = True
    d["headers"] = [[k, _data(v)[0]] for k, v in (r.headers or ())]
    return d


def record_text(d: dict, ts_name: str) -> str:
    s = (f"| offset: {d['offset']} {ts_name}: {d['timestamp']} keySize: {d['key_size']} "
         f"valueSize: {d['value_size']} sequence: {d['sequence']} headerKeys: [{','.join(d['header_keys'])}]")
    if "control_type" in d:
        if "coordinator_epoch" in d:
            s += f" endTxnMarker: {d['control_type'].upper()} coordinatorEpoch: {d['coordinator_epoch']}"
        else:
            s += f" controlType: {d['control_type'].upper()}({d['control_version']})"
    if "control_error" in d:
        s += f" controlError: {d['control_error']}"
    if "decoded" in d:
        s += f" decoded: {_dumps(d['decoded'])}"
    if "decode_error" in d:
        s += f" decodeError: {d['decode_error']}"
    if "key" in d:
        s += f" key: {d['key']} payload: {d['value']}"
    return s


to_json = _dumps
