"""MessageSet entries: Message v0 (Kafka 0.8-0.9) and v1 (0.10.0-0.10.2), read and built.
One module because reading and building a compressed wrapper follow the same offset and timestamp rules.

The byte layouts are generated from ``schemas/legacy/``; this module holds what
the schema language does not express: a compressed wrapper's inner message set
(offsets, LogAppendTime, nesting) and building wrappers the way the Java
client does.

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
  Kafka does; inner CRCs are verified (``LegacyBatch.decode_records(verify=False)`` leaves them be).
- A compressed wrapper with no inner messages is invalid, as in Kafka ("compressed
  record set with no inner records").
- Under LogAppendTime (a magic-1 wrapper's attribute bit 3) only magic-1 inner
  messages take the wrapper's timestamp; magic-0 inner messages have none (-1), as
  in Kafka's ``AbstractLegacyRecordBatch``.
- zstd inside a wrapper is read although Kafka refuses it (a Go client, sarama,
  writes it): beyond the spec, on purpose; the builders refuse to write it.
"""

from __future__ import annotations

import struct
import time
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from kafkaspec.generated import message_v0, message_v1
from kafkaspec.generated.log_entry import CASES
from kafkaspec.generated.message_v1 import COMPRESSION_MASK, TIMESTAMP_TYPE_MASK, TIMESTAMP_TYPE_SHIFT
from kafkaspec.generated.record_v2 import Record

from .codec.compression import DEFAULT_MAX_DECOMPRESSED, NONE, ZSTD, codec_name, compress, decompress
from .codec.crc import crc32
from .entry import LOG_OVERHEAD, MAGIC_OFFSET, MIN_LENGTH, TIMESTAMP_TYPES, Buffer, BufferedEntry
from .errors import (
    InvalidLengthError,
    InvalidMagicError,
    KafkaFormatError,
    LimitExceededError,
    TruncatedError,
    UnsupportedCodecError,
)

#: the Message layouts among the generated log-entry dispatch (magic 0 and 1; magic 2 is a RecordBatch)
MESSAGE_MODULES = {magic: CASES[magic] for magic in (message_v0.VERSION, message_v1.VERSION)}
_MESSAGE_SIZE = struct.Struct(">i")
#: where message_size and attributes sit in a ``decode_message_run`` tuple (v0 and v1 alike)
_RUN_MESSAGE_SIZE, _RUN_ATTRIBUTES = 1, 4
#: smallest message_size of a Message v0/v1: crc, magic, attributes, [timestamp], key and value lengths
MIN_MESSAGE_SIZE = {magic: MIN_LENGTH[magic] for magic in MESSAGE_MODULES}
_new = tuple.__new__
_new_entry = object.__new__
_I32 = struct.Struct(">i")
#: where the attributes byte sits (v0 and v1 alike: right after the magic byte)
_ATTRIBUTES_OFFSET = MAGIC_OFFSET + 1
assert message_v0.ATTRIBUTES_OFFSET == message_v1.ATTRIBUTES_OFFSET == _ATTRIBUTES_OFFSET
#: bytes the generated loop reads before :func:`_same_shape_run` speculates again
_GENERAL_WINDOW = 4096
#: the whole-message structs made so far, by (magic, key length, value length); at most this many kept
_SHAPES: dict[tuple[int, int, int], struct.Struct] = {}
_SHAPES_KEPT = 256


