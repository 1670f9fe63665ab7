"""The four Kafka codecs, with the quirks real writers produce.
One module because every codec's fast and general routes share one bound, error wording and memory rule.

- gzip: one or more gzip members.
- snappy: xerial framing (Java client) or plain raw snappy (librdkafka); both are read.
  Some writers put the xerial version fields in little-endian, so they are not checked.
- lz4: the LZ4 frame format. Magic-0 writers compute the frame header checksum
  over the magic number too (KAFKA-3160); such frames are read for magic 0 and
  written for magic 0.
- zstd: read as a stream: frames may lack a content size and may follow each other
  (skippable frames are skipped).

A region is read whole: one that ends before its frame does is a
:class:`DecompressionError` for every codec, and so is an empty region. Kafka's own
readers (``org.apache.kafka.common.compress``) decide the rest, except where following
them would drop bytes silently:

- gzip means gzip: a zlib stream in a gzip region is refused, as Kafka's
  ``GZIPInputStream`` refuses it ("Not in GZIP format").
- Bytes after the last gzip member, lz4 frame or zstd frame are refused. Kafka's
  readers stop at the end (``GZIPInputStream`` ignores a malformed next member,
  ``KafkaLZ4BlockInputStream`` returns -1 after the end mark and never looks further,
  zstd-jni reads on into the next frame); those bytes may be records, and a legacy
  wrapper has no record count to notice them lost.
- Truncation is found by each format's own end: the gzip trailer, the lz4 end mark,
  the last zstd block (the frame and block headers are walked, since the zstd decoder
  cannot tell a stream that stops early from one that ends). Xerial snappy and raw
  snappy have no end mark beyond their lengths: a xerial region cut exactly between
  two blocks reads as shorter, as it does for Kafka (a v2 batch's record count still
  catches it).

Every decompression is bounded by ``max_size``: the output grows in one buffer checked
against the limit as it grows (at most one 1 MiB step past it) and is returned without a
copy, so memory stays near the output's size plus the input's.

A batch's usual region takes a cheaper route than the general one, whose steps in Python added a
fifth to two fifths to the library call on a 7 KB batch (``python -m bench.compression``): an lz4 frame of independent blocks without content size is
decoded block by block with ``lz4.block``, one zstd frame declaring at most a MiB and one gzip
member of at most a MiB in one library call each, one xerial snappy block straight to cramjam.
Anything else about the region (another kind of frame, a checksum that does not match, a cut, bytes
after the end, output over the bound) sends it to the general route, which decides and names the
error exactly as before (tests/codecs/test_compression_fast_paths.py holds them to that).

Each codec's fast route and general route must decide every region alike (same bytes, same error at
the same position) and share one bound, one error wording and the out-of-memory rule: split per codec,
each file would re-state them. Compressing (:func:`compress`, what the builders and writers call) is
the smaller part, kept beside the codec numbers and framings it shares.
"""

from __future__ import annotations

import io
import struct
import threading
import zlib

import cramjam  # python-snappy's own backend: raw snappy blocks decompress straight into our buffer
import lz4.block
import lz4.frame
import snappy
import xxhash
import zstandard

from ..errors import DecompressionError, LimitExceededError, OutOfMemoryError, UnsupportedCodecError

Buffer = bytes | bytearray | memoryview

NONE, GZIP, SNAPPY, LZ4, ZSTD = range(5)
CODEC_NAMES = ("none", "gzip", "snappy", "lz4", "zstd")
CODEC_IDS = {name: i for i, name in enumerate(CODEC_NAMES)}

#: Default bound on the decompressed size of one batch (256 MiB).
DEFAULT_MAX_DECOMPRESSED = 256 * 1024 * 1024

XERIAL_MAGIC = b"\x82SNAPPY\x00"
_XERIAL_HEADER = XERIAL_MAGIC + struct.pack(">ii", 1, 1)
_XERIAL_BLOCK = 32 * 1024  # the Java client's SnappyOutputStream block size
_LZ4_MAGIC = b"\x04\x22\x4d\x18"
_INT32 = struct.Struct(">i")
_U32LE = struct.Struct("<I")


def codec_id(codec: str | int) -> int:
    """Map a codec name ('zstd') or number (4) to its attribute value."""
    if isinstance(codec, int) and 0 <= codec < len(CODEC_NAMES):
        return codec
    if isinstance(codec, str) and codec in CODEC_IDS:
        return CODEC_IDS[codec]
    raise UnsupportedCodecError(f"unknown compression {codec!r} (expected one of {', '.join(CODEC_NAMES)})")


