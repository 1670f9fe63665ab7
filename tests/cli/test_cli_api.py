"""Issue 12 item 9: the CLI and the API under hostile input and misuse.

The CLI: every failure is one line on stderr with exit code 2 (1 for problems found in data), never a
traceback (KAFKASPEC_DEBUG=1 brings it back): output to a full disk (/dev/full), synth onto a full
file system (simulated with RLIMIT_FSIZE, which gives EFBIG), ``synth --size-mb nan``, ``review diff``
of a binary file, a directory, a device, a huge file.

The API: misuse raises TypeError/ValueError naming the argument (never struct.error, zlib.error,
KeyError, nor a KafkaFormatError), nothing is stored altered (record attributes 300), guessed
(compression=True) or invented (magic 2 for a 0.7 message), and offsets and timestamps stay
within int64.

``KAFKASPEC_ADVERSARIAL_SCALE`` (default 1) multiplies the sizes.
"""

from __future__ import annotations

import os
import resource
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from support.logdir import write_partition

import kafkaspec
from kafkaspec import Record, build_batch, build_control_batch, iter_batches, logdir
from kafkaspec.errors import KafkaFormatError
from kafkaspec.generated import fetch_request_v0, fetch_response_v0
from kafkaspec.generated import record_batch_v2 as v2
from kafkaspec.generated.enums import ErrorCode
from kafkaspec.wire import build_wire_messages, iter_wire_messages
from kafkaspec.wire_protocol import decode_fetch_response, encode

pytestmark = pytest.mark.hostile

SCALE = max(1, int(os.environ.get("KAFKASPEC_ADVERSARIAL_SCALE", "1")))
INT64_MAX = (1 << 63) - 1
CLI = "import sys; from kafkaspec.cli import main; sys.exit(main())"


def cli(*argv, stdout=subprocess.PIPE, env=None, limits=(), timeout=120):
    """Run ``kafkaspec ARGV`` in a subprocess (with ``limits``: (resource, soft) pairs); return it, finished."""

    def preexec():
        for which, soft in limits:
            resource.setrlimit(which, (soft, resource.getrlimit(which)[1]))

    full_env = {**os.environ, **(env or {})}
    if env is None:
        full_env.pop("KAFKASPEC_DEBUG", None)
    return subprocess.run(
        [sys.executable, "-c", CLI, *map(str, argv)],
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        env=full_env,
        timeout=timeout,
        preexec_fn=preexec if limits else None,
        check=False,
    )


def assert_one_line(proc, code, *words):
    """Exit ``code``, no traceback, one line on stderr holding every word."""
    assert proc.returncode == code, (proc.returncode, proc.stderr)
    assert "Traceback" not in proc.stderr and "Exception ignored" not in proc.stderr, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    for word in words:
        assert word in lines[0], proc.stderr


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    root = tmp_path_factory.mktemp("cli-api") / "logs"
    write_partition(root, batches=40 * SCALE)
    return root


# -- the CLI ---------------------------------------------------------------------------------------

needs_dev_full = pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")


@needs_dev_full
@pytest.mark.parametrize("argv", [("dump",), ("dump", "--json", "--print-data"), ("verify",)])
def test_output_to_a_full_disk(logs, argv):
    with open("/dev/full", "w") as full:
        proc = cli(*argv, logs, stdout=full)
    assert_one_line(proc, 2, f"kafkaspec {argv[0]}:", "No space left on device")


@needs_dev_full
def test_the_traceback_only_under_kafkaspec_debug(logs):
    with open("/dev/full", "w") as full:
        proc = cli("dump", logs, stdout=full, env={"KAFKASPEC_DEBUG": "1"})
    assert proc.returncode != 0 and "Traceback" in proc.stderr and "No space left on device" in proc.stderr


