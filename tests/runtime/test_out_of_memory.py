"""Issue 30 items 19 and 21b: running out of memory is a resource problem, said in one line, exit 2.

Item 21b: a valid zstd batch with a 192 MiB value, read under an address-space limit, made ``dump
--print-data`` and ``verify`` exit 1 with "zstd data is invalid": ``compression.decompress`` turned
every codec exception into a :class:`DecompressionError`, the MemoryError of an allocation too (and
zstandard and lz4 report a failed allocation as ``ZstdError`` / ``RuntimeError``). Valid data that
does not fit is not corrupt data: it is now :class:`kafkaspec.errors.OutOfMemoryError` (a
``MemoryError``, no ``KafkaFormatError``), which the CLI reports as one line, exit 2.

Item 19: a MemoryError ended ``explain`` either in one line (exit 2) or, when the handler itself had
no memory left to format its message while the failed command's frames still held everything, in a
chained traceback (exit 1). The handler now lets the frames go before it writes anything.

Each case runs in a subprocess under ``RLIMIT_AS`` set a little above what the process has mapped
once its modules are loaded, so that the first large allocation fails.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import lz4.frame
import pytest
import zstandard
from support.big_batches import big_value_batch

from kafkaspec import Record, build_batch
from kafkaspec.codec.compression import decompress
from kafkaspec.errors import DecompressionError, KafkaFormatError, OutOfMemoryError

pytestmark = pytest.mark.hostile

MiB = 1 << 20
VALUE = 192 * MiB

LIMITED = textwrap.dedent("""
    import resource, sys
    import kafkaspec.cli, kafkaspec.logdir, kafkaspec.explain, kafkaspec.explain.text, kafkaspec.explain.jsonout
    from kafkaspec.cli import main

    def vm():
        with open("/proc/self/status") as fh:
            return next(int(line.split()[1]) * 1024 for line in fh if line.startswith("VmSize:"))

    limit = vm() + int(sys.argv[1]) * (1 << 20)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    sys.exit(main(sys.argv[2:]))
""")


def _big_value_batch(size: int) -> bytes:
    """A valid zstd batch of one record whose value is ``size`` zero bytes, compressed a MiB at a time
    (never held whole here)."""
    return big_value_batch(size)


@pytest.fixture(scope="module")
def big_log(tmp_path_factory):
    root = tmp_path_factory.mktemp("oom") / "logs"
    (root / "big-0").mkdir(parents=True)
    (root / "canary").write_text("keep")
    (root / "big-0" / "00000000000000000000.log").write_bytes(_big_value_batch(VALUE))
    yield root
    assert (root / "canary").read_text() == "keep"


def _limited(headroom_mib: int, *argv) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "KAFKASPEC_DEBUG"}
    return subprocess.run(
        [sys.executable, "-c", LIMITED, str(headroom_mib), *map(str, argv)],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        check=False,
    )


def _assert_one_line(proc: subprocess.CompletedProcess, *words: str) -> None:
    assert proc.returncode == 2, (proc.returncode, proc.stderr[-3000:])
    assert "Traceback" not in proc.stderr and "Exception ignored" not in proc.stderr, proc.stderr[-3000:]
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr[-3000:]
    for word in words:
        assert word in lines[0], lines[0]


def test_the_batch_is_valid_with_memory_enough(big_log):
    proc = _limited(4096, "verify", big_log)
    assert proc.returncode == 0, proc.stderr


# -- item 21b: the CLI ------------------------------------------------------------------------------


@pytest.mark.parametrize("argv", [("verify",), ("dump", "--print-data"), ("explain",)], ids=lambda a: a[0])
@pytest.mark.parametrize("headroom", [48, 96])
def test_a_valid_batch_too_large_for_memory_is_no_data_problem(big_log, argv, headroom):
    target = big_log / "big-0" / "00000000000000000000.log" if argv[0] == "explain" else big_log
    proc = _limited(headroom, *argv, target)
    _assert_one_line(proc, f"kafkaspec {argv[0]}:", "out of memory")
    assert "invalid" not in proc.stderr and "corrupt" not in proc.stderr


# -- item 21b: the API --------------------------------------------------------------------------------

API = textwrap.dedent("""
    import resource, sys, zlib
    import lz4.frame, zstandard
    from kafkaspec.codec.compression import decompress
    from kafkaspec.errors import KafkaFormatError, OutOfMemoryError

    codec, headroom, n = sys.argv[1], int(sys.argv[2]) << 20, 192 << 20
    if codec == "zstd":
        c = zstandard.ZstdCompressor().compressobj(size=n)
    elif codec == "zstd-unsized":
        c = zstandard.ZstdCompressor().compressobj()
    elif codec == "gzip":
        c = zlib.compressobj(9, zlib.DEFLATED, 31)
    if codec == "lz4":
        c = lz4.frame.LZ4FrameCompressor(block_size=lz4.frame.BLOCKSIZE_MAX4MB, block_linked=False)
        region = c.begin() + b"".join(c.compress(bytes(1 << 20)) for _ in range(n >> 20)) + c.flush()
    else:
        region = b"".join(c.compress(bytes(1 << 20)) for _ in range(n >> 20)) + c.flush()
    number = {"gzip": 1, "lz4": 3}.get(codec, 4)
    with open("/proc/self/status") as fh:
        vm = next(int(line.split()[1]) * 1024 for line in fh if line.startswith("VmSize:"))
    resource.setrlimit(resource.RLIMIT_AS, (vm + headroom, vm + headroom))
    try:
        decompress(number, region, position=61)
    except OutOfMemoryError as exc:
        ok = not isinstance(exc, KafkaFormatError) and "out of memory" in str(exc) and "byte 61" in str(exc)
        print("resource" if ok else f"wrong message: {exc}")
    except KafkaFormatError as exc:
        print(f"data error: {exc}")
    else:
        print("decompressed")
