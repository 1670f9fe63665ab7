"""Hostile compressed regions, at every entry point that decompresses (issue 12, items 1 and 4, memory of item 2).

The regions are generated here, not stored: runs of empty gzip members, frames cut short,
frames with bytes after them, zlib where gzip belongs, 0.7 messages naming codecs 0.7 never had,
and decompression bombs. Each is read through the four entry points that decompress: a v2
batch's records region, a magic-0 and a magic-1 wrapper message's value, and a 0.7 message's
payload (which knows gzip and snappy only).

Time is checked as a ratio (tests/support/timing.py: 4x the input must take under 8x the CPU time);
memory in a subprocess under RLIMIT_AS, reading its peak RSS with getrusage.
``KAFKASPEC_ADVERSARIAL_SCALE`` (default 1) multiplies the sizes.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import struct
import subprocess
import sys
import textwrap
import zlib

import crc32c
import lz4.frame
import pytest
import snappy
import zstandard
from support.timing import GROWTH, assert_linear

from kafkaspec import Record, build_batch, iter_batches
from kafkaspec.codec.compression import decompress
from kafkaspec.errors import DecompressionError, LimitExceededError, UnsupportedCodecError
from kafkaspec.generated import message_v0, message_v1, record_v2, wire_message_v1
from kafkaspec.wire import build_wire_messages, iter_wire_messages

pytestmark = pytest.mark.hostile

SCALE = float(os.environ.get("KAFKASPEC_ADVERSARIAL_SCALE", "1"))
MiB = 1 << 20

RECORDS = [Record(key=b"k%d" % i, value=b"value %d " % i * 12, timestamp=1_000 + i) for i in range(10)]
VALUES = [r.value for r in RECORDS]


# -- the four entry points: (uncompressed content, codec id, region) -> the values read --------------


def _v2_batch(codec: int, region: bytes) -> bytes:
    head = bytearray(build_batch(RECORDS)[:61])
    head[21:23] = struct.pack(">h", codec)
    head[8:12] = struct.pack(">i", 49 + len(region))
    out = bytes(head) + region
    return out[:17] + struct.pack(">I", crc32c.crc32c(out[21:])) + out[21:]


def _wrapper(magic: int, codec: int, region: bytes) -> bytes:
    if magic == 0:
        return message_v0.encode_message(offset=len(RECORDS) - 1, attributes=codec, key=None, value=region)
    return message_v1.encode_message(
        offset=len(RECORDS) - 1, attributes=codec, timestamp=0, key=None, value=region
    )


def _read_batches(data: bytes) -> list[bytes]:
    return [r.value for b in iter_batches(data) for r in b]


ENTRY = {
    "v2": (record_v2.encode_record_array(RECORDS, 0, 1_000), lambda c, r: _read_batches(_v2_batch(c, r))),
    "magic0": (build_batch(RECORDS, magic=0), lambda c, r: _read_batches(_wrapper(0, c, r))),
    "magic1": (build_batch(RECORDS, magic=1), lambda c, r: _read_batches(_wrapper(1, c, r))),
    "0.7": (
        build_wire_messages(VALUES, magic=1),
        lambda c, r: [
            m.payload
            for w in iter_wire_messages(wire_message_v1.encode_wire_message(compression=c, payload=r))
            for m in w
        ],
    ),
}


def _xerial(data: bytes, block: int = 32 * 1024) -> bytes:
    parts = [b"\x82SNAPPY\x00" + struct.pack(">ii", 1, 1)]
    for i in range(0, len(data), block):
        chunk = snappy.compress(data[i : i + block])
        parts.append(struct.pack(">i", len(chunk)) + chunk)
    return b"".join(parts)


def _zstd_streamed(data: bytes) -> bytes:
    c = zstandard.ZstdCompressor().compressobj()
    return c.compress(data) + c.flush()


# framing name -> (codec id, compress)
FRAMINGS = {
    "gzip": (1, gzip.compress),
    "snappy xerial": (2, _xerial),
    "snappy raw": (2, snappy.compress),
    "lz4": (
        3,
        lambda d: lz4.frame.compress(
            d, block_size=lz4.frame.BLOCKSIZE_MAX64KB, block_linked=False, store_size=False
        ),
    ),
    "zstd": (4, zstandard.ZstdCompressor().compress),
    "zstd streamed": (4, _zstd_streamed),
}


def _cases(framings=FRAMINGS):
    for entry in ENTRY:
        for name in framings:
            if entry == "0.7" and FRAMINGS[name][0] not in (1, 2):
                continue
            yield pytest.param(entry, name, id=f"{entry}-{name}")


@pytest.mark.parametrize(("entry", "framing"), list(_cases()))
def test_regions_read_back(entry, framing):
    content, read = ENTRY[entry]
    codec, compress = FRAMINGS[framing]
    assert read(codec, compress(content)) == VALUES


# -- item 1: a region of many empty gzip members reads in linear time --------------------------------

EMPTY_MEMBER = gzip.compress(b"", mtime=0)  # 20 bytes


@pytest.mark.parametrize("entry", list(ENTRY))
def test_many_empty_gzip_members_take_linear_time(entry):
    content, read = ENTRY[entry]
    size = int(128 * 1024 * SCALE)
    small, large = (
        gzip.compress(content) + EMPTY_MEMBER * (n // len(EMPTY_MEMBER)) for n in (size, GROWTH * size)
    )
    assert read(1, large) == VALUES  # nothing lost, nothing invented
    assert_linear(lambda: read(1, small), lambda: read(1, large), what=f"{len(small)} bytes of gzip members")


# -- item 4: a region that ends before its frame does is a DecompressionError --------------------------


@pytest.mark.parametrize(("entry", "framing"), list(_cases()))
@pytest.mark.parametrize("cut", ["third", "half", "last byte"])
def test_truncated_frame_is_a_decompression_error(entry, framing, cut):
    content, read = ENTRY[entry]
    codec, compress = FRAMINGS[framing]
    region = compress(content)
    keep = {"third": len(region) // 3, "half": len(region) // 2, "last byte": len(region) - 1}[cut]
    with pytest.raises(DecompressionError):
        read(codec, region[:keep])


@pytest.mark.parametrize(("entry", "framing"), list(_cases()))
def test_empty_region_is_a_decompression_error(entry, framing):
    codec, _ = FRAMINGS[framing]
    with pytest.raises(DecompressionError):
        ENTRY[entry][1](codec, b"")


def test_the_reported_zstd_wrapper_cut_mid_frame():
    # issue 12: a magic-1 zstd wrapper of 10 inner messages, cut mid-frame, read as 0 records and no error
    region = zstandard.ZstdCompressor().compress(build_batch(RECORDS, magic=1))
    with pytest.raises(DecompressionError, match="zstd data is truncated"):
        _read_batches(_wrapper(1, 4, region[: len(region) // 2]))


# -- item 4: the decisions (see kafkaspec.codec.compression's docstring) ------------------------------------


@pytest.mark.parametrize("entry", ["v2", "magic0", "magic1"])
@pytest.mark.parametrize("framing", ["lz4", "zstd", "gzip"])
@pytest.mark.parametrize("tail", [b"\x00", b"\x00" * 4, b"garbage!"])
def test_bytes_after_the_last_frame_are_an_error(entry, framing, tail):
    # Kafka's Java readers stop at the end mark and ignore what follows; we refuse it: it may be
    # records a reader would silently drop (no record count protects a legacy wrapper).
    content, read = ENTRY[entry]
    codec, compress = FRAMINGS[framing]
    with pytest.raises(DecompressionError):
        read(codec, compress(content) + tail)


@pytest.mark.parametrize("entry", list(ENTRY))
def test_a_zlib_stream_is_not_gzip(entry):
    # Kafka reads gzip with GZIPInputStream, which wants the gzip magic (1f 8b): "Not in GZIP format"
    content, read = ENTRY[entry]
    with pytest.raises(DecompressionError, match="zlib stream, not gzip"):
        read(1, zlib.compress(content))


@pytest.mark.parametrize("compression", [3, 4, 5, 6, 7])
def test_0_7_message_with_a_codec_0_7_never_had(compression):
    payload = (lz4.frame.compress if compression == 3 else zstandard.ZstdCompressor().compress)(
        ENTRY["0.7"][0]
    )
    data = wire_message_v1.encode_wire_message(compression=compression, payload=payload)
    (message,) = iter_wire_messages(data)
    with pytest.raises(UnsupportedCodecError, match="names no 0.7 codec"):
        message.records  # noqa: B018


# -- item 2 (memory): a bomb stops at the limit; a region at the limit costs about the limit ---------

LIMIT = int(32 * MiB * SCALE)

_CHILD = textwrap.dedent("""
    import json, resource, sys
    path, codec, limit = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    from kafkaspec.codec.compression import decompress
    from kafkaspec.errors import LimitExceededError

    def status(field):  # VmRSS, VmHWM (peak RSS) of this process, in bytes
        line = next(x for x in open("/proc/self/status") if x.startswith(field + ":"))
        return int(line.split()[1]) * 1024

    region = open(path, "rb").read()
    vm, rss = int(open("/proc/self/statm").read().split()[0]) * resource.getpagesize(), status("VmRSS")
    resource.setrlimit(resource.RLIMIT_AS, (vm + 2 * limit + (64 << 20),) * 2)
    try:
        out = len(decompress(codec, region, max_size=limit))
    except LimitExceededError:
        out = -1
    # getrusage's ru_maxrss would do, but Linux carries the parent's peak into it across exec
    # (and subprocess may vfork), so a large pytest process would be measured: VmHWM is this process's own.
    print(json.dumps({"out": out, "peak_over_start": status("VmHWM") - rss, "input": len(region)}))
