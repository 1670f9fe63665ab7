"""PartitionRecord, versions 0-2 (flexible: 0+): The full state of one partition when it is created (or in a snapshot): replicas, ISR, leader and epochs.

Generated from schemas/messages/partition_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple
from uuid import UUID

from kafkaspec.codec.message_types import (
    EMPTY_LIST,
    ZERO_UUID,
    absent,
    encode_count,
    encode_tagged,
    read_count,
    read_tag_header,
    read_uvarint,
    repeated_tag,
    tagged_size_mismatch,
    truncated,
)
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/partition_record.yaml"
NAME = "PartitionRecord"
FAMILY = "metadata"
#: the api key of the KRaft metadata record
TYPE_IDS = (3,)
VERSIONS = [0, 1, 2]
FLEXIBLE_VERSIONS = [0, 1, 2]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None

_S0 = struct.Struct(">i16s")
_S1 = struct.Struct(">iii")
_S2 = struct.Struct(">b")

# -- typed values ---------------------------------------------------------------


class PartitionRecord(NamedTuple):
    """The full state of one partition when it is created (or in a snapshot): replicas, ISR, leader and epochs.

    Fields:
        partition_id: Partition number within the topic. (versions 0+)
        topic_id: Id of the topic (its TopicRecord's topic_id). (versions 0+)
        replicas: Replica broker ids, preferred leader first. (versions 0+)
        isr: Ids of the in-sync replicas. (versions 0+)
        removing_replicas: Replicas being removed by a reassignment. (versions 0+)
        adding_replicas: Replicas being added by a reassignment. (versions 0+)
        leader: Id of the leader, or -1 when there is none. (versions 0+)
        leader_recovery_state: 1 while a leader elected uncleanly is still recovering, else 0. (versions 0+, tagged 0 in 0+)
        leader_epoch: Epoch of the current leader. (versions 0+)
        partition_epoch: Bumped at every change to the partition. (versions 0+)
        directories: For each replica (same order as replicas), the id of the log directory holding it. (versions 1+)
        eligible_leader_replicas: Replicas eligible to lead although out of the ISR (KIP-966). (versions 2+, nullable 2+, tagged 1 in 2+)
        last_known_elr: The eligible leader replicas last known before they became empty (KIP-966). (versions 2+, nullable 2+, tagged 2 in 2+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    partition_id: int = -1
    topic_id: UUID = ZERO_UUID
    replicas: list[int] = EMPTY_LIST
    isr: list[int] = EMPTY_LIST
    removing_replicas: list[int] = EMPTY_LIST
    adding_replicas: list[int] = EMPTY_LIST
    leader: int = -1
    leader_recovery_state: int = 0
    leader_epoch: int = -1
    partition_epoch: int = -1
    directories: list[UUID] = EMPTY_LIST
    eligible_leader_replicas: list[int] | None = None
    last_known_elr: list[int] | None = None
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_partition_record_v0(buf, pos: int, end: int) -> tuple[PartitionRecord, int]:
    """Read a PartitionRecord v0 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 20:
        raise truncated("PartitionRecord v0 PartitionRecord.partition_id", pos, 20, end)
    (
        f_partition_id,
        f_topic_id,
    ) = _S0.unpack_from(buf, pos)
    pos += 20
    f_topic_id = UUID(bytes=f_topic_id)
    n, pos = read_count(
        buf, pos, end, "PartitionRecord v0 PartitionRecord.replicas", compact=True, nullable=False, min_size=4
    )
    f_replicas = list(struct.unpack_from(f">{n}i", buf, pos))
    pos += 4 * n
    n, pos = read_count(
        buf, pos, end, "PartitionRecord v0 PartitionRecord.isr", compact=True, nullable=False, min_size=4
    )
    f_isr = list(struct.unpack_from(f">{n}i", buf, pos))
    pos += 4 * n
    n, pos = read_count(
        buf,
        pos,
        end,
        "PartitionRecord v0 PartitionRecord.removing_replicas",
        compact=True,
        nullable=False,
        min_size=4,
    )
    f_removing_replicas = list(struct.unpack_from(f">{n}i", buf, pos))
    pos += 4 * n
    n, pos = read_count(
        buf,
        pos,
        end,
        "PartitionRecord v0 PartitionRecord.adding_replicas",
        compact=True,
        nullable=False,
        min_size=4,
    )
    f_adding_replicas = list(struct.unpack_from(f">{n}i", buf, pos))
    pos += 4 * n
    if end - pos < 12:
        raise truncated("PartitionRecord v0 PartitionRecord.leader", pos, 12, end)
    (
        f_leader,
        f_leader_epoch,
        f_partition_epoch,
    ) = _S1.unpack_from(buf, pos)
    pos += 12
    f_leader_recovery_state = 0
    n, pos = read_uvarint(buf, pos, end, "PartitionRecord v0 PartitionRecord tagged fields")
    unknown = []
    seen = set()
    for _ in range(n):
        tag, pos, stop = read_tag_header(buf, pos, end, "PartitionRecord v0 PartitionRecord tagged fields")
        if tag in seen:
            raise repeated_tag("PartitionRecord v0 PartitionRecord tagged fields", tag, pos)
        seen.add(tag)
        if tag == 0:
            start = pos
            if stop - pos < 1:
                raise truncated("PartitionRecord v0 PartitionRecord.leader_recovery_state", pos, 1, stop)
            (f_leader_recovery_state,) = _S2.unpack_from(buf, pos)
            pos += 1
            if pos != stop:
                raise tagged_size_mismatch(
                    "PartitionRecord v0 PartitionRecord tagged fields", tag, start, stop, pos
                )
        else:
            unknown.append((tag, bytes(buf[pos:stop])))
            pos = stop
    return PartitionRecord(
        f_partition_id,
        f_topic_id,
        f_replicas,
        f_isr,
        f_removing_replicas,
        f_adding_replicas,
        f_leader,
        f_leader_recovery_state,
        f_leader_epoch,
        f_partition_epoch,
        [],
        None,
        None,
        unknown,
    ), pos


def _write_partition_record_v0(v: PartitionRecord, out: list) -> None:
    """Append the bytes of a PartitionRecord v0 to ``out``."""
    absent(v.directories, [], "PartitionRecord v0 PartitionRecord.directories")
    absent(v.eligible_leader_replicas, None, "PartitionRecord v0 PartitionRecord.eligible_leader_replicas")
    absent(v.last_known_elr, None, "PartitionRecord v0 PartitionRecord.last_known_elr")
    out.append(_S0.pack(v.partition_id, v.topic_id.bytes))
    out.append(
        encode_count(v.replicas, "PartitionRecord v0 PartitionRecord.replicas", compact=True, nullable=False)
    )
    out.append(struct.pack(f">{len(v.replicas)}i", *v.replicas))
    out.append(encode_count(v.isr, "PartitionRecord v0 PartitionRecord.isr", compact=True, nullable=False))
    out.append(struct.pack(f">{len(v.isr)}i", *v.isr))
    out.append(
        encode_count(
            v.removing_replicas,
            "PartitionRecord v0 PartitionRecord.removing_replicas",
            compact=True,
            nullable=False,
        )
    )
    out.append(struct.pack(f">{len(v.removing_replicas)}i", *v.removing_replicas))
    out.append(
        encode_count(
            v.adding_replicas,
            "PartitionRecord v0 PartitionRecord.adding_replicas",
            compact=True,
            nullable=False,
        )
    )
    out.append(struct.pack(f">{len(v.adding_replicas)}i", *v.adding_replicas))
    out.append(_S1.pack(v.leader, v.leader_epoch, v.partition_epoch))
    tags = list(v.unknown_tagged_fields)
    if v.leader_recovery_state != 0:
        outer, out = out, []
        out.append(_S2.pack(v.leader_recovery_state))
        tags.append((0, b"".join(out)))
        out = outer
    out.append(encode_tagged(tags))


def _read_partition_record_v1(buf, pos: int, end: int) -> tuple[PartitionRecord, int]:
    """Read a PartitionRecord v1 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 20:
        raise truncated("PartitionRecord v1 PartitionRecord.partition_id", pos, 20, end)
    (
        f_partition_id,
        f_topic_id,
    ) = _S0.unpack_from(buf, pos)
    pos += 20
    f_topic_id = UUID(bytes=f_topic_id)
    n, pos = read_count(
        buf, pos, end, "PartitionRecord v1 PartitionRecord.replicas", compact=True, nullable=False, min_size=4
    )
    f_replicas = list(struct.unpack_from(f">{n}i", buf, pos))
    pos += 4 * n
    n, pos = read_count(
        buf, pos, end, "PartitionRecord v1 PartitionRecord.isr", compact=True, nullable=False, min_size=4
    )
    f_isr = list(struct.unpack_from(f">{n}i", buf, pos))
    pos += 4 * n
    n, pos = read_count(
        buf,
        pos,
        end,
        "PartitionRecord v1 PartitionRecord.removing_replicas",
        compact=True,
        nullable=False,
        min_size=4,
    )
    f_removing_replicas = list(struct.unpack_from(f">{n}i", buf, pos))
    pos += 4 * n
    n, pos = read_count(
        buf,
        pos,
        end,
        "PartitionRecord v1 PartitionRecord.adding_replicas",
        compact=True,
        nullable=False,
        min_size=4,
    )
    f_adding_replicas = list(struct.unpack_from(f">{n}i", buf, pos))
    pos += 4 * n
    if end - pos < 12:
        raise truncated("PartitionRecord v1 PartitionRecord.leader", pos, 12, end)
    (
        f_leader,
        f_leader_epoch,
        f_partition_epoch,
    ) = _S1.unpack_from(buf, pos)
    pos += 12
    n, pos = read_count(
        buf,
        pos,
        end,
        "PartitionRecord v1 PartitionRecord.directories",
        compact=True,
        nullable=False,
        min_size=16,
    )
    f_directories = [UUID(bytes=bytes(buf[at : at + 16])) for at in range(pos, pos + 16 * n, 16)]
    pos += 16 * n
    f_leader_recovery_state = 0
    n, pos = read_uvarint(buf, pos, end, "PartitionRecord v1 PartitionRecord tagged fields")
    unknown = []
    seen = set()
    for _ in range(n):
        tag, pos, stop = read_tag_header(buf, pos, end, "PartitionRecord v1 PartitionRecord tagged fields")
        if tag in seen:
            raise repeated_tag("PartitionRecord v1 PartitionRecord tagged fields", tag, pos)
        seen.add(tag)
        if tag == 0:
            start = pos
            if stop - pos < 1:
                raise truncated("PartitionRecord v1 PartitionRecord.leader_recovery_state", pos, 1, stop)
            (f_leader_recovery_state,) = _S2.unpack_from(buf, pos)
            pos += 1
            if pos != stop:
                raise tagged_size_mismatch(
                    "PartitionRecord v1 PartitionRecord tagged fields", tag, start, stop, pos
                )
        else:
            unknown.append((tag, bytes(buf[pos:stop])))
            pos = stop
    return PartitionRecord(
        f_partition_id,
        f_topic_id,
        f_replicas,
        f_isr,
        f_removing_replicas,
        f_adding_replicas,
        f_leader,
        f_leader_recovery_state,
        f_leader_epoch,
        f_partition_epoch,
        f_directories,
        None,
        None,
        unknown,
    ), pos


def _write_partition_record_v1(v: PartitionRecord, out: list) -> None:
    """Append the bytes of a PartitionRecord v1 to ``out``."""
    absent(v.eligible_leader_replicas, None, "PartitionRecord v1 PartitionRecord.eligible_leader_replicas")
    absent(v.last_known_elr, None, "PartitionRecord v1 PartitionRecord.last_known_elr")
    out.append(_S0.pack(v.partition_id, v.topic_id.bytes))
    out.append(
        encode_count(v.replicas, "PartitionRecord v1 PartitionRecord.replicas", compact=True, nullable=False)
    )
    out.append(struct.pack(f">{len(v.replicas)}i", *v.replicas))
    out.append(encode_count(v.isr, "PartitionRecord v1 PartitionRecord.isr", compact=True, nullable=False))
    out.append(struct.pack(f">{len(v.isr)}i", *v.isr))
    out.append(
        encode_count(
            v.removing_replicas,
            "PartitionRecord v1 PartitionRecord.removing_replicas",
            compact=True,
            nullable=False,
        )
    )
    out.append(struct.pack(f">{len(v.removing_replicas)}i", *v.removing_replicas))
    out.append(
        encode_count(
            v.adding_replicas,
            "PartitionRecord v1 PartitionRecord.adding_replicas",
            compact=True,
            nullable=False,
        )
    )
    out.append(struct.pack(f">{len(v.adding_replicas)}i", *v.adding_replicas))
    out.append(_S1.pack(v.leader, v.leader_epoch, v.partition_epoch))
    out.append(
        encode_count(
            v.directories, "PartitionRecord v1 PartitionRecord.directories", compact=True, nullable=False
        )
    )
    out += [u.bytes for u in v.directories]
    tags = list(v.unknown_tagged_fields)
    if v.leader_recovery_state != 0:
        outer, out = out, []
        out.append(_S2.pack(v.leader_recovery_state))
        tags.append((0, b"".join(out)))
        out = outer
    out.append(encode_tagged(tags))


def _read_partition_record_v2(buf, pos: int, end: int) -> tuple[PartitionRecord, int]:
    """Read a PartitionRecord v2 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 20:
        raise truncated("PartitionRecord v2 PartitionRecord.partition_id", pos, 20, end)
    (
        f_partition_id,
        f_topic_id,
    ) = _S0.unpack_from(buf, pos)
    pos += 20
    f_topic_id = UUID(bytes=f_topic_id)
    n, pos = read_count(
        buf, pos, end, "PartitionRecord v2 PartitionRecord.replicas", compact=True, nullable=False, min_size=4
    )
    f_replicas = list(struct.unpack_from(f">{n}i", buf, pos))
    pos += 4 * n
    n, pos = read_count(
        buf, pos, end, "PartitionRecord v2 PartitionRecord.isr", compact=True, nullable=False, min_size=4
    )
    f_isr = list(struct.unpack_from(f">{n}i", buf, pos))
    pos += 4 * n
    n, pos = read_count(
        buf,
        pos,
        end,
        "PartitionRecord v2 PartitionRecord.removing_replicas",
        compact=True,
        nullable=False,
        min_size=4,
    )
    f_removing_replicas = list(struct.unpack_from(f">{n}i", buf, pos))
    pos += 4 * n
    n, pos = read_count(
        buf,
        pos,
        end,
        "PartitionRecord v2 PartitionRecord.adding_replicas",
        compact=True,
        nullable=False,
        min_size=4,
    )
    f_adding_replicas = list(struct.unpack_from(f">{n}i", buf, pos))
    pos += 4 * n
    if end - pos < 12:
        raise truncated("PartitionRecord v2 PartitionRecord.leader", pos, 12, end)
    (
        f_leader,
        f_leader_epoch,
        f_partition_epoch,
    ) = _S1.unpack_from(buf, pos)
    pos += 12
    n, pos = read_count(
        buf,
        pos,
        end,
        "PartitionRecord v2 PartitionRecord.directories",
        compact=True,
        nullable=False,
        min_size=16,
    )
    f_directories = [UUID(bytes=bytes(buf[at : at + 16])) for at in range(pos, pos + 16 * n, 16)]
    pos += 16 * n
    f_leader_recovery_state = 0
    f_eligible_leader_replicas = None
    f_last_known_elr = None
    n, pos = read_uvarint(buf, pos, end, "PartitionRecord v2 PartitionRecord tagged fields")
    unknown = []
    seen = set()
    for _ in range(n):
        tag, pos, stop = read_tag_header(buf, pos, end, "PartitionRecord v2 PartitionRecord tagged fields")
        if tag in seen:
            raise repeated_tag("PartitionRecord v2 PartitionRecord tagged fields", tag, pos)
        seen.add(tag)
        if tag == 0:
            start = pos
            if stop - pos < 1:
                raise truncated("PartitionRecord v2 PartitionRecord.leader_recovery_state", pos, 1, stop)
            (f_leader_recovery_state,) = _S2.unpack_from(buf, pos)
            pos += 1
            if pos != stop:
                raise tagged_size_mismatch(
                    "PartitionRecord v2 PartitionRecord tagged fields", tag, start, stop, pos
                )
        elif tag == 1:
            start = pos
            n, pos = read_count(
                buf,
                pos,
                stop,
                "PartitionRecord v2 PartitionRecord.eligible_leader_replicas",
                compact=True,
                nullable=True,
                min_size=4,
            )
            if n == -1:
                f_eligible_leader_replicas = None
            else:
                f_eligible_leader_replicas = list(struct.unpack_from(f">{n}i", buf, pos))
                pos += 4 * n
            if pos != stop:
                raise tagged_size_mismatch(
                    "PartitionRecord v2 PartitionRecord tagged fields", tag, start, stop, pos
                )
        elif tag == 2:
            start = pos
            n, pos = read_count(
                buf,
                pos,
                stop,
                "PartitionRecord v2 PartitionRecord.last_known_elr",
                compact=True,
                nullable=True,
                min_size=4,
            )
            if n == -1:
                f_last_known_elr = None
            else:
                f_last_known_elr = list(struct.unpack_from(f">{n}i", buf, pos))
                pos += 4 * n
            if pos != stop:
                raise tagged_size_mismatch(
                    "PartitionRecord v2 PartitionRecord tagged fields", tag, start, stop, pos
                )
        else:
            unknown.append((tag, bytes(buf[pos:stop])))
            pos = stop
    return PartitionRecord(
        f_partition_id,
        f_topic_id,
        f_replicas,
        f_isr,
        f_removing_replicas,
        f_adding_replicas,
        f_leader,
        f_leader_recovery_state,
        f_leader_epoch,
        f_partition_epoch,
        f_directories,
        f_eligible_leader_replicas,
        f_last_known_elr,
        unknown,
    ), pos


def _write_partition_record_v2(v: PartitionRecord, out: list) -> None:
    """Append the bytes of a PartitionRecord v2 to ``out``."""
    out.append(_S0.pack(v.partition_id, v.topic_id.bytes))
    out.append(
        encode_count(v.replicas, "PartitionRecord v2 PartitionRecord.replicas", compact=True, nullable=False)
    )
    out.append(struct.pack(f">{len(v.replicas)}i", *v.replicas))
    out.append(encode_count(v.isr, "PartitionRecord v2 PartitionRecord.isr", compact=True, nullable=False))
    out.append(struct.pack(f">{len(v.isr)}i", *v.isr))
    out.append(
        encode_count(
            v.removing_replicas,
            "PartitionRecord v2 PartitionRecord.removing_replicas",
            compact=True,
            nullable=False,
        )
    )
    out.append(struct.pack(f">{len(v.removing_replicas)}i", *v.removing_replicas))
    out.append(
        encode_count(
            v.adding_replicas,
            "PartitionRecord v2 PartitionRecord.adding_replicas",
            compact=True,
            nullable=False,
        )
    )
    out.append(struct.pack(f">{len(v.adding_replicas)}i", *v.adding_replicas))
    out.append(_S1.pack(v.leader, v.leader_epoch, v.partition_epoch))
    out.append(
        encode_count(
            v.directories, "PartitionRecord v2 PartitionRecord.directories", compact=True, nullable=False
        )
    )
    out += [u.bytes for u in v.directories]
    tags = list(v.unknown_tagged_fields)
    if v.leader_recovery_state != 0:
        outer, out = out, []
        out.append(_S2.pack(v.leader_recovery_state))
        tags.append((0, b"".join(out)))
        out = outer
    if v.eligible_leader_replicas is not None:
        outer, out = out, []
        out.append(
            encode_count(
                v.eligible_leader_replicas,
                "PartitionRecord v2 PartitionRecord.eligible_leader_replicas",
                compact=True,
                nullable=True,
            )
        )
        if v.eligible_leader_replicas is not None:
            out.append(struct.pack(f">{len(v.eligible_leader_replicas)}i", *v.eligible_leader_replicas))
        tags.append((1, b"".join(out)))
        out = outer
    if v.last_known_elr is not None:
        outer, out = out, []
        out.append(
            encode_count(
                v.last_known_elr,
                "PartitionRecord v2 PartitionRecord.last_known_elr",
                compact=True,
                nullable=True,
            )
        )
        if v.last_known_elr is not None:
            out.append(struct.pack(f">{len(v.last_known_elr)}i", *v.last_known_elr))
        tags.append((2, b"".join(out)))
        out = outer
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_partition_record_v0,
    1: _read_partition_record_v1,
    2: _read_partition_record_v2,
}
_WRITERS = {
    0: _write_partition_record_v0,
    1: _write_partition_record_v1,
    2: _write_partition_record_v2,
}


def decode_partition_record(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[PartitionRecord, int]:
    """Decode a PartitionRecord of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"PartitionRecord: unknown version {version} (this schema has versions 0-2)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_partition_record(value: PartitionRecord, version: int) -> bytes:
    """Encode ``value`` as PartitionRecord ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(f"PartitionRecord: unknown version {version} (this schema has versions 0-2)")
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(f"PartitionRecord v{version}: a value does not fit its field: {exc}") from None
    return b"".join(out)