class LegacyBatch(BufferedEntry):
    """One shallow Message v0/v1 in a buffer, with the attributes of a v2 :class:`~kafkaspec.Batch`.

    Batch-level v2 fields that the legacy formats lack have Kafka's "none"
    values: producer_id/epoch, base_sequence and partition_leader_epoch are -1,
    is_transactional and is_control are False.
    """

    __slots__ = ("_key_value",)
    _key_value: tuple[bytes | None, bytes | None]
    producer_id = -1
    producer_epoch = -1
    base_sequence = -1
    partition_leader_epoch = -1
    is_transactional = False
    is_control = False
    has_delete_horizon = False
    control = None

    @property
    def magic(self) -> int:
        """0 or 1."""
        return self.head.magic

    @property
    def offset(self) -> int:
        """The message's offset (a compressed wrapper's: that of its last inner message)."""
        return self.head.offset

    @property
    def crc(self) -> int:
        """The stored CRC-32 of magic..end."""
        return self.head.crc

    @property
    def attributes(self) -> int:
        """The attribute bits: 0-2 codec, 3 timestamp type (magic 1)."""
        return self.head.attributes

    @property
    def last_offset(self) -> int:
        """The message's offset: a wrapper carries the offset of its last inner message."""
        return self.head.offset

    @property
    def timestamp(self) -> int:
        """The message's own timestamp (-1 for magic 0)."""
        return self.head.timestamp if self.head.magic == 1 else -1

    max_timestamp = timestamp
    base_timestamp = timestamp

    @property
    def compression(self) -> str:
        codec = self.head.attributes & COMPRESSION_MASK
        return codec_name(codec)

    @property
    def timestamp_type(self) -> str:
        return (
            TIMESTAMP_TYPES[(self.head.attributes & TIMESTAMP_TYPE_MASK) >> TIMESTAMP_TYPE_SHIFT]
            if self.head.magic == 1
            else "create"
        )

    @property
    def is_wrapper(self) -> bool:
        return bool(self.head.attributes & COMPRESSION_MASK)

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

    if not TYPE_CHECKING:  # (for the type checker, every attribute stays declared)

        def __getattr__(self, name: str) -> Any:
            # a run of one shape (_same_shape_run) leaves ``head`` and ``_key_value`` unset, to be read
            # from the checked entry on first use: most readers want the records only
            if name not in ("head", "_key_value"):
                raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
            buf, pos = self._buf, self.position
            module = MESSAGE_MODULES[buf[pos + MAGIC_OFFSET]]
            self.head = head = module.decode_message_head(buf, pos)
            self._key_value = module.decode_message_rest(buf, pos, head, self.end)
            return head if name == "head" else self._key_value

    def key_value(self) -> tuple[bytes | None, bytes | None]:
        """The message's own key and value (for a wrapper: null and the compressed inner set)."""
        return self._key_value

    @property
    def records(self) -> list[Record]:
        """The records: this message, or a wrapper's inner messages (decompressed on first use)."""
        if self._records is None:
            self._records = _shallow_records(self)
        return self._records

    def decode_records(self, *, verify: bool = True) -> list[Record]:
        """:attr:`records`, decoded now; ``verify=False`` leaves a wrapper's inner CRCs unchecked (``dump
        --no-verify`` shows what a wrapper holds whatever its inner checksums say)."""
        if self._records is None:
            self._records = _shallow_records(self, verify)
        return self._records

    def __iter__(self) -> Iterator[Record]:
        return iter(self.records)

    def __len__(self) -> int:
        return len(self.records)

    def __repr__(self) -> str:
        return (
            f"LegacyBatch(magic={self.magic}, offset={self.offset}, compression={self.compression!r}, "
            f"position={self.position})"
        )


def read_legacy(
    buf: Buffer,
    pos: int,
    magic: int,
    *,
    size: int | None = None,
    verify: bool = True,
    max_decompressed: int = DEFAULT_MAX_DECOMPRESSED,
) -> LegacyBatch:
    """Check and decode the Message v0/v1 entry at ``pos`` (length, magic, CRC-32, key and value).

    ``magic`` is the entry's magic byte and ``size`` its message_size when the caller has read them.
    The records of a compressed wrapper are decompressed on first use.
    """
    module = MESSAGE_MODULES.get(magic)
    if module is None:
        raise InvalidMagicError(f"magic byte is {magic}, expected 0 or 1 for a Message", pos + MAGIC_OFFSET)
    if size is None:
        try:
            (size,) = _MESSAGE_SIZE.unpack_from(buf, pos + module.MESSAGE_SIZE_OFFSET)
        except struct.error:
            raise TruncatedError(
                f"Message header needs {LOG_OVERHEAD} bytes, {len(buf) - pos} left", pos
            ) from None
    if size < MIN_MESSAGE_SIZE[magic]:
        raise InvalidLengthError(
            f"Message v{magic} message_size is {size}, at least {MIN_MESSAGE_SIZE[magic]} expected",
            pos + module.MESSAGE_SIZE_OFFSET,
        )
    end = pos + LOG_OVERHEAD + size
    if end > len(buf):
        raise TruncatedError(f"Message needs {LOG_OVERHEAD + size} bytes, {len(buf) - pos} present", pos)
    (item,), _ = module.decode_message_run(buf, pos, end, verify=verify)  # one entry: the magic byte matched
    head = _new(module.MessageHead, item[: len(module.MessageHead._fields)])
    batch = LegacyBatch(head, buf, pos, end, max_decompressed)
    batch._key_value = item[-2:]
    return batch


