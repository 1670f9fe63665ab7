"""The columnar engine: the records of many v2 batches decoded at once with numpy, into Arrow arrays.

The per-record decoder (the generated ``decode_record_batch_columns``) walks one record at a time in
Python. This engine walks record ``i`` of every batch at once instead: the only sequential part of a
batch is the chain of record lengths, and that chain is followed in lockstep over the batches (one
numpy gather of two bytes and one table lookup per step, :func:`_record_spans`), its checks made
afterwards over all records at once; batches of the first one's records count and size are guessed
to have its chain, and checked. Then the first bytes of every record are copied into a compact
array (a *window*), and each field is read over all records together (:class:`_Fields`): through a
strided view when it sits at the same place in every record, a shifted word when it sits at one of a
few, an index otherwise. Keys, values and header keys/values become Arrow arrays with one gather
each (spans of one length: one numpy copy of fixed-size items; others: one ``take``); headers that
sit at the same places in every record are sliced out of a window taken at the first header. No
Python object is made per record.

Compressed batches are decompressed one by one (C code in the codec libraries) and their records
regions joined into one buffer. The engine checks everything the per-record decoder checks (each
record inside its batch and its fields inside the record, record counts, varint sizes and ranges,
UTF-8 header keys, int64 offsets and timestamps); it does not raise: when anything fails,
:func:`decode_batches` returns ``None`` and the caller decodes those batches with the per-record
decoder, which raises its error with its position (or, where the engine is only more cautious, gives
the same columns). CRCs and batch heads are checked before batches get here (by the batch iterator,
or by :mod:`kafkaspec.arrow.walk`: the heads of a segment at once, the CRCs of a run right before it
comes here). :func:`decode_run` and :func:`decode_run_at` turn a decoded run into a RecordBatch of
the ``kafkalog`` columns.

Needs numpy and pyarrow (``kafkaspec[spark]``); ``import kafkaspec`` does not load this module.

Why one module of this size: the record walk, the field reader and the run's column assembly share
one buffer layout (positions into the joined records regions, windows of each record's bytes) and one
failure rule (decline the run, never raise); split, each part would have to re-state both.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import NamedTuple, TypeVar, cast

from ..codec.extras import missing

try:
    import numpy as np
    import pyarrow as pa
except ModuleNotFoundError as exc:
    raise missing(exc, "spark", "the columnar engine (kafkaspec.arrow.engine)") from None

from kafkaspec.generated import record_batch_v2 as v2
from kafkaspec.generated.record_batch_v2 import (
    COMPRESSION_MASK,
    IS_CONTROL_MASK,
    IS_TRANSACTIONAL_MASK,
    RECORD_BATCH_OVERHEAD,
    TIMESTAMP_TYPE_MASK,
    TIMESTAMP_TYPE_SHIFT,
)

from ..codec.compression import CODEC_NAMES, DEFAULT_MAX_DECOMPRESSED, decompress
from ..codec.varint import read_varint
from ..errors import KafkaFormatError
from ..generated.record_v2 import MIN_RECORD_SIZE
from ..records import Batch
from .schema import HEADERS_TYPE, SCHEMA

#: below this many batches still walking their record chain, the rest is walked in plain Python
#: (a numpy step costs microseconds whatever its size; a batch of 10,000 records alone must not pay it)
LOCKSTEP_MIN_BATCHES = 8
#: records with more headers than this send their batches to the per-record decoder (one lockstep
#: step per header index)
MAX_LOCKSTEP_HEADERS = 64
#: the most bytes of every record gathered at once (:class:`_Fields`, :func:`_window_width`)
_WINDOW = 32
#: the window of every record's headers (:meth:`_Fields.rebase`)
_HEADERS_WINDOW = 64
_PAD = 16  # zero bytes after joined (decompressed) data: a varint read past a record's end stays inside the array
_INT32_LIMIT = (1 << 31) - 1

#: one-byte zigzag varints (only the first 128 entries are used); int16: the lengths and counts read with
#: it are passed over several times, and sums with int64 positions widen
_ZIGZAG_1 = np.array([(b >> 1) ^ -(b & 1) for b in range(256)], np.int16)


def _two_byte_tables() -> tuple[np.ndarray, np.ndarray]:
    """For every pair of bytes (first | second << 8): the zigzag varint they start and its size
    (0 when it is longer than two bytes)."""
    pair = np.arange(1 << 16)
    first, second = pair & 255, pair >> 8
    u = np.where(first < 128, first, (first & 127) | (second << 7))
    size = np.where(first < 128, 1, np.where(second < 128, 2, 0))
    # small dtypes: the tables (64 Ki entries each) stay in the cache; sums with int64 positions widen
    return ((u >> 1) ^ -(u & 1)).astype(np.int32), size.astype(np.int8)


_VALUE_2, _SIZE_2 = _two_byte_tables()
#: the record-length walk's step for the two bytes at a record's start: past its length varint and its
#: body; 0 (the walk stays) for a length of three or more varint bytes, or a negative one. int64, as the
#: positions it moves (a step's sum needs no widening: a tenth of the walk's time)
_STEP_2 = np.where((_SIZE_2 > 0) & (_VALUE_2 >= 0), _SIZE_2 + _VALUE_2, 0).astype(np.int64)

#: a v2 batch head as a numpy record (big-endian fields at the schema's offsets): the heads of a run
#: are read with one gather instead of a Python loop over batches
HEAD_DTYPE = np.dtype(
    {
        "names": [
            "base_offset",
            "batch_length",
            "partition_leader_epoch",
            "magic",
            "crc",
            "attributes",
            "last_offset_delta",
            "base_timestamp",
            "max_timestamp",
            "producer_id",
            "producer_epoch",
            "base_sequence",
            "records_count",
        ],
        "formats": [">i8", ">i4", ">i4", "i1", ">u4", ">i2", ">i4", ">i8", ">i8", ">i8", ">i2", ">i4", ">i4"],
        "offsets": [
            v2.BASE_OFFSET_OFFSET,
            v2.BATCH_LENGTH_OFFSET,
            v2.PARTITION_LEADER_EPOCH_OFFSET,
            v2.MAGIC_OFFSET,
            v2.CRC_OFFSET,
            v2.ATTRIBUTES_OFFSET,
            v2.LAST_OFFSET_DELTA_OFFSET,
            v2.BASE_TIMESTAMP_OFFSET,
            v2.MAX_TIMESTAMP_OFFSET,
            v2.PRODUCER_ID_OFFSET,
            v2.PRODUCER_EPOCH_OFFSET,
            v2.BASE_SEQUENCE_OFFSET,
            v2.RECORDS_COUNT_OFFSET,
        ],
        "itemsize": RECORD_BATCH_OVERHEAD,
    }
)


def read_heads(arr: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """The heads of the batches at ``positions`` of ``arr`` (uint8), as :data:`HEAD_DTYPE` records."""
    return np.ndarray((max(len(arr) - RECORD_BATCH_OVERHEAD + 1, 0),), HEAD_DTYPE, arr, 0, (1,))[positions]


_I64_MIN, _I64_MAX = np.iinfo(np.int64).min, np.iinfo(np.int64).max
_U16LE = np.dtype("<u2")
_U32LE = np.dtype("<u4")


class Decoded(NamedTuple):
    """The records of a run of v2 batches, as columns (one row per record, batches in order)."""

    counts: np.ndarray  # int64, records per batch
    offset: np.ndarray  # int64, absolute
    timestamp: np.ndarray  # int64 milliseconds, absolute (LogAppendTime: the batch's max timestamp)
    key: pa.Array  # binary, null for a null key
    value: pa.Array  # binary, null for a null value (tombstone)
    headers: pa.Array  # list<struct<key: string, value: binary>> of the type asked for
    #: int64 per batch: the size of its records region as decoded (after decompression), so that a
    #: caller needing a compressed batch's uncompressed size (the pipeline's audit) need not decompress again
    plain_sizes: np.ndarray
    heads: np.ndarray  # the batch heads, :data:`HEAD_DTYPE` records (the batch columns come from these)


_T = TypeVar("_T")


class _Fail(Exception):
    """A vectorised check failed: the caller falls back to the per-record decoder."""


def decode_batches(
    buf: bytes,
    batches: Sequence[Batch],
    headers_type: pa.ListType,
    *,
    max_decompressed: int = DEFAULT_MAX_DECOMPRESSED,
) -> Decoded | None:
    """Decode the records of ``batches`` (v2 views into ``buf``, heads checked, in file order).

    ``None`` when any batch fails a check (or needs a path the engine leaves to the per-record
    decoder: 10-byte varlongs, more than :data:`MAX_LOCKSTEP_HEADERS` headers on a record, a run
    beyond 2 GiB); nothing is half-decoded then.
    """
    try:
        return _decode(buf, batches, headers_type, max_decompressed)
    except _Fail:
        return None


_CODEC_LIST = [*CODEC_NAMES, "unknown5", "unknown6", "unknown7"]
_CODECS = pa.array(_CODEC_LIST, pa.string())
#: spans of one length up to this many bytes are gathered as fixed-size items (:func:`_gather`)
_FIXED_MAX = 1 << 20
_US_LIMIT = np.iinfo(np.int64).max // 1000  # milliseconds that still fit a Spark timestamp (microseconds)


def decode_run(
    buf: bytes,
    run: Sequence[Batch],
    *,
    topic: str,
    partition: int,
    segment: str,
    base: int = 0,
    max_decompressed: int = DEFAULT_MAX_DECOMPRESSED,
    plain_sizes: dict[int, int] | None = None,
) -> pa.RecordBatch | None:
    """The records of a run of v2 batches of ``buf`` (file position ``base``) as one RecordBatch of the
    ``kafkalog`` columns (:data:`~kafkaspec.arrow.schema.SCHEMA`); ``None`` when the engine declines
    (decode the run one record at a time instead). Both Arrow readers call this, so a run's columns are
    built in one place.

    ``plain_sizes``: filled, when the run decodes, with each batch's position in ``buf`` -> the size of
    its records region after decompression."""
    positions = np.fromiter((b.position for b in run), np.int64, len(run))
    return decode_run_at(
        buf,
        positions,
        read_heads(np.frombuffer(buf, np.uint8), positions),
        topic=topic,
        partition=partition,
        segment=segment,
        base=base,
        max_decompressed=max_decompressed,
        plain_sizes=plain_sizes,
    )


def decode_run_at(
    buf: bytes,
    positions: np.ndarray,
    heads: np.ndarray,
    *,
    topic: str,
    partition: int,
    segment: str,
    base: int = 0,
    max_decompressed: int = DEFAULT_MAX_DECOMPRESSED,
    plain_sizes: dict[int, int] | None = None,
) -> pa.RecordBatch | None:
    """:func:`decode_run` of the batches at ``positions`` with their ``heads`` (checked, as by
    :func:`kafkaspec.arrow.walk.v2_heads`): no ``Batch`` object needed."""
    try:
        decoded = decode_heads(
            buf, np.frombuffer(buf, np.uint8), positions, heads, HEADERS_TYPE, max_decompressed
        )
    except _Fail:
        return None
    ts = decoded.timestamp
    if len(ts) and (int(ts.min()) < -_US_LIMIT or int(ts.max()) > _US_LIMIT):  # beyond a Spark timestamp:
        # the per-record path names the record
        return None
    if plain_sizes is not None:
        plain_sizes.update(zip(positions.tolist(), decoded.plain_sizes.tolist(), strict=True))
    counts = decoded.counts
    n = len(ts)
    heads = decoded.heads
    attributes = heads["attributes"]

    def per_batch(values: np.ndarray, dtype: type) -> pa.Array:
        values = values.astype(dtype)
        if len(values) and (values == values[0]).all():  # one value for the run (no producer, no transaction)
            return _constant(values[0].item(), _ARROW_TYPES[dtype], n)
        return pa.array(np.repeat(values, counts))

    columns = [
        decoded.key,
        decoded.value,
        _constant(topic, pa.string(), n),
        _constant(partition, pa.int32(), n),
        pa.array(decoded.offset),
        pa.array(ts * 1000).view(pa.timestamp("us", tz="UTC")),
        per_batch((attributes & TIMESTAMP_TYPE_MASK) >> TIMESTAMP_TYPE_SHIFT, np.int32),
        decoded.headers,
        _constant(2, pa.int32(), n),
        _codec_column(attributes & COMPRESSION_MASK, counts, n),
        per_batch(heads["producer_id"], np.int64),
        per_batch(heads["producer_epoch"], np.int32),
        per_batch(heads["base_sequence"], np.int32),
        per_batch((attributes & IS_TRANSACTIONAL_MASK) != 0, np.bool_),
        per_batch((attributes & IS_CONTROL_MASK) != 0, np.bool_),
        per_batch(heads["partition_leader_epoch"], np.int32),
        _constant(segment, pa.string(), n),
        per_batch(base + positions, np.int64),
    ]
    return pa.RecordBatch.from_arrays(columns, schema=SCHEMA)


_ARROW_TYPES = {np.int32: pa.int32(), np.int64: pa.int64(), np.bool_: pa.bool_()}


@functools.lru_cache(maxsize=32)
def _constant(value: object, arrow_type: pa.DataType, n: int) -> pa.Array:
    """``value`` ``n`` times. Arrow arrays are immutable, so a run of the same length (every full run
    of a segment) shares one: a segment path repeated 65,536 times is 4 MB to build each time."""
    return pa.repeat(pa.scalar(value, arrow_type), n)


def _codec_column(codecs: np.ndarray, counts: np.ndarray, n: int) -> pa.Array:
    """The ``compression`` column: one shared array when the run's batches share a codec (the usual case)."""
    first = int(codecs[0]) if len(codecs) else 0
    if (codecs == first).all():
        return _constant(_CODEC_LIST[first], pa.string(), n)
    return _CODECS.take(np.repeat(codecs.astype(np.int8), counts))


