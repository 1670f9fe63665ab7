"""Building batches: :func:`build_batch` and :func:`build_control_batch`.
One module because its argument checks are build_batch's contract: they refuse what the fast path gets wrong.
"""

from __future__ import annotations

import struct
import time
from collections.abc import Sequence
from operator import itemgetter
from typing import Any

from kafkaspec.generated import control_record_key_v0 as ctl_key
from kafkaspec.generated import end_transaction_marker_v0 as end_txn
from kafkaspec.generated import record_batch_v2 as v2
from kafkaspec.generated.enums import ControlRecordType
from kafkaspec.generated.record_v2 import Record

from .codec.columns import ColumnItems, transpose
from .codec.compression import CODEC_NAMES, codec_argument
from .entry import INT8, INT16, INT32, INT64, NEAR_INT64
from .message_set import build_legacy

#: Record's field defaults in field order: what an omitted column holds
_RECORD_DEFAULTS = tuple(Record._field_defaults[name] for name in Record._fields)
_TIMESTAMP_TYPES = {"create": 0, "log_append": 1, 0: 0, 1: 1}

INT64_MAX = INT64[1]
_ATTRIBUTES, _TIMESTAMP = itemgetter(0), itemgetter(1)
#: the batch's integer arguments: their ranges and what holds them
_BATCH_INTS = {
    "base_offset": (INT64, "an int64"),
    "producer_id": (INT64, "an int64"),
    "producer_epoch": (INT16, "an int16"),
    "base_sequence": (INT32, "an int32"),
    "partition_leader_epoch": (INT32, "an int32"),
}
#: codec names and numbers (bool excluded by the caller: True == 1)
_CODECS: dict[object, int] = {
    **{name: i for i, name in enumerate(CODEC_NAMES)},
    **{i: i for i in range(len(CODEC_NAMES))},
}
#: compression levels each codec takes (Kafka's KIP-390 ranges; gzip's -1 is zlib's default)
_LEVELS = {1: (-1, 9), 3: (0, 16), 4: (-(1 << 17), 22)}


def _check_int(name: str, value: object, bounds: tuple[int, int], what: str) -> None:
    """TypeError unless ``value`` is an int, ValueError unless it fits ``bounds``; both name the argument."""
    if type(value) is not int and (isinstance(value, bool) or not isinstance(value, int)):
        raise TypeError(f"{name} must be an int, got {type(value).__name__} {value!r}")
    if not bounds[0] <= value <= bounds[1]:
        raise ValueError(f"{name}={value!r} does not fit {what} ({bounds[0]}..{bounds[1]})")


def _check_codec(compression: object, level: object) -> int:
    """The codec number ``compression`` names (ValueError/TypeError naming the argument otherwise)."""
    codec = codec_argument(compression)
    if level is not None:
        if codec not in _LEVELS:
            raise ValueError(f"compression_level={level!r}: {CODEC_NAMES[codec]} takes no level")
        _check_int("compression_level", level, _LEVELS[codec], f"{CODEC_NAMES[codec]}'s levels")
    return codec


def _as_records(records: Sequence[Record]) -> Sequence[Record]:
    """``records`` with the plain 6-tuples of build_batch's columns (or a caller's) as Records, for the
    checks that name a record's field."""
    if all(type(r) is Record for r in records):
        return records
    return [Record._make(r) if type(r) is tuple and len(r) == len(Record._fields) else r for r in records]


def _columns(
    keys: Sequence[bytes | None] | None,
    values: Sequence[bytes | None] | None,
    timestamps: Sequence[int | None] | None,
    headers: Sequence[Sequence[Any]] | None,
) -> ColumnItems:
    """build_batch's columns as a sequence of records (plain tuples in Record's field order when read),
    which the encoder takes column by column: no tuple per record."""
    if values is None:
        raise ValueError(
            "build_batch needs records, or columns: values= (and keys=, timestamps=, headers= "
            "where the records have them)"
        )
    n = len(values)
    for name, col in (("keys", keys), ("timestamps", timestamps), ("headers", headers)):
        if col is not None and len(col) != n:
            raise ValueError(f"{name}= has {len(col)} items, values= has {n}: one item per record in each")
    return ColumnItems(n, (None, timestamps, None, keys, values, headers), _RECORD_DEFAULTS)


def _by_columns(records: Sequence[Record]) -> Sequence[Record]:
    """``records`` as columns (one C-level ``zip``), which the encoder and the checks take a column at a
    time; ``records`` as they are when they are not all 6-item tuples (the general path says what is wrong)."""
    try:
        return ColumnItems(len(records), transpose(records, len(_RECORD_DEFAULTS)), _RECORD_DEFAULTS)
    except (TypeError, ValueError):
        return records


