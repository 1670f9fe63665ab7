"""Kafka's own payloads, decoded: the keys and values of ``__consumer_offsets``,
``__transaction_state``, ``__share_group_state``, ``__cluster_metadata`` (and its snapshots) and
``__remote_log_metadata``, and the values of control records, through the codecs generated from
``schemas/messages/``.

:func:`decode` picks the decoder by topic name and returns a :class:`Decoded` (record type, version,
key and value fields under the snake_case of Kafka's names), or None for an ordinary topic.
:func:`decode_as` forces a family. An unknown record type or version, or bytes that do not hold the
message (a length beyond the payload, a tagged field whose size lies, bytes left over) raise
:class:`~kafkaspec.errors.KafkaFormatError` naming the type and version.

How each family frames its payloads:

* ``metadata``: the value is an unsigned varint frame version (1), an unsigned varint api key that
  names the record type, an unsigned varint record version, then the record; the key is null.
* ``offsets`` / ``transactions`` / ``share``: the key starts with an int16 that names the record type (and is
  the key's version); the value starts with an int16 version. A null value is a tombstone: the
  key's entry is deleted.
* inside a ``GroupMetadata`` value whose protocol type is ``consumer``: each member's
  ``subscription`` and ``assignment`` bytes (an int16 version, then ConsumerProtocolSubscription
  or ConsumerProtocolAssignment) are decoded beside them (``subscription_decoded``, or
  ``subscription_error`` naming member and field when they do not parse).
* control records: the key (version, type) names the type; the value is decoded as version 0,
  as Kafka does (its first field is a version number stored as data).
"""

from __future__ import annotations

import base64
import struct
import uuid
from typing import Any, Literal, NamedTuple

from ..codec.message_types import read_uvarint
from ..errors import KafkaFormatError
from . import inkless
from .consumer_protocol import decode_members
from .fields import fields_of

__all__ = [
    "FAMILIES",
    "FAMILY_OF_TOPIC",
    "Decoded",
    "decode",
    "decode_as",
    "decode_control",
    "fields_of",
    "jsonable",
    "parse_release",
]

Family = Literal["offsets", "transactions", "share", "metadata", "remote_log"]
#: the topics whose payloads :func:`decode` knows, and their family
FAMILY_OF_TOPIC: dict[str, Family] = {
    "__consumer_offsets": "offsets",
    "__transaction_state": "transactions",
    "__share_group_state": "share",
    "__cluster_metadata": "metadata",
    "__remote_log_metadata": "remote_log",
}
#: the families :func:`decode_as` takes
FAMILIES: tuple[Family, ...] = ("offsets", "transactions", "share", "metadata", "remote_log")
_I16 = struct.Struct(">h")


class Decoded(NamedTuple):
    """One decoded payload."""

    #: the record type: a metadata record's name (``TopicRecord``), a group, transaction or share
    #: record's name without ``Key`` (``OffsetCommit``, ``GroupMetadata``, ``TransactionLog``,
    #: ``ShareSnapshot``), a control
    #: value's name (``LeaderChangeMessage``)
    type: str
    #: the version the value was decoded with (None for a tombstone)
    version: int | None
    #: the key's fields (offsets, transactions and share; None elsewhere)
    key: dict[str, Any] | None
    #: the value's fields; None for a tombstone
    value: dict[str, Any] | None
    #: the key's version (offsets, transactions and share), which is also its record type
    key_version: int | None = None
    #: for a message Kafka wrote in more than one layout at the same version (Kafka 4.0's
    #: early-access share records, in ``__consumer_offsets`` and ``__share_group_state``): the releases whose layout the value was read with
    #: (``"Kafka 4.0"``, ``"Kafka 4.1+"``); None for every other message
    layout: str | None = None

    @property
    def tombstone(self) -> bool:
        """A keyed record with a null value: it deletes what its key names."""
        return self.key is not None and self.value is None


def _messages() -> Any:  # the generated package, loaded on first use (import kafkaspec stays light)
    from ..generated import messages

    return messages


def _run(module: Any, data: bytes | memoryview, pos: int, version: int, what: str) -> dict[str, Any]:
    name = module.NAME
    decode = getattr(module, f"decode_{module.__name__.rsplit('.', 1)[1]}")
    try:
        value, end = decode(data, version, pos)
    except KafkaFormatError as exc:
        if exc.reason.startswith(f"{name}: unknown version"):
            raise KafkaFormatError(
                f"{what}: {name} has no version {version} (known: {module.VERSIONS[0]}-"
                f"{module.VERSIONS[-1]})",
                exc.position,
            ) from None
        raise KafkaFormatError(f"{what}: {exc.reason}", exc.position) from None
    if end != len(data):
        raise KafkaFormatError(f"{what}: {len(data) - end} bytes left after {name} v{version}", end)
    return fields_of(value)


