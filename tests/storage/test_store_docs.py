"""The per-store examples of docs/storage.md (marked ``<!-- docs-test: stores -->``) run as written
against each store's real server, with the store's standard environment only: the bucket, container
and account names of the page are replaced by the test server's, nothing else."""

from __future__ import annotations

import ast
import os
import subprocess
import sys

from support.docblocks import REPO, blocks
from support.stores import AZURE_ACCOUNT

from kafkaspec.logdir import open_log

PAGE = REPO / "docs" / "storage.md"
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


def test_every_store_has_an_example() -> None:
    examples = [b for b in blocks(PAGE) if b.stores]
    assert {s for b in examples for s in ("s3://", "gs://", "abfs://") if s in b.code} == {
        "s3://",
        "gs://",
        "abfs://",
    }


def test_the_page_example_of_each_store_runs(store_server, local_logs, tmp_path) -> None:
    (tmp_path / "canary").write_text("keep")
    (example,) = [b for b in blocks(PAGE) if b.stores and f"{store_server.scheme}://" in b.code]
    bucket = store_server.new_bucket()
    env = {k: v for k, v in os.environ.items() if k not in _STORE_ENV}
    env.update(store_server.env())
    store_server.upload(local_logs, bucket, "backup")  # with the server's own client
    code = (
        example.code.replace("my-bucket", bucket)
        .replace("my-container", bucket)
        .replace("myaccount", AZURE_ACCOUNT)
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, f"{example.where}: {done.stderr}"
    with open_log(local_logs) as log:
        want = {p.name: sum(1 for _ in p.records()) for p in log.partitions()}
    assert ast.literal_eval(done.stdout.strip().splitlines()[-1]) == want
    assert (tmp_path / "canary").read_text() == "keep"
