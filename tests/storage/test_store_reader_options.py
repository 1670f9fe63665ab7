"""The kafkalog reader's store options (``s3.*``, ``gcs.endpoint``, ``azure.*``) reach every store with
nothing in the environment: the settings an executor gets when it does not share the driver's. Run
through the planner and the task reader Spark calls (no JVM), on each real server; the key never shows
in the options' repr or in a task's."""

from __future__ import annotations

import pyarrow as pa
import pytest
from support.s3 import ACCESS_KEY, REGION, SECRET_KEY
from support.stores import AZURE_ACCOUNT, AZURE_KEY

from kafkaspec.logdir import open_log
from kafkaspec.spark.read.options import ReadOptions
from kafkaspec.spark.read.planning import plan
from kafkaspec.spark.read.tasks import read_task

_STORE_ENV = (
    "AWS_ENDPOINT_URL",
    "AWS_ENDPOINT_URL_S3",
    "AWS_PROFILE",
    "AWS_SESSION_TOKEN",
    "AWS_REGION",
    "AWS_DEFAULT_REGION",
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "STORAGE_EMULATOR_HOST",
    "AZURE_STORAGE_CONNECTION_STRING",
    "AZURE_STORAGE_ACCOUNT_NAME",
    "AZURE_STORAGE_ACCOUNT",
    "AZURE_STORAGE_ACCOUNT_KEY",
    "AZURE_STORAGE_KEY",
    "AZURE_STORAGE_BLOB_ENDPOINT",
)


def _options(server) -> tuple[dict[str, str], str | None]:
    """The reader options that reach ``server``, and the secret among them."""
    if server.scheme == "s3":
        return {
            "s3.endpoint": server.endpoint,
            "s3.region": REGION,
            "s3.accessKey": ACCESS_KEY,
            "s3.secretKey": SECRET_KEY,
        }, SECRET_KEY
    if server.scheme == "gs":
        return {"gcs.endpoint": server.env()["STORAGE_EMULATOR_HOST"]}, None
    return {
        "azure.accountName": AZURE_ACCOUNT,
        "azure.accessKey": AZURE_KEY,
        "azure.endpoint": server.endpoint,
    }, AZURE_KEY


def _rows(t: pa.Table) -> list[tuple]:
    return sorted(
        zip(
            t["topic"].to_pylist(),
            t["partition"].to_pylist(),
            t["offset"].to_pylist(),
            t["value"].to_pylist(),
            strict=True,
        )
    )


def test_the_reader_options_alone_reach_the_store(store_server, local_logs, monkeypatch, tmp_path):
    (tmp_path / "canary").write_text("keep")
    bucket = store_server.new_bucket()
    with pytest.MonkeyPatch.context() as mp:  # the upload with the server's own environment
        for key, value in store_server.env().items():
            mp.setenv(key, value)
        uri = store_server.upload(local_logs, bucket, "backup")
    for key in _STORE_ENV:
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "none"))
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "none"))
    options, secret = _options(store_server)
    opts = ReadOptions.parse(options)
    if secret:
        assert secret not in repr(opts)
    tasks = plan(uri, opts)
    assert tasks and all(t.storage == opts.storage for t in tasks)
    if secret:
        assert all(secret not in repr(t) for t in tasks)
    got = pa.Table.from_batches([b for t in tasks for b in read_task(t, opts)])
    with open_log(local_logs) as log:
        want = pa.Table.from_batches(list(log.to_arrow_batches()))
    assert _rows(got) == _rows(want)
    assert (tmp_path / "canary").read_text() == "keep"