def parse_release(text: str | None) -> tuple[int, int] | None:
    """``"4.0"``, ``"4.0.0"`` -> (4, 0); None -> None; anything else is a ValueError naming it."""
    if text is None:
        return None
    parts = str(text).split(".")
    if len(parts) not in (2, 3) or not all(p.isdigit() for p in parts):
        raise ValueError(f"kafka_release must be a Kafka release like '4.0' or '4.1.0', got {text!r}")
    return int(parts[0]), int(parts[1])


def _writes(releases: str | None, release: tuple[int, int]) -> bool:
    """Whether a module's ``KAFKA_RELEASES`` (``"4.0"``, ``"4.1+"``) covers ``release``."""
    if not releases:
        return False
    lo = parse_release(releases.rstrip("+"))
    assert lo is not None
    return release >= lo if releases.endswith("+") else release == lo


def _run_layouts(
    module: Any, data: bytes | memoryview, pos: int, version: int, what: str, release: tuple[int, int] | None
) -> tuple[dict[str, Any], str | None]:
    """Decode with the newest layout, else with each earlier one Kafka wrote of the same version
    (``LAYOUTS``): the first that reads the bytes to their end wins, and says which it was. A named
    ``release`` puts the layout that release wrote first. If none fits, the error is the newest
    layout's, followed by why each earlier one did not fit either."""
    earlier = _messages().LAYOUTS.get(module.NAME, ())
    if not earlier:
        return _run(module, data, pos, version, what), None
    order = [module, *earlier]
    if release is not None:
        order.sort(key=lambda m: not _writes(m.KAFKA_RELEASES, release))
    errors: list[KafkaFormatError] = []
    for m in order:
        try:
            return _run(m, data, pos, version, what), f"Kafka {m.KAFKA_RELEASES}"
        except KafkaFormatError as exc:
            errors.append(exc)
    first = errors[0]
    others = "; ".join(
        f"nor as the Kafka {m.KAFKA_RELEASES} layout: {e.reason.removeprefix(what + ': ')}"
        for m, e in zip(order[1:], errors[1:], strict=True)
    )
    raise KafkaFormatError(f"{first.reason}; {others}", first.position)


def _int16(data: bytes | memoryview | None, what: str) -> int:
    if data is None or len(data) < 2:
        raise KafkaFormatError(
            f"{what}: needs an int16 version, has {'null' if data is None else f'{len(data)} bytes'}", 0
        )
    return int(_I16.unpack_from(data, 0)[0])


def _framed(table: dict, what: str, value: bytes | memoryview | None, kafka_release: str | None) -> Decoded:
    """A value framed as unsigned varints (frame version 1, api key, record version), then the record."""
    if value is None:
        raise KafkaFormatError(f"{what}: the value is null", None)
    frame, pos = read_uvarint(value, 0, len(value), f"{what} frame version")
    if frame != 1:
        raise KafkaFormatError(f"{what}: unknown frame version {frame} (known: 1)", 0)
    api_key, pos = read_uvarint(value, pos, len(value), f"{what} api key")
    version, pos = read_uvarint(value, pos, len(value), f"{what} version")
    module = table.get(api_key)
    if module is None:
        raise KafkaFormatError(f"{what}: unknown record type (api key {api_key}, version {version})", 0)
    fields, layout = _run_layouts(
        module, value, pos, version, f"{what} {module.NAME}", parse_release(kafka_release)
    )
    return Decoded(module.NAME, version, None, fields, layout=layout)


def decode_metadata(value: bytes | memoryview | None, kafka_release: str | None = None) -> Decoded:
    """A ``__cluster_metadata`` record value (the key is null). Inkless's tagged fields on partition
    records are decoded by name (:mod:`.inkless`)."""
    decoded = _framed(_messages().METADATA, "metadata record", value, kafka_release)
    if decoded.type in inkless.RECORDS and decoded.value:
        inkless.name_tagged_fields(decoded.value)
    return decoded


def decode_remote_log(value: bytes | memoryview | None, kafka_release: str | None = None) -> Decoded:
    """A ``__remote_log_metadata`` record value (the key is null): a remote segment's metadata, an
    update of its state, a partition's deletion, or a snapshot entry."""
    return _framed(_messages().REMOTE_LOG, "remote log metadata record", value, kafka_release)


