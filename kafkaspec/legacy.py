"""The legacy formats: MessageSet entries (Message v0/v1, Kafka 0.8-0.10.2) and
the 0.6/0.7 wire messages and requests of seed 002.

The byte layouts are generated from ``schemas/legacy/``; this module holds what
the schema language does not express: a compressed wrapper's inner message set
(offsets, LogAppendTime, nesting), building wrappers the way the Java client
does, the 0.6/0.7 byte-offset streams and :func:`convert`.

Choices, in Kafka's own terms:

- For magic 0/1 a "batch" is one shallow message (as in Kafka's Java API): a
  plain message is a batch of one record; a compressed wrapper's records are
  its inner messages.
- Magic 0 has no timestamps: records carry ``timestamp = -1`` (Kafka's
  ``NO_TIMESTAMP``) and the batch reports ``timestamp_type == "create"``,
  which is what its attribute bit 3 (always 0) says.
- Inner offsets of a magic-1 wrapper are relative: absolute = wrapper offset -
  last inner relative + inner relative. When that base would be negative (a
  producer's wrapper offset of 0 or -1), the inner offsets are kept as written,
  like Kafka's Java and kafka-python readers do. Magic-0 inner offsets are
  absolute. The wrapper's magic decides, so sarama's magic-1 wrappers around
  magic-0 inner messages read correctly.
- A wrapper inside a wrapper is rejected (:class:`LimitExceededError`), as
  Kafka does; inner CRCs are verified.
"""

from __future__ import annotations

import struct
import time
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from kafkaspec.generated import (
    fetch_request_v0,
    fetch_response_v0,
    message_v0,
    message_v1,
    multi_fetch_request_v0,
    multi_fetch_response_v0,
    multi_produce_request_v0,
    offsets_request_v0,
    offsets_response_v0,
    produce_request_v0,
    wire_message_v0,
    wire_message_v1,
)
from kafkaspec.generated.enums import ErrorCode, OffsetsTime, RequestType
from kafkaspec.generated.record_v2 import Record

from .compression import CODEC_NAMES, DEFAULT_MAX_DECOMPRESSED, codec_id, compress, decompress
from .entry import BufferedEntry
from .errors import (
    InvalidLengthError,
    InvalidMagicError,
    KafkaFormatError,
    LimitExceededError,
    TruncatedError,
    UnsupportedCodecError,
)

MESSAGE_MODULES = {0: message_v0, 1: message_v1}
#: a Message v0/v1 entry: offset and message_size (the log overhead), then its magic byte here
_LOG_OVERHEAD = message_v1.CRC_OFFSET
_MAGIC_OFFSET = message_v1.MAGIC_OFFSET
_MESSAGE_SIZE = struct.Struct(">i")
#: where message_size and attributes sit in a ``decode_message_run`` tuple (v0 and v1 alike)
_RUN_MESSAGE_SIZE, _RUN_ATTRIBUTES = 1, 4
WIRE_MODULES = {0: wire_message_v0, 1: wire_message_v1}
#: smallest message_size of a Message v0/v1: crc, magic, attributes, [timestamp], key and value lengths
MIN_MESSAGE_SIZE = {0: 14, 1: 22}
#: smallest LENGTH of a 0.6/0.7 message: magic, [compression], checksum
MIN_WIRE_LENGTH = {0: 5, 1: 6}
LATEST = OffsetsTime.LATEST  # -1
EARLIEST = OffsetsTime.EARLIEST  # -2
_TIMESTAMP_TYPES = ("create", "log_append")
_new = tuple.__new__