def _check_types(records: Sequence[Record]) -> None:
    """TypeError naming the first item of ``records`` that is neither a Record nor a 6-tuple in its field order."""
    if type(records) is ColumnItems:
        return
    for i, r in enumerate(records):
        if type(r) is not Record and not (isinstance(r, tuple) and len(r) == len(_RECORD_DEFAULTS)):
            raise TypeError(f"records[{i}] is a {type(r).__name__}, not a kafkaspec.Record")


_BYTES_LIKE = (bytes, bytearray, memoryview)


def _check_payload_types(records: Sequence[Record]) -> None:
    """TypeError naming the first record field that is not bytes-like or None (a key, a value, a header's
    value) or a header that is not a (str, bytes or None) pair."""
    for i, r in enumerate(_as_records(records)):
        for field in ("key", "value"):
            value = getattr(r, field, None)
            if value is not None and not isinstance(value, _BYTES_LIKE):
                raise TypeError(f"records[{i}].{field} is of type {type(value).__name__}, not bytes or None")
        for j, header in enumerate(getattr(r, "headers", None) or ()):
            at = f"records[{i}].headers[{j}]"
            if not isinstance(header, tuple) or len(header) != 2:
                raise TypeError(f"{at} is a {type(header).__name__}, not a (str, bytes or None) pair")
            if not isinstance(header[0], str):
                raise TypeError(f"{at} has a key of type {type(header[0]).__name__}, not str")
            if header[1] is not None and not isinstance(header[1], _BYTES_LIKE):
                raise TypeError(f"{at} has a value of type {type(header[1]).__name__}, not bytes or None")


def _bad_record(records: Sequence[Record], field: str, bounds: tuple[int, int], what: str) -> Exception:
    """The error for the first record whose ``field`` is not an int within ``bounds``."""
    records = _as_records(records)
    for i, r in enumerate(records):
        if not isinstance(r, tuple):
            return TypeError(f"records[{i}] is a {type(r).__name__}, not a kafkaspec.Record")
        value = getattr(r, field, None)
        if value is None and field != "attributes":
            continue
        try:
            _check_int(f"records[{i}].{field}", value, bounds, what)
        except (TypeError, ValueError) as exc:
            return exc
    return ValueError(f"records: {field} values differ by more than {what} holds ({bounds[0]}..{bounds[1]})")


def _check_offsets(records: Sequence[Record], offsets: Sequence[int | None], base_offset: int) -> None:
    """Every record's offset (None: base_offset + its index) within int64, its delta within int32."""
    n = len(records)
    if offsets.count(None) == n:
        if base_offset + n - 1 > INT64_MAX:
            raise ValueError(
                f"records[{INT64_MAX - base_offset + 1}] would have offset {INT64_MAX + 1} "
                f"(base_offset={base_offset} + its index), beyond int64"
            )
        return
    absolute = [base_offset + i if o is None else o for i, o in enumerate(offsets)]
    try:
        lo, hi = min(absolute), max(absolute)
    except TypeError:
        raise _bad_record(records, "offset", INT64, "an int64 offset") from None
    if lo < INT64[0] or hi > INT64_MAX:
        raise _bad_record(records, "offset", INT64, "an int64 offset")
    if lo - base_offset < INT32[0] or hi - base_offset > INT32[1]:
        i = next(i for i, o in enumerate(absolute) if not INT32[0] <= o - base_offset <= INT32[1])
        raise ValueError(
            f"records[{i}].offset={absolute[i]} is {absolute[i] - base_offset} from "
            f"base_offset={base_offset}; a record's offset delta is an int32"
        )


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


def _record_columns(records: Sequence[Record]) -> tuple[int, int]:
    """The fast checks of build_batch: record attributes (the encoder would store them masked to a
    byte) by C-level passes; return (base timestamp, max timestamp). Whatever else is out of range
    fails in the encoder, and :func:`_diagnose` then names it."""
    if type(records) is ColumnItems:
        attributes, timestamps = records.columns[:2]
        if timestamps is None or timestamps[0] is None:  # the base comes from the clock
            return _record_columns_slow(records)
        try:
            hi = max(timestamps)
            odd_attributes = attributes is not None and any(attributes)
        except TypeError:  # a timestamp None (it becomes the base), or not an int
            return _record_columns_slow(records)
        if odd_attributes:
            _check_attributes(records)
        return timestamps[0], hi
    try:
        hi = max(map(_TIMESTAMP, records))
        odd_attributes = any(map(_ATTRIBUTES, records))
    except (TypeError, KeyError, IndexError):  # a timestamp None (it becomes the base), or not a Record
        return _record_columns_slow(records)
    if hi is None:  # one record, without a timestamp
        return _record_columns_slow(records)
    if odd_attributes:
        _check_attributes(records)
    return records[0][1], hi