def read_legacy_run(
    buf: Buffer,
    pos: int,
    stop: int,
    magic: int,
    *,
    verify: bool = True,
    max_decompressed: int = DEFAULT_MAX_DECOMPRESSED,
) -> tuple[list[LegacyBatch], int]:
    """The whole Message v0/v1 entries of one ``magic`` from ``pos`` on, ending before ``stop``, each
    checked as :func:`read_legacy` checks it; return them and the position after the last.

    Plain messages that share their key and value lengths are read whole, one struct each
    (:func:`_same_shape_run`); the rest by the generated loop (no call per entry), a plain
    message's record made at once. It stops early, leaving the entry there to :func:`read_legacy`,
    at an entry of another magic or one that runs past ``stop``; a bad entry raises (the caller
    reads up to it with :func:`read_legacy`, which names the fault).
    """
    module = MESSAGE_MODULES[magic]
    batches: list[LegacyBatch] = []
    while pos < stop:
        if (
            stop - pos > _ATTRIBUTES_OFFSET
            and buf[pos + MAGIC_OFFSET] == magic
            and not buf[pos + _ATTRIBUTES_OFFSET] & COMPRESSION_MASK
        ):
            pos = _same_shape_run(buf, pos, stop, magic, verify, max_decompressed, batches)
            if pos >= stop:
                break
        # what the shape did not cover (a wrapper, a message of another shape, or a fault that
        # the generated loop names), a window at a time, then the speculation again
        window = min(stop, pos + _GENERAL_WINDOW)
        items, end = module.decode_message_run(buf, pos, window, verify=verify, whole=True)
        if not items and window < stop:  # an entry larger than the window
            items, end = module.decode_message_run(buf, pos, stop, verify=verify, whole=True)
        _append_items(batches, items, buf, pos, magic, max_decompressed)
        if end == pos:  # another magic, or an entry past stop
            break
        pos = end
    return batches, pos


def _append_items(
    batches: list[LegacyBatch], items: list[tuple], buf: Buffer, pos: int, magic: int, max_decompressed: int
) -> None:
    """Append the entries of a ``decode_message_run`` at ``pos`` to ``batches`` (their heads are read
    again on first use, as in :func:`_same_shape_run`)."""
    new, entry, record, attributes_at, timestamp_at, codec_bits = (
        _new,
        LegacyBatch,
        Record,
        _RUN_ATTRIBUTES,
        _RUN_ATTRIBUTES + 1,
        COMPRESSION_MASK,
    )
    append = batches.append
    for item in items:
        batch = _new_entry(entry)
        batch._buf, batch.position, batch.max_decompressed = buf, pos, max_decompressed
        batch.end = pos = pos + LOG_OVERHEAD + item[_RUN_MESSAGE_SIZE]
        if item[attributes_at] & codec_bits:  # a wrapper: its records on first use
            batch._records = None
        else:  # a plain message: its one record now
            batch._records = [
                new(
                    record,
                    (
                        item[attributes_at],
                        item[timestamp_at] if magic else -1,
                        item[0],
                        item[-2],
                        item[-1],
                        [],
                    ),
                )
            ]
        append(batch)


def _same_shape(magic: int, key_length: int, value_length: int) -> struct.Struct:
    """The struct of a whole Message of ``magic`` whose key and value have these lengths (-1: null; an
    empty field is read in its place)."""
    shape = _SHAPES.get((magic, key_length, value_length))
    if shape is None:
        if len(_SHAPES) >= _SHAPES_KEPT:
            _SHAPES.clear()
        fmt = f"{MESSAGE_MODULES[magic].RUN_HEAD.format}i{max(key_length, 0)}si{max(value_length, 0)}s"
        shape = _SHAPES[magic, key_length, value_length] = struct.Struct(fmt)
    return shape