class LegacyBatch(BufferedEntry):
    """One shallow Message v0/v1 in a buffer, with the attributes of a v2 :class:`~kafkaspec.Batch`.

    Batch-level v2 fields that the legacy formats lack have Kafka's "none"
    values: producer_id/epoch, base_sequence and partition_leader_epoch are -1,
    is_transactional and is_control are False.
    """

    __slots__ = ("_key_value",)
    producer_id = -1
    producer_epoch = -1
    base_sequence = -1
    partition_leader_epoch = -1
    is_transactional = False
    is_control = False
    has_delete_horizon = False
    control = None

    magic = property(lambda self: self.head.magic)
    offset = property(lambda self: self.head.offset)
    crc = property(lambda self: self.head.crc)
    attributes = property(lambda self: self.head.attributes)
    last_offset = property(lambda self: self.head.offset)

    @property
    def timestamp(self) -> int:
        """The message's own timestamp (-1 for magic 0)."""
        return self.head.timestamp if self.head.magic == 1 else -1

    max_timestamp = timestamp
    base_timestamp = timestamp

    @property
    def compression(self) -> str:
        codec = self.head.attributes & 7
        return CODEC_NAMES[codec] if codec < len(CODEC_NAMES) else str(codec)

    @property
    def timestamp_type(self) -> str:
        return _TIMESTAMP_TYPES[(self.head.attributes >> 3) & 1] if self.head.magic == 1 else "create"

    @property
    def is_wrapper(self) -> bool:
        return bool(self.head.attributes & 7)

    @property
    def base_offset(self) -> int:
        """Offset of the first record (for a wrapper this decompresses it)."""
        if not self.is_wrapper:
            return self.head.offset
        records = self.records
        return records[0].offset if records else self.head.offset

    @property
    def last_offset_delta(self) -> int:
        return self.last_offset - self.base_offset

    @property
    def records_count(self) -> int:
        return len(self.records)

    def key_value(self) -> tuple[bytes | None, bytes | None]:
        """The message's own key and value (for a wrapper: null and the compressed inner set)."""
        return self._key_value

    @property
    def records(self) -> list[Record]:
        """The records: this message, or a wrapper's inner messages (decompressed on first use)."""
        if self._records is None:
            self._records = _shallow_records(self)
        return self._records

    def __iter__(self) -> Iterator[Record]:
        return iter(self.records)

    def __len__(self) -> int:
        return len(self.records)

    def __repr__(self) -> str:
        return (f"LegacyBatch(magic={self.magic}, offset={self.offset}, compression={self.compression!r}, "
                f"position={self.position})")


def read_legacy(buf, pos: int, magic: int, *, verify: bool = True,
                max_decompressed: int = DEFAULT_MAX_DECOMPRESSED) -> LegacyBatch:
    """Check and decode the Message v0/v1 entry at ``pos`` (length, magic, CRC-32, key and value).

    The records of a compressed wrapper are decompressed on first use.
    """
    module = MESSAGE_MODULES.get(magic)
    if module is None:
        raise InvalidMagicError(f"magic byte is {magic}, expected 0 or 1 for a Message", pos + _MAGIC_OFFSET)
    try:
        (size,) = _MESSAGE_SIZE.unpack_from(buf, pos + module.MESSAGE_SIZE_OFFSET)
    except struct.error:
        raise TruncatedError(f"Message header needs {_LOG_OVERHEAD} bytes, {len(buf) - pos} left", pos) from None
    if size < MIN_MESSAGE_SIZE[magic]:
        raise InvalidLengthError(
            f"Message v{magic} message_size is {size}, at least {MIN_MESSAGE_SIZE[magic]} expected",
            pos + module.MESSAGE_SIZE_OFFSET,
        )
    end = pos + _LOG_OVERHEAD + size
    if end > len(buf):
        raise TruncatedError(f"Message needs {_LOG_OVERHEAD + size} bytes, {len(buf) - pos} present", pos)
    (item,), _ = module.decode_message_run(buf, pos, end, verify=verify)  # one entry: the magic byte matched
    head = _new(module.MessageHead, item[: len(module.MessageHead._fields)])
    batch = LegacyBatch(head, buf, pos, end, max_decompressed)
    batch._key_value = item[-2:]
    return batch