def _decode(
    buf: bytes, batches: Sequence[Batch], headers_type: pa.ListType, max_decompressed: int
) -> Decoded:
    nb = len(batches)
    whole = np.frombuffer(buf, np.uint8)
    positions = np.fromiter((b.position for b in batches), np.int64, nb)
    return decode_heads(buf, whole, positions, read_heads(whole, positions), headers_type, max_decompressed)


def decode_heads(
    buf: bytes,
    whole: np.ndarray,
    positions: np.ndarray,
    heads: np.ndarray,
    headers_type: pa.ListType,
    max_decompressed: int,
) -> Decoded:
    """:func:`decode_batches` from the batches' positions in ``buf`` and their heads (already checked)."""
    nb = len(positions)
    counts = heads["records_count"].astype(np.int64)
    lo = int(positions[0]) if nb else 0
    ends = positions + (v2.BATCH_LENGTH_END - lo) + heads["batch_length"]
    hi = int(ends[-1]) + lo if nb else 0
    starts = positions + (RECORD_BATCH_OVERHEAD - lo)
    attributes = heads["attributes"]
    compressed = np.flatnonzero(attributes & COMPRESSION_MASK)
    if not len(compressed):
        data: bytes | memoryview = memoryview(buf)[lo:hi]  # no copy
        size = hi - lo
    else:
        view = memoryview(buf)
        # the records regions joined: the run's own bytes only when some batch is not compressed
        pieces: list[bytes | memoryview] = [view[lo:hi]] if len(compressed) < nb else []
        size = hi - lo if pieces else 0
        # C code in the codec libraries, batch by batch (over Python ints: a numpy scalar a field costs
        # more than a small batch's decompression)
        joined: list[int] = []
        for region, stop, codec in zip(
            (positions[compressed] + RECORD_BATCH_OVERHEAD).tolist(),
            (ends[compressed] + lo).tolist(),
            (attributes[compressed] & COMPRESSION_MASK).tolist(),
        ):
            try:
                plain = decompress(
                    codec, view[region:stop], max_size=max_decompressed, position=region, magic=2
                )
            except KafkaFormatError:
                raise _Fail from None
            joined.append(size)
            pieces.append(plain)
            size += len(plain)
        starts[compressed] = joined
        ends[compressed] = [*joined[1:], size]
        pieces.append(bytes(_PAD))
        data = b"".join(pieces)
    # a count no records region can hold (each record takes MIN_RECORD_SIZE bytes at least) would size
    # the arrays by the count, not by the data: 2^31 records of a 100-byte batch asked for 16 GiB
    if size >= _INT32_LIMIT or (counts < 0).any() or (counts * MIN_RECORD_SIZE > ends - starts).any():
        raise _Fail
    arr = np.frombuffer(data, np.uint8)
    try:
        return _records(data, arr, heads, counts, starts, ends, headers_type)
    except IndexError:  # a length pointing past the data: only corrupt records do that
        raise _Fail from None


