"""The fast paths of ``decompress`` (issue 28) decide nothing the general paths would decide otherwise.

A batch's usual region (an lz4 frame of independent blocks, one zstd frame that declares its size,
one gzip member) is decoded by a cheaper route than the general one (lz4's frame decompressor, the
walk of zstd's frames and a stream reader, gzip's member loop). Every region here, valid or cut,
extended, corrupted or over the size bound, must come out of ``decompress`` exactly as it does with
the fast paths switched off: the same bytes, or the same error with the same message. And the usual
regions must take the fast route: with the general one made to fail, they still decode.
"""

from __future__ import annotations

import gzip
import json
import random
import struct
import subprocess
import sys
import textwrap

import lz4.frame
import pytest
import zstandard

from kafkaspec import Record, build_batch
from kafkaspec.codec import compression
from kafkaspec.codec.compression import (
    GZIP,
    LZ4,
    ZSTD,
    compress,
    decompress,
    to_kafka3160_header,
)

pytestmark = pytest.mark.hostile

JSON = b"".join(
    b'{"id":%06d,"user":"u%04d","amount":%9.2f}' % (i * 7919 % 10**6, i % 10**4, i / 7) for i in range(200)
)
RANDOM = random.Random(28).randbytes(3000)  # incompressible: lz4 stores it in uncompressed blocks
BIG = JSON * 40  # several 64 KiB blocks


def _lz4(data: bytes, **kw) -> bytes:
    options = {
        "block_size": lz4.frame.BLOCKSIZE_MAX64KB,
        "block_linked": False,
        "content_checksum": False,
        "store_size": False,
        **kw,
    }
    return lz4.frame.compress(data, **options)


def _zstd_streamed(data: bytes) -> bytes:
    c = zstandard.ZstdCompressor().compressobj()
    return c.compress(data) + c.flush()


#: name -> (codec, magic, region, its content; None: the region is an error as it is)
FRAMES = {
    "lz4 kafka": (LZ4, 2, compress(LZ4, JSON), JSON),
    "lz4 kafka magic 0": (LZ4, 0, compress(LZ4, JSON, magic=0), JSON),
    "lz4 kafka3160 header read as magic 2": (LZ4, 2, to_kafka3160_header(compress(LZ4, JSON)), None),
    "lz4 several blocks": (LZ4, 2, _lz4(BIG), BIG),
    "lz4 block checksums": (LZ4, 2, _lz4(BIG, block_checksum=True), BIG),
    "lz4 content checksum": (LZ4, 2, _lz4(JSON, content_checksum=True), JSON),
    "lz4 content size": (LZ4, 2, _lz4(JSON, store_size=True), JSON),
    "lz4 stored blocks": (LZ4, 2, _lz4(RANDOM), RANDOM),
    "lz4 linked blocks": (LZ4, 2, _lz4(BIG, block_linked=True), BIG),
    "lz4 4 MiB blocks": (LZ4, 2, _lz4(JSON, block_size=lz4.frame.BLOCKSIZE_MAX4MB), JSON),
    "lz4 4 MiB blocks, content checksum": (
        LZ4,
        2,
        _lz4(BIG, block_size=lz4.frame.BLOCKSIZE_MAX4MB, content_checksum=True),
        BIG,
    ),
    "lz4 empty": (LZ4, 2, _lz4(b""), b""),
    "zstd": (ZSTD, 2, compress(ZSTD, JSON), JSON),
    "zstd checksum": (ZSTD, 2, zstandard.ZstdCompressor(write_checksum=True).compress(JSON), JSON),
    "zstd no size": (ZSTD, 2, _zstd_streamed(JSON), JSON),
    "zstd two frames": (ZSTD, 2, compress(ZSTD, JSON) + compress(ZSTD, RANDOM), JSON + RANDOM),
    "zstd skippable frame": (
        ZSTD,
        2,
        compress(ZSTD, JSON) + struct.pack("<II", 0x184D2A50, 3) + b"abc",
        JSON,
    ),
    "zstd empty": (ZSTD, 2, compress(ZSTD, b""), b""),
    "zstd big": (ZSTD, 2, compress(ZSTD, BIG * 20), BIG * 20),
    "gzip": (GZIP, 2, compress(GZIP, JSON), JSON),
    "gzip named": (
        GZIP,
        2,
        b"\x1f\x8b\x08\x08"
        + gzip.compress(JSON, mtime=0)[4:10]
        + b"name\0"
        + gzip.compress(JSON, mtime=0)[10:],
        JSON,
    ),
    "gzip two members": (GZIP, 2, compress(GZIP, JSON) + compress(GZIP, RANDOM), JSON + RANDOM),
    "gzip empty": (GZIP, 2, compress(GZIP, b""), b""),
    "gzip big": (GZIP, 2, compress(GZIP, BIG * 20), BIG * 20),
}


def _outcome(codec: int, region: bytes, magic: int, max_size: int) -> tuple:
    try:
        return ("read", decompress(codec, memoryview(region), max_size=max_size, position=1234, magic=magic))
    except Exception as exc:  # the outcome is the error itself
        return (type(exc).__name__, str(exc))