def codec_name(codec: int) -> str:
    """A codec number's name ("zstd"), or the number itself as text for one Kafka never assigned."""
    return CODEC_NAMES[codec] if 0 <= codec < len(CODEC_NAMES) else str(codec)


def codec_argument(compression: object) -> int:
    """The codec a caller's ``compression=`` argument names: a name ('zstd') or number (4).

    API misuse, not a data error: TypeError or ValueError naming the argument.
    """
    if isinstance(compression, bool) or not isinstance(compression, (str, int)):
        raise TypeError(
            f"compression must be a codec name ({', '.join(CODEC_NAMES)}) or number, got {compression!r}"
        )
    try:
        return codec_id(compression)
    except ValueError:
        raise ValueError(
            f"compression={compression!r} names no codec (expected one of {', '.join(CODEC_NAMES)} or 0-4)"
        ) from None


def _too_big(codec: str, max_size: int, position: int | None) -> LimitExceededError:
    return LimitExceededError(
        f"{codec} data decompresses to more than max_decompressed={max_size} bytes", position
    )


# -- decompression -----------------------------------------------------------
#
# Every codec writes into one _Output: its size is checked against max_size as it grows,
# so a bomb stops one step past the limit, and the result is the buffer itself (no join,
# no final copy). Input is fed in pieces of at most _IN_STEP bytes and output taken in
# pieces of at most _OUT_STEP bytes, so no step copies more than that.

_OUT_STEP = 1 << 20
_IN_STEP = 64 * 1024
_GZIP_MAGIC = b"\x1f\x8b"


class _Output:
    """The decompressed bytes, checked against the limit as they grow."""

    __slots__ = ("_first", "_io", "size", "max_size", "codec", "position")

    def __init__(self, codec: str, max_size: int, position: int | None):
        self._first = b""
        self._io: io.BytesIO | None = None
        self.size = 0
        self.max_size, self.codec, self.position = max_size, codec, position

    def add(self, chunk: bytes) -> None:
        if not chunk:
            return
        self.size += len(chunk)
        if self.size > self.max_size:
            raise _too_big(self.codec, self.max_size, self.position)
        if self._io is not None:
            self._io.write(chunk)
        elif not self._first:
            self._first = chunk
        else:
            self._io = io.BytesIO()
            self._io.write(self._first)
            self._io.write(chunk)
            self._first = b""

    def value(self) -> bytes:
        # BytesIO.getvalue() hands over its buffer (trimmed in place) when no view is held.
        return self._first if self._io is None else self._io.getvalue()


def _gunzip_one_member(mv: memoryview, max_size: int) -> bytes | None:
    """A region of one gzip member (a batch's usual region) in one call; None for any other region and for
    anything wrong with this one, which :func:`_gunzip_members` then reads and names.

    Tried when the region is at most one input step and its trailer says at most one output step
    (the trailer may lie: the call is bounded all the same, and a lie costs one step of work).
    """
    n = len(mv)
    if (
        not 20 <= n <= _IN_STEP
        or mv[:2] != _GZIP_MAGIC
        or _U32LE.unpack_from(mv, n - 4)[0] > min(max_size, _OUT_STEP)
    ):
        return None
    d = zlib.decompressobj(31)
    out = d.decompress(mv, _OUT_STEP)
    return out if d.eof and not d.unused_data and len(out) <= max_size else None


def _gunzip(data: Buffer, max_size: int, position: int | None) -> bytes:
    mv = data if type(data) is memoryview else memoryview(data)
    try:
        out = _gunzip_one_member(mv, max_size)
    except zlib.error:
        out = None
    return out if out is not None else _gunzip_members(mv, max_size, position)