def _records(
    data: bytes | memoryview,
    arr: np.ndarray,
    heads: np.ndarray,
    counts: np.ndarray,
    starts: np.ndarray,
    ends: np.ndarray,
    headers_type: pa.ListType,
) -> Decoded:
    """The record columns of the batches whose records regions are ``arr[starts:ends]``."""
    fields = _record_spans(data, arr, counts, starts, ends)
    stop = fields.stop
    rows = len(stop)
    # timestampDelta, offsetDelta, key, value, headers
    ts_delta = fields.varint(9, wide=True)
    off_delta = fields.varint(5, wide=True)
    key = fields.bytes_field()
    value = fields.bytes_field()
    header_spans: _HeaderSpans | _HeaderLayout | None = None
    if not _headerless(fields, arr, counts, ends):
        hcount = fields.varint(5)
        if len(hcount) and int(hcount.min()) < 0:
            raise _Fail
        header_spans = _header_spans(fields, hcount)
        if not np.array_equal(
            fields.position(), stop
        ):  # every field inside its record: now the bytes can be copied
            raise _Fail
    headers = _header_arrays(header_spans, arr, data, rows, headers_type)

    base_offsets = heads["base_offset"].astype(np.int64)
    base_ts = heads["base_timestamp"].astype(np.int64)
    log_append = (heads["attributes"] & TIMESTAMP_TYPE_MASK) != 0
    offset = _add_checked(base_offsets, counts, off_delta)
    if log_append.any():
        batch_of_row = np.repeat(np.arange(len(counts)), counts)
        rel_ts = _add_checked(base_ts, counts, np.where(log_append[batch_of_row], 0, ts_delta))
        timestamp = np.where(
            log_append[batch_of_row], heads["max_timestamp"].astype(np.int64)[batch_of_row], rel_ts
        )
    else:
        timestamp = _add_checked(base_ts, counts, ts_delta)
    databuf = pa.py_buffer(data)
    key_array = _gather(databuf, arr, *key, pa.binary())
    value_array = _gather(databuf, arr, *value, pa.binary())
    assert len(key_array) == rows
    return Decoded(counts, offset, timestamp, key_array, value_array, headers, ends - starts, heads)


def _headerless(fields: _Fields, arr: np.ndarray, counts: np.ndarray, ends: np.ndarray) -> bool:
    """Whether every record ends with a header count of 0 right after the read position (no record has
    headers, and the fields read so far end one byte before each record's end): seen without reading the
    records' ends from the data, since each record's last byte leads the next record's window. When
    not, the header count is read as any field (nothing is decided here but this shortcut)."""
    n = len(fields.stop)
    if fields.lead != 1 or not n or fields.sizes is None:  # (lead 1: the walk's windows, not rebased:
        return False  # ``sizes`` are from ``origin``)
    # the read one byte before each record's end: compared as distances from the records' starts
    before_end = fields.off + 1
    if not (
        (fields.sizes == before_end).all()
        if fields.var is None
        else np.array_equal(fields.var + before_end, fields.sizes)
    ):
        return False
    last = np.empty(n, np.uint8)  # each record's last byte
    last[:-1] = fields.window[fields.width :: fields.width]  # the byte before the next record: in its window
    filled = counts > 0
    last[np.cumsum(counts)[filled] - 1] = arr[
        ends[filled] - 1
    ]  # a batch's last record ends at the batch's end
    return not last.any()