def _same_shape_run(
    buf: Buffer,
    pos: int,
    stop: int,
    magic: int,
    verify: bool,
    max_decompressed: int,
    batches: list[LegacyBatch],
) -> int:
    """Append the plain messages from ``pos`` on that have the key and value lengths of the first
    (as producers usually write them), each unpacked whole by one struct; return the position after
    the last one taken: ``pos`` when none was.

    Speculative: an entry is taken when every field the generated loop checks agrees with the
    shape (magic, message_size, key and value lengths, a plain message's codec bits, the CRC). The
    first one that does not ends the run, and is left to the generated loop, which reads it or names
    its fault exactly as without this path.
    """
    module = MESSAGE_MODULES[magic]
    overhead = module.MESSAGE_OVERHEAD
    try:
        (key_length,) = _I32.unpack_from(buf, pos + overhead)
        (value_length,) = _I32.unpack_from(buf, pos + overhead + 4 + max(key_length, 0))
    except struct.error:
        return pos
    if key_length < -1 or value_length < -1:
        return pos
    size = overhead + 8 + max(key_length, 0) + max(value_length, 0)
    count = (stop - pos) // size
    if count < 2 or _I32.unpack_from(buf, pos + size + module.MESSAGE_SIZE_OFFSET)[0] != size - LOG_OVERHEAD:
        return pos  # no second message of this shape: not worth a struct
    message_size, null_key, null_value = size - LOG_OVERHEAD, key_length < 0, value_length < 0
    new, entry, record, crc, codec_bits = _new, LegacyBatch, Record, crc32, COMPRESSION_MASK
    append = batches.append
    with memoryview(buf) as view:
        entries = _same_shape(magic, key_length, value_length).iter_unpack(view[pos : pos + count * size])
        if magic:
            for offset, msize, stored, mgc, attributes, timestamp, klen, key, vlen, value in entries:
                end = pos + size
                if (
                    msize != message_size
                    or mgc != 1
                    or klen != key_length
                    or vlen != value_length
                    or attributes & codec_bits
                    or (verify and crc(view[pos + MAGIC_OFFSET : end]) != stored)
                ):
                    break
                batch = _new_entry(entry)
                batch._buf, batch.position, batch.end, batch.max_decompressed = (
                    buf,
                    pos,
                    end,
                    max_decompressed,
                )
                batch._records = [
                    new(
                        record,
                        (
                            attributes,
                            timestamp,
                            offset,
                            None if null_key else key,
                            None if null_value else value,
                            [],
                        ),
                    )
                ]
                append(batch)
                pos = end
        else:
            for offset, msize, stored, mgc, attributes, klen, key, vlen, value in entries:
                end = pos + size
                if (
                    msize != message_size
                    or mgc != 0
                    or klen != key_length
                    or vlen != value_length
                    or attributes & codec_bits
                    or (verify and crc(view[pos + MAGIC_OFFSET : end]) != stored)
                ):
                    break
                batch = _new_entry(entry)
                batch._buf, batch.position, batch.end, batch.max_decompressed = (
                    buf,
                    pos,
                    end,
                    max_decompressed,
                )
                batch._records = [
                    new(
                        record,
                        (
                            attributes,
                            -1,
                            offset,
                            None if null_key else key,
                            None if null_value else value,
                            [],
                        ),
                    )
                ]
                append(batch)
                pos = end
        del entries
    return pos


