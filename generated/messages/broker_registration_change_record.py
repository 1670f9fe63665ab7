"""BrokerRegistrationChangeRecord, versions 0-3 (flexible: 0+): A registered broker changed state: fenced or unfenced, entering controlled shutdown, or its log directories.

Generated from schemas/messages/broker_registration_change_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple
from uuid import UUID

from kafkaspec.codec.message_types import (
    EMPTY_LIST,
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

SCHEMA = "schemas/messages/broker_registration_change_record.yaml"
NAME = "BrokerRegistrationChangeRecord"
FAMILY = "metadata"
#: the api key of the KRaft metadata record
TYPE_IDS = (17,)
VERSIONS = [0, 1, 2, 3]
FLEXIBLE_VERSIONS = [0, 1, 2, 3]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None

_S0 = struct.Struct(">iq")
_S1 = struct.Struct(">b")

# -- typed values ---------------------------------------------------------------


class BrokerRegistrationChangeRecord(NamedTuple):
    """A registered broker changed state: fenced or unfenced, entering controlled shutdown, or its log directories.

    Fields:
        broker_id: Node id of the broker. (versions 0+)
        broker_epoch: Epoch the controller gave this broker registration. (versions 0+)
        fenced: 1 fenced, -1 unfenced, 0 (default) unchanged. (versions 0+, tagged 0 in 0+)
        in_controlled_shutdown: 1 when the broker entered controlled shutdown, 0 (default) unchanged. (versions 1+, tagged 1 in 1+)
        log_dirs: The broker's usable log directories, when they changed. (versions 2+, tagged 2 in 2+)
        cordoned_log_dirs: Ids of the broker's cordoned log directories (KIP-1066), when they changed; null when unchanged. (versions 3+, nullable 3+, tagged 3 in 3+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    broker_id: int = 0
    broker_epoch: int = 0
    fenced: int = 0
    in_controlled_shutdown: int = 0
    log_dirs: list[UUID] = EMPTY_LIST
    cordoned_log_dirs: list[UUID] | None = None
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_broker_registration_change_record_v0(
    buf, pos: int, end: int
) -> tuple[BrokerRegistrationChangeRecord, int]:
    """Read a BrokerRegistrationChangeRecord v0 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 12:
        raise truncated(
            "BrokerRegistrationChangeRecord v0 BrokerRegistrationChangeRecord.broker_id", pos, 12, end
        )
    (
        f_broker_id,
        f_broker_epoch,
    ) = _S0.unpack_from(buf, pos)
    pos += 12
    f_fenced = 0
    n, pos = read_uvarint(
        buf, pos, end, "BrokerRegistrationChangeRecord v0 BrokerRegistrationChangeRecord tagged fields"
    )
    unknown = []
    seen = set()
    for _ in range(n):
        tag, pos, stop = read_tag_header(
            buf, pos, end, "BrokerRegistrationChangeRecord v0 BrokerRegistrationChangeRecord tagged fields"
        )
        if tag in seen:
            raise repeated_tag(
                "BrokerRegistrationChangeRecord v0 BrokerRegistrationChangeRecord tagged fields", tag, pos
            )
        seen.add(tag)
        if tag == 0:
            start = pos
            if stop - pos < 1:
                raise truncated(
                    "BrokerRegistrationChangeRecord v0 BrokerRegistrationChangeRecord.fenced", pos, 1, stop
                )
            (f_fenced,) = _S1.unpack_from(buf, pos)
            pos += 1
            if pos != stop:
                raise tagged_size_mismatch(
                    "BrokerRegistrationChangeRecord v0 BrokerRegistrationChangeRecord tagged fields",
                    tag,
                    start,
                    stop,
                    pos,
                )
        else:
            unknown.append((tag, bytes(buf[pos:stop])))
            pos = stop
    return BrokerRegistrationChangeRecord(f_broker_id, f_broker_epoch, f_fenced, 0, [], None, unknown), pos


def _write_broker_registration_change_record_v0(v: BrokerRegistrationChangeRecord, out: list) -> None:
    """Append the bytes of a BrokerRegistrationChangeRecord v0 to ``out``."""
    absent(
        v.in_controlled_shutdown,
        0,
        "BrokerRegistrationChangeRecord v0 BrokerRegistrationChangeRecord.in_controlled_shutdown",
    )
    absent(v.log_dirs, [], "BrokerRegistrationChangeRecord v0 BrokerRegistrationChangeRecord.log_dirs")
    absent(
        v.cordoned_log_dirs,
        None,
        "BrokerRegistrationChangeRecord v0 BrokerRegistrationChangeRecord.cordoned_log_dirs",
    )
    out.append(_S0.pack(v.broker_id, v.broker_epoch))
    tags = list(v.unknown_tagged_fields)
    if v.fenced != 0:
        outer, out = out, []
        out.append(_S1.pack(v.fenced))
        tags.append((0, b"".join(out)))
        out = outer
    out.append(encode_tagged(tags))


def _read_broker_registration_change_record_v1(
    buf, pos: int, end: int
) -> tuple[BrokerRegistrationChangeRecord, int]:
    """Read a BrokerRegistrationChangeRecord v1 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 12:
        raise truncated(
            "BrokerRegistrationChangeRecord v1 BrokerRegistrationChangeRecord.broker_id", pos, 12, end
        )
    (
        f_broker_id,
        f_broker_epoch,
    ) = _S0.unpack_from(buf, pos)
    pos += 12
    f_fenced = 0
    f_in_controlled_shutdown = 0
    n, pos = read_uvarint(
        buf, pos, end, "BrokerRegistrationChangeRecord v1 BrokerRegistrationChangeRecord tagged fields"
    )
    unknown = []
    seen = set()
    for _ in range(n):
        tag, pos, stop = read_tag_header(
            buf, pos, end, "BrokerRegistrationChangeRecord v1 BrokerRegistrationChangeRecord tagged fields"
        )
        if tag in seen:
            raise repeated_tag(
                "BrokerRegistrationChangeRecord v1 BrokerRegistrationChangeRecord tagged fields", tag, pos
            )
        seen.add(tag)
        if tag == 0:
            start = pos
            if stop - pos < 1:
                raise truncated(
                    "BrokerRegistrationChangeRecord v1 BrokerRegistrationChangeRecord.fenced", pos, 1, stop
                )
            (f_fenced,) = _S1.unpack_from(buf, pos)
            pos += 1
            if pos != stop:
                raise tagged_size_mismatch(
                    "BrokerRegistrationChangeRecord v1 BrokerRegistrationChangeRecord tagged fields",
                    tag,
                    start,
                    stop,
                    pos,
                )
        elif tag == 1:
            start = pos
            if stop - pos < 1:
                raise truncated(
                    "BrokerRegistrationChangeRecord v1 BrokerRegistrationChangeRecord.in_controlled_shutdown",
                    pos,
                    1,
                    stop,
                )
            (f_in_controlled_shutdown,) = _S1.unpack_from(buf, pos)
            pos += 1
            if pos != stop:
                raise tagged_size_mismatch(
                    "BrokerRegistrationChangeRecord v1 BrokerRegistrationChangeRecord tagged fields",
                    tag,
                    start,
                    stop,
                    pos,
                )
        else:
            unknown.append((tag, bytes(buf[pos:stop])))
            pos = stop
    return BrokerRegistrationChangeRecord(
        f_broker_id, f_broker_epoch, f_fenced, f_in_controlled_shutdown, [], None, unknown
    ), pos