def test_stdout_closed(logs):
    proc = subprocess.run(
        [sys.executable, "-c", CLI, "verify", str(logs)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        timeout=60,
        check=False,
        preexec_fn=lambda: os.close(1),
    )
    assert_one_line(proc, 2, "standard output is closed")


def test_a_reader_that_goes_away(logs):
    """``kafkaspec dump ... | head -1``: exit 0, nothing on stderr."""
    proc = subprocess.Popen(
        [sys.executable, "-c", CLI, "dump", "--print-data", str(logs)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline().startswith("Dumping ")
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 0, err
    assert err == ""


def test_synth_onto_a_full_file_system(tmp_path):
    """RLIMIT_FSIZE makes every write past 64 KiB fail with EFBIG (Python ignores SIGXFSZ), as a full disk would."""
    out = tmp_path / "logs"
    proc = cli("synth", out, "--size-mb", 1 * SCALE, limits=[(resource.RLIMIT_FSIZE, 64 << 10)])
    assert_one_line(proc, 2, "kafkaspec synth:", str(out), "File too large", "incomplete")


@pytest.mark.parametrize("size", ["nan", "inf", "-inf", "0", "-1", "1e400", "ten"])
def test_synth_size_that_is_no_size(tmp_path, size):
    proc = cli("synth", tmp_path / "logs", f"--size-mb={size}")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert "--size-mb" in proc.stderr
    assert not (tmp_path / "logs").exists()


def _deep_yaml(path):
    path.write_text("a: " + "[" * (1_000 * SCALE) + "\n")
    return path


@pytest.mark.parametrize(
    "make, words",
    [
        (lambda d: (d / "bin").write_bytes(bytes(range(256)) * 64) and d / "bin", ["not UTF-8"]),
        (lambda d: d, ["not a regular file"]),
        (lambda d: Path("/dev/zero"), ["not a regular file"]),
        (lambda d: _deep_yaml(d / "deep.yaml"), ["nests too deeply"]),
        (lambda d: Path(sys.executable).resolve(), ["not UTF-8"]),
    ],
    ids=["binary", "directory", "dev-zero", "deep-nesting", "an-executable"],
)
def test_review_diff_of_what_is_no_schema(tmp_path, make, words):
    path = make(tmp_path)
    if not path.exists():
        pytest.skip(f"{path} does not exist here")
    proc = cli("review", "diff", path, path, limits=[(resource.RLIMIT_AS, 2 << 30)], timeout=60)
    assert_one_line(proc, 2, "kafkaspec review:", *words)


def test_review_diff_of_a_huge_file_reads_none_of_it(tmp_path):
    """A sparse 2 GiB file under a 1 GiB address-space limit: refused by its size, not read (no MemoryError)."""
    big = tmp_path / "big.yaml"
    with open(big, "wb") as fh:
        fh.truncate((2 << 30) * SCALE)
    proc = cli("review", "diff", big, big, limits=[(resource.RLIMIT_AS, 1 << 30)])
    assert_one_line(proc, 2, "kafkaspec review:", "bytes, more than a schema file's")


def test_review_diff_revision_is_no_git_option(tmp_path):
    """``--rev-old=--output=X`` became ``git show --output=X:schemas/...``, which writes that file."""
    schema = Path(__file__).resolve().parents[2] / "schemas" / "record_v2.yaml"
    if not (schema.parents[1] / ".git").exists():
        pytest.skip("not a git checkout")
    (tmp_path / "x:schemas").mkdir()
    proc = cli("review", "diff", schema, f"--rev-old=--output={tmp_path}/x")
    assert_one_line(proc, 2, "kafkaspec review:", "not a git revision")
    assert list((tmp_path / "x:schemas").iterdir()) == []


def test_an_unexpected_error_is_one_line(monkeypatch, capsys):
    """Whatever a command raises, main() prints one line and returns 2 (the catch-all, in process)."""
    import kafkaspec.logdir
    from kafkaspec.cli import main

    def boom(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(kafkaspec.logdir, "synth", boom)
    monkeypatch.delenv("KAFKASPEC_DEBUG", raising=False)
    assert main(["synth", "/nonexistent/never-written", "--size-mb", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "boom" in err and "KAFKASPEC_DEBUG" in err and "Traceback" not in err
    monkeypatch.setenv("KAFKASPEC_DEBUG", "1")
    with pytest.raises(RuntimeError, match="boom"):
        main(["synth", "/nonexistent/never-written", "--size-mb", "1"])


# -- the API: misuse names its argument ---------------------------------------------------------------

R = [Record(key=b"k", value=b"v", timestamp=1_700_000_000_000)]

MISUSE = [
    # (call, exception type, words the message holds)
    (lambda: build_batch([Record(timestamp=2**63)]), ValueError, "records[0].timestamp"),
    (lambda: build_batch([Record(timestamp=-(2**63) - 1)]), ValueError, "records[0].timestamp"),
    (lambda: build_batch([Record(timestamp=1), Record(timestamp="2")]), TypeError, "records[1].timestamp"),
    (lambda: build_batch([Record(timestamp=1.5)]), TypeError, "records[0].timestamp"),
    (lambda: build_batch([Record(timestamp=-(2**63)), Record(timestamp=INT64_MAX)]), ValueError, "timestamp"),
    (lambda: build_batch(R, producer_epoch=40000), ValueError, "producer_epoch"),
    (lambda: build_batch(R, producer_id=2**63), ValueError, "producer_id"),
    (lambda: build_batch(R, base_sequence=2**31), ValueError, "base_sequence"),
    (lambda: build_batch(R, partition_leader_epoch=-(2**31) - 1), ValueError, "partition_leader_epoch"),
    (lambda: build_batch(R, last_offset_delta=2**31), ValueError, "last_offset_delta"),
    (lambda: build_batch(R, base_offset=2**63), ValueError, "base_offset"),
    (lambda: build_batch(R, base_offset="0"), TypeError, "base_offset"),
    (
        lambda: build_batch(R, timestamp_type="log_append", log_append_time=2**63),
        ValueError,
        "log_append_time",
    ),
    (lambda: build_batch(R, compression="gzip", compression_level=99), ValueError, "compression_level"),
    (lambda: build_batch(R, compression="zstd", compression_level=23), ValueError, "compression_level"),
    (lambda: build_batch(R, compression="lz4", compression_level=99), ValueError, "compression_level"),
    (lambda: build_batch(R, compression="snappy", compression_level=1), ValueError, "compression_level"),
    (
        lambda: build_batch(R, magic=1, compression="gzip", compression_level=10),
        ValueError,
        "compression_level",
    ),
    (lambda: build_batch(R, timestamp_type="bogus"), ValueError, "timestamp_type"),
    (lambda: build_batch(R, magic=1, timestamp_type="bogus"), ValueError, "timestamp_type"),
    (lambda: build_batch([Record(attributes=300)]), ValueError, "records[0].attributes"),
    (lambda: build_batch([Record(), Record(attributes=-129)]), ValueError, "records[1].attributes"),
    (lambda: build_batch([Record(attributes=128)]), ValueError, "records[0].attributes"),
    (lambda: build_batch(R, compression=True), TypeError, "compression"),
    (lambda: build_batch(R, compression=None), TypeError, "compression"),
    (lambda: build_batch(R, compression="bogus"), ValueError, "compression"),
    (lambda: build_batch(R, compression=7), ValueError, "compression"),
    (lambda: build_batch(R, magic=3), ValueError, "magic"),
    (lambda: build_batch(R, magic=True), ValueError, "magic"),
    (lambda: build_batch([Record(key="text")]), TypeError, "records"),
    (lambda: build_batch([Record(headers=[(b"k", b"v")])]), TypeError, "records"),
    (lambda: build_batch([Record(offset=2**40)]), ValueError, "records[0].offset"),
    (lambda: build_control_batch("bogus", producer_id=1, producer_epoch=0), ValueError, "control_type"),
    (lambda: build_control_batch(99, producer_id=1, producer_epoch=0), ValueError, "control_type"),
    (lambda: build_control_batch(producer_id=1, producer_epoch=2**15), ValueError, "producer_epoch"),
    (
        lambda: build_control_batch(producer_id=1, producer_epoch=0, coordinator_epoch=2**31),
        ValueError,
        "coordinator_epoch",
    ),
    (lambda: build_wire_messages([b"x"], magic=2), ValueError, "magic"),
    (lambda: build_wire_messages([b"x"], compression=True), TypeError, "compression"),
    (lambda: build_wire_messages([b"x"], compression="zstd"), ValueError, "compression"),
    (lambda: build_wire_messages([b"x"], magic=0, compression="gzip"), ValueError, "compression"),
    (lambda: build_wire_messages(b"x"), TypeError, "payloads"),
]


@pytest.mark.parametrize("call, exc_type, words", MISUSE, ids=[f"misuse{i}" for i in range(len(MISUSE))])
def test_misuse_names_the_argument(call, exc_type, words):
    with pytest.raises(Exception) as info:  # the type is checked exactly below
        call()
    exc = info.value
    assert type(exc) is exc_type, repr(exc)
    assert not isinstance(exc, KafkaFormatError), repr(exc)
    assert words in str(exc), str(exc)


def test_nothing_stored_altered_guessed_or_invented():
    for attributes in (0, 1, 127, -128, -1):
        batch = next(kafkaspec.iter_batches(build_batch([Record(attributes=attributes)])))
        assert [r.attributes for r in batch] == [attributes]
    assert next(kafkaspec.iter_batches(build_batch(R, compression="gzip"))).compression == "gzip"
    assert next(kafkaspec.iter_batches(build_batch(R, compression=1))).compression == "gzip"
    assert [m.magic for m in iter_wire_messages(build_wire_messages([b"a"], magic=0))] == [0]
    assert [m.magic for m in iter_wire_messages(build_wire_messages([b"a"], magic=1))] == [1]


def test_offsets_and_timestamps_at_the_edge_of_int64():
    """The largest offsets and timestamps build and read back; one past them is refused, not wrapped."""
    data = build_batch([Record(), Record()], base_offset=INT64_MAX - 1)
    assert [r.offset for b in kafkaspec.iter_batches(data) for r in b] == [INT64_MAX - 1, INT64_MAX]
    for magic in (0, 1, 2):
        with pytest.raises(ValueError, match=r"records\[1\] would have offset 9223372036854775808"):
            build_batch([Record(), Record()], base_offset=INT64_MAX, magic=magic)
    with pytest.raises(ValueError, match=r"records\[0\]\.offset"):
        build_batch([Record(offset=INT64_MAX + 1)], base_offset=INT64_MAX)
    with pytest.raises(ValueError, match="last_offset_delta"):
        build_batch([Record(offset=INT64_MAX)], base_offset=INT64_MAX, last_offset_delta=1)
    data = build_batch([Record(timestamp=INT64_MAX), Record(timestamp=INT64_MAX - 5)])
    assert [r.timestamp for b in kafkaspec.iter_batches(data) for r in b] == [INT64_MAX, INT64_MAX - 5]


def _v2_batch_with_base_offset(base_offset: int) -> bytes:
    """Two records, built at base 0 and given ``base_offset`` (outside the CRC, so the batch stays valid)."""
    data = bytearray(build_batch([Record(value=b"a"), Record(value=b"b")]))
    struct.pack_into(">q", data, 0, base_offset)
    return bytes(data)


def test_a_reader_refuses_offsets_beyond_int64():
    data = _v2_batch_with_base_offset(INT64_MAX)
    with pytest.raises(KafkaFormatError, match="int64"):
        for batch in kafkaspec.iter_batches(data):
            list(batch)


def test_a_reader_refuses_timestamps_beyond_int64():
    # a CRC-valid batch whose base_timestamp is int64's maximum and whose second record's delta is +1
    data = v2.encode_record_batch(
        base_offset=0,
        last_offset_delta=1,
        base_timestamp=INT64_MAX,
        max_timestamp=INT64_MAX,
        records=[Record(value=b"a", timestamp=INT64_MAX), Record(value=b"b", timestamp=INT64_MAX + 1)],
    )
    with pytest.raises(KafkaFormatError, match=r"record 1 .*timestamp .* beyond int64"):
        for batch in kafkaspec.iter_batches(data):
            list(batch)


@pytest.mark.parametrize(
    "message, exc_type, words",
    [
        (
            fetch_request_v0.FetchRequest(topic="t", partition=0, offset=2**64, max_size=1),
            ValueError,
            "FetchRequest.offset",
        ),
        (
            fetch_request_v0.FetchRequest(topic=b"t", partition=0, offset=0, max_size=1),
            TypeError,
            "FetchRequest.topic",
        ),
        (
            fetch_request_v0.FetchRequest(topic="t" * 40000, partition=0, offset=0, max_size=1),
            ValueError,
            "FetchRequest.topic",
        ),
        (
            fetch_response_v0.FetchResponse(error_code=99999, messages=b""),
            ValueError,
            "FetchResponse.error_code",
        ),
    ],
    ids=["offset-2**64", "topic-bytes", "topic-too-long", "error-code-99999"],
)
def test_wire_protocol_encode_names_the_field(message, exc_type, words):
    with pytest.raises(Exception) as info:  # the type is checked exactly below
        encode(message)
    assert type(info.value) is exc_type and words in str(info.value), repr(info.value)


def test_fetch_response_with_an_unknown_error_code():
    """0.7 knows error codes -1..4; another is kept as a number and reads as UNKNOWN (Kafka's ErrorMapping)."""
    messages = build_wire_messages([b"a", b"b"])
    for code in (99, -32768, 32767):
        result = decode_fetch_response(
            encode(fetch_response_v0.FetchResponse(error_code=code, messages=messages))
        )
        assert result.error_code == code
        assert result.error is ErrorCode.UNKNOWN
        assert [m.payload for m in result.messages] == [b"a", b"b"]
    result = decode_fetch_response(encode(fetch_response_v0.FetchResponse(error_code=1, messages=b"")))
    assert result.error is ErrorCode.OFFSET_OUT_OF_RANGE


@pytest.mark.parametrize("size_mb", [float("nan"), float("inf"), -1, 0, True, "10"])
def test_synth_api_names_a_bad_size(size_mb, tmp_path):
    with pytest.raises(ValueError, match="size_mb"):
        logdir.synth(tmp_path / "out", size_mb=size_mb)
    assert not (tmp_path / "out").exists()


_WRONG_PAYLOADS = [
    ({"values": ["text"]}, r"records\[0\]\.value is of type str, not bytes or None"),
    ({"keys": [b"k", "k"], "values": [b"v", b"v"]}, r"records\[1\]\.key is of type str, not bytes or None"),
]
_WRONG_HEADERS = [  # magic 2 only: build_batch refuses headers for magic 0/1 for that reason alone
    ({"values": [b"v"], "headers": [[("h", "v")]]}, r"records\[0\]\.headers\[0\] has a value of type str"),
    ({"values": [b"v"], "headers": [[(1, b"v")]]}, r"records\[0\]\.headers\[0\] has a key of type int"),
]


@pytest.mark.parametrize(
    ("magic", "kwargs", "named"),
    [(m, k, n) for m in (0, 1, 2) for k, n in _WRONG_PAYLOADS] + [(2, k, n) for k, n in _WRONG_HEADERS],
)
def test_a_wrong_payload_type_names_the_record_and_field(magic, kwargs, named):
    """(It said "sequence item 6", the encoder's join, which names nothing a caller wrote.)"""
    with pytest.raises(TypeError, match=named):
        build_batch(magic=magic, **kwargs)


@pytest.mark.parametrize("data", ["hello", [1, 2], 5, None])
def test_iter_batches_refuses_what_is_not_bytes(data):
    """(A str or a list yielded nothing at all, as if it were an empty log.)"""
    with pytest.raises(
        TypeError,
        match=rf"iter_batches reads bytes, bytearray, memoryview or mmap, not "
        rf"{type(data).__name__}",
    ):
        list(iter_batches(data))
