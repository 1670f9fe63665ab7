"""What some byte fields hold, which the spec leaves as bytes: read it as structures too.

The one hand-written place for these facts (the runtime knows them too: message_set.py,
wire.py, records.py):

- a legacy Message's ``value`` (magic 0/1) with a codec in its attributes is a compressed
  message set (its inner messages, with offsets made absolute and LogAppendTime applied);
- a 0.7 WireMessage's ``payload`` with a codec is a compressed set of wire messages;
- a 0.7 request's or response's ``messages`` is a set of wire messages in place (a fetch
  response may end inside one: a partial message, not an error); a multi-fetch response's
  ``responses`` are fetch responses back to back;
- a 0.8+ fetch response partition's ``message_set`` (v0) or ``records`` (v10) is log entries of
  any magic in place, the last perhaps cut off by the fetch's size limit (a partial entry);
- in a control batch (attributes bit 5), a record's key is a ControlRecordKey and, for the
  abort and commit markers, its value an EndTransactionMarker;
- in a LogAppendTime batch (attributes bit 3) every record's timestamp is the batch's
  max_timestamp, whatever its stored delta (:func:`annotate`, over the finished tree);
- a KRaft control record's value (types 2-6) is a message-spec payload read as version 0, as
  Kafka reads it; and when the tracer is told the payload family (``payloads``: ``metadata``,
  ``remote_log``, ``offsets``, ``transactions``, ``share``), a record's key and value are Kafka's own payloads
  (``kafkaspec.generated.trace.messages``): a metadata value is an unsigned-varint frame version,
  api key and record version, then the record; an offsets, transactions or share key starts with its
  int16 version (the record type) and its value with an int16 version.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kafkaspec.codec.compression import codec_name, decompress
from kafkaspec.errors import KafkaFormatError
from kafkaspec.generated import message_v1, record_batch_v2, wire_message_v1
from kafkaspec.generated.trace import FORMATS
from kafkaspec.payloads import inkless

from .entries import entries, entries_in
from .tree import Node

if TYPE_CHECKING:
    from .tracer import Tracer


def _compressed_set(t: Tracer, data: Node, codec: int, magic: int, fmt: str, what: str) -> Node:
    """Decompress ``data``'s bytes and read them as entries of ``fmt`` in a stream of their own."""
    name = codec_name(codec)
    t.add(
        Node(
            "compressed",
            "compressed",
            name,
            data.start,
            data.end,
            t.stream,
            doc=f"{name}-compressed {what}, as stored",
        )
    )
    try:
        inner = decompress(codec, data.value, max_size=t.max_decompressed, position=data.start, magic=magic)
    except KafkaFormatError as exc:
        raise t.stop(f"{data.name}: {exc.reason}", data.start) from None
    origin = f"{name} {what} at bytes {data.start}..{data.end}" + (
        f" of stream {t.stream}" if t.stream else ""
    )
    saved = t.enter(inner, origin)
    data.children[-1].notes.append(f"{data.size} bytes; {len(inner)} bytes decompressed (stream {t.stream})")
    box = t.open(
        Node(
            "decompressed",
            "decompressed",
            name,
            0,
            0,
            t.stream,
            doc=f"{what}, decompressed: positions count from 0 in stream {t.stream}",
        )
    )
    if not inner:
        raise t.stop(f"the compressed {what} holds no inner messages (Kafka refuses an empty wrapper)", 0)
    # magic-1 inner offsets read relative to the last inner message's: held until the set is whole
    hold = fmt == "log-entry" and magic == 1
    t.tree.holding += hold
    try:
        entries(t, FORMATS[fmt], len(inner), first=0)
    finally:
        t.tree.holding -= hold
    t.close()
    t.leave(saved)
    return box


def _not_nested(t: Tracer, data: Node) -> None:
    if t.stream:  # inside a decompressed message set already: Kafka refuses a second level
        raise t.stop(
            "a compressed wrapper's inner message is compressed too (Kafka does not allow nesting)",
            data.start,
        )


def _message_value(t: Tracer, version: int, data: Node, values: dict[str, Any]) -> None:
    codec = values["attributes"] & message_v1.COMPRESSION_MASK
    if not codec:
        return
    _not_nested(t, data)
    box = _compressed_set(t, data, codec, version, "log-entry", "inner message set")
    if version == 1:
        _legacy_offsets(box, values)


def _legacy_offsets(box: Node, wrapper: dict[str, Any]) -> None:
    """Magic-1 inner offsets are relative to the wrapper's (its last inner message's absolute offset);
    under LogAppendTime the wrapper's timestamp is every magic-1 inner message's."""
    inner = [child for child in box.children if child.kind == "struct"]
    offsets = [next((f for f in m.children if f.name == "offset"), None) for m in inner]
    if not offsets or offsets[-1] is None:
        return
    last = offsets[-1].value
    log_append = wrapper["attributes"] & message_v1.TIMESTAMP_TYPE_MASK
    for message, offset in zip(inner, offsets, strict=True):
        if offset is None or not message.type.endswith("v1"):
            continue
        offset.absolute = wrapper["offset"] - last + offset.value
        offset.notes.append(
            f"offset {offset.absolute} = wrapper offset {wrapper['offset']} - last inner offset "
            f"{last} + {offset.value}"
        )
        stamp = next((f for f in message.children if f.name == "timestamp"), None)
        if log_append and stamp is not None:
            stamp.absolute = wrapper["timestamp"]
            stamp.notes.append(f"LogAppendTime: reads as the wrapper's timestamp {wrapper['timestamp']}")


