"""Fixtures of the object-store tests: one moto S3 server per session, reached through the environment."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.logdir import write_partition
from support.s3 import start_server
from support.stores import KINDS
from support.stores import start as start_store


def pytest_collection_modifyitems(items):
    """Every test here is a ``stores`` test: it starts a server (`make check-fast` leaves them out)."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.path).parents:
            item.add_marker(pytest.mark.stores)


@pytest.fixture(scope="session")
def s3_server():
    server = start_server()
    yield server
    server.stop()


@pytest.fixture
def s3_env(s3_server, monkeypatch):
    """The standard AWS environment pointing at the test server (and nothing else configured)."""
    for key in ("AWS_ENDPOINT_URL_S3", "AWS_PROFILE", "AWS_SESSION_TOKEN", "AWS_REGION"):
        monkeypatch.delenv(key, raising=False)
    for key, value in s3_server.env().items():
        monkeypatch.setenv(key, value)
    return s3_server


@pytest.fixture(scope="session")
def local_logs(tmp_path_factory):
    """A small data dir: two topics, several segments each, every codec, index entries."""
    root = tmp_path_factory.mktemp("logs")
    write_partition(root, topic="orders", partition=0, batches=80, seed=3)
    write_partition(root, topic="orders", partition=1, batches=40, seed=4)
    write_partition(root, topic="clicks", partition=0, batches=50, seed=5, segment_bytes=3000)
    return root


@pytest.fixture(scope="session")
def s3_logs(s3_server, local_logs):
    """The same data dir uploaded to s3://<bucket>/backup/."""
    bucket = s3_server.new_bucket()
    return s3_server.upload(local_logs, bucket, "backup")


@pytest.fixture(scope="session", params=KINDS)
def store_server(request):
    """One real server per store, S3 (moto), GCS (gcp-storage-emulator), Azure Blob (Azurite): the tests
    that take it run on each. Started once a session, on a free port of 127.0.0.1."""
    server = start_store(request.param)
    yield server
    server.stop()


@pytest.fixture
def store_env(store_server, monkeypatch):
    """The standard environment of ``store_server``'s store pointing at it, no other store's set."""
    for key in (
        "AWS_ENDPOINT_URL",
        "AWS_ENDPOINT_URL_S3",
        "AWS_PROFILE",
        "AWS_SESSION_TOKEN",
        "AWS_REGION",
        "AWS_ACCESS_KEY_ID",
        "AWS_SECRET_ACCESS_KEY",
        "STORAGE_EMULATOR_HOST",
        "AZURE_STORAGE_CONNECTION_STRING",
        "AZURE_STORAGE_ACCOUNT_NAME",
        "AZURE_STORAGE_ACCOUNT",
        "AZURE_STORAGE_ACCOUNT_KEY",
        "AZURE_STORAGE_KEY",
        "AZURE_STORAGE_BLOB_ENDPOINT",
    ):
        monkeypatch.delenv(key, raising=False)
    for key, value in store_server.env().items():
        monkeypatch.setenv(key, value)
    return store_server


@pytest.fixture(scope="session")
def store_logs(store_server, local_logs):
    """``local_logs`` uploaded to ``<store>://<bucket>/backup/`` of ``store_server``."""
    return store_server.upload(local_logs, store_server.new_bucket(), "backup")