def _shallow_records(batch: LegacyBatch) -> list[Record]:
    h = batch.head
    key, value = batch.key_value()
    codec = h.attributes & 7
    if not codec:
        return [_new(Record, (h.attributes, h.timestamp if h.magic else -1, h.offset, key, value, []))]
    if value is None:
        raise KafkaFormatError("compressed wrapper message has a null value", batch.position)
    data = decompress(codec, value, max_size=batch.max_decompressed, position=batch.position, magic=h.magic)
    try:
        runs = _inner_runs(data)
    except KafkaFormatError as exc:
        raise type(exc)(
            f"in the decompressed value of the wrapper message at byte {batch.position}: {exc.reason}"
            f" (at decompressed byte {exc.position})", batch.position
        ) from None
    if not runs:
        return []
    base, log_append_time = 0, None
    if h.magic == 1:
        base = h.offset - runs[-1][1][-1][0]  # wrapper offset - last inner (relative) offset
        if base < 0:  # a producer's wrapper offset (0 or -1): keep the relative offsets as written
            base = 0
        if h.attributes & 8:  # LogAppendTime: the wrapper's timestamp applies to every inner message
            log_append_time = h.timestamp
    records: list[Record] = []
    new = _new
    for magic, items in runs:
        # run tuples: offset, message_size, crc, magic, attributes, [timestamp], key, value
        if log_append_time is not None:
            records += [new(Record, (m[4], log_append_time, m[0] + base, m[-2], m[-1], [])) for m in items]
        elif magic:
            records += [new(Record, (a, t, o + base, k, v, [])) for o, _, _, _, a, t, k, v in items]
        else:
            records += [new(Record, (a, -1, o + base, k, v, [])) for o, _, _, _, a, k, v in items]
    return records


def _inner_runs(data: bytes) -> list[tuple[int, list[tuple]]]:
    """The messages of an inner message set, as (magic, run tuples) for each run of one magic."""
    runs = []
    pos, end = 0, len(data)
    while pos < end:
        if end - pos <= _MAGIC_OFFSET:
            raise TruncatedError(f"inner message set ends with {end - pos} bytes, too few for a message", pos)
        magic = data[pos + _MAGIC_OFFSET]
        module = MESSAGE_MODULES.get(magic)
        if module is None:
            raise InvalidMagicError(f"inner message magic is {magic}, expected 0 or 1", pos + _MAGIC_OFFSET)
        start = pos
        items, pos = module.decode_message_run(data, pos, end)
        for item in items:
            if item[_RUN_ATTRIBUTES] & module.COMPRESSION_MASK:
                raise LimitExceededError(
                    "a compressed wrapper holds another compressed wrapper (nesting is not allowed)", start)
            start += _LOG_OVERHEAD + item[_RUN_MESSAGE_SIZE]
        runs.append((magic, items))
    return runs


# -- building -----------------------------------------------------------------


def build_legacy(records: Sequence[Record], *, magic: int, compression: str | int = "none", base_offset: int = 0,
                 timestamp_type: str | int = "create", log_append_time: int | None = None,
                 snappy_framing: str = "xerial", compression_level: int | None = None) -> bytes:
    """Encode ``records`` as MessageSet entries of ``magic`` 0 or 1, like the Java client.

    Uncompressed: one message per record. Compressed: one wrapper whose value
    is the compressed inner message set (magic 1: relative inner offsets, the
    wrapper holding the last absolute offset and the largest timestamp, or the
    append time under LogAppendTime; magic 0: absolute inner offsets). Records
    must not have headers (they need magic 2); timestamps are not stored by magic 0.
    """
    if magic not in MESSAGE_MODULES:
        raise ValueError(f"magic must be 0, 1 or 2, got {magic!r}")
    codec = codec_id(compression)
    if codec == 4:
        raise UnsupportedCodecError("zstd needs magic 2 (Kafka refuses zstd in Message v0/v1)")
    if any(r.headers for r in records):
        raise ValueError("record headers need magic 2; use kafkaspec.convert to drop them explicitly")
    ts_type = {"create": 0, "log_append": 1, 0: 0, 1: 1}[timestamp_type] if magic == 1 else 0
    module = MESSAGE_MODULES[magic]
    encode = module.encode_message
    now = time.time_ns() // 1_000_000
    default_ts = next((r.timestamp for r in records if r.timestamp is not None), now)
    if ts_type == 1 and log_append_time is None:
        log_append_time = now
    offsets = [base_offset + i if r.offset is None else r.offset for i, r in enumerate(records)]
    timestamps = [default_ts if r.timestamp is None else r.timestamp for r in records]
    if ts_type == 1:
        timestamps = [log_append_time] * len(records)
    attrs = ts_type << 3
    extra = (lambda ts: {"timestamp": ts}) if magic == 1 else (lambda ts: {})
    if not codec:
        return b"".join(
            encode(offset=o, attributes=attrs, key=r.key, value=r.value, **extra(t))
            for r, o, t in zip(records, offsets, timestamps, strict=True)
        )
    if not records:
        return b""
    first = offsets[0]
    inner = b"".join(
        encode(offset=o - first if magic == 1 else o, attributes=attrs, key=r.key, value=r.value, **extra(t))
        for r, o, t in zip(records, offsets, timestamps, strict=True)
    )
    options = {"level": compression_level} if compression_level is not None else {}
    if codec == 2:
        options["snappy_framing"] = snappy_framing
    value = compress(codec, inner, magic=magic, **options)
    wrapper_ts = log_append_time if ts_type == 1 else max(timestamps)
    return encode(offset=offsets[-1], attributes=codec | attrs, key=None, value=value, **extra(wrapper_ts))