def _gunzip_members(data: Buffer, max_size: int, position: int | None) -> bytes:
    mv = memoryview(data)
    n = len(mv)
    if not n:
        raise DecompressionError("gzip data is empty (a gzip member has at least 20 bytes)", position)
    out = _Output("gzip", max_size, position)
    pos, step = 0, _IN_STEP
    while pos < n:
        if mv[pos : pos + 2] != _GZIP_MAGIC:
            what = "a zlib stream, not gzip" if pos == 0 and _is_zlib_header(mv) else "not a gzip member"
            raise DecompressionError(f"gzip data at region byte {pos} is {what}", position)
        d = zlib.decompressobj(31)  # one gzip member; its unused tail is at most one input step
        while not d.eof:
            if pos >= n:
                raise DecompressionError(
                    "gzip data is truncated (the region ends inside a gzip member)", position
                )
            piece = mv[pos : pos + step]
            pos += len(piece)
            step = min(step << 1, _IN_STEP)
            out.add(d.decompress(piece, _OUT_STEP))
            while d.unconsumed_tail and not d.eof:  # at the end zlib keeps what follows in both tails
                out.add(d.decompress(d.unconsumed_tail, _OUT_STEP))
        pos -= len(d.unused_data)
        step = 256  # later members start small, so a run of tiny members copies little each
    return out.value()


def _is_zlib_header(mv: memoryview) -> bool:
    return len(mv) >= 2 and mv[0] & 0x0F == 8 and (mv[0] << 8 | mv[1]) % 31 == 0


def _snappy_length(block: memoryview, position: int | None) -> int:
    # The raw format starts with the uncompressed length as a uvarint: two bytes for 128 B to 16 KiB.
    if len(block) > 1 and block[0] > 0x7F and block[1] < 0x80:
        return (block[0] & 0x7F) | block[1] << 7
    n = shift = 0
    for b in block[:5]:
        n |= (b & 0x7F) << shift
        shift += 7
        if b < 0x80:
            return n
    raise DecompressionError("snappy block has no valid length header", position)


def _raw_snappy(block: memoryview, max_size: int, position: int | None) -> bytes:
    n = _snappy_length(block, position)
    if n > max_size:
        raise _too_big("snappy", max_size, position)
    if n < _OUT_STEP:
        return bytes(cramjam.snappy.decompress_raw(block))  # the copy is small here
    # Decompress straight into the result's buffer: bytes() of cramjam's would hold the output twice.
    out = io.BytesIO()
    out.seek(n - 1)
    out.write(b"\0")
    with out.getbuffer() as view:
        written = cramjam.snappy.decompress_raw_into(block, view)
    if written != n:
        raise DecompressionError(f"snappy block holds {written} bytes, its header says {n}", position)
    return out.getvalue()


def _unsnappy(data: Buffer, max_size: int, position: int | None) -> bytes:
    mv = data if type(data) is memoryview else memoryview(data)
    if mv[:8] != XERIAL_MAGIC:
        return _raw_snappy(mv, max_size, position)
    pos, end = 16, len(mv)
    if end < pos:
        raise DecompressionError(f"xerial snappy header is truncated ({end} of 16 bytes)", position)
    if (
        end > 20 and _INT32.unpack_from(mv, pos)[0] == end - 20
    ):  # one block (a batch under 32 KiB): no _Output
        return _raw_snappy(mv[20:], max_size, position)
    out = _Output("snappy", max_size, position)
    while pos < end:
        if pos + 4 > end:
            raise DecompressionError("xerial snappy block length is truncated", position)
        (n,) = _INT32.unpack_from(mv, pos)
        pos += 4
        if n < 0 or pos + n > end:
            raise DecompressionError(f"xerial snappy block of {n} bytes overruns the data", position)
        out.add(_raw_snappy(mv[pos : pos + n], max_size - out.size, position))
        pos += n
    return out.value()


def fix_kafka3160_header(data: bytes) -> bytes:
    """Rewrite a KAFKA-3160 frame header checksum (magic 0 writers) into the standard one."""
    if data[:4] != _LZ4_MAGIC or len(data) < 7:
        return data
    flg = data[4]
    desc_end = 6 + (8 if flg & 0x08 else 0) + (4 if flg & 0x01 else 0)
    if len(data) <= desc_end:
        return data
    standard = (xxhash.xxh32_intdigest(data[4:desc_end]) >> 8) & 0xFF
    broken = (xxhash.xxh32_intdigest(data[0:desc_end]) >> 8) & 0xFF
    if data[desc_end] == broken and broken != standard:
        return data[:desc_end] + bytes([standard]) + data[desc_end + 1 :]
    return data


