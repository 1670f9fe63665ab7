"""The member bytes of a classic consumer group, decoded: in a GroupMetadataValue whose protocol
type is ``consumer``, each member's ``subscription`` is a ConsumerProtocolSubscription and its
``assignment`` a ConsumerProtocolAssignment (an int16 version, 0-3, then the message), as Kafka's
DumpLogSegments shows them.

:func:`decode_members` adds the decoded message beside the raw bytes (``subscription_decoded``,
``assignment_decoded``, each with its ``version``). The raw bytes always stay: these are opaque to
the group coordinator, and a value decoded wrongly must never replace them. Bytes that do not hold
the message get ``subscription_error`` / ``assignment_error`` naming the member, the field and the
byte, and no decoded value: a version newer than 3 is an error rather than read as version 3 (the
consumer client reads it so, trusting that Kafka only ever appends fields; a dump should not
guess). An empty assignment is what Kafka stores for a member that joined but has not been
assigned yet: there is nothing to decode, and it is not an error.
"""

from __future__ import annotations

import struct
from typing import Any

from ..errors import KafkaFormatError
from .fields import fields_of

__all__ = ["MEMBER_FIELDS", "decode_member_bytes", "decode_members", "member_errors"]

#: the member fields that hold consumer-protocol bytes, and the type id of the message each holds
#: (family ``consumer_protocol``: the key of ``kafkaspec.generated.messages.CONSUMER_PROTOCOL``)
MEMBER_FIELDS = {"subscription": 0, "assignment": 1}
_I16 = struct.Struct(">h")


def decode_member_bytes(field: str, data: bytes) -> dict[str, Any]:
    """One member field's bytes as its message, ``{"version": N, **fields}``; KafkaFormatError
    (positions within ``data``) when they do not hold it."""
    from ..generated import messages

    module = messages.CONSUMER_PROTOCOL[MEMBER_FIELDS[field]]
    short = module.__name__.rsplit(".", 1)[1]
    if len(data) < 2:
        raise KafkaFormatError(f"needs an int16 version, has {len(data)} bytes", 0)
    (version,) = _I16.unpack_from(data, 0)
    if version < 0:
        raise KafkaFormatError(f"version {version} is not a version", 0)
    if version > module.VERSIONS[-1]:
        raise KafkaFormatError(
            f"version {version} is newer than {module.NAME}'s newest known ({module.VERSIONS[-1]})", 0
        )
    try:
        value, end = getattr(module, f"decode_{short}")(data, version, 2)
    except KafkaFormatError as exc:
        raise KafkaFormatError(f"{module.NAME} v{version}: {exc.reason}", exc.position) from None
    if end != len(data):
        raise KafkaFormatError(f"{len(data) - end} bytes left after {module.NAME} v{version}", end)
    return {"version": version, **fields_of(value)}


def decode_members(value: dict[str, Any]) -> None:
    """Add each member's decoded subscription and assignment to a GroupMetadataValue's fields
    (in place), when its protocol type is ``consumer``; other protocol types (Connect, streams
    assignors of their own) have formats of their own and stay bytes."""
    if value.get("protocol_type") != "consumer":
        return
    for member in value.get("members") or ():
        for field in MEMBER_FIELDS:
            data = member.get(field)
            if not data:  # b"": not assigned yet (a rebalance in progress)
                continue
            try:
                member[f"{field}_decoded"] = decode_member_bytes(field, data)
            except KafkaFormatError as exc:
                at = "" if exc.position is None else f" (byte {exc.position} of the {field})"
                member[f"{field}_error"] = f"member {member.get('member_id')!r}: {field}: {exc.reason}{at}"


def member_errors(value: dict[str, Any] | None) -> list[str]:
    """The errors :func:`decode_members` left in a GroupMetadataValue's members, in order."""
    if not value:
        return []
    return [m[f"{f}_error"] for m in value.get("members") or () for f in MEMBER_FIELDS if f"{f}_error" in m]