def _record_spans(
    data: bytes | memoryview,
    arr: np.ndarray,
    counts: np.ndarray,
    starts: np.ndarray,
    ends: np.ndarray,
    guess: bool = True,
) -> _Fields:
    """Every record's span (rows in batch order), with its first bytes, ready to read its fields.

    The record length chain, followed in lockstep: step ``i`` reads the first two bytes of record
    ``i`` of every batch that has one and moves each batch's position past that record (one table
    lookup, :data:`_STEP_2`: 0 for a length of three varint bytes or a negative one, so the position
    stays). The checks come after the walk, over all records at once: each record's length must end
    it where the next record starts, and the last one exactly at its batch's end. A batch whose walk
    did not end there (a record of 8 KiB or more, or a bad length) is walked again in plain Python,
    which checks each step. Batches with the first batch's records count and size are not walked:
    they are guessed to have its chain (:func:`_chain_template`; with ``guess``), and the guess is
    checked from the windows. Then the first bytes of every record are copied (16 to :data:`_WINDOW`,
    :func:`_window_width`), in file order (the walk itself jumps from batch to batch: one cache miss a
    record, whatever it reads).
    """
    total = int(counts.sum())
    row_base = np.zeros(len(counts), np.int64)
    np.cumsum(counts[:-1], out=row_base[1:])
    rec = np.empty(total, np.int64)  # where each record (its length varint) starts
    u16 = np.ndarray((max(len(arr) - 1, 0),), _U16LE, arr, 0, (1,))  # the two bytes at every position
    pos = starts.copy()  # where each batch's walk stands (its end, once done)
    template = _chain_template(data, u16, counts, starts, ends, rec, row_base) if guess else None
    same = template.batches if template else np.zeros(0, np.int64)
    pos[same] = ends[same]
    filled = counts > 0
    filled[same] = False
    active = np.flatnonzero(filled)
    shortest = int(counts[active].min()) if len(active) else 0  # the step at which batches next drop out
    p, rows = pos[active], row_base[active]
    step = _STEP_2
    i = 0
    steps: list[np.ndarray] = []  # the positions of each step since the active batches last changed
    while len(active) >= LOCKSTEP_MIN_BATCHES:
        steps.append(p)
        p = p + step.take(u16[p])  # few calls a step: a step handles one record of each batch
        i += 1
        if i == shortest:
            _place(rec, rows, i - len(steps), steps)
            steps = []
            keep = counts[active] > i
            pos[active[~keep]] = p[~keep]
            active, p, rows = active[keep], p[keep], rows[keep]
            shortest = int(counts[active].min()) if len(active) else 0
    _place(rec, rows, i - len(steps), steps)
    pos[active] = p
    walked = np.ones(len(counts), bool)
    walked[active] = False
    again = np.flatnonzero(walked & (pos != ends))  # walks that did not end at their batch's end
    # long batches (from record i on), and the ones to walk again (from their start): one record at a time
    plain = [*((b, i) for b in active.tolist()), *((b, 0) for b in again.tolist())]
    for b, first_record in plain:
        at, limit, first_row = int(pos[b]) if first_record else int(starts[b]), int(ends[b]), int(row_base[b])
        for j in range(first_record, int(counts[b])):
            if at >= limit:
                raise _Fail
            rec[first_row + j] = at
            size: int = data[at]
            if size < 128:
                size = (size >> 1) ^ -(size & 1)
                at += 1
            else:
                try:
                    size, at = read_varint(data, at)
                except (KafkaFormatError, IndexError):
                    raise _Fail from None
            if size < 0 or at + size > limit:
                raise _Fail
            at += size
        if at != limit:
            raise _Fail
    # every record's length from its first bytes: the chain must hold record by record
    # each record's window starts at the byte before it: the last byte of the record before
    # (:func:`_headerless`), or of the batch's head
    width = _window_width(data, int(rec[0])) if total else _WINDOW
    window = _windows(arr, rec, width, lead=1)
    fields = _Fields(arr, u16, rec, window, lead=1)
    pair = np.ndarray((total,), _U16LE, fields.window, 1, (width,)) if total else np.zeros(0, np.uint16)
    if template and not template.holds(pair, row_base):  # a guess that failed: walked again, no guess
        return _record_spans(data, arr, counts, starts, ends, guess=False)
    if template and len(template.batches) == len(counts):  # every batch has the first one's chain: its
        # records' sizes, and their length varints' (two bytes where the first has the continuation bit)
        moved = np.tile(_STEP_2.take(template.pairs), len(counts))
        stop = rec + moved
        sizes = ((template.pairs >> 7) & 1).astype(np.uint8) + np.uint8(1)
        fields._advance(int(sizes[0]) if (sizes == sizes[0]).all() else np.tile(sizes, len(counts)))
    elif (moved := _STEP_2.take(pair)).all():  # each record's length varint and body, as the walk stepped
        # over them. Trusted: every length took one or two bytes and is not negative, so every lockstep
        # step moved by exactly its record: each record ends where the next starts, and the walk ended
        # each batch at its end (or walked it again in plain Python).
        stop = rec + moved
        fields._advance((fields.window[1::width] >> 7) + np.uint8(1))
    else:  # a step stayed: the chain is checked record by record
        length = fields.varint(5)
        stop = fields.position() + length
        follows = np.empty(
            total, np.int64
        )  # where each record must end: the next one's start, or the batch's end
        follows[:-1] = rec[1:]
        filled = counts > 0
        follows[(row_base + counts - 1)[filled]] = ends[filled]
        if (length < 0).any() or not np.array_equal(stop, follows):
            raise _Fail
        moved = stop - rec
    fields.stop, fields.sizes = stop, moved
    fields._advance(1)  # past the attributes byte (unused by the columns)
    return fields


class _Template(NamedTuple):
    """Batches guessed to have the record chain of the run's first batch (:func:`_chain_template`)."""

    batches: np.ndarray  # their indices
    pairs: np.ndarray  # uint16: the first batch's two bytes at each of its records' starts

    def holds(self, pair: np.ndarray, row_base: np.ndarray) -> bool:
        """Whether the guess holds: ``pair`` has every record's first two bytes, in row order."""
        count = len(self.pairs)
        if len(self.batches) * count == len(pair):  # every record of the run
            return bool((pair.reshape(-1, count) == self.pairs).all())
        return bool((pair[row_base[self.batches][:, None] + np.arange(count)] == self.pairs).all())