def _lz4_headers(kafka3160: bool) -> dict[bytes, tuple[int, int]]:
    """Every 7-byte frame header of independent blocks without content size or dictionary (the frames Kafka's
    writers make) -> (the block size, the FLG byte); ``kafka3160``: with the checksum magic-0 writers compute."""
    table = {}
    for flg in (0x60, 0x64, 0x70, 0x74):  # version 01, independent blocks; block and content checksums or not
        for bd, block_max in ((0x40, 64 << 10), (0x50, 256 << 10), (0x60, 1 << 20), (0x70, 4 << 20)):
            head = _LZ4_MAGIC + bytes([flg, bd])
            checksum = xxhash.xxh32_intdigest(head if kafka3160 else head[4:]) >> 8 & 0xFF
            table[head + bytes([checksum])] = (block_max, flg)
    return table


_LZ4_HEADERS, _LZ4_HEADERS_3160 = _lz4_headers(False), _lz4_headers(True)
_LZ4_END = bytes(4)
_LZ4_SMALL_BLOCK = 64 << 10  # the Java client's block size


def _lz4_blocks(mv: memoryview, max_size: int, magic: int) -> bytes | None:
    """A frame of Kafka's usual kind (independent blocks, no content size, no dictionary), decoded block by block;
    None for any other frame and for anything wrong with this one, which the frame decompressor then reads
    and names (:func:`_unlz4_frame`).

    Kafka's frames are one or a few independent blocks, and the streaming frame decompressor the bound
    needs costs half as much again as the block call on a 7 KB batch (a context made, the header
    parsed, each step a call into C): here the header is one lookup among the few valid ones and each
    block one ``lz4.block`` call. Everything
    the frame decompressor checks is checked here or sends the frame to it: the header and its
    checksum, each block's size against the frame's block size, the block and content checksums, the
    end mark, and that the region ends there.
    """
    head = bytes(mv[:7])
    found = _LZ4_HEADERS.get(head) or (_LZ4_HEADERS_3160.get(head) if magic == 0 else None)
    if found is None:
        return None
    block_max, flg = found
    n = len(mv)
    if flg == 0x60 and n > 15 and block_max <= max_size + _OUT_STEP:  # no checksums: a frame of one block is
        # its size, the block and the end mark (the block's room is at most a step past the bound, as elsewhere)
        size = _U32LE.unpack_from(mv, 7)[0]
        if n == size + 15 and size <= block_max and mv[-4:] == _LZ4_END:
            try:
                whole = lz4.block.decompress(mv[11:-4], uncompressed_size=block_max)
            except lz4.block.LZ4BlockError:
                return None
            return whole if 0 < len(whole) <= max_size else None
    if (
        block_max > _LZ4_SMALL_BLOCK
    ):  # the frame decompressor's steps of a MiB keep a bomb of 4 MiB blocks nearer its limit
        return None
    pos, block_sums, total = 7, flg & 0x10, 0
    first, out = b"", None
    while True:
        if pos + 4 > n:
            return None
        size = _U32LE.unpack_from(mv, pos)[0]
        pos += 4
        if not size:
            break
        stored, size = size & 0x80000000, size & 0x7FFFFFFF
        end = pos + size
        if size > block_max or end > n:
            return None
        block = mv[pos:end]
        if block_sums:
            if end + 4 > n or _U32LE.unpack_from(mv, end)[0] != xxhash.xxh32_intdigest(block):
                return None
            end += 4
        pos = end
        try:
            piece = bytes(block) if stored else lz4.block.decompress(block, uncompressed_size=block_max)
        except lz4.block.LZ4BlockError:
            return None
        total += len(piece)
        if total > max_size:  # the frame decompressor says so, or what it finds first (a checksum, the end)
            return None
        if out is None and not first:
            first = piece
        else:
            if out is None:
                out = _Output("lz4", max_size, None)
                out.add(first)
            out.add(piece)
    whole = first if out is None else out.value()
    if flg & 0x04:  # the content checksum
        if pos + 4 > n or _U32LE.unpack_from(mv, pos)[0] != xxhash.xxh32_intdigest(whole):
            return None
        pos += 4
    return whole if pos == n and whole else None


def _unlz4(data: Buffer, max_size: int, position: int | None, magic: int) -> bytes:
    out = _lz4_blocks(data if type(data) is memoryview else memoryview(data), max_size, magic)
    return out if out is not None else _unlz4_frame(data, max_size, position, magic)