def _shallow_records(batch: LegacyBatch, verify: bool = True) -> list[Record]:
    h = batch.head
    key, value = batch.key_value()
    codec = h.attributes & COMPRESSION_MASK
    if not codec:
        return [_new(Record, (h.attributes, h.timestamp if h.magic else -1, h.offset, key, value, []))]
    if value is None:
        raise KafkaFormatError("compressed wrapper message has a null value", batch.position)
    data = decompress(codec, value, max_size=batch.max_decompressed, position=batch.position, magic=h.magic)
    try:
        runs = _inner_runs(data, verify)
    except KafkaFormatError as exc:
        raise type(exc)(
            f"in the decompressed value of the wrapper message at byte {batch.position}: {exc.reason}"
            f" (at decompressed byte {exc.position})",
            batch.position,
        ) from None
    if not runs:  # Kafka: "Found invalid compressed record set with no inner records"
        raise InvalidLengthError("compressed wrapper message holds no inner messages", batch.position)
    base, log_append_time = 0, None
    if h.magic == 1:
        base = h.offset - runs[-1][1][-1][0]  # wrapper offset - last inner (relative) offset
        if base < 0:  # a producer's wrapper offset (0 or -1): keep the relative offsets as written
            base = 0
        if (
            h.attributes & TIMESTAMP_TYPE_MASK
        ):  # LogAppendTime: the wrapper's timestamp applies to its magic-1 inner messages
            log_append_time = h.timestamp
    records: list[Record] = []
    new = _new
    for magic, items in runs:
        # run tuples: offset, message_size, crc, magic, attributes, [timestamp], key, value
        if log_append_time is not None and magic:
            records += [new(Record, (m[4], log_append_time, m[0] + base, m[-2], m[-1], [])) for m in items]
        elif magic:
            records += [new(Record, (a, t, o + base, k, v, [])) for o, _, _, _, a, t, k, v in items]
        else:
            records += [new(Record, (a, -1, o + base, k, v, [])) for o, _, _, _, a, k, v in items]
    return records


def _inner_runs(data: bytes, verify: bool = True) -> list[tuple[int, list[tuple]]]:
    """The messages of an inner message set, as (magic, run tuples) for each run of one magic."""
    runs = []
    pos, end = 0, len(data)
    while pos < end:
        if end - pos <= MAGIC_OFFSET:
            raise TruncatedError(f"inner message set ends with {end - pos} bytes, too few for a message", pos)
        magic = data[pos + MAGIC_OFFSET]
        module = MESSAGE_MODULES.get(magic)
        if module is None:
            raise InvalidMagicError(f"inner message magic is {magic}, expected 0 or 1", pos + MAGIC_OFFSET)
        start = pos
        items, pos = module.decode_message_run(data, pos, end, verify=verify)
        for item in items:
            if item[_RUN_ATTRIBUTES] & module.COMPRESSION_MASK:
                raise LimitExceededError(
                    "a compressed wrapper holds another compressed wrapper (nesting is not allowed)", start
                )
            start += LOG_OVERHEAD + item[_RUN_MESSAGE_SIZE]
        runs.append((magic, items))
    return runs


# -- building -----------------------------------------------------------------


def build_legacy(
    records: Sequence[Record],
    *,
    magic: int,
    codec: int = NONE,
    base_offset: int = 0,
    timestamp_type: int = 0,
    log_append_time: int | None = None,
    snappy_framing: str = "xerial",
    compression_level: int | None = None,
) -> bytes:
    """Encode ``records`` as MessageSet entries of ``magic`` 0 or 1, like the Java client.

    Uncompressed: one message per record. Compressed: one wrapper whose value
    is the compressed inner message set (magic 1: relative inner offsets, the
    wrapper holding the last absolute offset and the largest timestamp, or the
    append time under LogAppendTime; magic 0: absolute inner offsets). Records
    must not have headers (they need magic 2); timestamps are not stored by magic 0.
    ``build_batch`` has checked the arguments: ``codec`` and ``timestamp_type`` are numbers.
    """
    if codec == ZSTD:
        raise UnsupportedCodecError("zstd needs magic 2 (Kafka refuses zstd in Message v0/v1)")
    if any(r.headers for r in records):
        raise ValueError("record headers need magic 2; use kafkaspec.convert to drop them explicitly")
    ts_type = timestamp_type if magic == 1 else 0
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
    options: dict[str, Any] = {"level": compression_level} if compression_level is not None else {}
    if codec == 2:
        options["snappy_framing"] = snappy_framing
    value = compress(codec, inner, magic=magic, **options)
    wrapper_ts = log_append_time if ts_type == 1 else max(timestamps)
    return encode(offset=offsets[-1], attributes=codec | attrs, key=None, value=value, **extra(wrapper_ts))