def _write_broker_registration_change_record_v1(v: BrokerRegistrationChangeRecord, out: list) -> None:
    """Append the bytes of a BrokerRegistrationChangeRecord v1 to ``out``."""
    absent(v.log_dirs, [], "BrokerRegistrationChangeRecord v1 BrokerRegistrationChangeRecord.log_dirs")
    absent(
        v.cordoned_log_dirs,
        None,
        "BrokerRegistrationChangeRecord v1 BrokerRegistrationChangeRecord.cordoned_log_dirs",
    )
    out.append(_S0.pack(v.broker_id, v.broker_epoch))
    tags = list(v.unknown_tagged_fields)
    if v.fenced != 0:
        outer, out = out, []
        out.append(_S1.pack(v.fenced))
        tags.append((0, b"".join(out)))
        out = outer
    if v.in_controlled_shutdown != 0:
        outer, out = out, []
        out.append(_S1.pack(v.in_controlled_shutdown))
        tags.append((1, b"".join(out)))
        out = outer
    out.append(encode_tagged(tags))


def _read_broker_registration_change_record_v2(
    buf, pos: int, end: int
) -> tuple[BrokerRegistrationChangeRecord, int]:
    """Read a BrokerRegistrationChangeRecord v2 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 12:
        raise truncated(
            "BrokerRegistrationChangeRecord v2 BrokerRegistrationChangeRecord.broker_id", pos, 12, end
        )
    (
        f_broker_id,
        f_broker_epoch,
    ) = _S0.unpack_from(buf, pos)
    pos += 12
    f_fenced = 0
    f_in_controlled_shutdown = 0
    f_log_dirs = []
    n, pos = read_uvarint(
        buf, pos, end, "BrokerRegistrationChangeRecord v2 BrokerRegistrationChangeRecord tagged fields"
    )
    unknown = []
    seen = set()
    for _ in range(n):
        tag, pos, stop = read_tag_header(
            buf, pos, end, "BrokerRegistrationChangeRecord v2 BrokerRegistrationChangeRecord tagged fields"
        )
        if tag in seen:
            raise repeated_tag(
                "BrokerRegistrationChangeRecord v2 BrokerRegistrationChangeRecord tagged fields", tag, pos
            )
        seen.add(tag)
        if tag == 0:
            start = pos
            if stop - pos < 1:
                raise truncated(
                    "BrokerRegistrationChangeRecord v2 BrokerRegistrationChangeRecord.fenced", pos, 1, stop
                )
            (f_fenced,) = _S1.unpack_from(buf, pos)
            pos += 1
            if pos != stop:
                raise tagged_size_mismatch(
                    "BrokerRegistrationChangeRecord v2 BrokerRegistrationChangeRecord tagged fields",
                    tag,
                    start,
                    stop,
                    pos,
                )
        elif tag == 1:
            start = pos
            if stop - pos < 1:
                raise truncated(
                    "BrokerRegistrationChangeRecord v2 BrokerRegistrationChangeRecord.in_controlled_shutdown",
                    pos,
                    1,
                    stop,
                )
            (f_in_controlled_shutdown,) = _S1.unpack_from(buf, pos)
            pos += 1
            if pos != stop:
                raise tagged_size_mismatch(
                    "BrokerRegistrationChangeRecord v2 BrokerRegistrationChangeRecord tagged fields",
                    tag,
                    start,
                    stop,
                    pos,
                )
        elif tag == 2:
            start = pos
            n, pos = read_count(
                buf,
                pos,
                stop,
                "BrokerRegistrationChangeRecord v2 BrokerRegistrationChangeRecord.log_dirs",
                compact=True,
                nullable=False,
                min_size=16,
            )
            f_log_dirs = [UUID(bytes=bytes(buf[at : at + 16])) for at in range(pos, pos + 16 * n, 16)]
            pos += 16 * n
            if pos != stop:
                raise tagged_size_mismatch(
                    "BrokerRegistrationChangeRecord v2 BrokerRegistrationChangeRecord tagged fields",
                    tag,
                    start,
                    stop,
                    pos,
                )
        else:
            unknown.append((tag, bytes(buf[pos:stop])))
            pos = stop
    return BrokerRegistrationChangeRecord(
        f_broker_id, f_broker_epoch, f_fenced, f_in_controlled_shutdown, f_log_dirs, None, unknown
    ), pos


def _write_broker_registration_change_record_v2(v: BrokerRegistrationChangeRecord, out: list) -> None:
    """Append the bytes of a BrokerRegistrationChangeRecord v2 to ``out``."""
    absent(
        v.cordoned_log_dirs,
        None,
        "BrokerRegistrationChangeRecord v2 BrokerRegistrationChangeRecord.cordoned_log_dirs",
    )
    out.append(_S0.pack(v.broker_id, v.broker_epoch))
    tags = list(v.unknown_tagged_fields)
    if v.fenced != 0:
        outer, out = out, []
        out.append(_S1.pack(v.fenced))
        tags.append((0, b"".join(out)))
        out = outer
    if v.in_controlled_shutdown != 0:
        outer, out = out, []
        out.append(_S1.pack(v.in_controlled_shutdown))
        tags.append((1, b"".join(out)))
        out = outer
    if v.log_dirs != []:
        outer, out = out, []
        out.append(
            encode_count(
                v.log_dirs,
                "BrokerRegistrationChangeRecord v2 BrokerRegistrationChangeRecord.log_dirs",
                compact=True,
                nullable=False,
            )
        )
        out += [u.bytes for u in v.log_dirs]
        tags.append((2, b"".join(out)))
        out = outer
    out.append(encode_tagged(tags))


def _read_broker_registration_change_record_v3(
    buf, pos: int, end: int
) -> tuple[BrokerRegistrationChangeRecord, int]:
    """Read a BrokerRegistrationChangeRecord v3 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 12:
        raise truncated(
            "BrokerRegistrationChangeRecord v3 BrokerRegistrationChangeRecord.broker_id", pos, 12, end
        )
    (
        f_broker_id,
        f_broker_epoch,
    ) = _S0.unpack_from(buf, pos)
    pos += 12
    f_fenced = 0
    f_in_controlled_shutdown = 0
    f_log_dirs = []
    f_cordoned_log_dirs = None
    n, pos = read_uvarint(
        buf, pos, end, "BrokerRegistrationChangeRecord v3 BrokerRegistrationChangeRecord tagged fields"
    )
    unknown = []
    seen = set()
    for _ in range(n):
        tag, pos, stop = read_tag_header(
            buf, pos, end, "BrokerRegistrationChangeRecord v3 BrokerRegistrationChangeRecord tagged fields"
        )
        if tag in seen:
            raise repeated_tag(
                "BrokerRegistrationChangeRecord v3 BrokerRegistrationChangeRecord tagged fields", tag, pos
            )
        seen.add(tag)
        if tag == 0:
            start = pos
            if stop - pos < 1:
                raise truncated(
                    "BrokerRegistrationChangeRecord v3 BrokerRegistrationChangeRecord.fenced", pos, 1, stop
                )
            (f_fenced,) = _S1.unpack_from(buf, pos)
            pos += 1
            if pos != stop:
                raise tagged_size_mismatch(
                    "BrokerRegistrationChangeRecord v3 BrokerRegistrationChangeRecord tagged fields",
                    tag,
                    start,
                    stop,
                    pos,
                )
        elif tag == 1:
            start = pos
            if stop - pos < 1:
                raise truncated(
                    "BrokerRegistrationChangeRecord v3 BrokerRegistrationChangeRecord.in_controlled_shutdown",
                    pos,
                    1,
                    stop,
                )
            (f_in_controlled_shutdown,) = _S1.unpack_from(buf, pos)
            pos += 1
            if pos != stop:
                raise tagged_size_mismatch(
                    "BrokerRegistrationChangeRecord v3 BrokerRegistrationChangeRecord tagged fields",
                    tag,
                    start,
                    stop,
                    pos,
                )
        elif tag == 2:
            start = pos
            n, pos = read_count(
                buf,
                pos,
                stop,
                "BrokerRegistrationChangeRecord v3 BrokerRegistrationChangeRecord.log_dirs",
                compact=True,
                nullable=False,
                min_size=16,
            )
            f_log_dirs = [UUID(bytes=bytes(buf[at : at + 16])) for at in range(pos, pos + 16 * n, 16)]
            pos += 16 * n
            if pos != stop:
                raise tagged_size_mismatch(
                    "BrokerRegistrationChangeRecord v3 BrokerRegistrationChangeRecord tagged fields",
                    tag,
                    start,
                    stop,
                    pos,
                )
        elif tag == 3:
            start = pos
            n, pos = read_count(
                buf,
                pos,
                stop,
                "BrokerRegistrationChangeRecord v3 BrokerRegistrationChangeRecord.cordoned_log_dirs",
                compact=True,
                nullable=True,
                min_size=16,
            )
            if n == -1:
                f_cordoned_log_dirs = None
            else:
                f_cordoned_log_dirs = [
                    UUID(bytes=bytes(buf[at : at + 16])) for at in range(pos, pos + 16 * n, 16)
                ]
                pos += 16 * n
            if pos != stop:
                raise tagged_size_mismatch(
                    "BrokerRegistrationChangeRecord v3 BrokerRegistrationChangeRecord tagged fields",
                    tag,
                    start,
                    stop,
                    pos,
                )
        else:
            unknown.append((tag, bytes(buf[pos:stop])))
            pos = stop
    return BrokerRegistrationChangeRecord(
        f_broker_id,
        f_broker_epoch,
        f_fenced,
        f_in_controlled_shutdown,
        f_log_dirs,
        f_cordoned_log_dirs,
        unknown,
    ), pos