# -- conversion ---------------------------------------------------------------


class Converted(NamedTuple):
    """The result of :func:`convert`: the new bytes and what the target format could not keep."""

    data: bytes
    batches: int  # shallow entries written
    dropped_headers: int  # record headers (they need magic 2)
    dropped_producer_fields: int  # batches whose producer id/epoch/sequence/transaction flag were set
    dropped_control_batches: int  # control batches (brokers do not down-convert them)
    dropped_timestamps: int  # record timestamps (magic 0 has none)
    partial: object | None  # a trailing partial entry of the input, not copied


def convert(data, magic: int, *, compression: str | None = None, verify: bool = True,
            max_decompressed: int = DEFAULT_MAX_DECOMPRESSED) -> Converted:
    """Rewrite a stream of batches into message format ``magic``, as a broker down- or up-converts.

    Offsets, keys and values are kept; timestamps too, except for magic 0.
    Each batch becomes one batch (a compressed one one wrapper; an uncompressed
    one one message per record for magic 0/1). Entries already in ``magic``
    are copied as they are. ``compression`` overrides the codec (zstd cannot go
    below magic 2). Whatever the target cannot hold is counted in the result.
    """
    from .builder import build_batch  # noqa: PLC0415 - builder imports this module lazily
    from .records import iter_batches  # noqa: PLC0415

    if magic not in (0, 1, 2):
        raise ValueError(f"magic must be 0, 1 or 2, got {magic!r}")
    out = []
    headers = producer = control = timestamps = written = 0
    it = iter_batches(data, verify=verify, max_decompressed=max_decompressed)
    for batch in it:
        if batch.magic == magic:
            out.append(batch.raw())
            written += 1
            continue
        records = batch.records
        if magic < 2:
            if batch.is_control:
                control += 1
                continue
            if batch.producer_id != -1 or batch.base_sequence != -1 or batch.is_transactional:
                producer += 1
            kept = []
            for r in records:
                headers += len(r.headers)
                if magic == 0 and r.timestamp is not None and r.timestamp != -1:
                    timestamps += 1
                kept.append(r._replace(headers=[]))
            records = kept
        codec = batch.compression if compression is None else compression
        if codec == "zstd" and magic < 2:
            raise UnsupportedCodecError(
                f"the batch at byte {batch.position} is zstd-compressed, which magic {magic} cannot hold; "
                "pass compression= to recompress", batch.position)
        log_append = batch.timestamp_type == "log_append"
        if not records:
            if magic == 2:
                out.append(build_batch([], magic=2, compression=codec, base_offset=batch.base_offset))
                written += 1
            continue
        out.append(build_batch(
            records, magic=magic, compression=codec, base_offset=records[0].offset,
            timestamp_type=batch.timestamp_type if magic else "create",
            log_append_time=batch.max_timestamp if log_append else None,
        ))
        written += 1 if magic == 2 or codec != "none" else len(records)
    return Converted(b"".join(out), written, headers, producer, control, timestamps, it.partial)