@pytest.fixture
def general_only(monkeypatch):
    """Outcomes with every fast path switched off."""

    def outcome(*args) -> tuple:
        with monkeypatch.context() as m:
            for name in ("_lz4_blocks", "_zstd_one_frame", "_gunzip_one_member"):
                m.setattr(compression, name, lambda *a, **k: None)
            return _outcome(*args)

    return outcome


def _mutations(region: bytes, content: bytes, seed: int):
    """(label, region, max_size): the region itself, cut, extended, with bytes changed, and over the bound."""
    n, limit = len(region), max(len(content), 1)
    yield "as is", region, limit
    yield "bound one byte short", region, limit - 1
    yield "bound 0", region, 0
    for cut in sorted({0, 1, 4, 6, 7, 10, 11, 15, n // 3, n // 2, n - 8, n - 5, n - 4, n - 1}):
        if 0 <= cut < n:
            yield f"cut to {cut}", region[:cut], limit
    for tail in (b"\x00", b"\x00" * 4, b"garbage!", region):
        yield f"{len(tail)} bytes after", region + tail, 2 * limit
    rnd = random.Random(seed)
    spots = [
        p for p in {4, 5, 6, 7, 8, 9, 10, 11, 12, 14, n - 9, n - 6, n - 5, n - 4, n - 3, n - 1} if 0 <= p < n
    ]
    spots += [rnd.randrange(n) for _ in range(40)]
    for p in spots:
        for xor in (0x01, 0x80, 0xFF):
            yield f"byte {p} ^ {xor:#x}", region[:p] + bytes([region[p] ^ xor]) + region[p + 1 :], limit


@pytest.mark.parametrize("name", list(FRAMES))
def test_the_fast_paths_decide_as_the_general_ones(name, general_only):
    codec, magic, region, content = FRAMES[name]
    if content is None:
        assert _outcome(codec, region, magic, 1 << 20)[0] == "DecompressionError"
        content = JSON
    else:
        assert _outcome(codec, region, magic, max(len(content), 1)) == ("read", content)
    differ = []
    for label, mutated, max_size in _mutations(region, content, seed=len(name)):
        fast, general = (
            _outcome(codec, mutated, magic, max_size),
            general_only(codec, mutated, magic, max_size),
        )
        if fast != general:
            differ.append(f"{label}: {str(fast)[:150]} != {str(general)[:150]}")
    assert not differ, (
        f"{name}: {len(differ)} regions read otherwise than the general path reads them:\n"
        + "\n".join(differ[:10])
    )


# the regions a v2 batch holds, as Kafka's writers make them (build_batch writes what the Java client does)
BATCH = [Record(key=b"k%d" % i, value=JSON[i * 60 : i * 60 + 60], timestamp=1_000 + i) for i in range(100)]
USUAL = {"lz4": (LZ4, "_unlz4_frame"), "zstd": (ZSTD, "_unzstd_stream"), "gzip": (GZIP, "_gunzip_members")}


@pytest.mark.parametrize("codec_name", list(USUAL))
def test_a_usual_batch_region_takes_the_fast_path(codec_name, monkeypatch):
    codec, general = USUAL[codec_name]
    batch = build_batch(BATCH, compression=codec_name)
    expected = decompress(codec, batch[61:])

    def fail(*args, **kwargs):
        raise AssertionError(f"the usual {codec_name} region went to {general}")

    monkeypatch.setattr(compression, general, fail)
    assert decompress(codec, memoryview(batch)[61:], position=61) == expected


# -- a bomb of the Java client's 64 KiB blocks: the block-by-block route stops at the bound too -------

_BOMB_CHILD = textwrap.dedent("""
    import json, resource, sys
    path, limit = sys.argv[1], int(sys.argv[2])
    from kafkaspec.codec.compression import decompress
    from kafkaspec.errors import LimitExceededError

    def status(field):  # VmRSS, VmHWM (peak RSS) of this process, in bytes
        line = next(x for x in open("/proc/self/status") if x.startswith(field + ":"))
        return int(line.split()[1]) * 1024

    region = open(path, "rb").read()
    rss = status("VmRSS")
    try:
        decompress(3, region, max_size=limit)
        out = "read"
    except LimitExceededError:
        out = "refused"
    print(json.dumps({"out": out, "peak_over_start": status("VmHWM") - rss}))
""")


def test_a_bomb_of_64_kib_lz4_blocks_stops_near_the_bound(tmp_path):
    limit = 32 << 20
    c = lz4.frame.LZ4FrameCompressor(block_size=lz4.frame.BLOCKSIZE_MAX64KB, block_linked=False)
    path = tmp_path / "bomb"
    canary = tmp_path / "canary"
    canary.write_bytes(b"still here")
    path.write_bytes(
        c.begin() + b"".join(c.compress(bytes(1 << 20)) for _ in range(4 * limit >> 20)) + c.flush()
    )
    proc = subprocess.run(
        [sys.executable, "-c", _BOMB_CHILD, str(path), str(limit)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    result = json.loads(proc.stdout)
    assert result["out"] == "refused"
    assert result["peak_over_start"] <= 1.3 * limit, f"peak RSS grew {result['peak_over_start'] >> 20} MiB"
    assert canary.read_bytes() == b"still here"