""")


@pytest.mark.parametrize("codec", ["zstd", "zstd-unsized", "lz4", "gzip"])
@pytest.mark.parametrize("headroom", [0, 4, 64])
def test_decompress_out_of_memory_is_a_resource_error(codec, headroom):
    proc = subprocess.run(
        [sys.executable, "-c", API, codec, str(headroom)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.stdout.strip() == "resource", proc.stdout + proc.stderr[-2000:]


@pytest.mark.parametrize(
    ("module", "raised"),
    [
        (
            "zstandard",
            lambda: zstandard.ZstdError("zstd decompress error: Allocation error : not enough memory"),
        ),
        ("lz4", lambda: RuntimeError("LZ4F_decompress failed with code: ERROR_allocation_failed")),
        ("any", lambda: MemoryError()),
    ],
)
def test_each_codecs_allocation_failure_is_recognised(monkeypatch, module, raised):
    """The three ways the codec libraries say an allocation failed (seen under RLIMIT_AS)."""
    import kafkaspec.codec.compression as compression

    def fail(*args, **kwargs):
        raise raised()

    monkeypatch.setattr(compression, "_unzstd", fail)
    with pytest.raises(OutOfMemoryError) as caught:
        decompress(4, zstandard.ZstdCompressor().compress(b"x"), position=7)
    assert not isinstance(caught.value, KafkaFormatError) and "byte 7" in str(caught.value)


def test_a_codec_error_that_is_no_allocation_stays_a_data_error():
    with pytest.raises(DecompressionError, match="zstd data is invalid"):
        decompress(4, zstandard.ZstdCompressor().compress(b"x" * 100)[:-3] + b"\xff\xff\xff")
    with pytest.raises(DecompressionError, match="lz4"):
        decompress(3, lz4.frame.compress(b"x" * 100)[:-5] + b"\xff" * 5)


# -- item 19: whatever runs out, one line ----------------------------------------------------------------

HOG = textwrap.dedent("""
    import resource, sys
    import kafkaspec.cli
    from kafkaspec.commands import dump, explain, verify

    def hog(args):
        held = []  # the failed command's frame holds everything it got when MemoryError reaches main()
        while True:
            held.append(bytes(4096))

    for module in (dump, explain, verify):
        module.run = hog
    with open("/proc/self/status") as fh:
        vm = next(int(line.split()[1]) * 1024 for line in fh if line.startswith("VmSize:"))
    resource.setrlimit(resource.RLIMIT_AS, (vm + (256 << 20), vm + (256 << 20)))
    sys.exit(kafkaspec.cli.main(sys.argv[1:]))
""")


@pytest.mark.parametrize("command", ["explain", "dump", "verify"])
def test_memory_exhausted_by_a_command_is_one_line_exit_2(tmp_path, command):
    (tmp_path / "x.log").write_bytes(build_batch([Record(value=b"v", timestamp=0)]))
    env = {k: v for k, v in os.environ.items() if k != "KAFKASPEC_DEBUG"}
    for _ in range(3):  # the old handler failed on some runs and not others
        proc = subprocess.run(
            [sys.executable, "-c", HOG, command, str(tmp_path / "x.log")],
            capture_output=True,
            text=True,
            timeout=300,
            env=env,
            check=False,
        )
        _assert_one_line(proc, f"kafkaspec {command}:", "out of memory")