# -- Kafka 0.6/0.7: byte-offset message streams ---------------------------------


class WireRecord(NamedTuple):
    """One 0.6/0.7 message's content; ``offset`` is the byte offset a consumer fetches from."""

    offset: int
    payload: bytes
    magic: int
    compression: int


class WireBatch:
    """One top-level 0.6/0.7 message: plain, or compressed around an inner message set.

    ``offset`` is the message's byte offset in the partition log (the fetch
    offset plus its position in the response); ``next_offset`` = offset +
    LENGTH + 4. Inner messages of a compressed message are not addressable on
    their own (seed 002), so their records carry the wrapper's offset.
    """

    __slots__ = ("message", "offset", "position", "end", "_records", "max_decompressed", "_buf")

    def __init__(self, message, offset: int, position: int, end: int, max_decompressed: int, buf=b""):
        self.message, self.offset, self.position, self.end, self._buf = message, offset, position, end, buf
        self._records: list[WireRecord] | None = None
        self.max_decompressed = max_decompressed

    magic = property(lambda self: self.message.magic)
    payload = property(lambda self: self.message.payload)
    checksum = property(lambda self: self.message.checksum)

    @property
    def codec(self) -> int:
        return self.message.compression & 7 if self.message.magic == 1 else 0

    @property
    def compression(self) -> str:
        return CODEC_NAMES[self.codec] if self.codec < len(CODEC_NAMES) else str(self.codec)

    @property
    def next_offset(self) -> int:
        return self.offset + self.end - self.position

    @property
    def records(self) -> list[WireRecord]:
        if self._records is None:
            if not self.codec:
                self._records = [WireRecord(self.offset, self.payload, self.magic, 0)]
            else:
                data = decompress(self.codec, self.payload, max_size=self.max_decompressed,
                                  position=self.position, magic=0)
                inner = WireMessageIterator(data, max_decompressed=self.max_decompressed, _nested=True)
                try:
                    self._records = [WireRecord(self.offset, m.payload, m.magic, 0) for m in inner]
                except KafkaFormatError as exc:
                    raise type(exc)(f"in the decompressed payload of the message at byte {self.position}: "
                                    f"{exc.reason} (at decompressed byte {exc.position})", self.position) from None
                if inner.partial is not None:
                    raise TruncatedError("compressed message set ends inside a message", self.position)
        return self._records

    def __iter__(self):
        return iter(self.records)

    def raw(self) -> bytes:
        return bytes(self._buf[self.position : self.end])

    def __repr__(self) -> str:
        return f"WireBatch(magic={self.magic}, offset={self.offset}, compression={self.compression!r})"


class WireMessageIterator:
    """Iterates 0.6/0.7 messages; a trailing partial message ends it and is kept in :attr:`partial`."""

    def __init__(self, data, *, base_offset: int = 0, verify: bool = True,
                 max_decompressed: int = DEFAULT_MAX_DECOMPRESSED, _nested: bool = False):
        self._buf = bytes(data)
        self._pos = 0
        self.base_offset = base_offset
        self.verify = verify
        self.max_decompressed = max_decompressed
        self.partial = None
        self._nested = _nested

    def __iter__(self):
        return self

    def __next__(self) -> WireBatch:
        from .records import Partial  # noqa: PLC0415

        buf, pos = self._buf, self._pos
        end = len(buf)
        if pos >= end:
            raise StopIteration
        if end - pos < 5:
            self.partial = Partial(pos, end - pos, None)
            self._pos = end
            raise StopIteration
        (length,) = struct.unpack_from(">i", buf, pos)
        if length >= 0 and pos + 4 + length > end:
            self.partial = Partial(pos, end - pos, 4 + length)
            self._pos = end
            raise StopIteration
        magic = buf[pos + 4]
        module = WIRE_MODULES.get(magic)
        if module is None:
            raise InvalidMagicError(f"0.6/0.7 message MAGIC is {magic}, expected 0 or 1", pos + 4)
        if length < MIN_WIRE_LENGTH[magic]:
            raise InvalidLengthError(f"0.6/0.7 message LENGTH is {length}, at least {MIN_WIRE_LENGTH[magic]} expected", pos)
        message, new_pos = module.decode_wire_message(buf, pos, verify=self.verify)
        if self._nested and magic == 1 and message.compression & 7:
            raise LimitExceededError("a compressed message holds another compressed message (nesting is not allowed)", pos)
        self._pos = new_pos
        return WireBatch(message, self.base_offset + pos, pos, new_pos, self.max_decompressed, buf)


