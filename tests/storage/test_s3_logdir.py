"""Log directories on real object-store servers started by the tests (S3: moto; GCS: gcp-storage-emulator;
Azure Blob: Azurite): open_log, dump, verify, seeks, and their errors.

Everything is configured the way a user configures it: the standard environment variables of each store.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest
from support.logdir import write_partition
from support.s3 import ACCESS_KEY, SECRET_KEY, SilentServer, start_server

from kafkaspec import logdir
from kafkaspec.cli import main
from kafkaspec.logdir.store.storage import RemotePath, StorageError, StorageOptions, parse_uri


def _run(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _records(path) -> list[tuple]:
    with logdir.open_log(path) as log:
        return [
            (p.topic, p.partition, r.offset, r.timestamp, r.key, r.value, r.headers)
            for p in log.partitions()
            for _, r in p.records()
        ]


def test_open_log_reads_the_same_records_as_the_local_copy(store_env, local_logs, store_logs):
    remote = _records(store_logs)
    assert remote == _records(local_logs)
    assert len(remote) > 300
    log = logdir.open_log(store_logs)
    assert [p.name for p in log.partitions()] == ["clicks-0", "orders-0", "orders-1"]
    assert str(log.partitions()[0].path) == store_logs + "/clicks-0"
    assert isinstance(log.partitions()[0].segments()[0].path, RemotePath)


def test_dump_json_of_the_s3_copy_equals_the_local_one(store_env, capsys, local_logs, store_logs):
    def rows(path):
        code, out, err = _run(capsys, "dump", str(path), "--json", "--print-data")
        assert code == 0, err
        lines = [json.loads(line) for line in out.splitlines()]
        for d in lines:
            d.pop("file", None)  # the path field: the only one allowed to differ
        return lines

    local, remote = rows(local_logs), rows(store_logs)
    assert remote == local
    assert sum(d["type"] == "record" for d in remote) > 300


def test_dump_of_one_remote_partition_segment_and_index(store_env, capsys, local_logs, store_logs):
    seg = "00000000000000000000"
    code, out, _ = _run(capsys, "dump", f"{store_logs}/orders-0/{seg}.log")
    assert code == 0 and f"Dumping {store_logs}/orders-0/{seg}.log" in out
    code, remote, _ = _run(capsys, "dump", f"{store_logs}/orders-0/{seg}.index", "--json")
    code2, local, _ = _run(capsys, "dump", str(local_logs / "orders-0" / f"{seg}.index"), "--json")
    assert code == code2 == 0 and remote == local and remote.count("\n") > 3


def test_verify_is_clean_on_the_copy_and_exits_1_on_a_corrupted_object(
    store_env, store_server, capsys, local_logs
):
    bucket = store_server.new_bucket()
    uri = store_server.upload(local_logs, bucket, "backup")
    code, out, err = _run(capsys, "verify", uri)
    assert code == 0, out + err
    key = f"{bucket}/backup/orders-0/00000000000000000000.log"
    fs = store_server.filesystem()
    with fs.open_input_file(key) as f:
        data = bytearray(f.read())
    data[200] ^= 0xFF  # inside the first batches: a CRC mismatch
    with fs.open_output_stream(key) as f:
        f.write(bytes(data))
    code, out, err = _run(capsys, "verify", uri)
    assert code == 1
    assert f"error: {store_server.uri(bucket, 'backup/orders-0/00000000000000000000.log')} at byte" in out
    assert "Traceback" not in err


def test_a_seek_fetches_the_index_and_one_index_interval(store_env, store_server, tmp_path):
    interval = 4096
    write_partition(
        tmp_path, topic="big", batches=3000, seed=9, segment_bytes=64 << 20, index_interval_bytes=interval
    )
    local = logdir.open_log(tmp_path / "big-0").partitions()[0].segments()[0]
    size, index_bytes = local.size, (tmp_path / "big-0" / "00000000000000000000.index").stat().st_size
    assert size > 500_000
    uri = store_server.upload(tmp_path, store_server.new_bucket(), "seek")
    targets = [b.last_offset for i, b in enumerate(local.iter_batches()) if i % 397 == 200]
    for offset in targets:
        seg = logdir.open_log(uri).partitions()[0].segments()[0]
        stats = seg.path.store.stats
        stats.reset()
        batch = seg.find_offset(offset)
        assert batch is not None and batch.base_offset <= offset <= batch.last_offset
        assert batch.position == local.find_offset(offset).position
        # the index, the head and batch at the index entry, then one interval plus the batch ending it
        assert stats.bytes <= index_bytes + 2 * (interval + 2 * batch.size) + 64, (offset, stats.bytes)
        assert stats.bytes < size / 20
        # (and after each GET, one HEAD that checks the object was not replaced meanwhile: item 30.5)
        assert stats.requests - stats.checks <= 8, stats.requests
        assert stats.checks <= stats.requests - stats.checks, stats.checks  # one per GET at most


def test_missing_bucket_is_one_clear_line(store_env, capsys):
    uri = store_env.uri("no-such-bucket-kafkaspec", "backup")
    what = "container" if store_env.scheme == "abfs" else "bucket"
    code, out, err = _run(capsys, "dump", uri + "/")
    assert code == 2
    assert err.strip() == f"kafkaspec dump: {uri}: {what} 'no-such-bucket-kafkaspec' does not exist"
    code, out, err = _run(capsys, "verify", store_env.uri("no-such-bucket-kafkaspec", "x"))
    assert code == 2 and "does not exist" in err and err.count("\n") == 1


def test_a_missing_prefix_is_not_found(store_env, store_server, capsys):
    bucket = store_server.new_bucket()
    uri = store_server.uri(bucket, "nothing/here")
    code, _, err = _run(capsys, "dump", uri)
    assert code == 2 and err.strip() == f"kafkaspec dump: {uri}: no such file or directory"


def test_wrong_credentials_are_refused_with_a_clear_error_and_no_secret(monkeypatch, capsys):
    server = start_server(auth=True)  # checks credentials: ours are unknown to it (HTTP 403)
    try:
        for key, value in server.env().items():
            monkeypatch.setenv(key, value)
        code, out, err = _run(capsys, "dump", "s3://some-bucket/backup/")
        assert code == 2
        assert "access denied (HTTP 403)" in err and "s3://some-bucket/backup" in err
        assert err.count("\n") == 1 and "Traceback" not in err
        assert SECRET_KEY not in err + out and ACCESS_KEY not in err + out
    finally:
        server.stop()


def test_an_object_shorter_than_its_listing_is_an_error(s3_env, s3_server, tmp_path):
    write_partition(tmp_path, topic="t", batches=40, seed=2)
    bucket = s3_server.new_bucket()
    uri = s3_server.upload(tmp_path, bucket, "p")
    seg = logdir.open_log(uri).partitions()[0].segments()[0]
    listed = seg.size  # from the listing
    key = f"{bucket}/p/t-0/00000000000000000000.log"
    with s3_server.filesystem().open_output_stream(key) as f:  # replaced by a shorter object meanwhile
        f.write(b"\0" * 100)
    with pytest.raises(StorageError) as info:
        seg.iter_batches()
    message = str(info.value)
    assert f"s3://{key}" in message and "shorter than its listing said" in message and str(listed) in message


def test_a_server_that_stops_answering_times_out(tmp_path):
    silent = SilentServer()
    env = dict(
        os.environ,
        AWS_ENDPOINT_URL=silent.endpoint,
        AWS_ACCESS_KEY_ID=ACCESS_KEY,
        AWS_SECRET_ACCESS_KEY=SECRET_KEY,
        AWS_DEFAULT_REGION="us-east-1",
        KAFKASPEC_STORAGE_TIMEOUT="1",
        AWS_EC2_METADATA_DISABLED="true",
    )
    try:
        started = time.monotonic()
        proc = subprocess.run(
            [sys.executable, "-m", "kafkaspec.cli", "dump", "s3://bucket/backup/"],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        elapsed = time.monotonic() - started
    finally:
        silent.close()
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("kafkaspec dump: s3://bucket/backup: no answer from " + silent.endpoint)
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert SECRET_KEY not in proc.stderr
    assert elapsed < 60


def test_credentials_are_never_in_reprs():
    opts = StorageOptions(
        endpoint="http://127.0.0.1:1",
        access_key=ACCESS_KEY,
        secret_key=SECRET_KEY,
        session_token="token-value-123",
    )
    path = parse_uri("s3://bucket/prefix", opts)
    for text in (repr(opts), str(opts), repr(path.store), repr(path), str(path)):
        assert SECRET_KEY not in text and ACCESS_KEY not in text and "token-value-123" not in text


def test_bad_uris_name_the_problem():
    with pytest.raises(ValueError, match="names no bucket"):
        parse_uri("s3:///prefix")
    with pytest.raises(ValueError, match="not an object-store URI"):
        parse_uri("ftp://host/x")


def test_an_unresolvable_endpoint_is_named(monkeypatch, capsys):
    monkeypatch.setenv("AWS_ENDPOINT_URL", "http://no-such-host.invalid:9000")
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", ACCESS_KEY)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", SECRET_KEY)
    monkeypatch.setenv("KAFKASPEC_STORAGE_TIMEOUT", "2")
    code, _, err = _run(capsys, "dump", "s3://bucket/x/")
    assert code == 2 and "cannot resolve the storage endpoint's host name" in err and SECRET_KEY not in err
