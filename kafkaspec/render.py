"""Text and JSON lines for batches and records, in the shape of Kafka's DumpLogSegments.

Used by ``kafkaspec dump``; kept apart from the command so that benchmarks and
other tools can format the same way. What comes from the data (keys, values, headers,
decoded payloads, error messages quoting it) is escaped by :mod:`kafkaspec.printable`
in text lines, and JSON lines are :func:`kafkaspec.printable.json_text` (valid JSON,
nothing unprintable): a record can neither drive the terminal nor forge a line.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Callable
from typing import Any

from kafkaspec.generated.enums import ControlRecordType
from kafkaspec.generated.record_v2 import Record

from .entry import LogBatch
from .payloads.decode import Decoded, jsonable
from .printable import escape, escape_bytes, json_text
from .record_batch import parse_control_record

_dumps = json_text
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
        "max_timestamp": batch.max_timestamp,
        "size": batch.size,
        "magic": magic,
        "compression": batch.compression,
        "crc": batch.crc,
    }
    if source is not None:
        d["file"] = source
    return d


def batch_text(d: dict, valid: bool | None = True) -> str:
    """A batch's text line from its fields ``d``. ``valid``: whether its checksum held (False: the CRC the
    bytes give follows, from ``d["computed_crc"]``), None when it was not checked (``dump --no-verify``:
    the line claims no check)."""
    horizon = (
        "OptionalLong.empty" if d["delete_horizon_ms"] is None else f"OptionalLong[{d['delete_horizon_ms']}]"
    )
    return (
        f"baseOffset: {d['base_offset']} lastOffset: {d['last_offset']} count: {d['count']} "
        f"baseSequence: {d['base_sequence']} lastSequence: {d['last_sequence']} producerId: {d['producer_id']} "
        f"producerEpoch: {d['producer_epoch']} partitionLeaderEpoch: {d['partition_leader_epoch']} "
        f"isTransactional: {_b(d['is_transactional'])} isControl: {_b(d['is_control'])} "
        f"deleteHorizonMs: {horizon} position: {d['position']} "
        f"{_TS_NAME.get(d['timestamp_type'], d['timestamp_type'])}: {d['max_timestamp']} size: {d['size']} "
        f"magic: {d['magic']} compresscodec: {d['compression']} crc: {d['crc']}{_validity(d, valid)}"
    )


def _validity(d: dict, valid: bool | None) -> str:
    """The end of a batch line: `` isvalid: true``, `` isvalid: false computedCrc: N`` (N when the
    outer checksum was the fault) or nothing when no check was made."""
    if valid is None:
        return ""
    if valid:
        return " isvalid: true"
    computed = d.get("computed_crc")
    return " isvalid: false" + ("" if computed is None else f" computedCrc: {computed}")


def _data(value: bytes | None) -> tuple[str | None, bool]:
    """(text, is_base64): UTF-8 text when the bytes are UTF-8, else base64."""
    if value is None:
        return None, False
    try:
        return value.decode(), False
    except UnicodeDecodeError:
        return base64.b64encode(value).decode(), True


def control_fields(batch: LogBatch, record: Record | None = None) -> dict[str, Any]:
    """The control record fields of a record line: of ``record`` when given, else of the batch's first
    record. A KRaft control batch may hold several control records of different types (a snapshot's
    SNAPSHOT_HEADER, KRAFT_VERSION and KRAFT_VOTERS in one batch), so each is read from its own key."""
    try:
        if record is None:
            c = batch.control
        else:
            c = parse_control_record(record.key, record.value, batch.position)
    except Exception as exc:  # a broken control record is shown, not raised
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
    d: dict[str, Any] = {
        "type": dec.type,
        "version": dec.version,
        "key": jsonable(dec.key),
        "value": jsonable(dec.value),
    }
    if dec.tombstone:
        d["deletion"] = True
    if dec.layout is not None:  # a message Kafka wrote in more than one layout: which one was read
        d["layout"] = dec.layout
    return d


def record_fields(
    batch: LogBatch, r: Record, print_data: bool, control: dict[str, Any] | None = None
) -> dict[str, Any]:
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
    """A record's key, value and headers for JSON: each of the three kinds of value is UTF-8 text,
    or base64 flagged by ``*_base64: true`` beside it (``key_base64``, ``value_base64``, and each
    header object's ``value_base64``), so the text "//4=" and the bytes ff fe never read the same."""
    key, kb = _data(r.key)
    value, vb = _data(r.value)
    d: dict[str, Any] = {"key": key, "value": value}
    if kb:
        d["key_base64"] = True
    if vb:
        d["value_base64"] = True
    headers = []
    for k, v in r.headers or ():
        text, b64 = _data(v)
        headers.append({"key": k, "value": text, "value_base64": True} if b64 else {"key": k, "value": text})
    d["headers"] = headers
    return d


def _text(value: bytes | None) -> str:
    """A key, value or header value on a text line: null, or its bytes escaped (:func:`escape_bytes`)."""
    return "null" if value is None else escape_bytes(value)


def data_text(r: Record) -> str:
    """A record's key, value and header values as the end of its text line (escaped: see the module)."""
    headers = ", ".join(f"{escape(k)}: {_text(v)}" for k, v in r.headers or ())
    return f" key: {_text(r.key)} payload: {_text(r.value)} headers: [{headers}]"


#: a record line's metadata, which ``dump --skip-record-metadata`` leaves out (as DumpLogSegments does)
RECORD_METADATA = ("offset", "timestamp", "key_size", "value_size", "sequence", "header_keys")


def record_text(d: dict, ts_name: str, r: Record | None = None, *, metadata: bool = True) -> str:
    """A record's text line from its fields ``d``; with ``r`` (the record) and ``d`` holding data
    fields, the key, value and header values are printed from its bytes (:func:`data_text`);
    ``metadata=False``: without the offset, timestamp, sizes, sequence and header keys."""
    keys = d["header_keys"]
    s = (
        (
            f"| offset: {d['offset']} {ts_name}: {d['timestamp']} keySize: {d['key_size']} "
            f"valueSize: {d['value_size']} sequence: {d['sequence']} "
            f"headerKeys: [{','.join(map(escape, keys)) if keys else ''}]"
        )
        if metadata
        else "|"
    )
    if "control_type" in d:
        if "coordinator_epoch" in d:
            s += f" endTxnMarker: {d['control_type'].upper()} coordinatorEpoch: {d['coordinator_epoch']}"
        else:
            s += f" controlType: {d['control_type'].upper()}({d['control_version']})"
    if "control_error" in d:
        s += f" controlError: {escape(d['control_error'])}"
    if "decoded" in d:
        s += f" decoded: {_dumps(d['decoded'])}"
    if "decode_error" in d:
        s += f" decodeError: {escape(d['decode_error'])}"
    for part in ("key", "value"):  # kafkaspec.values: dump --key-format / --value-format
        if f"{part}_decoded" in d:
            s += f" {part}Decoded: {_dumps(d[part + '_decoded'])}"
        if f"{part}_error" in d:
            s += f" {part}Error: {escape(d[part + '_error'])}"
    if "key" in d:
        if r is not None:
            s += data_text(r)
        else:
            s += f" key: {escape(str(d['key']))} payload: {escape(str(d['value']))}"
    return s


to_json = _dumps


#: what each ``%`` letter of a ``dump -f`` format prints (kcat's letters), from (topic, partition, record)
_FORMAT_FIELDS: dict[str, Callable[[str, int, Record], str]] = {
    "t": lambda t, p, r: escape(t),
    "p": lambda t, p, r: str(p),
    "o": lambda t, p, r: str(r.offset),
    "k": lambda t, p, r: "" if r.key is None else escape_bytes(r.key),
    "K": lambda t, p, r: str(-1 if r.key is None else len(r.key)),
    "s": lambda t, p, r: "" if r.value is None else escape_bytes(r.value),
    "S": lambda t, p, r: str(-1 if r.value is None else len(r.value)),
    "T": lambda t, p, r: str(r.timestamp),
    "h": lambda t, p, r: ",".join(f"{escape(k)}={_text(v)}" for k, v in r.headers or ()),
}
_FORMAT_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\"}
_FORMAT_TOKEN = re.compile(r"%(.)|\\(.)|%$|\\$", re.DOTALL)


def compile_format(fmt: str) -> Callable[[str, int, Record], str]:
    """A ``dump -f`` format (kcat's ``-f``: ``%t %p %o %k %K %s %S %T %h``, ``%%``, ``\\n \\t \\r \\\\``) as
    a function of (topic, partition, record) giving the text to print; what comes from the data is
    escaped as on any text line. A letter or escape it does not know raises ValueError, naming it."""
    pieces: list[str | Callable[[str, int, Record], str]] = []
    at = 0
    for m in _FORMAT_TOKEN.finditer(fmt):
        pieces.append(fmt[at : m.start()])
        at = m.end()
        letter, escaped = m.group(1), m.group(2)
        if letter == "%":
            pieces.append("%")
        elif letter is not None:
            if letter not in _FORMAT_FIELDS:
                raise ValueError(f"%{letter} is not a field (known: %{' %'.join(_FORMAT_FIELDS)} %%)")
            pieces.append(_FORMAT_FIELDS[letter])
        elif escaped is not None:
            if escaped not in _FORMAT_ESCAPES:
                raise ValueError(f"\\{escaped} is not an escape (known: \\n \\t \\r \\\\)")
            pieces.append(_FORMAT_ESCAPES[escaped])
        else:
            raise ValueError("the format ends in the middle of a % field or a \\ escape")
    pieces.append(fmt[at:])
    parts = [p for p in pieces if p != ""]

    def line(topic: str, partition: int, r: Record) -> str:
        return "".join(p if isinstance(p, str) else p(topic, partition, r) for p in parts)

    return line