def iter_wire_messages(data, *, base_offset: int = 0, verify: bool = True,
                       max_decompressed: int = DEFAULT_MAX_DECOMPRESSED) -> WireMessageIterator:
    """Iterate the 0.6/0.7 messages in ``data`` (a fetch response's MESSAGES, a 0.7 log segment).

    ``base_offset`` is the byte offset of ``data[0]`` in the partition log (the
    fetch request's OFFSET); each message's offset is base_offset + position.
    A message cut off at the end is not an error (seed 002): iteration stops
    and the iterator's ``partial`` says where and how much was left.
    """
    return WireMessageIterator(data, base_offset=base_offset, verify=verify, max_decompressed=max_decompressed)


def build_wire_messages(payloads: Sequence[bytes], *, magic: int = 1, compression: str | int = "none") -> bytes:
    """Encode payloads as 0.6 (magic 0) or 0.7 (magic 1) messages; compressed: one message around them."""
    if magic == 0:
        if codec_id(compression):
            raise UnsupportedCodecError("0.6 messages (magic 0) cannot be compressed")
        return b"".join(wire_message_v0.encode_wire_message(payload=p) for p in payloads)
    codec = codec_id(compression)
    if codec not in (0, 1, 2):
        raise UnsupportedCodecError("0.7 messages know only none, gzip and snappy")
    plain = b"".join(wire_message_v1.encode_wire_message(compression=0, payload=p) for p in payloads)
    if not codec:
        return plain
    return wire_message_v1.encode_wire_message(compression=codec, payload=compress(codec, plain, magic=0))


# -- Kafka 0.7 requests and responses --------------------------------------------

REQUEST_MODULES = {
    RequestType.PRODUCE: (produce_request_v0.decode_produce_request, produce_request_v0.encode_produce_request),
    RequestType.FETCH: (fetch_request_v0.decode_fetch_request, fetch_request_v0.encode_fetch_request),
    RequestType.MULTIFETCH: (multi_fetch_request_v0.decode_multi_fetch_request,
                             multi_fetch_request_v0.encode_multi_fetch_request),
    RequestType.MULTIPRODUCE: (multi_produce_request_v0.decode_multi_produce_request,
                               multi_produce_request_v0.encode_multi_produce_request),
    RequestType.OFFSETS: (offsets_request_v0.decode_offsets_request, offsets_request_v0.encode_offsets_request),
}
_ENCODERS = {
    produce_request_v0.ProduceRequest: produce_request_v0.encode_produce_request,
    fetch_request_v0.FetchRequest: fetch_request_v0.encode_fetch_request,
    multi_fetch_request_v0.MultiFetchRequest: multi_fetch_request_v0.encode_multi_fetch_request,
    multi_produce_request_v0.MultiProduceRequest: multi_produce_request_v0.encode_multi_produce_request,
    offsets_request_v0.OffsetsRequest: offsets_request_v0.encode_offsets_request,
    offsets_response_v0.OffsetsResponse: offsets_response_v0.encode_offsets_response,
    fetch_response_v0.FetchResponse: fetch_response_v0.encode_fetch_response,
    multi_fetch_response_v0.MultiFetchResponse: multi_fetch_response_v0.encode_multi_fetch_response,
}