def _record_columns_slow(records: Sequence[Record]) -> tuple[int, int]:
    for i, r in enumerate(records):
        if not isinstance(r, tuple) or len(r) < 3:
            raise TypeError(f"records[{i}] is a {type(r).__name__}, not a kafkaspec.Record")
    _check_attributes(records)
    timestamps = [r[1] for r in records]
    base = timestamps[0]
    if base is None:
        base = _now_ms()
    try:
        return base, max(base if t is None else t for t in timestamps)
    except TypeError:
        raise _bad_record(records, "timestamp", INT64, "an int64 timestamp") from None


def _check_attributes(records: Sequence[Record]) -> None:
    attributes = [r[0] for r in records]
    try:
        ok = min(attributes) >= -0x80 and max(attributes) <= 0x7F
    except TypeError:
        ok = False
    if not ok:
        raise _bad_record(records, "attributes", INT8, "a record's attributes (an int8)")


def _diagnose(records: Sequence[Record], base_offset: int, magic: int) -> None:
    """After the encoder failed, or when offsets come near the end of int64: raise TypeError/ValueError
    naming the record field at fault (a record's timestamp or offset), or return when none is."""
    if not records:
        return
    records = _as_records(records)
    if magic == 2:
        timestamps = [t for t in (r.timestamp for r in records) if t is not None]
        for i, r in enumerate(records):
            if r.timestamp is not None:
                _check_int(f"records[{i}].timestamp", r.timestamp, INT64, "an int64 timestamp")
        if timestamps and max(timestamps) - min(timestamps) > INT64_MAX:
            raise ValueError(
                f"records: timestamps {min(timestamps)} and {max(timestamps)} are too far apart for "
                "one batch (a record's timestamp delta is an int64)"
            )
    else:
        for i, r in enumerate(records):
            if r.timestamp is not None:
                _check_int(f"records[{i}].timestamp", r.timestamp, INT64, "an int64 timestamp")
    _check_offsets(records, [r.offset for r in records], base_offset)


def _check_batch_ints(**arguments: object) -> None:
    """Raise for the first of the batch's integer arguments that is no int or does not fit its field."""
    for name, value in arguments.items():
        bounds, what = _BATCH_INTS[name]
        _check_int(name, value, bounds, what)