def _keyed(
    table: dict,
    family: str,
    key: bytes | memoryview | None,
    value: bytes | memoryview | None,
    kafka_release: str | None = None,
) -> Decoded:
    key_version = _int16(key, f"{family} key")
    pair = table.get(key_version)
    if pair is None:
        raise KafkaFormatError(f"{family} key: unknown record type (key version {key_version})", 0)
    key_module, value_module = pair
    assert key is not None
    name = key_module.NAME.removesuffix("Key")
    fields = _run(key_module, key, 2, key_version, f"{family} key {key_module.NAME}")
    if value is None:
        return Decoded(name, None, fields, None, key_version)
    version = _int16(value, f"{family} value {value_module.NAME}")
    values, layout = _run_layouts(
        value_module, value, 2, version, f"{family} value", parse_release(kafka_release)
    )
    return Decoded(name, version, fields, values, key_version, layout)


def decode_offsets(
    key: bytes | memoryview | None, value: bytes | memoryview | None, kafka_release: str | None = None
) -> Decoded:
    """A ``__consumer_offsets`` record: committed offsets and group state. A classic consumer
    group's members also get their subscription and assignment bytes decoded beside the raw
    bytes (:func:`.consumer_protocol.decode_members`)."""
    decoded = _keyed(_messages().GROUP, "__consumer_offsets", key, value, kafka_release)
    if decoded.type == "GroupMetadata" and decoded.value is not None:
        decode_members(decoded.value)
    return decoded


def decode_transactions(
    key: bytes | memoryview | None, value: bytes | memoryview | None, kafka_release: str | None = None
) -> Decoded:
    """A ``__transaction_state`` record: a transactional id's state."""
    return _keyed(_messages().TRANSACTION, "__transaction_state", key, value, kafka_release)


def decode_share(
    key: bytes | memoryview | None, value: bytes | memoryview | None, kafka_release: str | None = None
) -> Decoded:
    """A ``__share_group_state`` record (KIP-932's share coordinator): a share-partition's full
    state (``ShareSnapshot``) or a change to it since the last snapshot (``ShareUpdate``)."""
    return _keyed(_messages().SHARE, "__share_group_state", key, value, kafka_release)


def decode_control(control_type: int, value: bytes | memoryview | None) -> Decoded:
    """The value of a KRaft control record (types 2-6: LEADER_CHANGE, SNAPSHOT_HEADER,
    SNAPSHOT_FOOTER, KRAFT_VERSION, KRAFT_VOTERS), decoded as version 0 like Kafka does."""
    module = _messages().CONTROL.get(control_type)
    if module is None:
        raise KafkaFormatError(f"control record: unknown control type {control_type} (version 0)", 0)
    if value is None:
        raise KafkaFormatError(f"control record {module.NAME}: the value is null", 0)
    return Decoded(module.NAME, 0, None, _run(module, value, 0, 0, f"control record {module.NAME}"))


_DECODERS = {"offsets": decode_offsets, "transactions": decode_transactions, "share": decode_share}


def decode_as(
    family: Family,
    key: bytes | memoryview | None,
    value: bytes | memoryview | None,
    kafka_release: str | None = None,
) -> Decoded:
    """Decode a record's key and value as ``family`` (``offsets``, ``transactions``, ``share``,
    ``metadata``, ``remote_log``).
    ``kafka_release`` (``"4.0"``, ``"4.1.0"``): the release that wrote the record, where Kafka wrote
    a message in more than one layout; the newest is tried first otherwise (``Decoded.layout``)."""
    if family == "metadata":
        return decode_metadata(value, kafka_release)
    if family == "remote_log":
        return decode_remote_log(value, kafka_release)
    if family not in _DECODERS:
        raise ValueError(f"family must be one of {', '.join(FAMILIES)}; got {family!r}")
    return _DECODERS[family](key, value, kafka_release)


def decode(
    topic: str,
    key: bytes | memoryview | None,
    value: bytes | memoryview | None,
    kafka_release: str | None = None,
) -> Decoded | None:
    """Decode a record of ``topic`` if Kafka's own payloads live there; None for an ordinary topic
    (``kafka_release``: as for :func:`decode_as`)."""
    family = FAMILY_OF_TOPIC.get(topic)
    return None if family is None else decode_as(family, key, value, kafka_release)


def kafka_uuid(u: uuid.UUID) -> str:
    """A uuid as Kafka prints it (``Uuid.toString``: URL-safe base64 of the 16 bytes, no padding)."""
    return base64.urlsafe_b64encode(u.bytes).rstrip(b"=").decode("ascii")


def jsonable(value: Any) -> Any:
    """Fields as JSON values: uuids as Kafka prints them, bytes as base64, the rest as is."""
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if isinstance(value, uuid.UUID):
        return kafka_uuid(value)
    if isinstance(value, bytes | bytearray | memoryview):
        return base64.b64encode(bytes(value)).decode("ascii")
    return value
