"""Aiven's Inkless (KIP-1150 diskless topics): its own tagged fields on KRaft partition records, by name.

Inkless writes three raw tagged fields on ``PartitionRecord`` and ``PartitionChangeRecord`` (its
``InitDisklessLogFields``), numbered from 100 so that they never meet Apache Kafka's tags, which
Apache Kafka then skips as unknown. Their bytes are not Kafka's field encodings but Java
``ByteBuffer`` layouts, all big-endian:

====  ===================================  =========================================================
tag   name                                 bytes
====  ===================================  =========================================================
100   ``classic_to_diskless_start_offset``  int64: where the partition's diskless log starts
101   ``producer_states``                   int32 count, then per producer 34 bytes: producer id
                                            int64, producer epoch int16, base and last sequence
                                            int32, assigned offset int64, batch max timestamp int64
102   ``diskless_leader_epoch``             int32: the leader epoch of the diskless region
====  ===================================  =========================================================

Tag 101's count-prefixed entries inside a tagged field have no equivalent among the message specs'
types (a flexible version's arrays are compact), so this table is written here by hand rather than
in ``schemas/messages/``. Each field is decoded by name only when present and well formed; one that
is not keeps its raw bytes in ``unknown_tagged_fields``, as before.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any

#: the records Inkless writes its tagged fields on
RECORDS = frozenset({"PartitionRecord", "PartitionChangeRecord"})

_INT64 = struct.Struct(">q")
_INT32 = struct.Struct(">i")
_PRODUCER = struct.Struct(">qhiiqq")  # 34 bytes
_PRODUCER_FIELDS = (
    "producer_id",
    "producer_epoch",
    "base_sequence",
    "last_sequence",
    "assigned_offset",
    "batch_max_timestamp",
)


def _fixed(layout: struct.Struct) -> Callable[[bytes], Any]:
    def read(data: bytes) -> Any:
        if len(data) != layout.size:
            raise ValueError
        return layout.unpack(data)[0]

    return read


def _producer_states(data: bytes) -> list[dict[str, int]]:
    if len(data) < 4:
        raise ValueError
    (count,) = _INT32.unpack_from(data)
    if count < 0 or len(data) != 4 + count * _PRODUCER.size:
        raise ValueError
    return [dict(zip(_PRODUCER_FIELDS, e)) for e in _PRODUCER.iter_unpack(data[4:])]


#: tag -> (name, reader raising ValueError on bytes of the wrong shape)
TAGGED_FIELDS: dict[int, tuple[str, Callable[[bytes], Any]]] = {
    100: ("classic_to_diskless_start_offset", _fixed(_INT64)),
    101: ("producer_states", _producer_states),
    102: ("diskless_leader_epoch", _fixed(_INT32)),
}
#: the names, in tag order (what a partition's state carries over from the records)
NAMES = tuple(name for name, _ in TAGGED_FIELDS.values())
#: tag -> (its layout, what it says), for ``kafkaspec explain``
DOCS = {
    100: ("Inkless int64", "Inkless (KIP-1150): the offset where the partition's diskless log starts"),
    101: (
        "Inkless producer states",
        "Inkless (KIP-1150): int32 count, then per producer its id, epoch, base and last sequence, "
        "assigned offset and batch max timestamp",
    ),
    102: ("Inkless int32", "Inkless (KIP-1150): the leader epoch of the diskless region"),
}


def name_tagged_fields(value: dict[str, Any]) -> None:
    """Move Inkless's tagged fields out of ``value["unknown_tagged_fields"]`` into fields of their names."""
    unknown = value.get("unknown_tagged_fields")
    if not unknown:
        return
    rest = []
    for tag, data in unknown:
        known = TAGGED_FIELDS.get(tag)
        if known is not None:
            try:
                value[known[0]] = known[1](bytes(data))
                continue
            except ValueError:
                pass
        rest.append((tag, data))
    if rest:
        value["unknown_tagged_fields"] = rest
    else:
        del value["unknown_tagged_fields"]