def build_batch(
    records: Sequence[Record] | None = None,
    *,
    keys: Sequence[bytes | None] | None = None,
    values: Sequence[bytes | None] | None = None,
    timestamps: Sequence[int | None] | None = None,
    headers: Sequence[Sequence[tuple[str, bytes | None]]] | None = None,
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

    Instead of ``records``, the records may come as columns, one sequence per field, item ``i``
    of each being record ``i``'s: ``values`` (required), ``keys``, ``timestamps`` and
    ``headers`` (each omitted: null keys, the batch base timestamp, no headers). Offsets are
    ``base_offset + i``. No Record object is made, the quickest way to build; an error names
    record ``i`` as ``records[i]``.
    """
    if records is None:
        records = _columns(keys, values, timestamps, headers)
    elif not (keys is None and values is None and timestamps is None and headers is None):
        raise ValueError(
            "build_batch takes records or columns (keys=, values=, timestamps=, headers=), not both"
        )
    if type(magic) is not int or magic not in (0, 1, 2):
        raise ValueError(f"magic must be 0, 1 or 2, got {magic!r}")
    codec = _CODECS.get(compression) if type(compression) in (str, int) else None
    if codec is None or compression_level is not None:
        codec = _check_codec(compression, compression_level)
    ts_type = _TIMESTAMP_TYPES.get(timestamp_type)
    if ts_type is None or type(timestamp_type) is bool:
        raise ValueError(f"timestamp_type must be 'create' or 'log_append' (or 0, 1), got {timestamp_type!r}")
    if log_append_time is not None:
        _check_int("log_append_time", log_append_time, INT64, "an int64 timestamp")
    if magic != 2:
        _check_int("base_offset", base_offset, INT64, "an int64")
        _refuse_v2_only(
            magic,
            producer_id=producer_id,
            producer_epoch=producer_epoch,
            base_sequence=base_sequence,
            is_transactional=is_transactional,
            partition_leader_epoch=partition_leader_epoch,
            is_control=is_control,
            last_offset_delta=last_offset_delta,
        )
        if magic == 0 and ts_type == 1:
            raise ValueError(
                f"timestamp_type={timestamp_type!r} needs magic 1 or 2 (Message v0 has no timestamp)"
            )
        if base_offset > NEAR_INT64:
            _diagnose(records, base_offset, magic)
        records = _as_records(records)
        try:
            return build_legacy(
                records,
                magic=magic,
                codec=codec,
                base_offset=base_offset,
                timestamp_type=ts_type,
                log_append_time=log_append_time,
                snappy_framing=snappy_framing,
                compression_level=compression_level,
            )
        except (struct.error, ValueError, OverflowError, TypeError):
            _diagnose(records, base_offset, magic)
            _check_payload_types(records)
            raise
    try:  # one expression for the common case; on any doubt the per-argument checks name the culprit
        fits = (
            -0x8000000000000000 <= base_offset <= 0x7FFFFFFFFFFFFFFF
            and -0x8000000000000000 <= producer_id <= 0x7FFFFFFFFFFFFFFF
            and -0x8000 <= producer_epoch <= 0x7FFF
            and -0x80000000 <= base_sequence <= 0x7FFFFFFF
            and -0x80000000 <= partition_leader_epoch <= 0x7FFFFFFF
        )
    except TypeError:
        fits = False
    if not fits:
        _check_batch_ints(
            base_offset=base_offset,
            producer_id=producer_id,
            producer_epoch=producer_epoch,
            base_sequence=base_sequence,
            partition_leader_epoch=partition_leader_epoch,
        )
    attributes = codec | (ts_type << 3) | (16 if is_transactional else 0) | (32 if is_control else 0)
    given = records
    if records:
        if type(records) is not ColumnItems:
            records = _by_columns(records)
        try:
            base_timestamp, max_timestamp = _record_columns(records)
        except (TypeError, ValueError):
            _check_types(given)  # the records themselves first: a dict is no record
            raise
        if not -NEAR_INT64 <= base_offset <= NEAR_INT64:  # record offsets may pass int64 (no encoder check)
            _diagnose(records, base_offset, 2)
        if last_offset_delta is None:
            offsets = records.columns[2] if type(records) is ColumnItems else [r[2] for r in records]
            last = None if offsets is None else offsets[-1]
            last_offset_delta = len(records) - 1 if last is None else last - base_offset
    else:
        base_timestamp = max_timestamp = -1
        if last_offset_delta is None:
            last_offset_delta = 0
    if type(last_offset_delta) is not int or not -0x80000000 <= last_offset_delta <= 0x7FFFFFFF:
        _diagnose(records, base_offset, 2)  # a record's offset, when the delta comes from it
        _check_int("last_offset_delta", last_offset_delta, INT32, "an int32")
    if base_offset + last_offset_delta > INT64_MAX:
        raise ValueError(f"base_offset={base_offset} + last_offset_delta={last_offset_delta} is beyond int64")
    if ts_type == 1:
        max_timestamp = _now_ms() if log_append_time is None else log_append_time
    options: dict[str, Any] = {}
    if codec == 2:
        options["snappy_framing"] = snappy_framing
    if compression_level is not None:
        options["level"] = compression_level
    try:
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
    except (struct.error, ValueError, OverflowError, TypeError, AttributeError) as exc:
        # out of range or of the wrong type: name the argument or record field at fault
        _check_batch_ints(
            base_offset=base_offset,
            producer_id=producer_id,
            producer_epoch=producer_epoch,
            base_sequence=base_sequence,
            partition_leader_epoch=partition_leader_epoch,
        )
        _check_types(given)
        _diagnose(records, base_offset, 2)
        _check_payload_types(records)
        if isinstance(exc, (TypeError, AttributeError)):  # a key, value or header of the wrong type
            raise TypeError(
                f"records: {exc} (keys and values are bytes or None; headers are (str, bytes or None) pairs)"
            ) from None
        if isinstance(exc, (struct.error, OverflowError)):
            raise ValueError(f"records: {exc}") from None
        raise


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
    try:
        if isinstance(control_type, str):
            ctype = ControlRecordType[control_type.upper()]
        elif isinstance(control_type, bool) or not isinstance(control_type, int):
            raise TypeError(f"control_type must be a name or number, got {control_type!r}")
        else:
            ctype = ControlRecordType(control_type)
    except (KeyError, ValueError):
        known = ", ".join(f"{t.name.lower()} ({int(t)})" for t in ControlRecordType)
        raise ValueError(
            f"control_type={control_type!r} names no control record type (known: {known})"
        ) from None
    _check_int("coordinator_epoch", coordinator_epoch, INT32, "an int32")
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