def _unlz4_frame(data: Buffer, max_size: int, position: int | None, magic: int) -> bytes:
    if magic == 0:
        data = fix_kafka3160_header(bytes(data))
    out = _Output("lz4", max_size, position)
    d = lz4.frame.LZ4FrameDecompressor()
    out.add(d.decompress(data, max_length=_OUT_STEP))
    while not d.eof and not d.needs_input:
        out.add(d.decompress(b"", max_length=_OUT_STEP))
    if not d.eof:
        raise DecompressionError("lz4 frame is truncated (the region ends before its end mark)", position)
    if d.unused_data:
        raise DecompressionError(f"lz4 frame is followed by {len(d.unused_data)} more bytes", position)
    return out.value()


_ZSTD_MAGIC = 0xFD2FB528
_ZSTD_FCS_SIZE = ((0, 1), (2, 2), (4, 4), (8, 8))  # [Frame_Content_Size_flag][Single_Segment_flag]


def _zstd_frame_ends(data: Buffer, position: int | None) -> list[int]:
    """Where each frame of a zstd region ends; a region that ends inside a frame is an error.

    Walks the frame and block headers only (RFC 8878): the decoder cannot tell a stream
    that ends early from one that ends, so completeness is checked here.
    """
    mv = memoryview(data)
    n, pos, ends = len(mv), 0, []

    def truncated() -> DecompressionError:
        return DecompressionError(
            f"zstd data is truncated (the region ends inside the frame that starts at region byte {start})",
            position,
        )

    while pos < n:
        start = pos
        if n - pos < 4:
            raise truncated()
        (magic,) = _U32LE.unpack_from(mv, pos)
        if magic & 0xFFFFFFF0 == 0x184D2A50:  # a skippable frame
            if n - pos < 8:
                raise truncated()
            pos += 8 + _U32LE.unpack_from(mv, pos + 4)[0]
        elif magic == _ZSTD_MAGIC:
            if n - pos < 5:
                raise truncated()
            fhd = mv[pos + 4]
            single = fhd >> 5 & 1
            pos += 5 + (1 - single) + (0, 1, 2, 4)[fhd & 3] + _ZSTD_FCS_SIZE[fhd >> 6][single]
            last = 0
            while not last:
                if n - pos < 3:
                    raise truncated()
                header = mv[pos] | mv[pos + 1] << 8 | mv[pos + 2] << 16
                last, kind = header & 1, header >> 1 & 3
                pos += 3 + (1 if kind == 1 else header >> 3)  # an RLE block stores one byte
            pos += 4 if fhd & 4 else 0  # Content_Checksum
        else:
            raise DecompressionError(f"zstd data at region byte {pos} is not a zstd frame", position)
        if pos > n:
            raise truncated()
        ends.append(pos)
    if not ends:
        raise DecompressionError("zstd data is empty", position)
    return ends


#: one zstd decompression context per thread: making one costs about 20 us (its window buffers),
#: as much as decompressing a 6 KB batch, and a context serves one call at a time
_ZSTD = threading.local()


def _zstd_context() -> zstandard.ZstdDecompressor:
    try:
        return _ZSTD.dctx
    except AttributeError:
        dctx = _ZSTD.dctx = zstandard.ZstdDecompressor()
        return dctx


def _zstd_one_frame(data: Buffer, max_size: int) -> bytes | None:
    """A region of one frame that declares a size of at most a MiB (a batch's usual region), in one call;
    None for any other region and for anything wrong with this one, which :func:`_unzstd_stream` then
    reads and names.

    The one call needs no walk of the frame's blocks: it fails on a frame cut short or one that does
    not end where the region does (``allow_extra_data=False``), and on output that is not the declared
    size. The MiB keeps what a lying size can make it allocate small.
    """
    try:
        size = zstandard.frame_content_size(data)  # -1: not declared; 0: the one call would check nothing
        if 0 < size <= max_size and size <= _OUT_STEP:
            return _zstd_context().decompress(
                data, 0, False, False
            )  # allow_extra_data=False, positionally (cheaper)
    except zstandard.ZstdError:
        pass
    return None


def _unzstd(data: Buffer, max_size: int, position: int | None) -> bytes:
    out = _zstd_one_frame(data, max_size)
    return out if out is not None else _unzstd_stream(data, max_size, position)


def _unzstd_stream(data: Buffer, max_size: int, position: int | None) -> bytes:
    ends = _zstd_frame_ends(data, position)
    dctx = _zstd_context()
    if len(ends) == 1:
        size = zstandard.get_frame_parameters(data).content_size
        if size <= max_size:  # known (not CONTENTSIZE_UNKNOWN, which is 2**64 - 1) and allowed: one call
            return dctx.decompress(data, max_output_size=size)
    out = _Output("zstd", max_size, position)
    reader = dctx.stream_reader(data, read_across_frames=True)
    while chunk := reader.read(min(_OUT_STEP, max_size - out.size + 1)):
        out.add(chunk)
    return out.value()


