"""UnregisterControllerRecord, versions 0 (flexible: 0+): A controller was removed from the cluster's controller registrations (the counterpart of RegisterControllerRecord).

Generated from schemas/messages/unregister_controller_record.yaml by codegen. DO NOT EDIT.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import NamedTuple

from kafkaspec.codec.message_types import encode_tagged, read_unknown_tags, truncated
from kafkaspec.errors import KafkaFormatError

SCHEMA = "schemas/messages/unregister_controller_record.yaml"
NAME = "UnregisterControllerRecord"
FAMILY = "metadata"
#: the api key of the KRaft metadata record
TYPE_IDS = (29,)
VERSIONS = [0]
FLEXIBLE_VERSIONS = [0]
#: whether Kafka still writes it (current, removed, unreleased)
KAFKA_STATUS = "current"
#: the Kafka releases that write this message or layout (None: not recorded)
KAFKA_RELEASES = None
#: for an earlier layout: the message whose versions Kafka once wrote this way
LAYOUT_OF = None

_S0 = struct.Struct(">i")

# -- typed values ---------------------------------------------------------------


class UnregisterControllerRecord(NamedTuple):
    """A controller was removed from the cluster's controller registrations (the counterpart of RegisterControllerRecord).

    Fields:
        controller_id: Node id of the controller whose registration is removed. (versions 0+)
        unknown_tagged_fields: tagged fields this schema does not know, as (tag, bytes), kept so that nothing is lost
    """

    controller_id: int = 0
    unknown_tagged_fields: Sequence[tuple[int, bytes]] = ()


# -- fast codec -----------------------------------------------------------------


def _read_unregister_controller_record_v0(buf, pos: int, end: int) -> tuple[UnregisterControllerRecord, int]:
    """Read an UnregisterControllerRecord v0 at ``pos``, inside ``buf[:end]``."""
    if end - pos < 4:
        raise truncated("UnregisterControllerRecord v0 UnregisterControllerRecord.controller_id", pos, 4, end)
    (f_controller_id,) = _S0.unpack_from(buf, pos)
    pos += 4
    unknown, pos = read_unknown_tags(
        buf, pos, end, "UnregisterControllerRecord v0 UnregisterControllerRecord tagged fields"
    )
    return UnregisterControllerRecord(f_controller_id, unknown), pos


def _write_unregister_controller_record_v0(v: UnregisterControllerRecord, out: list) -> None:
    """Append the bytes of an UnregisterControllerRecord v0 to ``out``."""
    out.append(_S0.pack(v.controller_id))
    tags = list(v.unknown_tagged_fields)
    out.append(encode_tagged(tags))


_READERS = {
    0: _read_unregister_controller_record_v0,
}
_WRITERS = {
    0: _write_unregister_controller_record_v0,
}


def decode_unregister_controller_record(
    buf, version: int, pos: int = 0, end: int | None = None
) -> tuple[UnregisterControllerRecord, int]:
    """Decode an UnregisterControllerRecord of ``version`` from ``buf`` at ``pos`` (to ``end``, default the end of
    ``buf``); return the value and the position after it. An unknown version, or bytes that do not
    hold the message, raise :class:`~kafkaspec.errors.KafkaFormatError`."""
    reader = _READERS.get(version)
    if reader is None:
        raise KafkaFormatError(
            f"UnregisterControllerRecord: unknown version {version} (this schema has versions 0)", pos
        )
    return reader(buf, pos, len(buf) if end is None else end)


def encode_unregister_controller_record(value: UnregisterControllerRecord, version: int) -> bytes:
    """Encode ``value`` as UnregisterControllerRecord ``version``. A field the version lacks must hold its default,
    and values must fit their types (ValueError naming the field otherwise)."""
    writer = _WRITERS.get(version)
    if writer is None:
        raise ValueError(
            f"UnregisterControllerRecord: unknown version {version} (this schema has versions 0)"
        )
    out: list = []
    try:
        writer(value, out)
    except struct.error as exc:
        raise ValueError(
            f"UnregisterControllerRecord v{version}: a value does not fit its field: {exc}"
        ) from None
    return b"".join(out)
