"""Normalise the corpus' ``expected.asserted`` (every source words it differently) to one form.

The canonical batch is a dict with Kafka's names (``base_offset``,
``first_timestamp``, ``producer_id``, ...); a canonical record is a dict with
some of ``offset``, ``offset_delta``, ``timestamp``, ``timestamp_delta``,
``attributes``, ``key``, ``value`` (bytes or None), ``headers`` and checks that
are not plain values (a value's length, a described value). Only the keys a
source asserts are compared.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

#: source spelling -> canonical batch key (and a scale for timestamps given in seconds)
BATCH_KEYS: dict[str, tuple[str, int]] = {
    "base_offset": ("base_offset", 1),
    "firstOffset": ("base_offset", 1),
    "first_offset": ("base_offset", 1),
    "partition_leader_epoch": ("partition_leader_epoch", 1),
    "partitionLeaderEpoch": ("partition_leader_epoch", 1),
    "last_offset_delta": ("last_offset_delta", 1),
    "lastOffsetDelta": ("last_offset_delta", 1),
    "first_timestamp": ("first_timestamp", 1),
    "first_timestamp_ms": ("first_timestamp", 1),
    "firstTimestamp": ("first_timestamp", 1),
    "base_timestamp": ("first_timestamp", 1),
    "first_timestamp_s": ("first_timestamp", 1000),
    "max_timestamp": ("max_timestamp", 1),
    "max_timestamp_ms": ("max_timestamp", 1),
    "maxTimestamp": ("max_timestamp", 1),
    "max_timestamp_s": ("max_timestamp", 1000),
    "producer_id": ("producer_id", 1),
    "producerId": ("producer_id", 1),
    "producer_epoch": ("producer_epoch", 1),
    "producerEpoch": ("producer_epoch", 1),
    "base_sequence": ("base_sequence", 1),
    "firstSequence": ("base_sequence", 1),
    "first_sequence": ("base_sequence", 1),
    "is_transactional": ("is_transactional", 1),
    "inTransaction": ("is_transactional", 1),
    "in_transaction": ("is_transactional", 1),
    "is_control_batch": ("is_control", 1),
    "isControlBatch": ("is_control", 1),
    "control": ("is_control", 1),
    "timestamp_type": ("timestamp_type", 1),
    "timestampType": ("timestamp_type", 1),
    "attributes": ("attributes", 1),
    "records_count": ("records_count", 1),
    "record_count": ("records_count", 1),
    "batch_length": ("batch_length", 1),
    "magic": ("magic", 1),
    "version": ("magic", 1),
    "crc": ("crc", 1),
    "compression": ("compression", 1),
}
#: asserted keys about the source's own context (fetch response, test harness), not about the bytes
CONTEXT_KEYS = {"note", "desc", "test", "high_watermark", "last_stable_offset", "batch_context"}
TIMESTAMP_TYPES = {"CreateTime": 0, "LogAppendTime": 1, 0: 0, 1: 1}


@dataclass
class Expectation:
    """What one vector's source asserts, in canonical form."""

    batch: dict = field(default_factory=dict)  # canonical key -> value, for the (first) batch
    records: list[dict] | None = None  # records of the first batch, when asserted
    all_records: list[dict] | None = None  # records across every batch of the input, when asserted
    total_records: int | None = None
    checks: dict = field(default_factory=dict)  # the rest: partial, error, framing, ...


def blob(value, hex_value=None):
    """A key or value as the sources write it: text (UTF-8), hex, or None."""
    if hex_value is not None:
        return bytes.fromhex(hex_value)
    if value is None:
        return None
    if isinstance(value, dict):  # kafka-python cross-check form {"hex": ..} / {"utf8": ..}
        return bytes.fromhex(value["hex"]) if "hex" in value else value["utf8"].encode()
    return value.encode()


DESCRIBED = re.compile(r'^[^"]*"(?P<head>.*?)\.\.\.(?P<tail>.*?)" \((?P<n>\d+) bytes\)$')


def headers(raw):
    """Headers as an ordered list of (key, value), or ('unordered', sorted pairs) for a dict form."""
    if isinstance(raw, dict):  # kafkajs: {key: value or [values]}; the order between keys is lost
        pairs = []
        for k, v in raw.items():
            for one in v if isinstance(v, list) else [v]:
                pairs.append((k, blob(one)))
        return ("unordered", sorted(pairs, key=repr))
    out = []
    for h in raw:
        if isinstance(h, dict):
            out.append((blob(None, h["key_hex"]).decode(), blob(h.get("value"), h.get("value_hex"))))
        else:
            out.append((h[0], blob(h[1])))
    return out