def _chain_template(
    data: bytes | memoryview,
    u16: np.ndarray,
    counts: np.ndarray,
    starts: np.ndarray,
    ends: np.ndarray,
    rec: np.ndarray,
    row_base: np.ndarray,
) -> _Template | None:
    """Guess that every batch of the first batch's records count and size has its record chain, and
    place their records' starts in ``rec``; ``None`` when no other batch is such.

    The first batch with records is walked in plain Python. A batch whose two bytes at each of the first
    batch's record starts are the first batch's two bytes there has the same chain: a length of one or
    two varint bytes is decided by those bytes, so each of its records ends where the first batch's
    does, and the last at its end. The guess is checked (:meth:`_Template.holds`) from the windows the
    walk copies anyway: no pass of its own over the data. Batches of fixed-size keys and values and
    regular deltas (the usual producer's batches) are walked at once instead of a lockstep step a record."""
    filled = np.flatnonzero(counts > 0)
    if len(filled) < 2:
        return None
    first = int(filled[0])
    count, size = int(counts[first]), int(ends[first] - starts[first])
    chain = _short_chain(data, int(starts[first]), int(ends[first]), count)
    if chain is None:
        return None
    same = np.flatnonzero((counts == count) & (ends - starts == size))
    if len(same) < 2:
        return None
    rel = np.array(chain, np.int64)
    pairs = u16[starts[first] + rel]
    if not np.array_equal(u16[starts[same[-1]] + rel], pairs):  # one more batch tried before guessing
        return None
    if len(same) == len(counts) and count * len(counts) == len(rec):  # every batch: already in row order
        np.add(starts[:, None], rel, out=rec.reshape(len(counts), count))
    else:
        rec[(row_base[same][:, None] + np.arange(count)).ravel()] = (starts[same][:, None] + rel).ravel()
    return _Template(same, pairs)


def _short_chain(data: bytes | memoryview, at: int, end: int, count: int) -> list[int] | None:
    """Where each of ``count`` records from ``at`` starts (from ``at``), when each length is a varint of
    one or two bytes, not negative, and the last record ends at ``end``; else ``None``."""
    starts = []
    start = at
    for _ in range(count):
        if at + 1 >= end:
            return None
        starts.append(at - start)
        u = data[at]
        if u < 128:
            at += 1
        else:
            second = data[at + 1]
            if second >= 128:
                return None
            u = (u & 127) | second << 7
            at += 2
        length = (u >> 1) ^ -(u & 1)
        if length < 0:
            return None
        at += length
    return starts if at == end else None


def _window_width(data: bytes | memoryview, start: int) -> int:
    """The width of the records' windows: 16 or 24 bytes when the first record's fields before its
    value (and two bytes more, for deltas growing a byte) fit, else :data:`_WINDOW`. Every read of a
    field passes over the windows (strided), so narrower rows are fewer bytes through the cache; a field
    of a record lying past its window is read from the data instead (correct, slower)."""
    try:
        at = start + (1 if data[start] < 128 else 2) + 1  # past the length and the attributes
        for field in range(4):  # timestamp delta, offset delta, key length, value length
            length, at = read_varint(data, at)
            if field == 2:
                at += max(length, 0)
    except (KafkaFormatError, IndexError):  # a bad record: the checks that follow name it
        return _WINDOW
    need = at - start + 1 + 2 + 2  # the lead byte, a two-byte read, two deltas a byte longer
    return 16 if need <= 16 else 24 if need <= 24 else _WINDOW


def _windows(arr: np.ndarray, origin: np.ndarray, width: int, lead: int = 0) -> np.ndarray:
    """``width`` bytes from ``lead`` bytes before each of ``origin`` (positions in ``arr``), as items of
    that size; outside ``arr``, zeros (windows reaching past either end come from a padded copy of that
    end, so the data itself needs no padding: a run reaching a segment's end is not copied for it)."""
    wide = np.dtype(f"V{width}")
    start = origin - lead if lead else origin
    last = len(arr) - width  # the last position with a whole window inside the data
    if last < 0:  # the data is shorter than a window: every window from the padded copy
        return _padded_windows(arr, start, width) if len(start) else np.empty(0, f"V{width}")
    whole = np.ndarray((last + 1,), wide, arr, 0, (1,))
    if not len(start) or (int(start.max()) <= last and (not lead or int(start.min()) >= 0)):
        return whole[start]
    # the few windows reaching past an end (the last records', the first's lead): gathered clamped, then
    # replaced (a boolean mask over every row would cost more than the gather itself)
    out = whole[np.clip(start, 0, last)]
    for outside in (np.flatnonzero(start < 0), np.flatnonzero(start > last)):
        if len(outside):
            out[outside] = _padded_windows(arr, start[outside], width)
    return out


def _padded_windows(arr: np.ndarray, start: np.ndarray, width: int) -> np.ndarray:
    """The windows at ``start`` (a few, near the data's ends) from a copy of the bytes they span, with
    zeros outside the data."""
    lo, hi = int(start.min()), int(start.max()) + width
    pad = np.zeros(hi - lo, np.uint8)
    pad[max(lo, 0) - lo : min(hi, len(arr)) - lo] = arr[max(lo, 0) : min(hi, len(arr))]
    return np.ndarray((hi - lo - width + 1,), np.dtype(f"V{width}"), pad, 0, (1,))[start - lo]


def _place(rec: np.ndarray, rows: np.ndarray, first: int, steps: list[np.ndarray]) -> None:
    """Store the walk's positions: ``steps[k][b]`` is where record ``first + k`` of the batch whose
    records start at row ``rows[b]`` starts."""
    if not steps:
        return
    walked = np.stack(steps, axis=1)  # one row per batch, in record order
    if first == 0 and len(rec) == walked.size and np.array_equal(rows, np.arange(0, len(rec), len(steps))):
        rec[:] = walked.ravel()  # every batch of the run, all of its records: already in row order
    else:
        rec[(rows[:, None] + np.arange(first, first + len(steps))).ravel()] = walked.ravel()