""")


def _zeros_streamed(compressor, n: int) -> bytes:
    block = bytes(MiB)
    parts = [compressor.compress(block) for _ in range(n // MiB)]
    return b"".join(parts) + compressor.flush()


def _bomb(framing: str, n: int) -> bytes:
    """A region of ``framing`` that decompresses to ``n`` zero bytes, built without holding them."""
    if framing == "gzip":
        return _zeros_streamed(zlib.compressobj(9, zlib.DEFLATED, 31), n)
    if framing == "zstd streamed":
        return _zeros_streamed(zstandard.ZstdCompressor().compressobj(), n)
    if framing == "zstd":  # the frame declares its size
        return _zeros_streamed(zstandard.ZstdCompressor().compressobj(size=n), n)
    if framing == "lz4":
        c = lz4.frame.LZ4FrameCompressor(block_size=lz4.frame.BLOCKSIZE_MAX4MB, block_linked=False)
        return c.begin() + b"".join(c.compress(bytes(MiB)) for _ in range(n // MiB)) + c.flush()
    if framing == "snappy xerial":
        block = snappy.compress(bytes(32 * 1024))
        return _xerial(b"")[:16] + (struct.pack(">i", len(block)) + block) * (n // (32 * 1024))
    assert framing == "snappy raw"
    return snappy.compress(bytes(n))


# a raw snappy block declares its size, so a raw snappy bomb is refused before decoding (next test)
MEMORY_CASES = [
    (f, k) for k in ("bomb", "at the limit") for f in FRAMINGS if (f, k) != ("snappy raw", "bomb")
]


def test_raw_snappy_bomb_refused_from_its_length_header():
    # a 5-byte block whose length header claims 1 GiB: refused before any output is allocated
    header = bytes([0x80, 0x80, 0x80, 0x80, 0x04])  # uvarint 1 << 30
    with pytest.raises(LimitExceededError, match="max_decompressed=1048576"):
        decompress(2, header + b"\x00", max_size=MiB, position=7)


@pytest.mark.parametrize(("framing", "kind"), MEMORY_CASES)
def test_decompression_memory_stays_near_the_limit(framing, kind, tmp_path):
    n = 4 * LIMIT if kind == "bomb" else LIMIT
    path = tmp_path / "region"
    path.write_bytes(_bomb(framing, n))
    codec = FRAMINGS[framing][0]
    proc = subprocess.run(
        [sys.executable, "-c", _CHILD, str(path), str(codec), str(LIMIT)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    result = json.loads(proc.stdout)
    assert result["out"] == (-1 if kind == "bomb" else LIMIT)
    budget = 1.3 * LIMIT
    assert result["peak_over_start"] <= budget, (
        f"{framing} {kind}: peak RSS grew {result['peak_over_start'] / MiB:.1f} MiB for a {LIMIT / MiB:.0f} MiB"
        f" limit (budget {budget / MiB:.1f} MiB)"
    )


def test_bytesio_hands_over_its_buffer():
    # the memory bound rests on BytesIO.getvalue() returning its buffer without a copy
    buf = io.BytesIO()
    buf.write(b"x" * 1000)
    buf.write(b"y" * 1000)
    assert buf.getvalue() is buf.getvalue()