def record(raw: dict, seconds_base: int | None = None) -> dict:
    out: dict = {}
    for k, v in raw.items():
        if k in ("key", "value"):
            if isinstance(v, str) and (m := DESCRIBED.match(v)):
                out[f"{k}_described"] = (m["head"].strip(), m["tail"].strip(), int(m["n"]))
            else:
                out[k] = blob(v)
        elif k in ("key_hex", "value_hex"):
            out[k[:-4]] = blob(None, v)
        elif k == "value_len":
            out["value_length"] = v
        elif k == "headers":
            out["headers"] = headers(v)
        elif k in ("timestamp_delta", "timestamp_delta_ms"):
            out["timestamp_delta"] = v
        elif k == "create_time_s":
            out["timestamp"] = v * 1000
        elif k in ("offset", "offset_delta", "timestamp", "attributes", "timestamp_type"):
            out[k] = v
        elif k in ("control_version", "control_type", "abort", "commit"):
            out.setdefault("control", {})[k] = v
        elif k == "length":
            out["length"] = v
        elif k == "magic":
            out["magic"] = v
        else:
            raise KeyError(f"record key {k!r} has no canonical form")
    return out


def normalise(asserted: dict) -> Expectation:
    e = Expectation()
    for k, v in asserted.items():
        if k in BATCH_KEYS:
            name, scale = BATCH_KEYS[k]
            if name == "timestamp_type":
                v = TIMESTAMP_TYPES[v]
            elif name == "compression":
                v = v.lower()
            e.batch[name] = v * scale if scale != 1 else v
        elif k == "crc_bytes":
            e.batch["crc"] = int.from_bytes(bytes(v), "big")
        elif k == "records":
            e.records = [record(r) for r in v]
        elif k in ("messages", "messages_in_order"):
            e.all_records = [record(r) for r in v]
        elif k in ("count", "num_records"):
            e.total_records = v
        elif k in CONTEXT_KEYS:
            continue
        else:
            e.checks[k] = v
    return e


def from_kafka_python(decoded: dict) -> tuple[dict, list[dict]]:
    """kafka-python's reading of one batch (the corpus' cross-check), canonical."""
    batch = {
        "base_offset": decoded["base_offset"],
        "partition_leader_epoch": decoded["leader_epoch"],
        "last_offset_delta": decoded["last_offset_delta"],
        "first_timestamp": decoded["first_timestamp"],
        "max_timestamp": decoded["max_timestamp"],
        "producer_id": decoded["producer_id"],
        "producer_epoch": decoded["producer_epoch"],
        "base_sequence": decoded["base_sequence"],
        "is_transactional": decoded["is_transactional"],
        "is_control": decoded["is_control_batch"],
        "timestamp_type": decoded["timestamp_type"],
        "attributes": decoded["attributes"],
        "records_count": decoded["records_count"],
        "crc": decoded["crc"],
        "compression": decoded["codec"],
        "magic": decoded["magic"],
    }
    records = [
        {
            "offset": r["offset"],
            "timestamp": r["timestamp"],
            "key": blob(r["key"]),
            "value": blob(r["value"]),
            "headers": [(k, blob(v)) for k, v in r["headers"]],
        }
        for r in decoded["records"]
    ]
    return batch, records


def actual_batch(b) -> dict:
    """A kafkaspec Batch in canonical form."""
    return {
        "base_offset": b.base_offset,
        "partition_leader_epoch": b.partition_leader_epoch,
        "last_offset_delta": b.last_offset_delta,
        "first_timestamp": b.base_timestamp,
        "max_timestamp": b.max_timestamp,
        "producer_id": b.producer_id,
        "producer_epoch": b.producer_epoch,
        "base_sequence": b.base_sequence,
        "is_transactional": b.is_transactional,
        "is_control": b.is_control,
        "timestamp_type": 0 if b.timestamp_type == "create" else 1,
        "attributes": b.attributes,
        "records_count": b.records_count,
        "crc": b.crc,
        "compression": b.compression,
        "magic": b.magic,
        "batch_length": b.size - 12,
    }


def actual_record(b, r) -> dict:
    out = {
        "offset": r.offset,
        "offset_delta": r.offset - b.base_offset,
        "timestamp": r.timestamp,
        "timestamp_delta": r.timestamp - b.base_timestamp,
        "attributes": r.attributes,
        "key": r.key,
        "value": r.value,
        "headers": [tuple(h) for h in r.headers],
        "value_length": None if r.value is None else len(r.value),
        "timestamp_type": 0 if b.timestamp_type == "create" else 1,
        "magic": b.magic,
    }
    return out


def compare_record(expected: dict, actual: dict, where: str) -> None:
    for k, want in expected.items():
        if k == "control":
            continue  # checked by the caller against Batch.control
        if k.endswith("_described"):
            head, tail, n = want
            got = actual[k[: -len("_described")]]
            assert (
                got is not None
                and len(got) == n
                and got.startswith(head.encode())
                and got.endswith(tail.encode())
            ), f"{where}: {k[:-10]} is not the described {n}-byte text"
            continue
        if k == "length":
            continue  # the record's encoded length: checked by decoding at all
        got = actual[k]
        if k == "headers" and isinstance(want, tuple) and want[0] == "unordered":
            got, want = sorted(got, key=repr), want[1]
        assert got == want, f"{where}: {k} is {got!r}, the source asserts {want!r}"