def decompress(
    codec: int,
    data: Buffer,
    *,
    max_size: int = DEFAULT_MAX_DECOMPRESSED,
    position: int | None = None,
    magic: int = 2,
) -> bytes:
    """Decompress ``data`` with the codec numbered ``codec``; errors name ``position``."""
    try:
        if codec == LZ4:
            return _unlz4(data, max_size, position, magic)
        if codec == ZSTD:
            return _unzstd(data, max_size, position)
        if codec == SNAPPY:
            return _unsnappy(data, max_size, position)
        if codec == GZIP:
            return _gunzip(data, max_size, position)
        if codec == NONE:
            return bytes(data)
    except (LimitExceededError, DecompressionError):
        raise
    except MemoryError:  # the data may be valid: the process may not take the memory it needs
        raise _out_of_memory(codec, position) from None
    except Exception as exc:  # each codec library has its own exception types
        if _allocation_failed(exc):
            raise _out_of_memory(codec, position) from None
        name = CODEC_NAMES[codec]
        raise DecompressionError(f"{name} data is invalid: {exc}", position) from None
    raise UnsupportedCodecError(f"compression attribute {codec} names no known codec (0-4)", position)


def _allocation_failed(exc: Exception) -> bool:
    """Whether a codec library's own error says an allocation failed: zstandard raises ``ZstdError``
    ("Allocation error : not enough memory") and lz4 ``RuntimeError`` ("ERROR_allocation_failed")
    where Python code would raise MemoryError. Not a frame that asks for too large a window: that is
    the data's doing."""
    return isinstance(exc, zstandard.ZstdError | RuntimeError) and "allocation" in str(exc).lower()


def _out_of_memory(codec: int, position: int | None) -> OutOfMemoryError:
    return OutOfMemoryError(
        f"out of memory decompressing {CODEC_NAMES[codec]} data (the data is not known to be "
        "bad: the process may not take the memory it needs)",
        position,
    )


# -- compression -------------------------------------------------------------


def _xerial(data: bytes) -> bytes:
    parts = [_XERIAL_HEADER]
    for i in range(0, len(data), _XERIAL_BLOCK) or [0]:
        block = snappy.compress(data[i : i + _XERIAL_BLOCK])
        parts.append(_INT32.pack(len(block)))
        parts.append(block)
    return b"".join(parts)


def to_kafka3160_header(frame: bytes) -> bytes:
    """Rewrite a standard LZ4 frame header checksum into the one magic-0 Kafka writers produce."""
    flg = frame[4]
    desc_end = 6 + (8 if flg & 0x08 else 0) + (4 if flg & 0x01 else 0)
    broken = (xxhash.xxh32_intdigest(frame[0:desc_end]) >> 8) & 0xFF
    return frame[:desc_end] + bytes([broken]) + frame[desc_end + 1 :]


def compress(
    codec: int, data: bytes, *, magic: int = 2, snappy_framing: str = "xerial", level: int | None = None
) -> bytes:
    """Compress ``data`` the way the Java client does for ``magic``."""
    if codec == NONE:
        return data
    if codec == GZIP:
        return zlib.compress(data, 6 if level is None else level, wbits=31)
    if codec == SNAPPY:
        if snappy_framing == "raw":
            return snappy.compress(data)
        if snappy_framing != "xerial":
            raise ValueError(f"snappy_framing must be 'xerial' or 'raw', got {snappy_framing!r}")
        return _xerial(data)
    if codec == LZ4:
        # Independent 64 KiB blocks, no content size or checksum: what KafkaLZ4BlockOutputStream writes.
        frame = lz4.frame.compress(
            data,
            block_size=lz4.frame.BLOCKSIZE_MAX64KB,
            block_linked=False,
            content_checksum=False,
            store_size=False,
            compression_level=level or 0,
        )
        return to_kafka3160_header(frame) if magic == 0 else frame
    if codec == ZSTD:
        return zstandard.ZstdCompressor(level=3 if level is None else level).compress(data)
    raise UnsupportedCodecError(f"compression attribute {codec} names no known codec (0-4)")
