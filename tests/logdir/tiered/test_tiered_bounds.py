"""Tiered-storage manifests and chunks that would take unbounded time or memory (issue 30, items 13, 14).

A manifest's chunk index states a chunk size and a file size; a 779-byte manifest can claim 2^31-1
chunks. No stored chunk is shorter than a zstd frame (compressed) or its own bytes (uncompressed), plus
the IV and tag when encrypted, so the ``.log`` object's size bounds the count: it is checked before any
per-chunk list is built. A chunk's decompressed size is bounded by ``max_decompressed``, as a compressed
batch's is: a 16 KB object holding one 512 MiB chunk is refused, not decompressed.

Memory is checked in a child process under RLIMIT_AS (the budget far below what the unchecked paths
took: 2.7-3.6 GB and 1.08 GB), time by a timeout far above what the checks take. Every file is written
under the test's own tmp_path.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import zstandard

from kafkaspec import Record, logdir
from kafkaspec.errors import KafkaFormatError, LimitExceededError
from kafkaspec.logdir import PartitionWriter
from kafkaspec.logdir.tiered.segment import MANIFEST_SUFFIX, TieredSegment, encode_chunk_sizes, parse_manifest

pytestmark = pytest.mark.hostile

REPO = Path(__file__).resolve().parents[3]
MiB = 1 << 20
#: what verify may add to the child's address space once kafkaspec is imported
BUDGET = 256 * MiB


def _tiered(root: Path, chunk_size: int = 1000) -> Path:
    """A small partition in the tiered layout; its one manifest."""
    with PartitionWriter(root / "logs", "t", 0) as w:
        for i in range(10):
            w.append([Record(key=b"k%02d" % i, value=b"v" * 40, timestamp=1000 + i)])
    logdir.write_tiered(root / "logs", root / "remote", chunk_size=chunk_size)
    (manifest,) = (root / "remote").rglob(f"*{MANIFEST_SUFFIX}")
    return manifest


def _verify_limited(path: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    """``kafkaspec verify PATH`` in a child whose address space may grow by BUDGET after the imports."""
    code = textwrap.dedent(f"""
        import resource, sys
        from kafkaspec.cli import main
        import kafkaspec.logdir, kafkaspec.logdir.verify.verifier
        vm = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmSize:")) * 1024
        resource.setrlimit(resource.RLIMIT_AS, (vm + {BUDGET}, vm + {BUDGET}))
        sys.exit(main(["verify", {str(path)!r}]))
    """)
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout, env=env
    )


def _claim(manifest: Path, chunk_index: dict, compression: bool) -> None:
    doc = json.loads(manifest.read_text())
    doc["chunkIndex"] = chunk_index
    doc["compression"] = compression
    manifest.write_text(json.dumps(doc))


def test_a_manifest_claiming_two_billion_chunks_is_refused_by_the_object_size(tmp_path):
    """The issue's case: a fixed index of 2^31-1 one-byte chunks over a 237-byte object. verify named
    nothing for minutes while it built the chunk list (3.6 GB, then MemoryError); now one error names
    the manifest, within the budget."""
    manifest = _tiered(tmp_path)
    _claim(
        manifest,
        {
            "type": "fixed",
            "originalChunkSize": 1,
            "originalFileSize": 2**31 - 1,
            "transformedChunkSize": 1,
            "finalTransformedChunkSize": 1,
        },
        False,
    )
    assert manifest.stat().st_size < 1000
    proc = _verify_limited(tmp_path / "remote")
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr and "MemoryError" not in proc.stdout + proc.stderr
    held = manifest.with_suffix(".log").stat().st_size
    assert (
        f"error: {manifest}: the manifest's chunk index describes 2147483647 chunks (2147483647 bytes in 1-byte "
        f"chunks), but the .log object ({held} bytes) can hold at most {held}: a stored chunk takes at least "
        "1 byte"
    ) in proc.stdout, proc.stdout


@pytest.mark.parametrize("compression, least", [(True, 9), (False, 1)])
def test_the_chunk_count_is_checked_before_the_chunk_list_is_read(tmp_path, compression, least):
    """A variable index whose encoded list is small but long (ten million equal sizes compress to a
    few hundred bytes): refused by the object's size before one size is decoded."""
    manifest = _tiered(tmp_path)
    n = 10_000_000
    raw = n.to_bytes(4, "big") + (9).to_bytes(4, "big") + b"\x01" + bytes(n - 1) + (9).to_bytes(4, "big")
    text = __import__("base64").b64encode(zstandard.ZstdCompressor().compress(raw)).decode()
    assert len(text) < 2000
    _claim(
        manifest,
        {"type": "variable", "originalChunkSize": 1, "originalFileSize": n, "transformedChunks": text},
        compression,
    )
    proc = _verify_limited(tmp_path / "remote")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert f"describes {n} chunks" in proc.stdout
    held = manifest.with_suffix(".log").stat().st_size
    with pytest.raises(KafkaFormatError, match=f"describes {n} chunks .* can hold at most {held // least}"):
        parse_manifest(manifest.read_bytes(), str(manifest), held)