def _need(buf, pos: int, what: str) -> None:
    if len(buf) - pos < 6:
        raise TruncatedError(f"0.7 {what} needs at least 6 bytes, {len(buf) - pos} present", pos)
    (length,) = struct.unpack_from(">i", buf, pos)
    if length < 2:
        raise InvalidLengthError(f"0.7 {what} length is {length}, at least 2 expected", pos)
    if pos + 4 + length > len(buf):
        raise TruncatedError(f"0.7 {what} needs {4 + length} bytes, {len(buf) - pos} present", pos)


def decode_request(buf, pos: int = 0):
    """Decode the 0.7 request at ``pos`` by its REQUEST_TYPE; return (request, end position)."""
    buf = bytes(buf)
    _need(buf, pos, "request")
    (rtype,) = struct.unpack_from(">h", buf, pos + 4)
    try:
        decode = REQUEST_MODULES[RequestType(rtype)][0]
    except ValueError:
        raise InvalidMagicError(f"0.7 REQUEST_TYPE is {rtype}, expected 0-4", pos + 4) from None
    return decode(buf, pos)


def encode(message) -> bytes:
    """Encode a 0.7 request or response tuple (FetchRequest, OffsetsResponse, ...); lengths are computed."""
    try:
        return _ENCODERS[type(message)](message)
    except KeyError:
        raise TypeError(f"not a 0.7 request or response: {type(message).__name__}") from None


class FetchResult(NamedTuple):
    """A decoded 0.7 fetch response: its error code, complete messages and any partial tail."""

    error_code: int
    messages: list[WireBatch]
    partial: object | None
    end: int

    @property
    def error(self) -> ErrorCode:
        return ErrorCode(self.error_code)


def decode_fetch_response(buf, pos: int = 0, *, base_offset: int = 0, verify: bool = True,
                          max_decompressed: int = DEFAULT_MAX_DECOMPRESSED) -> FetchResult:
    """Decode a 0.7 FETCH response; ``base_offset`` is the request's OFFSET.

    The response's MESSAGES may end mid-message (the broker cuts at MAX_SIZE):
    the complete messages are returned and the leftover is in ``partial``.
    """
    buf = bytes(buf)
    _need(buf, pos, "fetch response")
    response, end = fetch_response_v0.decode_fetch_response(buf, pos)
    it = iter_wire_messages(response.messages, base_offset=base_offset, verify=verify,
                            max_decompressed=max_decompressed)
    try:
        messages = list(it)
    except KafkaFormatError as exc:
        raise exc.at(pos + 6) from None
    partial = it.partial._replace(position=it.partial.position + pos + 6) if it.partial else None
    return FetchResult(response.error_code, messages, partial, end)


def decode_multi_fetch_response(buf, base_offsets: Sequence[int] = (), *, verify: bool = True,
                                max_decompressed: int = DEFAULT_MAX_DECOMPRESSED) -> tuple[int, list[FetchResult]]:
    """Decode a 0.7 MULTIFETCH response: (error code, one FetchResult per topic-partition, in request order)."""
    buf = bytes(buf)
    _need(buf, 0, "multi-fetch response")
    response, end = multi_fetch_response_v0.decode_multi_fetch_response(buf, 0)
    results = []
    pos = 6
    while pos < end:
        base = base_offsets[len(results)] if len(results) < len(base_offsets) else 0
        result = decode_fetch_response(buf[:end], pos, base_offset=base, verify=verify,
                                       max_decompressed=max_decompressed)
        results.append(result)
        pos = result.end
    return response.error_code, results


__all__ = [
    "EARLIEST",
    "LATEST",
    "Converted",
    "FetchResult",
    "LegacyBatch",
    "WireBatch",
    "WireMessageIterator",
    "WireRecord",
    "build_legacy",
    "build_wire_messages",
    "convert",
    "decode_fetch_response",
    "decode_multi_fetch_response",
    "decode_request",
    "encode",
    "iter_wire_messages",
    "read_legacy",
]