class _Fields:
    """The fields of every record, read in order: each read moves the read position past its field.

    ``window`` holds the first :data:`_WINDOW` bytes of every record (the record walk copied them).
    Fields inside them are read from that compact array, through a strided view when every record
    has the field at the same place (equal varint widths and key lengths), a shifted word when it sits
    at one of a few places, else through an index; fields further in are read from the data itself.

    The read position is ``var + off``: a per-record part that changes only after a field of
    different widths (``None``: the same place in every record) and a part shared by all records. What
    a read derives from the per-record part (its range, the word shifts, the index) is kept until
    that part changes: fields after a fixed-size one read at no extra cost.
    """

    def __init__(
        self, arr: np.ndarray, u16: np.ndarray, origin: np.ndarray, window: np.ndarray, lead: int = 0
    ):
        self.arr, self.u16 = arr, u16
        self.stop = origin  # where each record ends (set once known)
        self.sizes: np.ndarray | None = None  # each record's size from its start (set with ``stop``)
        self._origin_at(origin, window, lead)

    def _origin_at(self, origin: np.ndarray, window: np.ndarray, lead: int) -> None:
        self.origin = origin
        self.lead = lead  # the window starts this many bytes before each record's origin
        self.width = window.dtype.itemsize
        self.window = window.view(np.uint8)
        self.window16 = np.ndarray((max(len(self.window) - 1, 0),), _U16LE, self.window, 0, (1,))
        self._set_var(None, 0)

    def _set_var(self, var: np.ndarray | None, off: int) -> None:
        self.var, self.off = var, off  # where the read stands from each record's origin: var + off
        self._derived: dict[str, object] = {}  # what reads computed from ``var``

    def _from_var(self, name: str, make: Callable[[np.ndarray], _T]) -> _T:
        """``make(var)``, made once for each ``var``."""
        if name not in self._derived:
            assert self.var is not None
            self._derived[name] = make(self.var)
        return cast(_T, self._derived[name])

    def rebase(self, width: int) -> None:
        """Read on from here with a new window of ``width`` bytes from every
        record's read position: fields that sit at different places from the records' starts (after
        fields of different widths) often sit at the same place from here, and read as strided views."""
        origin = self.position()
        self._origin_at(origin, _windows(self.arr, origin, width), 0)

    def move_to(self, position: np.ndarray) -> None:
        """Continue from ``position`` (positions in the data), read elsewhere."""
        self._set_var(position - self.origin, 0)

    def position(self) -> np.ndarray:
        """Where every record's read stands, as positions in the data (a new array)."""
        if self.var is None:
            return self.origin + self.off
        return self._from_var("position", lambda var: self.origin + var) + self.off

    def _reads(self) -> tuple[Callable[[], np.ndarray], Callable[[], np.ndarray]]:
        """Two readers of every record's read position: its byte, and its two bytes (little-endian
        uint16); what they share is computed once."""
        off, n, width, var = self.off, len(self.origin), self.width, self.var
        window, at = self.window, self.off + self.lead  # ``at``: in the window
        if var is None:
            if at + 2 <= width:  # the same place in every window: strided views, no copy
                return (lambda: window[at::width]), (lambda: np.ndarray((n,), _U16LE, window, at, (width,)))
            pos = self.origin + off
        else:
            low, high = self._from_var("range", lambda v: (int(v.min()), int(v.max())))
            if high - low <= 2 and low + at + 4 <= width:  # a few places (after a field of one or two bytes):
                # a strided 4-byte word at the first of them, shifted per record, instead of an index
                word = np.ndarray((n,), _U32LE, window, low + at, (width,))
                shift = self._from_var("shift", lambda v: (v - low).astype(np.uint32) << np.uint32(3))
                return (lambda: (word >> shift) & np.uint32(0xFF)), (
                    lambda: (word >> shift) & np.uint32(0xFFFF)
                )
            if high + at + 2 <= width:
                rows = self._from_var(  # each record's window row, plus its part of the read
                    "rows", lambda v: np.arange(0, n * width, width, dtype=np.int64) + v
                )
                index = rows + at
                window16 = self.window16
                return (lambda: window.take(index)), (lambda: window16[index])
            pos = self.position()
        arr, u16 = self.arr, self.u16
        return (lambda: arr.take(pos)), (lambda: u16[pos])

    def _advance(self, size: np.ndarray | int) -> None:
        """Move the read ``size`` bytes on (per record, or the same for all)."""
        if isinstance(size, int):
            self.off += size
        elif not len(size):
            return
        elif int(size.min()) == int(size.max()):  # still the same distance on in every record
            self.off += int(size[0])
        elif self.var is None:  # varint sizes stay small (int16: a pass over a quarter of the bytes);
            # lengths (int64) widen the sum
            self._set_var(size.astype(np.int16) if size.dtype.itemsize < 2 else size, self.off)
        else:
            self._set_var(self.var + size, self.off)

    def varint(self, max_bytes: int, wide: bool = False) -> np.ndarray:
        """A zigzag varint at every record's read position (5: 32-bit; 9: a varlong up to 63 bits).
        ``wide``: two bytes are likely (timestamp and offset deltas): read them at once."""
        if not len(self.origin):
            return np.zeros(0, np.int64)
        firsts, pairs = self._reads()
        if not wide:
            first = firsts()
            top = int(first.max())
            if top < 128:  # every value in one byte (lengths under 64, no headers)
                self._advance(1)
                return np.zeros(len(first), np.int16) if top == 0 else _ZIGZAG_1.take(first)
        pair = pairs().astype(np.intp)  # as the two lookups' index (each would convert it)
        size = _SIZE_2.take(pair)
        if not size.all():  # some longer than two bytes
            value, sizes = _varint(self.arr, self.position(), max_bytes)
            self._advance(sizes)
            return value
        value = _VALUE_2.take(pair)
        self._advance(size)
        return value

    def bytes_field(self, nullable: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """A bytes field (varint length; -1 for null where ``nullable``): its (start, length (0 for null),
        nulls or None). Whether it lies inside its record is checked once all fields are read: each
        field moves the read forward, so the read ending exactly at each record's end vouches for all."""
        length = self.varint(5)
        shortest = int(length.min()) if len(length) else 0
        null = None
        if shortest < 0:
            if shortest < -1 or not nullable:
                raise _Fail
            null = length == -1
            length = np.maximum(length, 0)
        start = self.position()
        self._advance(length)
        return start, length, null


def _varint(arr: np.ndarray, pos: np.ndarray, max_bytes: int) -> tuple[np.ndarray, np.ndarray | int]:
    """Zigzag varints at ``pos``: (values, sizes). ``max_bytes`` 5: a varint (32-bit range);
    9: a varlong up to 63 bits (10-byte varlongs are left to the per-record decoder)."""
    first = arr[pos]
    longer = first >= 128
    if not longer.any():  # the usual case: every value in one byte
        return _ZIGZAG_1[first], 1
    # both bytes in one gather, through a little-endian uint16 view at every byte offset (unaligned; the
    # data ends with padding, so the byte after the last is inside the array)
    pair = np.ndarray((len(arr) - 1,), _U16LE, arr, 0, (1,))[pos]
    size = _SIZE_2[pair]
    if size.all():  # one or two bytes each (record lengths of 64 to 8191 bytes): two table lookups
        return _VALUE_2[pair], size
    longer = np.flatnonzero(longer)
    u = (first & 127).astype(np.uint64)
    size = np.ones(len(pos), np.int64)
    at = pos[longer]
    for k in range(1, max_bytes):
        byte = arr[at + k]
        u[longer] |= (byte & 127).astype(np.uint64) << np.uint64(7 * k)
        size[longer] += 1
        more = byte >= 128
        longer, at = longer[more], at[more]
        if not len(longer):
            break
    else:
        raise _Fail  # longer than max_bytes
    if max_bytes == 5 and (u > 0xFFFFFFFF).any():
        raise _Fail
    return (u >> np.uint64(1)).astype(np.int64) ^ -(u & np.uint64(1)).astype(np.int64), size


def _within(p: np.ndarray, stop: np.ndarray) -> None:
    if (p > stop).any():
        raise _Fail


def _bytes_field(
    arr: np.ndarray, p: np.ndarray, stop: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A nullable bytes field (varint length, -1 for null) at ``p``: start, length (0 for null), nulls, next."""
    length, n = _varint(arr, p, 5)
    start = p + n
    if (length < -1).any():
        raise _Fail
    null = length == -1
    length = np.maximum(length, 0)
    after = start + length
    _within(after, stop)
    return start, length, null, after


class _HeaderSpans(NamedTuple):
    list_offsets: np.ndarray  # int64, each record's first header (and the total at the end)
    key_start: np.ndarray
    key_len: np.ndarray
    value_start: np.ndarray
    value_len: np.ndarray
    value_null: np.ndarray


def _header_spans(fields: _Fields, hcount: np.ndarray) -> _HeaderSpans | _HeaderLayout | None:
    """Where every record's header keys and values lie (``None``: no headers at all); moves the read past them."""
    most = int(hcount.max()) if len(hcount) else 0
    if most == 0:
        return None
    list_offsets = np.zeros(len(hcount) + 1, np.int64)
    np.cumsum(hcount, out=list_offsets[1:])
    total = int(list_offsets[-1])
    if most > MAX_LOCKSTEP_HEADERS or total > _INT32_LIMIT:
        raise _Fail
    spans = _HeaderSpans(
        list_offsets,
        np.empty(total, np.int64),
        np.empty(total, np.int64),
        np.empty(total, np.int64),
        np.empty(total, np.int64),
        np.zeros(total, bool),
    )
    if int(hcount.min()) == most:  # every record has as many headers (the usual case): strided, no row subset
        return _uniform_headers(fields, most, spans) or spans
    arr, stop = fields.arr, fields.stop
    p = fields.position()
    rows = np.flatnonzero(hcount > 0)
    j = 0
    while len(rows):  # header j of every record that has one
        q = p[rows]
        end = stop[rows]
        klen, n = _varint(arr, q, 5)
        q += n
        if (klen < 0).any():
            raise _Fail
        h = list_offsets[rows] + j
        spans.key_start[h] = q
        spans.key_len[h] = klen
        q += klen
        _within(q, end)
        vs, vl, vnull, q = _bytes_field(arr, q, end)
        spans.value_start[h], spans.value_len[h], spans.value_null[h] = vs, vl, vnull
        p[rows] = q
        j += 1
        rows = rows[hcount[rows] > j]
    fields.move_to(p)
    return spans


def _header_arrays(
    spans: _HeaderSpans | _HeaderLayout | None,
    arr: np.ndarray,
    data: bytes | memoryview,
    n: int,
    headers_type: pa.ListType,
) -> pa.Array:
    """The headers of ``n`` records as a list array, from their spans (checked to lie inside their records)."""
    if spans is None:
        return _no_headers(n, headers_type)
    if isinstance(spans, _HeaderLayout):
        count = len(spans.keys)
        values = pa.StructArray.from_arrays(
            [
                _as_string(_sliced(spans.window, spans.keys, pa.binary())),
                _sliced(spans.window, spans.values, pa.binary()),
            ],
            fields=list(headers_type.value_type),
        )
        offsets = pa.array(np.arange(0, (n + 1) * count, count, dtype=np.int32)[: n + 1])
        return pa.ListArray.from_arrays(offsets, values, type=headers_type)
    databuf = pa.py_buffer(data)
    keys = _as_string(_gather(databuf, arr, spans.key_start, spans.key_len, None, pa.binary()))
    values = pa.StructArray.from_arrays(
        [keys, _gather(databuf, arr, spans.value_start, spans.value_len, spans.value_null, pa.binary())],
        fields=list(headers_type.value_type),
    )
    return pa.ListArray.from_arrays(pa.array(spans.list_offsets.astype(np.int32)), values, type=headers_type)


@functools.lru_cache(maxsize=8)
def _no_headers(n: int, headers_type: pa.ListType) -> pa.Array:
    """``n`` empty header lists (shared, as :func:`_constant`: most runs have no headers at all)."""
    fields = list(headers_type.value_type)
    values = pa.StructArray.from_arrays([pa.array([], pa.string()), pa.array([], pa.binary())], fields=fields)
    return pa.ListArray.from_arrays(pa.array(np.zeros(n + 1, np.int32)), values, type=headers_type)


class _HeaderLayout(NamedTuple):
    """Headers at the same places in every record, inside each record's headers window."""

    window: np.ndarray  # uint8, (records, width): each record's bytes from its first header on
    keys: list[tuple[int, int]]  # (where in the window, length) of header j's key
    values: list[tuple[int, int]]  # the same of its value (none null)


def _uniform_headers(fields: _Fields, count: int, spans: _HeaderSpans) -> _HeaderLayout | None:
    """:func:`_header_spans` when every record has ``count`` headers. The read restarts at the first
    header (:meth:`_Fields.rebase`): when every header then lies at the same place in every record
    (the same header names, values of one size: trace ids, content types), the layout is returned and
    the bytes are sliced out of the windows: the first record's layout, checked on every record by its
    length varints' bytes alone. Else each field is read, and header ``j`` of record ``r`` is row
    ``r * count + j`` of ``spans``, written a strided column at a time."""
    fields.rebase(_HEADERS_WINDOW)
    window = fields.window.reshape(-1, fields.width)
    template = _header_template(bytes(window[0]), count)
    if template is not None:
        keys, values, length_bytes, end = template
        # the length varints of every record the same bytes as the first record's: the same lengths, so
        # every header at the same place (a varint's bytes decide where it ends, and so where the next starts)
        if _same_bytes(window, length_bytes):
            fields._advance(end)
            return _HeaderLayout(window, keys, values)
    # a varint has one encoding of each size, so headers whose length bytes differ lie at different places
    read = [(fields.bytes_field(nullable=False), fields.bytes_field()) for _ in range(count)]
    key_start, key_len, value_start, value_len, value_null = (a.reshape(-1, count) for a in spans[1:])
    for j, (key, value) in enumerate(read):
        key_start[:, j], key_len[:, j], _ = key
        value_start[:, j], value_len[:, j], null = value
        if null is not None:
            value_null[:, j] = null
    return None


def _same_bytes(window: np.ndarray, places: list[int]) -> bool:
    """Whether every row of ``window`` (uint8, rows of a multiple of 8 bytes) has the first row's bytes
    at ``places``: compared a 64-bit word at a time, masked to the places (one strided pass a word)."""
    rows, width = window.shape
    words = window.reshape(-1).view(np.uint64).reshape(rows, width // 8)
    mask = np.zeros(width, np.uint8)
    mask[places] = 0xFF
    masks, firsts = mask.view(np.uint64), words[0] & mask.view(np.uint64)
    return all(((words[:, w] & masks[w]) == firsts[w]).all() for w in sorted({p // 8 for p in places}))


def _header_template(
    row: bytes, count: int
) -> tuple[list[tuple[int, int]], list[tuple[int, int]], list[int], int] | None:
    """The places of ``count`` headers at the start of ``row`` (one record's headers window): (where,
    length) of each key and of each value, where their length varints' bytes are, and where the last
    header ends; ``None`` when they do not all lie inside the row, or a value is null."""
    keys: list[tuple[int, int]] = []
    values: list[tuple[int, int]] = []
    length_bytes: list[int] = []
    at = 0
    try:
        for _ in range(count):
            for places, least in ((keys, 0), (values, 0)):
                size, after = read_varint(row, at)
                length_bytes += range(at, after)
                if size < least or after + size > len(row):
                    return None
                places.append((after, size))
                at = after + size
    except (KafkaFormatError, IndexError):  # a varint running past the row
        return None
    return keys, values, length_bytes, at


def _sliced(window: np.ndarray, places: list[tuple[int, int]], arrow_type: pa.DataType) -> pa.Array:
    """The bytes at ``places`` (where, length) of every window row, row by row, as a binary array of
    ``rows * len(places)`` values: one strided copy per place."""
    rows, width = window.shape
    sizes = [size for _, size in places]
    per_row = sum(sizes)
    out = np.empty((rows, per_row), np.uint8)
    at = 0
    for where, size in places:  # as items of ``size`` bytes: one copy each, not a loop over bytes
        if size:
            np.ndarray((rows,), f"V{size}", out, at, (per_row,))[...] = np.ndarray(
                (rows,), f"V{size}", window, where, (width,)
            )
        at += size
    if len(set(sizes)) == 1:
        offsets = _fixed_offsets(rows * len(places), sizes[0])
    else:
        within = np.cumsum([0, *sizes[:-1]], dtype=np.int32)
        starts = (np.arange(rows, dtype=np.int32)[:, None] * np.int32(per_row) + within[None, :]).ravel()
        offsets = pa.py_buffer(np.append(starts, np.int32(rows * per_row)))
    return pa.Array.from_buffers(arrow_type, rows * len(places), [None, offsets, pa.py_buffer(out)])


def _as_string(binary: pa.Array) -> pa.Array:
    """A binary array (no nulls) as a string array: its buffers as they are when every byte is ASCII (one
    numpy pass over the bytes), else Arrow's UTF-8 checking cast; a key that is not UTF-8 fails the run."""
    validity, offsets, data = binary.buffers()
    if data is None or not (np.frombuffer(data, np.uint8)[: _last_offset(binary)] >= 128).any():
        return pa.Array.from_buffers(
            pa.string(), len(binary), [validity, offsets, data], offset=binary.offset
        )
    try:
        return binary.cast(pa.string())
    except pa.ArrowInvalid:
        raise _Fail from None


def _last_offset(binary: pa.Array) -> int:
    """Where the bytes of a binary array end in its data buffer."""
    offsets = np.frombuffer(binary.buffers()[1], np.int32)
    return int(offsets[binary.offset + len(binary)])


def _gather(
    data: pa.Buffer,
    arr: np.ndarray,
    start: np.ndarray,
    length: np.ndarray,
    null: np.ndarray | None,
    arrow_type: pa.DataType,
) -> pa.Array:
    """A binary array of ``data[start:start + length]`` per row (spans in order, not overlapping, inside
    ``arr``, the same bytes as ``data``). Spans all of one length and no null (fixed-size keys, header
    keys, many values) are one numpy gather of that many bytes per row; others one C-level ``take``
    over an array whose elements alternate between the gap before each span and the span."""
    n = len(start)
    if n and (null is None or not null.any()):
        size = int(length[0])
        if size <= _FIXED_MAX and (length == size).all():
            fixed = np.ndarray((len(arr) - size + 1,), f"V{size}", arr, 0, (1,))[start] if size else b""
            return pa.Array.from_buffers(arrow_type, n, [None, _fixed_offsets(n, size), pa.py_buffer(fixed)])
    bounds = np.empty(2 * n + 1, np.int32)
    bounds[0] = 0
    bounds[1::2] = start
    bounds[2::2] = start + length
    spans = pa.Array.from_buffers(arrow_type, 2 * n, [None, pa.py_buffer(bounds), data])
    picked = spans.take(pa.array(np.arange(1, 2 * n, 2, dtype=np.int64)))
    if null is None or not null.any():
        return picked
    validity = pa.py_buffer(np.packbits(~null, bitorder="little"))
    return pa.Array.from_buffers(arrow_type, n, [validity, *picked.buffers()[1:]], null_count=int(null.sum()))


@functools.lru_cache(maxsize=16)
def _fixed_offsets(n: int, size: int) -> pa.Buffer:
    """The offsets of ``n`` values of ``size`` bytes each (a run's key and value columns often share them)."""
    return pa.py_buffer(np.arange(n + 1, dtype=np.int32) * np.int32(size))


def _add_checked(base: np.ndarray, counts: np.ndarray, delta: np.ndarray) -> np.ndarray:
    """Each batch's ``base`` repeated over its records, plus each record's ``delta``, in int64; failing (to
    the per-record decoder, which names the record) on overflow."""
    if not len(delta):
        return delta.astype(np.int64)
    low, high = int(base.min()), int(base.max())
    if delta.dtype.itemsize <= 4:  # a 32-bit delta: only a base within 2^31 of a limit can overflow
        wide = low - (1 << 31) < _I64_MIN or high + (1 << 31) > _I64_MAX
    else:
        wide = high + int(delta.max()) > _I64_MAX or low + int(delta.min()) < _I64_MIN
    if len(counts) and int(counts[0]) * len(counts) == len(delta) and (counts == counts[0]).all():
        total = (base[:, None] + delta.reshape(len(counts), -1)).ravel()  # batches of one size: no repeat
    else:
        total = np.repeat(base, counts) + delta
    if wide:
        rep = np.repeat(base, counts)
        if (((rep ^ total) & (delta ^ total)) < 0).any():  # near the limits: the exact check
            raise _Fail
    return total