def _wire_payload(t: Tracer, version: int, data: Node, values: dict[str, Any]) -> None:
    codec = values.get("compression", 0) & wire_message_v1.CODEC_MASK  # magic 0 (0.6) has no COMPRESSION byte
    if codec:
        _not_nested(t, data)
        _compressed_set(t, data, codec, version, "wire-message-any", "message set")


def _in_place(fmt: str, what: str, *, partial_ok: bool = False, one: bool = False) -> Callable[..., None]:
    def handler(t: Tracer, version: int, data: Node, values: dict[str, Any]) -> None:
        entries_in(t, FORMATS[fmt], data, f"the end of {what}", partial_ok=partial_ok, one=one)

    return handler


_CONTROL_TYPE = struct.Struct(">h")


def _control_key(t: Tracer, version: int, data: Node, values: dict[str, Any]) -> None:
    if _in_control_batch(t):
        _in_place("control-record-key-v0", "the control record's key", one=True)(t, version, data, values)


def _control_value(t: Tracer, version: int, data: Node, values: dict[str, Any]) -> None:
    key = values.get("key")
    if not _in_control_batch(t) or not isinstance(key, bytes) or len(key) < 4:
        return
    (kind,) = _CONTROL_TYPE.unpack_from(key, 2)
    if kind in (0, 1):  # abort, commit: an end-transaction marker
        _in_place("end-transaction-marker-v0", "the end-transaction marker", one=True)(
            t, version, data, values
        )
        return
    module = _trace_messages().CONTROL.get(kind)
    if module is not None:
        _payload(t, data, module, 0, "the control record's value")


def _trace_messages() -> Any:  # the tracing decoders of Kafka's own payloads, loaded on first use
    from kafkaspec.generated.trace import messages

    return messages


def _payload(t: Tracer, data: Node, module: Any, version: int, what: str) -> None:
    """Read ``data``'s bytes as ``module``'s message of ``version``, all of them."""
    t.within(data, data.end, what)
    getattr(module, f"trace_{module.__name__.rsplit('.', 1)[1]}")(t, version)
    if t.pos != data.end:
        raise t.stop(
            f"{module.NAME} v{version} ends at byte {t.pos}, {data.end - t.pos} bytes before the end of "
            f"{what} (byte {data.end})",
            t.pos,
        )
    t.without()


def _uvarint_at(t: Tracer, name: str, doc: str) -> int:
    return t.integer(name, "uvarint", doc)


#: the payload families whose key starts with an int16 record type, and the table of the tracing
#: modules (:mod:`kafkaspec.generated.trace.messages`) that names their (key, value) messages
_KEYED = {"offsets": "GROUP", "transactions": "TRANSACTION", "share": "SHARE"}


def _record_key(t: Tracer, version: int, data: Node, values: dict[str, Any]) -> None:
    if _in_control_batch(t):
        _control_key(t, version, data, values)
        return
    family = getattr(t, "payloads", None)
    if family not in _KEYED or data.size < 2:
        return
    (key_version,) = _CONTROL_TYPE.unpack_from(data.value, 0)
    table = getattr(_trace_messages(), _KEYED[family])
    pair = table.get(key_version)
    if pair is None:
        raise t.stop(f"{family} key version {key_version} names no known record type", data.start)
    t.within(data, data.end, "the record's key")
    t.integer("key_version", "int16", "The key's version: which record type the key and value are")
    t.without()
    _payload_rest(t, data, pair[0], key_version, "the record's key")


def _payload_rest(t: Tracer, data: Node, module: Any, version: int, what: str) -> None:
    """Read the rest of ``data`` (from ``t.pos``) as ``module``'s message of ``version``."""
    rest = Node(data.name, data.kind, data.type, t.pos, data.end, data.stream, data.value)
    _payload(t, rest, module, version, what)