def test_a_chunk_list_whose_count_disagrees_is_refused_before_its_sizes_are_built(tmp_path):
    """Without the object's size too (a regression check: the count is compared before the sizes are
    decoded)."""
    manifest = _tiered(tmp_path, chunk_size=100)
    doc = json.loads(manifest.read_text())
    ci = doc["chunkIndex"]
    ci["transformedChunks"] = encode_chunk_sizes([50] * 1000)
    manifest.write_text(json.dumps(doc))
    count = -(-ci["originalFileSize"] // 100)
    with pytest.raises(
        KafkaFormatError,
        match=f"lists 1000 stored chunk sizes but a {ci['originalFileSize']}-byte "
        f"segment in 100-byte chunks has {count} chunks",
    ):
        parse_manifest(manifest.read_bytes(), str(manifest))


def _bomb_segment(root: Path, size: int) -> Path:
    """The tiered segment of ``_tiered`` replaced by one chunk: a zstd frame of ``size`` zero bytes."""
    manifest = _tiered(root)
    c = zstandard.ZstdCompressor().compressobj(size=size)
    frame = b"".join(c.compress(bytes(MiB)) for _ in range(size // MiB)) + c.flush()
    manifest.with_suffix(".log").write_bytes(frame)
    _claim(
        manifest,
        {
            "type": "fixed",
            "originalChunkSize": size,
            "originalFileSize": size,
            "transformedChunkSize": len(frame),
            "finalTransformedChunkSize": len(frame),
        },
        True,
    )
    return manifest


def test_a_512_mib_chunk_is_refused_by_max_decompressed(tmp_path):
    """The issue's case: a 16 KB .log object holding one chunk of 512 MiB. verify decompressed it (1.08 GB
    peak); now the chunk is refused by max_decompressed (256 MiB by default) before it is decompressed."""
    manifest = _bomb_segment(tmp_path, 512 * MiB)
    assert manifest.with_suffix(".log").stat().st_size < 20_000
    proc = _verify_limited(tmp_path / "remote")
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr and "MemoryError" not in proc.stdout + proc.stderr
    assert "chunk 0 (bytes 0..", proc.stdout
    assert "holds 536870912 bytes of the segment, more than max_decompressed=268435456 bytes" in proc.stdout


def test_max_decompressed_bounds_each_chunk(tmp_path):
    manifest = _bomb_segment(tmp_path, 4 * MiB)
    seg = TieredSegment(manifest.with_suffix(".log"), max_decompressed=MiB)
    with pytest.raises(
        LimitExceededError,
        match="chunk 0 .* holds 4194304 bytes of the segment, more than max_decompressed=1048576 bytes",
    ) as info:
        seg.read_range(0, 100)
    assert info.value.source == str(manifest)
    assert TieredSegment(manifest.with_suffix(".log")).read_range(0, 100) == bytes(
        100
    )  # the default: 256 MiB


def test_a_frame_without_a_content_size_is_bounded_by_the_manifest(tmp_path):
    """A frame that does not declare its size, decompressing to far more than the manifest's chunk size:
    decompression stops past the manifest's size, and the chunk is named (a regression check: the
    bounded helper now does this, as for every other decompression)."""
    manifest = _tiered(tmp_path)
    c = zstandard.ZstdCompressor(write_content_size=False).compressobj()
    frame = b"".join(c.compress(bytes(MiB)) for _ in range(64)) + c.flush()
    manifest.with_suffix(".log").write_bytes(frame)
    _claim(
        manifest,
        {
            "type": "fixed",
            "originalChunkSize": 1000,
            "originalFileSize": 1000,
            "transformedChunkSize": len(frame),
            "finalTransformedChunkSize": len(frame),
        },
        True,
    )
    with pytest.raises(
        KafkaFormatError,
        match=r"chunk 0 \(bytes 0\.\.\d+ of .*\) decompresses to more than the "
        "1000 bytes the manifest says",
    ):
        TieredSegment(manifest.with_suffix(".log")).read_range(0, 10)