def _write_broker_registration_change_record_v3(v: BrokerRegistrationChangeRecord, out: list) -> None:
    """Append the bytes of a BrokerRegistrationChangeRecord v3 to ``out``."""
    out.append(_S0.pack(v.broker_id, v.broker_epoch))
    tags = list(v.unknown_tagged_fields)
    if v.fenced != 0:
        outer, out = out, []
        out.append(_S1.pack(v.fenced))
        tags.append((0, b"".join(out)))
        out = outer
    if v.in_controlled_shutdown != 0:
        outer, out = out, []
        out.append(_S1.pack(v.in_controlled_shutdown))
        tags.append((1, b"".join(out)))
        out = outer
    if v.log_dirs != []:
        outer, out = out, []
        out.append(
            encode_count(
                v.log_dirs,
                "BrokerRegistrationChangeRecord v3 BrokerRegistrationChangeRecord.log_dirs",
                compact=True,
                nullable=False,
            )
        )
        out += [u.bytes for u in v.log_dirs]
        tags.append((2, b"".join(out)))
        out = outer
    if v.cordoned_log_dirs is not None:
        outer, out = out, []
        out.append(
            encode_count(
                v.cordoned_log_dirs,
                "BrokerRegistrationChangeRecord v3 BrokerRegistrationChangeRecord.cordoned_log_dirs",
                compact=True,
                nullable=True,
            )
        )
        if v.cordoned_log_dirs is not None:
            out += [u.bytes for u in v.cordoned_log_dirs]
        tags.append((3, b"".join(out)))
        out = outer
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_broker_registration_change_record_v0,
    1: _read_broker_registration_change_record_v1,
    2: _read_broker_registration_change_record_v2,
    3: _read_broker_registration_change_record_v3,
}
_WRITERS = {
    0: _write_broker_registration_change_record_v0,
    1: _write_broker_registration_change_record_v1,
    2: _write_broker_registration_change_record_v2,
    3: _write_broker_registration_change_record_v3,
}


def decode_broker_registration_change_record(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[BrokerRegistrationChangeRecord, int]:
    """Decode a BrokerRegistrationChangeRecord of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"BrokerRegistrationChangeRecord: unknown version {version} (this schema has versions 0-3)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_broker_registration_change_record(value: BrokerRegistrationChangeRecord, version: int) -> bytes:
    """Encode ``value`` as BrokerRegistrationChangeRecord ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(
            f"BrokerRegistrationChangeRecord: unknown version {version} (this schema has versions 0-3)"
        )
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"BrokerRegistrationChangeRecord v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