def _record_value(t: Tracer, version: int, data: Node, values: dict[str, Any]) -> None:
    if _in_control_batch(t):
        _control_value(t, version, data, values)
        return
    family = getattr(t, "payloads", None)
    if family in ("metadata", "remote_log"):
        what = "metadata record" if family == "metadata" else "remote log metadata record"
        t.within(data, data.end, "the record's value")
        _uvarint_at(t, "frame_version", f"Frame version of the {what} (1)")
        api_key = _uvarint_at(t, "api_key", f"Api key: which {what} this is")
        record_version = _uvarint_at(t, "record_version", "Version of the record")
        t.without()
        table = _trace_messages().METADATA if family == "metadata" else _trace_messages().REMOTE_LOG
        module = table.get(api_key)
        if module is None:
            raise t.stop(f"{what} api key {api_key} names no known record", data.start)
        if module.NAME in inkless.RECORDS:
            t.extension_tags = {
                tag: (name, read, *inkless.DOCS[tag]) for tag, (name, read) in inkless.TAGGED_FIELDS.items()
            }
        try:
            _payload_rest(t, data, module, record_version, "the record's value")
        finally:
            t.extension_tags = {}
    elif family in _KEYED:
        key = values.get("key")
        if not isinstance(key, bytes) or len(key) < 2 or data.size < 2:
            return
        (key_version,) = _CONTROL_TYPE.unpack_from(key, 0)
        table = getattr(_trace_messages(), _KEYED[family])
        pair = table.get(key_version)
        if pair is None:
            return  # the key said so already
        t.within(data, data.end, "the record's value")
        value_version = t.integer("value_version", "int16", "The value's version")
        t.without()
        _payload_rest(
            t, data, _layout(pair[1], data.value, value_version), value_version, "the record's value"
        )


def _layout(module: Any, value: bytes, version: int) -> Any:
    """The tracing module of the layout that reads ``value`` (an int16 version, then the message):
    the newest, else the first earlier layout Kafka wrote of the same version that reads it to its
    end (``LAYOUTS``; the fast codecs decide, as :func:`kafkaspec.payloads.decode` does). When none
    does, the newest: its trace stops where the bytes go wrong."""
    earlier = _trace_messages().LAYOUTS.get(module.NAME, ())
    if not earlier:
        return module
    from kafkaspec.generated import messages

    for candidate in (module, *earlier):
        short = candidate.__name__.rsplit(".", 1)[1]
        try:
            _, end = getattr(getattr(messages, short), f"decode_{short}")(value, version, 2)
        except KafkaFormatError:
            continue
        if end == len(value):
            return candidate
    return module


def _in_control_batch(t: Tracer) -> bool:
    batch = t.values_of("RecordBatch")
    return batch is not None and bool(batch.get("attributes", 0) & record_batch_v2.IS_CONTROL_MASK)


#: (structure, field) -> what reads the field's content
HANDLERS: dict[tuple[str, str], Callable[..., None]] = {
    ("Message", "value"): _message_value,
    ("WireMessage", "payload"): _wire_payload,
    ("ProduceRequest", "messages"): _in_place("wire-message-any", "the message set"),
    ("PartitionProduce", "messages"): _in_place("wire-message-any", "the message set"),
    ("FetchResponse", "messages"): _in_place("wire-message-any", "the fetch response", partial_ok=True),
    ("MultiFetchResponse", "responses"): _in_place("fetch-response-v0", "the multi-fetch response"),
    ("FetchPartition", "message_set"): _in_place("log-entry", "the message set", partial_ok=True),
    ("FetchPartition", "records"): _in_place("log-entry", "the record set", partial_ok=True),
    ("Record", "key"): _record_key,
    ("Record", "value"): _record_value,
}


def expand(t: Tracer, struct_name: str, version: int, field: str, data: Node, values: dict[str, Any]) -> None:
    """Read the content of ``struct_name``'s bytes field ``field`` (its ``data`` node) where it holds structures."""
    handler = HANDLERS.get((struct_name, field))
    if handler is not None:
        handler(t, version, data, values)


def annotate(entries: list[Node]) -> None:
    """Notes that need a whole structure: a v2 batch's last offset, and under LogAppendTime the
    timestamp every record reads as (the batch's max_timestamp). Adding them twice adds nothing."""
    for entry in entries:
        for _, node in entry.walk():
            if node.type != "RecordBatch v2":
                continue
            fields = {c.name: c for c in node.children}
            base, last = fields.get("base_offset"), fields.get("last_offset_delta")
            if (
                base is not None
                and last is not None
                and isinstance(last.value, int)
                and last.absolute is None
            ):
                last.absolute = base.value + last.value
                last.notes.append(f"last offset {last.absolute} = base_offset {base.value} + {last.value}")
            if "records" in fields:
                _log_append_time(node, fields["records"])


def annotate_part(part: Node, chain: list[Node]) -> None:
    """:func:`annotate` for a part of an entry written before the entry ends (a streamed explanation):
    ``chain`` holds the structures open around it, whose fields were read already."""
    annotate([part])
    batch = next((node for node in reversed(chain) if node.type == "RecordBatch v2"), None)
    if batch is not None:
        _log_append_time(batch, part)


def _log_append_time(batch: Node, within: Node) -> None:
    fields = {c.name: c for c in batch.children}
    attributes, max_ts = fields.get("attributes"), fields.get("max_timestamp")
    if attributes is None or max_ts is None or not attributes.value & record_batch_v2.TIMESTAMP_TYPE_MASK:
        return
    note = f"LogAppendTime: reads as the batch's max_timestamp {max_ts.value}"
    for _, inner in within.walk():
        if inner.name == "timestamp_delta" and inner.kind == "int" and note not in inner.notes:
            inner.notes.append(note)
