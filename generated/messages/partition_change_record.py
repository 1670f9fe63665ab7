"""PartitionChangeRecord, versions 0-2 (flexible: 0+): A change to one partition: only the fields that changed are present (as tagged fields).

Generated from schemas/messages/partition_change_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple
from uuid import UUID

from kafkaspec.codec.message_types import (
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

SCHEMA = "schemas/messages/partition_change_record.yaml"
NAME = "PartitionChangeRecord"
FAMILY = "metadata"
#: the api key of the KRaft metadata record
TYPE_IDS = (5,)
VERSIONS = [0, 1, 2]
FLEXIBLE_VERSIONS = [0, 1, 2]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None

_S0 = struct.Struct(">i16s")
_S1 = struct.Struct(">i")
_S2 = struct.Struct(">b")

# -- typed values ---------------------------------------------------------------


class PartitionChangeRecord(NamedTuple):
    """A change to one partition: only the fields that changed are present (as tagged fields).

    Fields:
        partition_id: Partition number within the topic. (versions 0+)
        topic_id: Id of the topic (its TopicRecord's topic_id). (versions 0+)
        isr: The new ISR, or null when unchanged. (versions 0+, nullable 0+, tagged 0 in 0+)
        leader: The new leader; -1 for none; -2 (the default) when unchanged. (versions 0+, tagged 1 in 0+)
        replicas: The new replicas, or null when unchanged. (versions 0+, nullable 0+, tagged 2 in 0+)
        removing_replicas: The new replicas being removed, or null when unchanged. (versions 0+, nullable 0+, tagged 3 in 0+)
        adding_replicas: The new replicas being added, or null when unchanged. (versions 0+, nullable 0+, tagged 4 in 0+)
        leader_recovery_state: -1 when unchanged; 0 recovered (or elected from the ISR); 1 elected uncleanly and still recovering. (versions 0+, tagged 5 in 0+)
        directories: The new log directory of each replica, or null when unchanged. (versions 1+, nullable 1+, tagged 8 in 1+)
        eligible_leader_replicas: The new eligible leader replicas, or null when unchanged (KIP-966). (versions 2+, nullable 2+, tagged 6 in 2+)
        last_known_elr: The new last known eligible leader replicas, or null when unchanged (KIP-966). (versions 2+, nullable 2+, tagged 7 in 2+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    partition_id: int = -1
    topic_id: UUID = ZERO_UUID
    isr: list[int] | None = None
    leader: int = -2
    replicas: list[int] | None = None
    removing_replicas: list[int] | None = None
    adding_replicas: list[int] | None = None
    leader_recovery_state: int = -1
    directories: list[UUID] | None = None
    eligible_leader_replicas: list[int] | None = None
    last_known_elr: list[int] | None = None
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_partition_change_record_v0(buf, pos: int, end: int) -> tuple[PartitionChangeRecord, int]:
    """Read a PartitionChangeRecord v0 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 20:
        raise truncated("PartitionChangeRecord v0 PartitionChangeRecord.partition_id", pos, 20, end)
    (
        f_partition_id,
        f_topic_id,
    ) = _S0.unpack_from(buf, pos)
    pos += 20
    f_topic_id = UUID(bytes=f_topic_id)
    f_isr = None
    f_leader = -2
    f_replicas = None
    f_removing_replicas = None
    f_adding_replicas = None
    f_leader_recovery_state = -1
    n, pos = read_uvarint(buf, pos, end, "PartitionChangeRecord v0 PartitionChangeRecord tagged fields")
    unknown = []
    seen = set()
    for _ in range(n):
        tag, pos, stop = read_tag_header(
            buf, pos, end, "PartitionChangeRecord v0 PartitionChangeRecord tagged fields"
        )
        if tag in seen:
            raise repeated_tag("PartitionChangeRecord v0 PartitionChangeRecord tagged fields", tag, pos)
        seen.add(tag)
        if tag == 0:
            start = pos
            n, pos = read_count(
                buf,
                pos,
                stop,
                "PartitionChangeRecord v0 PartitionChangeRecord.isr",
                compact=True,
                nullable=True,
                min_size=4,
            )
            if n == -1:
                f_isr = None
            else:
                f_isr = list(struct.unpack_from(f">{n}i", buf, pos))
                pos += 4 * n
            if pos != stop:
                raise tagged_size_mismatch(
                    "PartitionChangeRecord v0 PartitionChangeRecord tagged fields", tag, start, stop, pos
                )
        elif tag == 1:
            start = pos
            if stop - pos < 4:
                raise truncated("PartitionChangeRecord v0 PartitionChangeRecord.leader", pos, 4, stop)
            (f_leader,) = _S1.unpack_from(buf, pos)
            pos += 4
            if pos != stop:
                raise tagged_size_mismatch(
                    "PartitionChangeRecord v0 PartitionChangeRecord tagged fields", tag, start, stop, pos
                )
        elif tag == 2:
            start = pos
            n, pos = read_count(
                buf,
                pos,
                stop,
                "PartitionChangeRecord v0 PartitionChangeRecord.replicas",
                compact=True,
                nullable=True,
                min_size=4,
            )
            if n == -1:
                f_replicas = None
            else:
                f_replicas = list(struct.unpack_from(f">{n}i", buf, pos))
                pos += 4 * n
            if pos != stop:
                raise tagged_size_mismatch(
                    "PartitionChangeRecord v0 PartitionChangeRecord tagged fields", tag, start, stop, pos
                )
        elif tag == 3:
            start = pos
            n, pos = read_count(
                buf,
                pos,
                stop,
                "PartitionChangeRecord v0 PartitionChangeRecord.removing_replicas",
                compact=True,
                nullable=True,
                min_size=4,
            )
            if n == -1:
                f_removing_replicas = None
            else:
                f_removing_replicas = list(struct.unpack_from(f">{n}i", buf, pos))
                pos += 4 * n
            if pos != stop:
                raise tagged_size_mismatch(
                    "PartitionChangeRecord v0 PartitionChangeRecord tagged fields", tag, start, stop, pos
                )
        elif tag == 4:
            start = pos
            n, pos = read_count(
                buf,
                pos,
                stop,
                "PartitionChangeRecord v0 PartitionChangeRecord.adding_replicas",
                compact=True,
                nullable=True,
                min_size=4,
            )
            if n == -1:
                f_adding_replicas = None
            else:
                f_adding_replicas = list(struct.unpack_from(f">{n}i", buf, pos))
                pos += 4 * n
            if pos != stop:
                raise tagged_size_mismatch(
                    "PartitionChangeRecord v0 PartitionChangeRecord tagged fields", tag, start, stop, pos
                )
        elif tag == 5:
            start = pos
            if stop - pos < 1:
                raise truncated(
                    "PartitionChangeRecord v0 PartitionChangeRecord.leader_recovery_state", pos, 1, stop
                )
            (f_leader_recovery_state,) = _S2.unpack_from(buf, pos)
            pos += 1
            if pos != stop:
                raise tagged_size_mismatch(
                    "PartitionChangeRecord v0 PartitionChangeRecord tagged fields", tag, start, stop, pos
                )
        else:
            unknown.append((tag, bytes(buf[pos:stop])))
            pos = stop
    return PartitionChangeRecord(
        f_partition_id,
        f_topic_id,
        f_isr,
        f_leader,
        f_replicas,
        f_removing_replicas,
        f_adding_replicas,
        f_leader_recovery_state,
        None,
        None,
        None,
        unknown,
    ), pos


def _write_partition_change_record_v0(v: PartitionChangeRecord, out: list) -> None:
    """Append the bytes of a PartitionChangeRecord v0 to ``out``."""
    absent(v.directories, None, "PartitionChangeRecord v0 PartitionChangeRecord.directories")
    absent(
        v.eligible_leader_replicas,
        None,
        "PartitionChangeRecord v0 PartitionChangeRecord.eligible_leader_replicas",
    )
    absent(v.last_known_elr, None, "PartitionChangeRecord v0 PartitionChangeRecord.last_known_elr")
    out.append(_S0.pack(v.partition_id, v.topic_id.bytes))
    tags = list(v.unknown_tagged_fields)
    if v.isr is not None:
        outer, out = out, []
        out.append(
            encode_count(
                v.isr, "PartitionChangeRecord v0 PartitionChangeRecord.isr", compact=True, nullable=True
            )
        )
        if v.isr is not None:
            out.append(struct.pack(f">{len(v.isr)}i", *v.isr))
        tags.append((0, b"".join(out)))
        out = outer
    if v.leader != -2:
        outer, out = out, []
        out.append(_S1.pack(v.leader))
        tags.append((1, b"".join(out)))
        out = outer
    if v.replicas is not None:
        outer, out = out, []
        out.append(
            encode_count(
                v.replicas,
                "PartitionChangeRecord v0 PartitionChangeRecord.replicas",
                compact=True,
                nullable=True,
            )
        )
        if v.replicas is not None:
            out.append(struct.pack(f">{len(v.replicas)}i", *v.replicas))
        tags.append((2, b"".join(out)))
        out = outer
    if v.removing_replicas is not None:
        outer, out = out, []
        out.append(
            encode_count(
                v.removing_replicas,
                "PartitionChangeRecord v0 PartitionChangeRecord.removing_replicas",
                compact=True,
                nullable=True,
            )
        )
        if v.removing_replicas is not None:
            out.append(struct.pack(f">{len(v.removing_replicas)}i", *v.removing_replicas))
        tags.append((3, b"".join(out)))
        out = outer
    if v.adding_replicas is not None:
        outer, out = out, []
        out.append(
            encode_count(
                v.adding_replicas,
                "PartitionChangeRecord v0 PartitionChangeRecord.adding_replicas",
                compact=True,
                nullable=True,
            )
        )
        if v.adding_replicas is not None:
            out.append(struct.pack(f">{len(v.adding_replicas)}i", *v.adding_replicas))
        tags.append((4, b"".join(out)))
        out = outer
    if v.leader_recovery_state != -1:
        outer, out = out, []
        out.append(_S2.pack(v.leader_recovery_state))
        tags.append((5, b"".join(out)))
        out = outer
    out.append(encode_tagged(tags))


def _read_partition_change_record_v1(buf, pos: int, end: int) -> tuple[PartitionChangeRecord, int]:
    """Read a PartitionChangeRecord v1 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 20:
        raise truncated("PartitionChangeRecord v1 PartitionChangeRecord.partition_id", pos, 20, end)
    (
        f_partition_id,
        f_topic_id,
    ) = _S0.unpack_from(buf, pos)
    pos += 20
    f_topic_id = UUID(bytes=f_topic_id)
    f_isr = None
    f_leader = -2
    f_replicas = None
    f_removing_replicas = None
    f_adding_replicas = None
    f_leader_recovery_state = -1
    f_directories = None
    n, pos = read_uvarint(buf, pos, end, "PartitionChangeRecord v1 PartitionChangeRecord tagged fields")
    unknown = []
    seen = set()
    for _ in range(n):
        tag, pos, stop = read_tag_header(
            buf, pos, end, "PartitionChangeRecord v1 PartitionChangeRecord tagged fields"
        )
        if tag in seen:
            raise repeated_tag("PartitionChangeRecord v1 PartitionChangeRecord tagged fields", tag, pos)
        seen.add(tag)
        if tag == 0:
            start = pos
            n, pos = read_count(
                buf,
                pos,
                stop,
                "PartitionChangeRecord v1 PartitionChangeRecord.isr",
                compact=True,
                nullable=True,
                min_size=4,
            )
            if n == -1:
                f_isr = None
            else:
                f_isr = list(struct.unpack_from(f">{n}i", buf, pos))
                pos += 4 * n
            if pos != stop:
                raise tagged_size_mismatch(
                    "PartitionChangeRecord v1 PartitionChangeRecord tagged fields", tag, start, stop, pos
                )
        elif tag == 1:
            start = pos
            if stop - pos < 4:
                raise truncated("PartitionChangeRecord v1 PartitionChangeRecord.leader", pos, 4, stop)
            (f_leader,) = _S1.unpack_from(buf, pos)
            pos += 4
            if pos != stop:
                raise tagged_size_mismatch(
                    "PartitionChangeRecord v1 PartitionChangeRecord tagged fields", tag, start, stop, pos
                )
        elif tag == 2:
            start = pos
            n, pos = read_count(
                buf,
                pos,
                stop,
                "PartitionChangeRecord v1 PartitionChangeRecord.replicas",
                compact=True,
                nullable=True,
                min_size=4,
            )
            if n == -1:
                f_replicas = None
            else:
                f_replicas = list(struct.unpack_from(f">{n}i", buf, pos))
                pos += 4 * n
            if pos != stop:
                raise tagged_size_mismatch(
                    "PartitionChangeRecord v1 PartitionChangeRecord tagged fields", tag, start, stop, pos
                )
        elif tag == 3:
            start = pos
            n, pos = read_count(
                buf,
                pos,
                stop,
                "PartitionChangeRecord v1 PartitionChangeRecord.removing_replicas",
                compact=True,
                nullable=True,
                min_size=4,
            )
            if n == -1:
                f_removing_replicas = None
            else:
                f_removing_replicas = list(struct.unpack_from(f">{n}i", buf, pos))
                pos += 4 * n
            if pos != stop:
                raise tagged_size_mismatch(
                    "PartitionChangeRecord v1 PartitionChangeRecord tagged fields", tag, start, stop, pos
                )
        elif tag == 4:
            start = pos
            n, pos = read_count(
                buf,
                pos,
                stop,
                "PartitionChangeRecord v1 PartitionChangeRecord.adding_replicas",
                compact=True,
                nullable=True,
                min_size=4,
            )
            if n == -1:
                f_adding_replicas = None
            else:
                f_adding_replicas = list(struct.unpack_from(f">{n}i", buf, pos))
                pos += 4 * n
            if pos != stop:
                raise tagged_size_mismatch(
                    "PartitionChangeRecord v1 PartitionChangeRecord tagged fields", tag, start, stop, pos
                )
        elif tag == 5:
            start = pos
            if stop - pos < 1:
                raise truncated(
                    "PartitionChangeRecord v1 PartitionChangeRecord.leader_recovery_state", pos, 1, stop
                )
            (f_leader_recovery_state,) = _S2.unpack_from(buf, pos)
            pos += 1
            if pos != stop:
                raise tagged_size_mismatch(
                    "PartitionChangeRecord v1 PartitionChangeRecord tagged fields", tag, start, stop, pos
                )
        elif tag == 8:
            start = pos
            n, pos = read_count(
                buf,
                pos,
                stop,
                "PartitionChangeRecord v1 PartitionChangeRecord.directories",
                compact=True,
                nullable=True,
                min_size=16,
            )
            if n == -1:
                f_directories = None
            else:
                f_directories = [UUID(bytes=bytes(buf[at : at + 16])) for at in range(pos, pos + 16 * n, 16)]
                pos += 16 * n
            if pos != stop:
                raise tagged_size_mismatch(
                    "PartitionChangeRecord v1 PartitionChangeRecord tagged fields", tag, start, stop, pos
                )
        else:
            unknown.append((tag, bytes(buf[pos:stop])))
            pos = stop
    return PartitionChangeRecord(
        f_partition_id,
        f_topic_id,
        f_isr,
        f_leader,
        f_replicas,
        f_removing_replicas,
        f_adding_replicas,
        f_leader_recovery_state,
        f_directories,
        None,
        None,
        unknown,
    ), pos


def _write_partition_change_record_v1(v: PartitionChangeRecord, out: list) -> None:
    """Append the bytes of a PartitionChangeRecord v1 to ``out``."""
    absent(
        v.eligible_leader_replicas,
        None,
        "PartitionChangeRecord v1 PartitionChangeRecord.eligible_leader_replicas",
    )
    absent(v.last_known_elr, None, "PartitionChangeRecord v1 PartitionChangeRecord.last_known_elr")
    out.append(_S0.pack(v.partition_id, v.topic_id.bytes))
    tags = list(v.unknown_tagged_fields)
    if v.isr is not None:
        outer, out = out, []
        out.append(
            encode_count(
                v.isr, "PartitionChangeRecord v1 PartitionChangeRecord.isr", compact=True, nullable=True
            )
        )
        if v.isr is not None:
            out.append(struct.pack(f">{len(v.isr)}i", *v.isr))
        tags.append((0, b"".join(out)))
        out = outer
    if v.leader != -2:
        outer, out = out, []
        out.append(_S1.pack(v.leader))
        tags.append((1, b"".join(out)))
        out = outer
    if v.replicas is not None:
        outer, out = out, []
        out.append(
            encode_count(
                v.replicas,
                "PartitionChangeRecord v1 PartitionChangeRecord.replicas",
                compact=True,
                nullable=True,
            )
        )
        if v.replicas is not None:
            out.append(struct.pack(f">{len(v.replicas)}i", *v.replicas))
        tags.append((2, b"".join(out)))
        out = outer
    if v.removing_replicas is not None:
        outer, out = out, []
        out.append(
            encode_count(
                v.removing_replicas,
                "PartitionChangeRecord v1 PartitionChangeRecord.removing_replicas",
                compact=True,
                nullable=True,
            )
        )
        if v.removing_replicas is not None:
            out.append(struct.pack(f">{len(v.removing_replicas)}i", *v.removing_replicas))
        tags.append((3, b"".join(out)))
        out = outer
    if v.adding_replicas is not None:
        outer, out = out, []
        out.append(
            encode_count(
                v.adding_replicas,
                "PartitionChangeRecord v1 PartitionChangeRecord.adding_replicas",
                compact=True,
                nullable=True,
            )
        )
        if v.adding_replicas is not None:
            out.append(struct.pack(f">{len(v.adding_replicas)}i", *v.adding_replicas))
        tags.append((4, b"".join(out)))
        out = outer
    if v.leader_recovery_state != -1:
        outer, out = out, []
        out.append(_S2.pack(v.leader_recovery_state))
        tags.append((5, b"".join(out)))
        out = outer
    if v.directories is not None:
        outer, out = out, []
        out.append(
            encode_count(
                v.directories,
                "PartitionChangeRecord v1 PartitionChangeRecord.directories",
                compact=True,
                nullable=True,
            )
        )
        if v.directories is not None:
            out += [u.bytes for u in v.directories]
        tags.append((8, b"".join(out)))
        out = outer
    out.append(encode_tagged(tags))


def _read_partition_change_record_v2(buf, pos: int, end: int) -> tuple[PartitionChangeRecord, int]:
    """Read a PartitionChangeRecord v2 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 20:
        raise truncated("PartitionChangeRecord v2 PartitionChangeRecord.partition_id", pos, 20, end)
    (
        f_partition_id,
        f_topic_id,
    ) = _S0.unpack_from(buf, pos)
    pos += 20
    f_topic_id = UUID(bytes=f_topic_id)
    f_isr = None
    f_leader = -2
    f_replicas = None
    f_removing_replicas = None
    f_adding_replicas = None
    f_leader_recovery_state = -1
    f_eligible_leader_replicas = None
    f_last_known_elr = None
    f_directories = None
    n, pos = read_uvarint(buf, pos, end, "PartitionChangeRecord v2 PartitionChangeRecord tagged fields")
    unknown = []
    seen = set()
    for _ in range(n):
        tag, pos, stop = read_tag_header(
            buf, pos, end, "PartitionChangeRecord v2 PartitionChangeRecord tagged fields"
        )
        if tag in seen:
            raise repeated_tag("PartitionChangeRecord v2 PartitionChangeRecord tagged fields", tag, pos)
        seen.add(tag)
        if tag == 0:
            start = pos
            n, pos = read_count(
                buf,
                pos,
                stop,
                "PartitionChangeRecord v2 PartitionChangeRecord.isr",
                compact=True,
                nullable=True,
                min_size=4,
            )
            if n == -1:
                f_isr = None
            else:
                f_isr = list(struct.unpack_from(f">{n}i", buf, pos))
                pos += 4 * n
            if pos != stop:
                raise tagged_size_mismatch(
                    "PartitionChangeRecord v2 PartitionChangeRecord tagged fields", tag, start, stop, pos
                )
        elif tag == 1:
            start = pos
            if stop - pos < 4:
                raise truncated("PartitionChangeRecord v2 PartitionChangeRecord.leader", pos, 4, stop)
            (f_leader,) = _S1.unpack_from(buf, pos)
            pos += 4
            if pos != stop:
                raise tagged_size_mismatch(
                    "PartitionChangeRecord v2 PartitionChangeRecord tagged fields", tag, start, stop, pos
                )
        elif tag == 2:
            start = pos
            n, pos = read_count(
                buf,
                pos,
                stop,
                "PartitionChangeRecord v2 PartitionChangeRecord.replicas",
                compact=True,
                nullable=True,
                min_size=4,
            )
            if n == -1:
                f_replicas = None
            else:
                f_replicas = list(struct.unpack_from(f">{n}i", buf, pos))
                pos += 4 * n
            if pos != stop:
                raise tagged_size_mismatch(
                    "PartitionChangeRecord v2 PartitionChangeRecord tagged fields", tag, start, stop, pos
                )
        elif tag == 3:
            start = pos
            n, pos = read_count(
                buf,
                pos,
                stop,
                "PartitionChangeRecord v2 PartitionChangeRecord.removing_replicas",
                compact=True,
                nullable=True,
                min_size=4,
            )
            if n == -1:
                f_removing_replicas = None
            else:
                f_removing_replicas = list(struct.unpack_from(f">{n}i", buf, pos))
                pos += 4 * n
            if pos != stop:
                raise tagged_size_mismatch(
                    "PartitionChangeRecord v2 PartitionChangeRecord tagged fields", tag, start, stop, pos
                )
        elif tag == 4:
            start = pos
            n, pos = read_count(
                buf,
                pos,
                stop,
                "PartitionChangeRecord v2 PartitionChangeRecord.adding_replicas",
                compact=True,
                nullable=True,
                min_size=4,
            )
            if n == -1:
                f_adding_replicas = None
            else:
                f_adding_replicas = list(struct.unpack_from(f">{n}i", buf, pos))
                pos += 4 * n
            if pos != stop:
                raise tagged_size_mismatch(
                    "PartitionChangeRecord v2 PartitionChangeRecord tagged fields", tag, start, stop, pos
                )
        elif tag == 5:
            start = pos
            if stop - pos < 1:
                raise truncated(
                    "PartitionChangeRecord v2 PartitionChangeRecord.leader_recovery_state", pos, 1, stop
                )
            (f_leader_recovery_state,) = _S2.unpack_from(buf, pos)
            pos += 1
            if pos != stop:
                raise tagged_size_mismatch(
                    "PartitionChangeRecord v2 PartitionChangeRecord tagged fields", tag, start, stop, pos
                )
        elif tag == 6:
            start = pos
            n, pos = read_count(
                buf,
                pos,
                stop,
                "PartitionChangeRecord v2 PartitionChangeRecord.eligible_leader_replicas",
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
                    "PartitionChangeRecord v2 PartitionChangeRecord tagged fields", tag, start, stop, pos
                )
        elif tag == 7:
            start = pos
            n, pos = read_count(
                buf,
                pos,
                stop,
                "PartitionChangeRecord v2 PartitionChangeRecord.last_known_elr",
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
                    "PartitionChangeRecord v2 PartitionChangeRecord tagged fields", tag, start, stop, pos
                )
        elif tag == 8:
            start = pos
            n, pos = read_count(
                buf,
                pos,
                stop,
                "PartitionChangeRecord v2 PartitionChangeRecord.directories",
                compact=True,
                nullable=True,
                min_size=16,
            )
            if n == -1:
                f_directories = None
            else:
                f_directories = [UUID(bytes=bytes(buf[at : at + 16])) for at in range(pos, pos + 16 * n, 16)]
                pos += 16 * n
            if pos != stop:
                raise tagged_size_mismatch(
                    "PartitionChangeRecord v2 PartitionChangeRecord tagged fields", tag, start, stop, pos
                )
        else:
            unknown.append((tag, bytes(buf[pos:stop])))
            pos = stop
    return PartitionChangeRecord(
        f_partition_id,
        f_topic_id,
        f_isr,
        f_leader,
        f_replicas,
        f_removing_replicas,
        f_adding_replicas,
        f_leader_recovery_state,
        f_directories,
        f_eligible_leader_replicas,
        f_last_known_elr,
        unknown,
    ), pos


def _write_partition_change_record_v2(v: PartitionChangeRecord, out: list) -> None:
    """Append the bytes of a PartitionChangeRecord v2 to ``out``."""
    out.append(_S0.pack(v.partition_id, v.topic_id.bytes))
    tags = list(v.unknown_tagged_fields)
    if v.isr is not None:
        outer, out = out, []
        out.append(
            encode_count(
                v.isr, "PartitionChangeRecord v2 PartitionChangeRecord.isr", compact=True, nullable=True
            )
        )
        if v.isr is not None:
            out.append(struct.pack(f">{len(v.isr)}i", *v.isr))
        tags.append((0, b"".join(out)))
        out = outer
    if v.leader != -2:
        outer, out = out, []
        out.append(_S1.pack(v.leader))
        tags.append((1, b"".join(out)))
        out = outer
    if v.replicas is not None:
        outer, out = out, []
        out.append(
            encode_count(
                v.replicas,
                "PartitionChangeRecord v2 PartitionChangeRecord.replicas",
                compact=True,
                nullable=True,
            )
        )
        if v.replicas is not None:
            out.append(struct.pack(f">{len(v.replicas)}i", *v.replicas))
        tags.append((2, b"".join(out)))
        out = outer
    if v.removing_replicas is not None:
        outer, out = out, []
        out.append(
            encode_count(
                v.removing_replicas,
                "PartitionChangeRecord v2 PartitionChangeRecord.removing_replicas",
                compact=True,
                nullable=True,
            )
        )
        if v.removing_replicas is not None:
            out.append(struct.pack(f">{len(v.removing_replicas)}i", *v.removing_replicas))
        tags.append((3, b"".join(out)))
        out = outer
    if v.adding_replicas is not None:
        outer, out = out, []
        out.append(
            encode_count(
                v.adding_replicas,
                "PartitionChangeRecord v2 PartitionChangeRecord.adding_replicas",
                compact=True,
                nullable=True,
            )
        )
        if v.adding_replicas is not None:
            out.append(struct.pack(f">{len(v.adding_replicas)}i", *v.adding_replicas))
        tags.append((4, b"".join(out)))
        out = outer
    if v.leader_recovery_state != -1:
        outer, out = out, []
        out.append(_S2.pack(v.leader_recovery_state))
        tags.append((5, b"".join(out)))
        out = outer
    if v.eligible_leader_replicas is not None:
        outer, out = out, []
        out.append(
            encode_count(
                v.eligible_leader_replicas,
                "PartitionChangeRecord v2 PartitionChangeRecord.eligible_leader_replicas",
                compact=True,
                nullable=True,
            )
        )
        if v.eligible_leader_replicas is not None:
            out.append(struct.pack(f">{len(v.eligible_leader_replicas)}i", *v.eligible_leader_replicas))
        tags.append((6, b"".join(out)))
        out = outer
    if v.last_known_elr is not None:
        outer, out = out, []
        out.append(
            encode_count(
                v.last_known_elr,
                "PartitionChangeRecord v2 PartitionChangeRecord.last_known_elr",
                compact=True,
                nullable=True,
            )
        )
        if v.last_known_elr is not None:
            out.append(struct.pack(f">{len(v.last_known_elr)}i", *v.last_known_elr))
        tags.append((7, b"".join(out)))
        out = outer
    if v.directories is not None:
        outer, out = out, []
        out.append(
            encode_count(
                v.directories,
                "PartitionChangeRecord v2 PartitionChangeRecord.directories",
                compact=True,
                nullable=True,
            )
        )
        if v.directories is not None:
            out += [u.bytes for u in v.directories]
        tags.append((8, b"".join(out)))
        out = outer
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_partition_change_record_v0,
    1: _read_partition_change_record_v1,
    2: _read_partition_change_record_v2,
}
_WRITERS = {
    0: _write_partition_change_record_v0,
    1: _write_partition_change_record_v1,
    2: _write_partition_change_record_v2,
}


def decode_partition_change_record(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[PartitionChangeRecord, int]:
    """Decode a PartitionChangeRecord of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"PartitionChangeRecord: unknown version {version} (this schema has versions 0-2)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_partition_change_record(value: PartitionChangeRecord, version: int) -> bytes:
    """Encode ``value`` as PartitionChangeRecord ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(f"PartitionChangeRecord: unknown version {version} (this schema has versions 0-2)")
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(f"PartitionChangeRecord v{version}: a value does not fit its field: {exc}") from None
    return b"".join(out)
