"""The file IO properties an Iceberg task builds on an executor (:func:`kafkaspec.tables.stores.iceberg_task_properties`):
the driver's table's properties first, then the driver's settings of the table's store for what they
leave out, keys only for the store and account they belong to, and none of them in a task's repr."""

from __future__ import annotations

import pickle

import pytest

from kafkaspec.logdir.store.clients import StorageOptions
from kafkaspec.tables.stores import iceberg_task_properties

DRIVER = StorageOptions(
    endpoint="http://127.0.0.1:9000",
    region="eu-west-1",
    access_key="AKIADRIVER",
    secret_key="driver-secret",
    session_token="driver-token",
    gcs_endpoint="127.0.0.1:4443",
    azure_account="lakeacct",
    azure_key="azure-secret",
    azure_endpoint="http://127.0.0.1:10000/lakeacct",
)


def test_s3_gets_the_drivers_endpoint_region_and_keys():
    got = iceberg_task_properties({"s3.endpoint": "http://catalog:9000"}, DRIVER, "s3://b/lake/kafka/t")
    assert got == {
        "s3.endpoint": "http://catalog:9000",  # the table's own, as the driver's file IO has it
        "s3.region": "eu-west-1",
        "s3.access-key-id": "AKIADRIVER",
        "s3.secret-access-key": "driver-secret",
        "s3.session-token": "driver-token",
    }


def test_a_catalogs_own_s3_key_is_not_mixed_with_the_drivers_secret_or_token():
    vended = {"s3.access-key-id": "AKIAVENDED", "s3.secret-access-key": "vended-secret"}
    got = iceberg_task_properties(vended, DRIVER, "s3a://b/lake/kafka/t")
    assert got["s3.access-key-id"] == "AKIAVENDED" and got["s3.secret-access-key"] == "vended-secret"
    assert "s3.session-token" not in got


@pytest.mark.parametrize(
    ("location", "expected"),
    [
        (
            "gs://b/lake/kafka/t",
            {
                "gcs.service.host": "http://127.0.0.1:4443",
                "gcs.oauth2.token": "emulator",
                "gcs.oauth2.token-expires-at": str(2**42),
            },
        ),
        (
            "abfs://c@lakeacct.dfs.core.windows.net/lake/kafka/t",
            {
                "adls.account-name": "lakeacct",
                "adls.account-key": "azure-secret",
                "adls.blob-storage-authority": "127.0.0.1:10000",
                "adls.blob-storage-scheme": "http",
                "adls.dfs-storage-authority": "127.0.0.1:10000",
                "adls.dfs-storage-scheme": "http",
            },
        ),
    ],
)
def test_keys_go_only_to_the_tables_own_store(location, expected):
    assert iceberg_task_properties({}, DRIVER, location) == expected


def test_an_azure_key_goes_with_its_own_account_only():
    got = iceberg_task_properties(
        {"adls.account-name": "other"}, DRIVER, "abfss://c@other.dfs.core.windows.net/t"
    )
    assert got == {"adls.account-name": "other"}


def test_no_driver_settings_leave_the_tables_properties_as_they_are():
    assert iceberg_task_properties({"s3.region": "x"}, None, "s3://b/t") == {"s3.region": "x"}
    assert iceberg_task_properties({}, StorageOptions(), "s3://b/t") == {}


@pytest.mark.hostile
def test_an_iceberg_tasks_keys_travel_pickled_and_print_nowhere(monkeypatch):
    from kafkaspec.tables.files import FileTarget, FileTask

    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIA-key-id-5d1e")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "s3cr3t/\n\x1b[31m-key")
    vended = {"s3.region": "x", "token": "catalog-token-2c9a"}  # a REST catalog's table properties
    target = FileTarget("iceberg", "t", None, vended, (), 1 << 20, StorageOptions.from_env())
    back = pickle.loads(pickle.dumps(FileTask(target)))
    props = iceberg_task_properties(back.target.location, back.target.store, "s3://b/lake/kafka/t")
    assert props["s3.secret-access-key"] == "s3cr3t/\n\x1b[31m-key"
    shown = repr(back)
    assert "s3cr3t" not in shown and "AKIA-key-id-5d1e" not in shown and "catalog-token-2c9a" not in shown
